//! The app's simulations, without any UI. The Life-like universe runs on a worker thread
//! (`session::worker`) behind the engine seam: the UI thread asks (run at a pace, step N, edit)
//! and reads what the worker publishes, and never waits for a generation. Every engine comes
//! from the registry; `auto` chooses by the work.
//!
//! When the GPU engine fails mid-run, the state at the last known good generation (the start
//! of the run, or a checkpoint read back every few seconds) goes on on a CPU engine: nothing
//! the user drew is lost.
//!
//! The elementary automaton's space-time diagram is cheap per generation and stays on the UI
//! thread, paced by the clock.

use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineResult, Universe};
use crate::gpu::GpuContext;
use crate::gpu::elementary::SpaceTime;
use crate::grid::Grid;
use crate::registry::{self, Choice, Options, Request, Workload};
use crate::rule::{ElementaryRule, Rule};
use crate::session::worker::{JobHandle, Pace, Status, Worker};
use crate::tiles::TileMap;

/// How often a running GPU simulation is read back, as the state to fall back on.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(3);

/// Generations the app plans for when it asks the registry for an engine: an open-ended run.
const PLANNED_GENERATIONS: u64 = 1 << 16;

/// What a job in flight will change when it lands.
enum Landing {
    /// Nothing beyond the cells (Step N, go to, a fill); an edit becomes what Reset returns to.
    Cells { mark_start: bool },
    /// A new engine: its rule, universe and the registry's choice.
    Engine(Box<Rebuilt>),
    /// A checkpoint of the running GPU engine.
    Checkpoint,
    /// The cells written to this file.
    Saved(std::path::PathBuf),
}

/// What a new engine brings when its job lands.
struct Rebuilt {
    rule: Rule,
    universe: Universe,
    choice: Choice,
    /// The new cells, when they were given (Reset returns to them).
    start: Option<(TileMap, u64)>,
}

/// The Life-like simulation.
pub struct LifeSim {
    worker: Worker,
    pub rule: Rule,
    pub universe: Universe,
    seed: u64,
    /// `auto` or an engine of the registry, as the Engine menu says.
    pub wanted: String,
    pub choice: Choice,
    /// The app's device for GPU engines: none in CPU mode, nor after the GPU failed.
    gpu: Option<GpuContext>,
    memory: Option<u64>,
    /// What Reset returns to: the last load or edit, or where the last run started.
    start: (TileMap, u64),
    /// The state to fall back on when the GPU fails.
    checkpoint: (TileMap, u64),
    checkpoint_at: Instant,
    /// Why the GPU engine stopped, once it has.
    pub failure: Option<String>,
    job: Option<(JobHandle, Landing)>,
    /// The outcome of the last job that failed (shown as a notice).
    pub job_error: Option<String>,
    /// The outcome of the last save: the file and what its format could not keep.
    pub saved: Option<anyhow::Result<(std::path::PathBuf, Vec<String>)>>,
    figures: Status,
    /// Counts engine replacements, so that the viewer knows to rebind GPU buffers.
    pub engine_version: u64,
}

/// What a simulation keeps across engines: the seed of stochastic rules, the engine asked for
/// (`auto` or a name) and HashLife's memory.
pub struct Settings {
    pub seed: u64,
    pub wanted: String,
    pub memory: Option<u64>,
}

/// The registry's request for `universe` with these cells.
fn request_for(
    rule: Rule,
    universe: Universe,
    seed: u64,
    cells: &TileMap,
    gpu: &Option<GpuContext>,
    memory: Option<u64>,
) -> Request {
    let mut r = Request::new(rule, universe)
        .with_seed(seed)
        .with_workload(Workload {
            generations: PLANNED_GENERATIONS,
            population: cells.population(),
            span: cells
                .bounds()
                .map_or(0, |b| b.width().saturating_mul(b.height())),
            // The window shows the generations as they pass.
            stride: 1,
            from_quadtree: false,
        });
    r.options = Options {
        memory,
        context: gpu.clone(),
        forbid_gpu: gpu.is_none(),
        ..Default::default()
    };
    r
}

/// Makes the engine and loads the cells.
fn make_engine(
    wanted: &str,
    request: &Request,
    cells: &TileMap,
    generation: u64,
) -> EngineResult<(Box<dyn Engine>, Choice)> {
    let (mut e, choice) = registry::create(wanted, request)?;
    e.import(cells)?;
    e.set_generation(generation);
    Ok((e, choice))
}

impl LifeSim {
    /// A simulation of `cells` on `universe`, on the engine `wanted` (or `auto`'s choice);
    /// `gpu` is the app's device, `None` in CPU mode.
    pub fn new(
        gpu: Option<GpuContext>,
        rule: Rule,
        universe: Universe,
        (cells, generation): (TileMap, u64),
        settings: Settings,
    ) -> anyhow::Result<Self> {
        let Settings {
            seed,
            wanted,
            memory,
        } = settings;
        let wanted = wanted.as_str();
        let request = request_for(rule, universe, seed, &cells, &gpu, memory);
        let (engine, choice) = make_engine(wanted, &request, &cells, generation)?;
        let worker = Worker::new(engine);
        worker.set_pace(Pace::PerSecond(16.0));
        let figures = worker.figures();
        Ok(Self {
            worker,
            rule,
            universe,
            seed,
            wanted: wanted.to_string(),
            choice,
            gpu,
            memory,
            start: (cells.clone(), generation),
            checkpoint: (cells, generation),
            checkpoint_at: Instant::now(),
            failure: None,
            job: None,
            job_error: None,
            saved: None,
            figures,
            engine_version: 0,
        })
    }

    pub fn worker(&self) -> &Worker {
        &self.worker
    }

    /// The latest published figures (refreshed by `poll`).
    pub fn figures(&self) -> &Status {
        &self.figures
    }

    pub fn generation(&self) -> u64 {
        self.figures.generation
    }

    pub fn population(&self) -> Option<u64> {
        self.figures.population
    }

    pub fn running(&self) -> bool {
        self.figures.running
    }

    /// Generations per second achieved.
    pub fn rate(&self) -> f64 {
        self.figures.rate
    }

    pub fn size(&self) -> Option<(u32, u32)> {
        self.universe.size()
    }

    pub fn is_gpu(&self) -> bool {
        self.choice.engine == "gpu"
    }

    pub fn busy(&self) -> Option<&JobHandle> {
        self.job.as_ref().map(|(h, _)| h)
    }

    /// Per frame: the worker's figures, a finished job, a GPU failure, a checkpoint.
    pub fn poll(&mut self) {
        self.figures = self.worker.figures();
        if let Some((handle, _)) = &self.job
            && let Some(result) = handle.try_take()
        {
            let (_, landing) = self.job.take().expect("checked");
            match (result, landing) {
                (Ok(_), Landing::Engine(rebuilt)) => {
                    let Rebuilt {
                        rule,
                        universe,
                        choice,
                        start,
                    } = *rebuilt;
                    self.rule = rule;
                    self.universe = universe;
                    self.choice = choice;
                    if let Some(s) = start {
                        self.checkpoint = s.clone();
                        self.start = s;
                    }
                    self.engine_version += 1;
                }
                (Ok(value), Landing::Checkpoint) => {
                    if let Ok(c) = value.downcast::<(TileMap, u64)>() {
                        self.checkpoint = *c;
                        self.checkpoint_at = Instant::now();
                    }
                }
                (Ok(value), Landing::Saved(path)) => {
                    let warnings = value
                        .downcast::<Vec<String>>()
                        .map(|w| *w)
                        .unwrap_or_default();
                    self.saved = Some(Ok((path, warnings)));
                }
                (Err(e), Landing::Saved(_)) => self.saved = Some(Err(e)),
                (Ok(_), Landing::Cells { mark_start }) => {
                    if mark_start {
                        self.mark_start();
                    }
                }
                (Err(e), _) => {
                    if e.downcast_ref::<crate::engine::EngineError>()
                        .is_some_and(|e| matches!(e, crate::engine::EngineError::Cancelled))
                    {
                        self.job_error = Some("cancelled".into());
                    } else {
                        self.job_error = Some(format!("{e:#}"));
                    }
                }
            }
            // A run's error is the next step's to handle (a fall-back from the GPU), even when
            // a job on the same failed engine reported its own after it.
            self.worker.clear_job_error();
            self.figures = self.worker.figures();
        }
        if let Some(error) = self.figures.error.clone() {
            let was_running = self.figures.error_stopped_run;
            self.worker.clear_error();
            if self.is_gpu() {
                // Only a CPU engine that took over goes on running; a failed fall-back leaves
                // the run stopped, with the failure shown.
                if self.fall_back(error) && was_running {
                    self.worker.set_running(true);
                    self.figures = self.worker.figures();
                }
            } else if self.job.is_none() {
                self.job_error = Some(error);
            }
        }
        if self.is_gpu()
            && self.figures.running
            && self.job.is_none()
            && self.checkpoint_at.elapsed() >= CHECKPOINT_EVERY
        {
            self.checkpoint_at = Instant::now();
            let h = self.worker.submit("checkpoint", 0, |access, _| {
                let c = access.with(|e| -> EngineResult<(TileMap, u64)> {
                    Ok((e.export()?, e.generation()))
                })?;
                Ok(Box::new(c))
            });
            self.job = Some((h, Landing::Checkpoint));
        }
    }

    /// After a GPU failure: the simulation goes on on the CPU from the last good state. Returns
    /// whether a CPU engine took over.
    fn fall_back(&mut self, error: String) -> bool {
        let lost_at = self.generation();
        self.worker.set_running(false);
        self.gpu = None;
        let (cells, generation) = self.checkpoint.clone();
        let request = request_for(
            self.rule,
            self.universe,
            self.seed,
            &cells,
            &None,
            self.memory,
        );
        match make_engine("auto", &request, &cells, generation) {
            Ok((engine, choice)) => {
                self.worker.replace_engine(engine);
                self.choice = choice;
                self.engine_version += 1;
                self.failure = Some(format!(
                    "{error} (at generation {lost_at}); the state of generation {generation} is kept and goes on on the {} engine",
                    self.choice.engine
                ));
                self.figures = self.worker.figures();
                true
            }
            Err(e) => {
                self.failure = Some(format!("{error}; and no CPU engine could take over: {e}"));
                self.figures = self.worker.figures();
                false
            }
        }
    }

    /// Waits until the worker has nothing in hand (tests; the window never waits).
    pub fn settle(&mut self) {
        while self.job.is_some() {
            std::thread::sleep(Duration::from_millis(1));
            self.poll();
        }
        self.worker.wait_idle();
        // The figures published after everything done so far.
        self.worker.sync();
        self.poll();
    }

    pub fn play(&mut self) {
        if !self.figures.running
            && let Ok(state) = self.export_now()
        {
            self.start = state.clone();
            self.checkpoint = state;
            self.checkpoint_at = Instant::now();
        }
        self.job_error = None;
        self.worker.set_running(true);
        self.figures = self.worker.figures();
    }

    pub fn pause(&mut self) {
        self.worker.set_running(false);
        self.figures = self.worker.figures();
    }

    pub fn set_pace(&self, pace: Pace) {
        self.worker.set_pace(pace);
    }

    pub fn pace(&self) -> Pace {
        self.worker.pace()
    }

    pub fn set_stop_at(&self, stop: Option<u64>) {
        self.worker.set_stop_at(stop);
    }

    /// Generations per step, 2^k.
    pub fn set_step_exponent(&self, k: u32) {
        self.worker.set_step(1u64 << k.min(62));
    }

    pub fn step_exponent(&self) -> u32 {
        self.worker.step_size().trailing_zeros()
    }

    /// A job is in flight: say so instead of starting another.
    fn refuse_if_busy(&self) -> anyhow::Result<()> {
        match &self.job {
            Some((h, _)) => anyhow::bail!("busy with {} (Esc or Cancel stops it)", h.label),
            None => Ok(()),
        }
    }

    /// Stops the job in flight (at a whole generation) and lets it land, for a command that
    /// replaces what it works on (Reset, a load).
    fn stop_job(&mut self) {
        if self.job.is_some() {
            self.cancel();
            while self.job.is_some() {
                std::thread::sleep(Duration::from_millis(1));
                self.poll();
            }
        }
    }

    /// Waits for a new engine in flight to land (a load, a rule change, a resize: quick
    /// jobs), so that what is read next is the state the user asked for.
    pub fn land_rebuild(&mut self) {
        while matches!(self.job, Some((_, Landing::Engine(_)))) {
            std::thread::sleep(Duration::from_millis(1));
            self.poll();
        }
    }

    /// Writes the cells to `path` in a job (a large torus takes a while, and the window goes
    /// on meanwhile); the outcome comes back in `saved`.
    pub fn save(
        &mut self,
        path: std::path::PathBuf,
        meta: crate::session::save::Meta,
        format: crate::pattern::Format,
    ) -> anyhow::Result<()> {
        self.refuse_if_busy()?;
        let label = format!("saving {}", path.display());
        let file = path.clone();
        let h = self.worker.submit(label, 0, move |access, _| {
            let written = access.with(|e| crate::session::save::text_of(e, &meta, format))?;
            crate::pattern::write_atomically(&file, written.text.as_bytes())
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            Ok(Box::new(written.warnings))
        });
        self.job = Some((h, Landing::Saved(path)));
        Ok(())
    }

    /// Steps `gens` generations as a job with progress.
    pub fn step(&mut self, gens: u64) -> anyhow::Result<()> {
        self.refuse_if_busy()?;
        self.pause();
        let h = self.worker.step(gens);
        self.job = Some((h, Landing::Cells { mark_start: false }));
        Ok(())
    }

    /// Runs to generation `target` (forwards only), with progress.
    pub fn go_to(&mut self, target: u64) -> anyhow::Result<()> {
        let now = self.generation();
        if target < now {
            anyhow::bail!("generation {target} is behind the current one ({now}); Reset first");
        }
        self.step(target - now)
    }

    /// Cancels the job in flight; it stops at a whole generation.
    pub fn cancel(&mut self) {
        self.worker.cancel_jobs();
    }

    /// Cancels the job in flight and waits for it to stop (a few milliseconds).
    pub fn cancel_and_wait(&mut self) {
        self.stop_job();
    }

    /// Runs `f` on the engine from the UI thread, for quick reads and small edits.
    pub fn with_engine<R>(&self, f: impl FnOnce(&mut dyn Engine) -> R) -> R {
        self.worker.with_engine(f)
    }

    /// Runs `f` on the engine as a job with progress (big edits: a fill of a huge torus).
    pub fn edit_job(
        &mut self,
        label: &str,
        f: impl FnOnce(&mut dyn Engine, &crate::engine::Progress) -> EngineResult<()> + Send + 'static,
    ) -> anyhow::Result<()> {
        self.refuse_if_busy()?;
        self.pause();
        let h = self.worker.submit(label, 0, move |access, progress| {
            access.with(|e| f(e, progress))?;
            Ok(Box::new(()))
        });
        self.job = Some((h, Landing::Cells { mark_start: true }));
        Ok(())
    }

    pub fn cell(&self, x: i64, y: i64) -> bool {
        self.worker.with_engine(|e| e.cell(x, y)).unwrap_or(false)
    }

    pub fn set_cell(&self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.worker.with_engine(|e| e.set_cell(x, y, alive))
    }

    /// The cells now, as tiles (waits for the engine between two pieces of work).
    pub fn export_now(&self) -> EngineResult<(TileMap, u64)> {
        self.worker
            .with_engine(|e| Ok((e.export()?, e.generation())))
    }

    /// The whole torus as a grid (tests and small tori).
    pub fn grid(&self) -> EngineResult<Grid> {
        self.worker.with_engine(|e| e.grid())
    }

    /// Replaces the engine in a job: new cells, rule, universe or engine choice. Reset will
    /// return to the new cells.
    pub fn rebuild(
        &mut self,
        rule: Rule,
        universe: Universe,
        cells: Option<TileMap>,
        generation: u64,
        wanted: &str,
    ) -> anyhow::Result<()> {
        self.stop_job();
        self.pause();
        self.wanted = wanted.to_string();
        let gpu = self.gpu.clone();
        let (seed, memory) = (self.seed, self.memory);
        let wanted = wanted.to_string();
        // The cells to move over: given, or the current ones (read in the job).
        let label = match &cells {
            Some(_) => format!("loading onto {}", universe.describe()),
            None => format!("moving to {}", universe.describe()),
        };
        // The registry chooses on this thread, from what the cells are known to be; the engine
        // is made and filled on the worker.
        let probe = cells.clone().unwrap_or_else(|| self.start.0.clone());
        let request = request_for(rule, universe, seed, &probe, &gpu, memory);
        let choice = registry::choose(&wanted, &request)?;
        let start = cells.clone().map(|c| (c, generation));
        let engine_name = choice.engine;
        let h = self.worker.submit(label, 0, move |access, _| {
            let (cells, generation) = match cells {
                Some(c) => (c, generation),
                None => access.with(|e| -> EngineResult<(TileMap, u64)> {
                    Ok((e.export()?, e.generation()))
                })?,
            };
            let request = request_for(rule, universe, seed, &cells, &gpu, memory);
            let (engine, _) = make_engine(engine_name, &request, &cells, generation)?;
            access.replace(engine);
            Ok(Box::new(()))
        });
        self.job = Some((
            h,
            Landing::Engine(Box::new(Rebuilt {
                rule,
                universe,
                choice,
                start,
            })),
        ));
        self.worker.clear_history();
        Ok(())
    }

    /// Back to the start state.
    pub fn reset(&mut self) -> anyhow::Result<()> {
        self.stop_job();
        self.pause();
        let (cells, generation) = self.start.clone();
        self.worker.with_engine(|e| -> EngineResult<()> {
            e.import(&cells)?;
            e.set_generation(generation);
            Ok(())
        })?;
        self.worker.clear_history();
        Ok(())
    }

    /// The current cells become what Reset returns to (after an edit or a load).
    pub fn mark_start(&mut self) {
        self.worker.restart_watch();
        if let Ok(s) = self.export_now() {
            self.start = s.clone();
            if !self.figures.running {
                self.checkpoint = s;
            }
        }
    }

    /// What Reset returns to (what autosave keeps while a run goes on).
    pub fn start_state(&self) -> &(TileMap, u64) {
        &self.start
    }

    pub fn history(&self) -> Vec<(u64, u64)> {
        self.worker.history()
    }

    pub fn thinned_history(&self) -> crate::session::worker::Thinned {
        self.worker.thinned_history()
    }

    pub fn set_history(&self, history: crate::session::worker::Thinned) {
        self.worker.set_history(history);
    }

    /// Simulates a GPU failure (tests): the device is destroyed under the running engine.
    pub fn destroy_device_for_test(&self) {
        if let Some(ctx) = &self.gpu {
            ctx.device.destroy();
        }
    }

    /// The app's device, while GPU engines may run on it.
    pub fn gpu_context(&self) -> Option<&GpuContext> {
        self.gpu.as_ref()
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
                for _ in 0..gens {
                    engine.step(1)?;
                    *newest = (*newest + 1) % ring.height();
                    let row = engine.dense().expect("the cpu engine is dense").row(0);
                    ring.row_mut(*newest).copy_from_slice(row);
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
                        let (mut e, _) = registry::create("cpu", &request)?;
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
