//! The app's simulations, without any UI: a Life-like torus and an elementary automaton's
//! space-time ring. Panels never touch these directly; commands do.
//!
//! On the GPU, per frame only commands are recorded: generations and a census (population) of
//! the last. The census comes back a frame or two later through a 16-byte readback, which is
//! also the throttle: new generations are submitted only once the last batch has finished.
//!
//! Without a GPU (no adapter, or after the device failed) the same simulation runs on the fast
//! CPU engine. When the GPU fails mid-run, the state at the last known good generation (the
//! CPU copy of the user's edits, or a periodic readback) carries on there: nothing the user drew
//! is lost.

use std::time::{Duration, Instant};

use crate::cpu::FastEngine;
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

/// Where the generations are computed.
// One per simulation, so the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum Backend {
    Gpu {
        engine: GpuLifeEngine,
        census: GpuCensus,
        pending: Option<(PendingCensus, u64)>,
    },
    Cpu {
        engine: FastEngine,
    },
}

/// The device time one frame may take on the CPU engine.
const CPU_FRAME_BUDGET: Duration = Duration::from_millis(12);

/// How often a running GPU simulation is read back, as the state to fall back on.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(3);

/// The Life-like simulation.
pub struct LifeSim {
    pub rule: Rule,
    seed: u64,
    backend: Backend,
    /// The latest population and the generation it belongs to.
    pub population: Option<(u64, u64)>,
    /// (generation, population) for the plot.
    pub history: Vec<(u64, u64)>,
    /// The state Reset returns to.
    start: (Grid, u64),
    /// GPU: a CPU copy of the state while paused and editing; dropped when generations run.
    mirror: Option<Grid>,
    /// GPU: the last state read back while running, and when.
    checkpoint: (Grid, u64),
    checkpoint_at: Instant,
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
    /// Why the GPU engine stopped, once it has: the simulation then goes on on the CPU.
    pub failure: Option<String>,
}

impl LifeSim {
    /// On the GPU when `ctx` is given, else on the CPU engine.
    pub fn new(ctx: Option<&GpuContext>, rule: Rule, grid: &Grid, seed: u64) -> EngineResult<Self> {
        let backend = match ctx {
            Some(ctx) => {
                let engine = GpuLifeEngine::new(ctx, rule, grid, seed, LifeOptions::default())?;
                let census = engine.new_census(1)?;
                Backend::Gpu {
                    engine,
                    census,
                    pending: None,
                }
            }
            None => Backend::Cpu {
                engine: FastEngine::new(rule, grid, seed),
            },
        };
        Ok(Self {
            rule,
            seed,
            backend,
            population: Some((grid.population(), 0)),
            history: vec![(0, grid.population())],
            start: (grid.clone(), 0),
            mirror: Some(grid.clone()),
            checkpoint: (grid.clone(), 0),
            checkpoint_at: Instant::now(),
            running: false,
            speed: Speed(1),
            frames: 0,
            rate: Rate::default(),
            stop_at: None,
            budget: 1,
            adaptive: true,
            limited_to: None,
            failure: None,
        })
    }

    /// The GPU engine, when the simulation runs there.
    pub fn gpu(&self) -> Option<&GpuLifeEngine> {
        match &self.backend {
            Backend::Gpu { engine, .. } => Some(engine),
            Backend::Cpu { .. } => None,
        }
    }

    /// The cells, when the simulation runs on the CPU (the viewer draws them from here).
    pub fn cpu_grid(&self) -> Option<&Grid> {
        match &self.backend {
            Backend::Cpu { engine } => Some(engine.grid_ref()),
            Backend::Gpu { .. } => None,
        }
    }

    fn engine(&self) -> &dyn Engine {
        match &self.backend {
            Backend::Gpu { engine, .. } => engine,
            Backend::Cpu { engine } => engine,
        }
    }

    pub fn generation(&self) -> u64 {
        self.engine().generation()
    }

    pub fn size(&self) -> (u32, u32) {
        (self.engine().width(), self.engine().height())
    }

    pub fn generations_per_second(&self) -> f64 {
        self.rate.value
    }

    /// Whether the last census belongs to the current generation.
    pub fn settled(&self) -> bool {
        let idle = match &self.backend {
            Backend::Gpu { pending, .. } => pending.is_none(),
            Backend::Cpu { .. } => true,
        };
        idle && self.population.is_some_and(|(_, g)| g == self.generation())
    }

    /// The state to fall back on: the CPU copy when there is one, else the last checkpoint.
    fn safe_state(&self) -> (Grid, u64) {
        match &self.mirror {
            Some(m) => (m.clone(), self.generation()),
            None => self.checkpoint.clone(),
        }
    }

    /// After a GPU failure: the simulation goes on on the CPU from the last good state.
    fn fall_back(&mut self, error: crate::engine::EngineError) {
        let (grid, generation) = self.safe_state();
        let lost_at = self.generation();
        let mut engine = FastEngine::new(self.rule, &grid, self.seed);
        engine.set_grid(&grid, generation).expect("same size");
        self.failure = Some(format!(
            "{error} (at generation {lost_at}); the state of generation {generation} is kept and goes on on the CPU"
        ));
        self.population = Some((grid.population(), generation));
        self.history.retain(|&(g, _)| g <= generation);
        self.backend = Backend::Cpu { engine };
        self.mirror = None;
        self.running = false;
    }

    /// Runs a GPU operation; a failure moves the simulation to the CPU instead of stopping it.
    fn guard<T>(&mut self, f: impl FnOnce(&mut Self) -> EngineResult<T>) -> Option<T> {
        match f(self) {
            Ok(v) => Some(v),
            Err(e) => {
                self.fall_back(e);
                None
            }
        }
    }

    /// Per frame (`frame_ms` is the last frame's length): collect a finished census, then
    /// (when running and the device is idle) record the next generations.
    pub fn tick(&mut self, frame_ms: f64) {
        if self.running && self.adaptive {
            if frame_ms > 25.0 {
                self.budget = (self.budget / 2).max(1);
            } else if frame_ms < 20.0 {
                self.budget = (self.budget * 2).min(Speed::FASTEST as u64);
            }
        }
        if matches!(self.backend, Backend::Gpu { .. }) {
            self.guard(|s| s.tick_gpu());
        } else {
            self.tick_cpu();
        }
        if self.running {
            self.rate.update(self.generation());
        } else {
            self.rate.stop();
        }
    }

    /// The generations this frame asks for, before the device's budget.
    fn wanted(&mut self) -> u64 {
        if !self.running {
            return 0;
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
        match self.stop_at {
            Some(stop) => gens.min(stop.saturating_sub(self.generation())),
            None => gens,
        }
    }

    fn reached_stop(&mut self) {
        if self.stop_at.is_some_and(|s| self.generation() >= s) {
            self.running = false;
        }
    }

    fn tick_gpu(&mut self) -> EngineResult<()> {
        let Backend::Gpu {
            engine,
            census,
            pending,
        } = &mut self.backend
        else {
            return Ok(());
        };
        if let Some((p, generation)) = pending {
            let generation = *generation;
            match census.try_take(p) {
                Some(values) => {
                    *pending = None;
                    if let Some(c) = values.first() {
                        self.population = Some((c.population, generation));
                        record(&mut self.history, generation, c.population);
                    }
                }
                None => return engine.context().check_faults(),
            }
        }
        engine.context().check_faults()?;
        if !self.running {
            if !self.settled() {
                self.request_census()?;
            }
            return Ok(());
        }
        if self.checkpoint_at.elapsed() >= CHECKPOINT_EVERY {
            let Backend::Gpu { engine, .. } = &mut self.backend else {
                unreachable!("checked")
            };
            self.checkpoint = (engine.grid()?, engine.generation());
            self.checkpoint_at = Instant::now();
        }
        let mut gens = self.wanted();
        if self.adaptive {
            self.limited_to = (self.budget < gens).then_some(self.budget);
            gens = gens.min(self.budget);
        }
        if gens > 0 {
            self.advance(gens)?;
        }
        self.reached_stop();
        Ok(())
    }

    fn tick_cpu(&mut self) {
        let mut gens = self.wanted();
        let Backend::Cpu { engine } = &mut self.backend else {
            return;
        };
        // As many as fit in the frame's budget.
        let started = Instant::now();
        let mut done = 0;
        while done < gens {
            engine.step_once();
            done += 1;
            if started.elapsed() > CPU_FRAME_BUDGET {
                break;
            }
        }
        if done < gens {
            self.limited_to = Some(done);
            gens = done;
        } else {
            self.limited_to = None;
        }
        if gens > 0 {
            let (g, p) = (engine.generation(), engine.grid_ref().population());
            self.population = Some((p, g));
            record(&mut self.history, g, p);
        }
        self.reached_stop();
    }

    fn advance(&mut self, gens: u64) -> EngineResult<()> {
        // The CPU copy (edits included) is the state to fall back on until the next readback.
        if let Some(m) = self.mirror.take() {
            self.checkpoint = (m, self.generation());
            self.checkpoint_at = Instant::now();
        }
        match &mut self.backend {
            Backend::Gpu {
                engine,
                census,
                pending,
            } => {
                census.reset();
                engine.step_then_census(gens, census, 0)?;
                *pending = Some((census.fetch_async(1), engine.generation()));
            }
            Backend::Cpu { engine } => {
                engine.step(gens)?;
                let (g, p) = (engine.generation(), engine.grid_ref().population());
                self.population = Some((p, g));
                record(&mut self.history, g, p);
            }
        }
        Ok(())
    }

    fn request_census(&mut self) -> EngineResult<()> {
        if let Backend::Gpu {
            engine,
            census,
            pending,
        } = &mut self.backend
        {
            census.reset();
            engine.census_now(census, 0)?;
            *pending = Some((census.fetch_async(1), engine.generation()));
        }
        Ok(())
    }

    /// Waits for the batch in flight, so that its census is not lost.
    fn settle_pending(&mut self) -> EngineResult<()> {
        if let Backend::Gpu {
            engine, pending, ..
        } = &mut self.backend
            && pending.is_some()
        {
            engine.context().wait()?;
            self.tick_gpu()?;
        }
        Ok(())
    }

    /// Steps while paused.
    pub fn step(&mut self, gens: u64) {
        self.guard(|s| {
            s.settle_pending()?;
            s.advance(gens)
        });
    }

    pub fn play(&mut self) {
        if let Some(m) = &self.mirror {
            // The user may have edited: Reset goes back to what runs now.
            self.start = (m.clone(), self.generation());
        } else if let Backend::Cpu { engine } = &self.backend
            && !self.running
        {
            self.start = (engine.grid_ref().clone(), engine.generation());
        }
        self.running = true;
        self.frames = 0;
    }

    /// The current cells: the CPU copy while paused, else one readback.
    pub fn grid(&mut self) -> Grid {
        if let Backend::Cpu { engine } = &self.backend {
            return engine.grid_ref().clone();
        }
        if self.running {
            if let Some(g) = self.guard(|s| match &mut s.backend {
                Backend::Gpu { engine, .. } => engine.grid(),
                Backend::Cpu { engine } => Ok(engine.grid_ref().clone()),
            }) {
                return g;
            }
            return self.grid();
        }
        self.ensure_mirror();
        match &self.mirror {
            Some(m) => m.clone(),
            None => self.grid(),
        }
    }

    /// Makes the CPU copy (GPU backend, paused).
    fn ensure_mirror(&mut self) {
        if self.mirror.is_some() || !matches!(self.backend, Backend::Gpu { .. }) {
            return;
        }
        let grid = self.guard(|s| {
            s.settle_pending()?;
            match &mut s.backend {
                Backend::Gpu { engine, .. } => engine.grid(),
                Backend::Cpu { engine } => Ok(engine.grid_ref().clone()),
            }
        });
        if matches!(self.backend, Backend::Gpu { .. }) {
            self.mirror = grid;
        }
    }

    pub fn cell(&mut self, x: u32, y: u32) -> bool {
        self.ensure_mirror();
        match (&self.backend, &self.mirror) {
            (Backend::Cpu { engine }, _) => engine.grid_ref().get(x, y),
            (_, Some(m)) => m.get(x, y),
            _ => false,
        }
    }

    /// Draws or erases one cell (paused): on the GPU, the CPU copy and one word change.
    pub fn set_cell(&mut self, x: u32, y: u32, alive: bool) {
        self.ensure_mirror();
        let mut changed = false;
        match &mut self.backend {
            Backend::Cpu { engine } => {
                changed = engine.grid_ref().get(x, y) != alive;
                engine.set_cell(x, y, alive);
            }
            Backend::Gpu { engine, .. } => {
                if let Some(mirror) = &mut self.mirror
                    && mirror.get(x, y) != alive
                {
                    mirror.set(x, y, alive);
                    let word = (x / 64) as usize;
                    engine.write_word(y, word, mirror.row(y)[word]);
                    changed = true;
                }
            }
        }
        if changed && let Some((p, g)) = self.population {
            let p = if alive { p + 1 } else { p.saturating_sub(1) };
            self.population = Some((p, g));
        }
    }

    /// Replaces every cell (a load, fill or clear); Reset will return here.
    pub fn replace(&mut self, grid: Grid, generation: u64) {
        self.set_state(&grid, generation);
        self.history.clear();
        self.history.push((generation, grid.population()));
        self.start = (grid.clone(), generation);
        self.running = false;
    }

    fn set_state(&mut self, grid: &Grid, generation: u64) {
        let written = self
            .guard(|s| match &mut s.backend {
                Backend::Gpu { engine, .. } => engine.set_grid(grid, generation),
                Backend::Cpu { engine } => engine.set_grid(grid, generation),
            })
            .is_some();
        if !written && let Backend::Cpu { engine } = &mut self.backend {
            // The GPU failed on this very write: the CPU engine takes the new state.
            let _ = engine.set_grid(grid, generation);
        }
        if matches!(self.backend, Backend::Gpu { .. }) {
            self.mirror = Some(grid.clone());
        }
        self.population = Some((grid.population(), generation));
    }

    /// Edits some cells through a CPU copy (a fill of a selection, a paste).
    pub fn edit(&mut self, f: impl FnOnce(&mut Grid)) {
        let mut grid = self.grid();
        f(&mut grid);
        let generation = self.generation();
        self.set_state(&grid, generation);
    }

    pub fn reset(&mut self) {
        let (grid, generation) = self.start.clone();
        self.set_state(&grid, generation);
        self.history.retain(|&(g, _)| g <= generation);
        self.running = false;
    }

    /// A new rule for the same cells, on the same kind of engine.
    pub fn with_rule(&mut self, rule: Rule, ctx: Option<&GpuContext>) -> EngineResult<Self> {
        let grid = self.grid();
        let generation = self.generation();
        let ctx = ctx.filter(|_| self.gpu().is_some());
        let mut next = Self::new(ctx, rule, &grid, self.seed)?;
        next.history = std::mem::take(&mut self.history);
        next.start = self.start.clone();
        next.speed = self.speed;
        next.failure = self.failure.clone();
        // The generation count goes on.
        next.set_state(&grid, generation);
        Ok(next)
    }

    /// What Reset returns to: the last loaded or edited state (what autosave keeps while the
    /// simulation runs).
    pub fn start_state(&self) -> &(Grid, u64) {
        &self.start
    }

    /// Copies the cells of `rect` (wrapping).
    pub fn crop(&mut self, rect: Rect) -> Grid {
        self.grid().crop(rect)
    }

    /// Simulates a GPU failure (tests): the device is destroyed under the running engine.
    pub fn destroy_device_for_test(&self) {
        if let Some(e) = self.gpu() {
            e.context().device.destroy();
        }
    }
}

fn record(history: &mut Vec<(u64, u64)>, generation: u64, population: u64) {
    if history.last().is_some_and(|&(g, _)| g >= generation) {
        history.retain(|&(g, _)| g < generation);
    }
    history.push((generation, population));
    // Keep the plot cheap: halve the points when there are too many.
    if history.len() > 20_000 {
        let mut keep = false;
        history.retain(|_| {
            keep = !keep;
            keep
        });
    }
}

/// The elementary automaton's space-time diagram: on the GPU a ring of rows in GPU memory; on
/// the CPU the same ring in a grid.
// One per simulation, so the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub enum SpaceTimeRows {
    Gpu(SpaceTime),
    Cpu {
        ring: Grid,
        newest: u32,
        engine: FastEngine,
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
                for _ in 0..gens {
                    engine.step_once();
                    *newest = (*newest + 1) % ring.height();
                    let row = engine.grid_ref().row(0).to_vec();
                    ring.row_mut(*newest).copy_from_slice(&row);
                }
                Ok(())
            }
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
    pub speed: Speed,
    frames: i32,
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
                let mut ring = Grid::try_new(start.width(), capacity)
                    .map_err(|e| crate::engine::EngineError::Memory(e.to_string()))?;
                ring.row_mut(0).copy_from_slice(start.row(0));
                let mut first = Grid::new(start.width(), 1);
                first.row_mut(0).copy_from_slice(start.row(0));
                SpaceTimeRows::Cpu {
                    ring,
                    newest: 0,
                    engine: FastEngine::new(rule.into(), &first, 0),
                }
            }
        };
        Ok(Self {
            rows,
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
