//! The elementary automaton's space-time diagram, as a session of its own: cheap per
//! generation, it steps on the calling thread, paced by the clock, a few milliseconds' worth
//! per frame. On the GPU the rows are a ring in GPU memory; on the CPU the same ring in a grid.

use std::time::Instant;

use crate::engine::{CellRect, Engine, EngineError, EngineKind, EngineResult, Universe};
use crate::gpu::GpuContext;
use crate::gpu::elementary::SpaceTime;
use crate::grid::Grid;
use crate::registry::{self, Request};
use crate::rule::ElementaryRule;
use crate::session::pace::Pace;

/// The elementary automaton's space-time diagram: on the GPU a ring of rows in GPU memory; on
/// the CPU the same ring in a grid.
// One per simulation, so the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub enum SpaceTimeRows {
    Gpu(SpaceTime),
    Cpu {
        ring: Grid,
        newest: u32,
        engine: Box<dyn Engine>,
    },
}

impl SpaceTimeRows {
    pub fn step(&mut self, gens: u64) -> EngineResult<()> {
        match self {
            SpaceTimeRows::Gpu(st) => st.step(gens),
            SpaceTimeRows::Cpu {
                ring,
                newest,
                engine,
            } => {
                let width = ring.width();
                for _ in 0..gens {
                    engine.step(1)?;
                    *newest = (*newest + 1) % ring.height();
                    let row = engine.cells_in(CellRect::new(0, 0, width, 1))?;
                    ring.row_mut(*newest).copy_from_slice(row.row(0));
                }
                Ok(())
            }
        }
    }

    /// The ring's GPU buffer, for a renderer to draw from.
    pub fn view_source(&self) -> Option<crate::engine::ViewSource> {
        match self {
            SpaceTimeRows::Gpu(st) => {
                let (buffer, words, rows, _) = st.buffer();
                Some(crate::engine::ViewSource {
                    sets: vec![vec![buffer.clone()]],
                    band_rows: rows,
                    words,
                })
            }
            SpaceTimeRows::Cpu { .. } => None,
        }
    }

    /// The ring of rows, where it is kept on the CPU.
    pub fn cpu_rows(&self) -> Option<&Grid> {
        match self {
            SpaceTimeRows::Cpu { ring, .. } => Some(ring),
            SpaceTimeRows::Gpu(_) => None,
        }
    }

    pub fn generation(&self) -> u64 {
        match self {
            SpaceTimeRows::Gpu(st) => st.generation(),
            SpaceTimeRows::Cpu { engine, .. } => engine.generation(),
        }
    }

    pub fn width(&self) -> u32 {
        match self {
            SpaceTimeRows::Gpu(st) => st.width(),
            SpaceTimeRows::Cpu { ring, .. } => ring.width(),
        }
    }

    /// Rows kept, and the row holding the newest generation.
    pub fn ring(&self) -> (u32, u32) {
        match self {
            SpaceTimeRows::Gpu(st) => {
                let (_, _, cap, newest) = st.buffer();
                (cap, newest)
            }
            SpaceTimeRows::Cpu { ring, newest, .. } => (ring.height(), *newest),
        }
    }

    /// All rows as a grid, row r of the ring as row r.
    pub fn read(&self) -> EngineResult<Grid> {
        match self {
            SpaceTimeRows::Gpu(st) => st.read_rows(),
            SpaceTimeRows::Cpu { ring, .. } => Ok(ring.clone()),
        }
    }
}

pub struct ElementarySim {
    pub rule: ElementaryRule,
    pub start: Grid,
    pub rows: SpaceTimeRows,
    pub running: bool,
    pub pace: Pace,
    /// Where the clock-paced run started: (when, generation).
    since: Option<(Instant, u64)>,
    /// A run stops at this generation (screenshots).
    pub stop_at: Option<u64>,
    /// Generations per second achieved.
    pub rate: f64,
}

impl ElementarySim {
    pub fn new(
        ctx: Option<&GpuContext>,
        rule: ElementaryRule,
        start: Grid,
        capacity: u32,
    ) -> EngineResult<Self> {
        let capacity = capacity.max(2);
        let rows = match ctx {
            Some(ctx) => SpaceTimeRows::Gpu(SpaceTime::new(ctx, rule, &start, capacity)?),
            None => {
                let mut ring = Grid::try_new(start.width(), capacity)?;
                ring.row_mut(0).copy_from_slice(start.row(0));
                let mut first = Grid::new(start.width(), 1);
                first.row_mut(0).copy_from_slice(start.row(0));
                SpaceTimeRows::Cpu {
                    ring,
                    newest: 0,
                    engine: {
                        let request = Request::new(rule.into(), Universe::torus(first.width(), 1));
                        let dense = registry::find_kind(EngineKind::Dense).ok_or_else(|| {
                            EngineError::Unavailable("no dense CPU engine is registered".into())
                        })?;
                        let (mut e, _) = registry::create(dense.name, &request)?;
                        e.set_grid(&first, 0)?;
                        e
                    },
                }
            }
        };
        Ok(Self {
            rows,
            rule,
            start,
            running: false,
            pace: Pace::PerSecond(60.0),
            since: None,
            stop_at: None,
            rate: 0.0,
        })
    }

    /// Per frame: the generations due at the pace, at most a few milliseconds' worth.
    pub fn tick(&mut self) -> EngineResult<()> {
        if !self.running {
            self.since = None;
            self.rate = 0.0;
            return Ok(());
        }
        let now = Instant::now();
        let generation = self.rows.generation();
        let (t0, g0) = *self.since.get_or_insert((now, generation));
        let elapsed = now.duration_since(t0).as_secs_f64();
        let due = match self.pace {
            Pace::Max => 1 << 14,
            Pace::PerSecond(r) => (g0 + (r * elapsed) as u64).saturating_sub(generation),
        };
        let cap = (1u64 << 22) / self.rows.width().max(1) as u64;
        let mut n = due.min(cap.max(1));
        if let Some(stop) = self.stop_at {
            n = n.min(stop.saturating_sub(generation));
            if generation >= stop {
                self.running = false;
            }
        }
        if n > 0 {
            self.rows.step(n)?;
        }
        if elapsed > 0.25 {
            self.rate = (self.rows.generation() - g0) as f64 / elapsed;
        }
        Ok(())
    }
}
