//! The app's simulations, without any UI: a Life-like torus on the GPU engine, and an
//! elementary automaton's space-time ring. Panels never touch these directly; commands do.
//!
//! Per frame only commands are recorded: generations and a census (population) of the last one.
//! The census comes back a frame or two later through a 16-byte readback, which is also the
//! throttle: new generations are submitted only once the last batch has finished, so a slow
//! device lowers the generation rate instead of the frame rate.

use std::time::Instant;

use crate::engine::{Engine, EngineResult};
use crate::gpu::GpuContext;
use crate::gpu::census::{GpuCensus, PendingCensus};
use crate::gpu::elementary::SpaceTime;
use crate::gpu::life::{GpuLifeEngine, LifeOptions};
use crate::grid::{Grid, Rect};
use crate::rule::{ElementaryRule, Rule};

/// How fast the simulation runs: `n > 0` generations per frame, or one generation every `-n`
/// frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speed(pub i32);

impl Speed {
    pub const SLOWEST: i32 = -30;
    /// 2^20 generations per frame.
    pub const FASTEST: i32 = 1 << 20;

    pub fn per_frame(self) -> u64 {
        self.0.max(1) as u64
    }

    pub fn describe(self) -> String {
        if self.0 >= 1 {
            format!("{} gen/frame", self.0)
        } else {
            format!("1 gen every {} frames", -self.0)
        }
    }

    /// One step faster or slower on the scale ..., 1/4, 1/2, 1, 2, 4, ..., 2^20.
    pub fn faster(self) -> Self {
        Speed(match self.0 {
            n if n >= 1 => (n * 2).min(Self::FASTEST),
            -2 => 1,
            n => n / 2,
        })
    }

    pub fn slower(self) -> Self {
        Speed(match self.0 {
            1 => -2,
            n if n > 1 => n / 2,
            n => (n * 2).max(Self::SLOWEST),
        })
    }
}

/// Generations per second, smoothed over about half a second.
#[derive(Default)]
struct Rate {
    since: Option<(Instant, u64)>,
    value: f64,
}

impl Rate {
    fn update(&mut self, generation: u64) {
        let now = Instant::now();
        match self.since {
            Some((t, g)) => {
                let dt = now.duration_since(t).as_secs_f64();
                if dt >= 0.5 {
                    self.value = generation.saturating_sub(g) as f64 / dt;
                    self.since = Some((now, generation));
                }
            }
            None => self.since = Some((now, generation)),
        }
    }

    fn stop(&mut self) {
        self.since = None;
        self.value = 0.0;
    }
}

/// The Life-like simulation.
pub struct LifeSim {
    ctx: GpuContext,
    pub rule: Rule,
    seed: u64,
    engine: GpuLifeEngine,
    census: GpuCensus,
    pending: Option<(PendingCensus, u64)>,
    /// The latest population and the generation it belongs to.
    pub population: Option<(u64, u64)>,
    /// (generation, population) for the plot.
    pub history: Vec<(u64, u64)>,
    /// The state Reset returns to.
    start: (Grid, u64),
    /// A CPU copy of the state while paused and editing; dropped when generations run.
    mirror: Option<Grid>,
    pub running: bool,
    pub speed: Speed,
    frames: i32,
    rate: Rate,
    /// Stop after this generation (screenshots).
    pub stop_at: Option<u64>,
    /// The largest batch the device finishes within a frame: it doubles while frames stay
    /// short and halves when they grow long, so a slow device lowers the generation rate, not
    /// the frame rate.
    budget: u64,
    /// Whether the budget applies (off for screenshots, which want the result soonest).
    pub adaptive: bool,
    /// The batch size in force, when the device holds it below the chosen speed.
    pub limited_to: Option<u64>,
}

impl LifeSim {
    pub fn new(ctx: &GpuContext, rule: Rule, grid: &Grid, seed: u64) -> EngineResult<Self> {
        let engine = GpuLifeEngine::new(ctx, rule, grid, seed, LifeOptions::default())?;
        let census = engine.new_census(1)?;
        let mut sim = Self {
            ctx: ctx.clone(),
            rule,
            seed,
            engine,
            census,
            pending: None,
            population: Some((grid.population(), 0)),
            history: vec![(0, grid.population())],
            start: (grid.clone(), 0),
            mirror: Some(grid.clone()),
            running: false,
            speed: Speed(1),
            frames: 0,
            rate: Rate::default(),
            stop_at: None,
            budget: 1,
            adaptive: true,
            limited_to: None,
        };
        sim.history.clear();
        sim.history.push((0, grid.population()));
        Ok(sim)
    }

    pub fn engine(&self) -> &GpuLifeEngine {
        &self.engine
    }

    pub fn generation(&self) -> u64 {
        self.engine.generation()
    }

    pub fn size(&self) -> (u32, u32) {
        (self.engine.width(), self.engine.height())
    }

    pub fn generations_per_second(&self) -> f64 {
        self.rate.value
    }

    /// Whether the last census belongs to the current generation.
    pub fn settled(&self) -> bool {
        self.pending.is_none()
            && self
                .population
                .is_some_and(|(_, g)| g == self.engine.generation())
    }

    /// Per frame (`frame_ms` is the last frame's length): collect a finished census, then (when
    /// running and the device is idle) record the next generations and a census of the last.
    pub fn tick(&mut self, frame_ms: f64) -> EngineResult<()> {
        if self.running {
            if frame_ms > 25.0 {
                self.budget = (self.budget / 2).max(1);
            } else if frame_ms < 20.0 {
                self.budget = (self.budget * 2).min(Speed::FASTEST as u64);
            }
        }
        if let Some((pending, generation)) = &self.pending {
            let generation = *generation;
            match self.census.try_take(pending) {
                Some(values) => {
                    if let Some(c) = values.first() {
                        self.population = Some((c.population, generation));
                        self.record_history(generation, c.population);
                    }
                    self.pending = None;
                }
                None => return self.ctx.check_faults(),
            }
        }
        if !self.running {
            self.rate.stop();
            if !self.settled() && self.pending.is_none() {
                self.request_census()?;
            }
            return Ok(());
        }
        self.frames += 1;
        let gens = if self.speed.0 >= 1 {
            self.speed.per_frame()
        } else if self.frames >= -self.speed.0 {
            self.frames = 0;
            1
        } else {
            0
        };
        let gens = if self.adaptive {
            self.limited_to = (self.budget < gens).then_some(self.budget);
            gens.min(self.budget)
        } else {
            gens
        };
        let gens = match self.stop_at {
            Some(stop) => gens.min(stop.saturating_sub(self.generation())),
            None => gens,
        };
        if gens > 0 {
            self.advance(gens)?;
        }
        if self.stop_at.is_some_and(|s| self.generation() >= s) {
            self.running = false;
        }
        self.rate.update(self.generation());
        Ok(())
    }

    fn advance(&mut self, gens: u64) -> EngineResult<()> {
        self.mirror = None;
        self.census.reset();
        self.engine.step_then_census(gens, &self.census, 0)?;
        self.pending = Some((self.census.fetch_async(1), self.engine.generation()));
        Ok(())
    }

    fn request_census(&mut self) -> EngineResult<()> {
        self.census.reset();
        self.engine.census_now(&self.census, 0)?;
        self.pending = Some((self.census.fetch_async(1), self.engine.generation()));
        Ok(())
    }

    fn record_history(&mut self, generation: u64, population: u64) {
        if self.history.last().is_some_and(|&(g, _)| g >= generation) {
            self.history.retain(|&(g, _)| g < generation);
        }
        self.history.push((generation, population));
        // Keep the plot cheap: halve the points when there are too many.
        if self.history.len() > 20_000 {
            let mut keep = false;
            self.history.retain(|_| {
                keep = !keep;
                keep
            });
        }
    }

    /// Single steps while paused.
    pub fn step(&mut self, gens: u64) -> EngineResult<()> {
        if self.pending.is_some() {
            // Let the last batch finish first, so that its census is not lost.
            self.ctx.wait()?;
            self.tick(0.0)?;
        }
        self.advance(gens)
    }

    pub fn play(&mut self) {
        if self.generation() == self.start.1 || self.mirror.is_some() {
            // The user may have edited: Reset goes back to what runs now.
            if let Some(m) = &self.mirror {
                self.start = (m.clone(), self.generation());
            }
        }
        self.running = true;
        self.frames = 0;
    }

    /// The current cells: the CPU copy while paused, else one readback.
    pub fn grid(&mut self) -> EngineResult<Grid> {
        if self.running {
            return self.engine.grid();
        }
        self.ensure_mirror()?;
        Ok(self.mirror.clone().expect("made"))
    }

    fn ensure_mirror(&mut self) -> EngineResult<()> {
        if self.mirror.is_none() {
            if self.pending.is_some() {
                self.ctx.wait()?;
                self.tick(0.0)?;
            }
            self.mirror = Some(self.engine.grid()?);
        }
        Ok(())
    }

    pub fn cell(&mut self, x: u32, y: u32) -> EngineResult<bool> {
        self.ensure_mirror()?;
        Ok(self.mirror.as_ref().expect("made").get(x, y))
    }

    /// Draws or erases one cell (paused): the CPU copy and one word on the GPU change.
    pub fn set_cell(&mut self, x: u32, y: u32, alive: bool) -> EngineResult<()> {
        self.ensure_mirror()?;
        let mirror = self.mirror.as_mut().expect("made");
        if mirror.get(x, y) == alive {
            return Ok(());
        }
        mirror.set(x, y, alive);
        let word = (x / 64) as usize;
        let value = mirror.row(y)[word];
        self.engine.write_word(y, word, value);
        if let Some((p, g)) = self.population {
            let p = if alive { p + 1 } else { p.saturating_sub(1) };
            self.population = Some((p, g));
        }
        Ok(())
    }

    /// Replaces every cell (a load, fill or clear); Reset will return here.
    pub fn replace(&mut self, grid: Grid, generation: u64) -> EngineResult<()> {
        self.engine.set_grid(&grid, generation)?;
        self.population = Some((grid.population(), generation));
        self.history.clear();
        self.history.push((generation, grid.population()));
        self.start = (grid.clone(), generation);
        self.mirror = Some(grid);
        self.running = false;
        Ok(())
    }

    /// Edits some cells through the CPU copy (a fill of a selection, a paste).
    pub fn edit(&mut self, f: impl FnOnce(&mut Grid)) -> EngineResult<()> {
        self.ensure_mirror()?;
        let mut grid = self.mirror.take().expect("made");
        f(&mut grid);
        let generation = self.generation();
        self.engine.set_grid(&grid, generation)?;
        self.population = Some((grid.population(), generation));
        self.mirror = Some(grid);
        Ok(())
    }

    pub fn reset(&mut self) -> EngineResult<()> {
        let (grid, generation) = self.start.clone();
        self.engine.set_grid(&grid, generation)?;
        self.population = Some((grid.population(), generation));
        self.history.retain(|&(g, _)| g <= generation);
        self.mirror = Some(grid);
        self.running = false;
        Ok(())
    }

    /// A new rule for the same cells.
    pub fn with_rule(&mut self, rule: Rule) -> EngineResult<Self> {
        let grid = self.grid()?;
        let mut next = Self::new(&self.ctx, rule, &grid, self.seed)?;
        next.history = std::mem::take(&mut self.history);
        next.start = self.start.clone();
        next.speed = self.speed;
        // The generation count goes on.
        let generation = self.generation();
        next.engine.set_grid(&grid, generation)?;
        next.population = Some((grid.population(), generation));
        Ok(next)
    }

    /// Copies the cells of `rect` (wrapping).
    pub fn crop(&mut self, rect: Rect) -> EngineResult<Grid> {
        Ok(self.grid()?.crop(rect))
    }
}

/// The elementary automaton's space-time diagram.
pub struct ElementarySim {
    pub rule: ElementaryRule,
    pub start: Grid,
    pub rows: SpaceTime,
    pub running: bool,
    pub speed: Speed,
    frames: i32,
}

impl ElementarySim {
    pub fn new(
        ctx: &GpuContext,
        rule: ElementaryRule,
        start: Grid,
        capacity: u32,
    ) -> EngineResult<Self> {
        Ok(Self {
            rows: SpaceTime::new(ctx, rule, &start, capacity)?,
            rule,
            start,
            running: false,
            speed: Speed(1),
            frames: 0,
        })
    }

    pub fn tick(&mut self) -> EngineResult<()> {
        if !self.running {
            return Ok(());
        }
        self.frames += 1;
        if self.speed.0 >= 1 {
            self.rows.step(self.speed.per_frame())
        } else if self.frames >= -self.speed.0 {
            self.frames = 0;
            self.rows.step(1)
        } else {
            Ok(())
        }
    }
}
