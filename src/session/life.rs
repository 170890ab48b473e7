//! The session: the one owner of a Life-like simulation's engine, its jobs, its edits and the
//! states Reset and a GPU failure go back to. The app and the command line both drive one; the
//! app turns each command into a call here and draws what the worker publishes.
//!
//! The engine runs on a worker thread ([`super::worker`]). Nothing here waits for a generation
//! in the course of a frame: edits are queued and applied between two pieces of work, the live
//! cells' box and the cells under the view are published, and long work is a job whose typed
//! answer lands in [`Session::poll`]. Only what the user explicitly asks to read whole (a copy,
//! an analysis, an undo step) waits, for at most the piece in progress.
//!
//! When the GPU engine fails mid-run, the state at the last known good generation (the start
//! of the run, or a checkpoint read back every few seconds) goes on on a CPU engine: nothing
//! the user drew is lost.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

use crate::engine::{
    Bounds, CellRect, Engine, EngineError, EngineKind, EngineResult, Progress, Put, Universe,
};
use crate::grid::Grid;
use crate::registry::{self, Choice, Options, Request, Workload};
use crate::rule::Rule;
use crate::session::cells::Cells;
use crate::session::edit::{Edit, StrokeLog};
use crate::session::job::Reading;
use crate::session::undo::History;
use crate::session::worker::{
    JobError, JobHandle, Pace, Status, Thinned, ViewPicture, ViewRequest, Watch, Worker,
};
use crate::tiles::TileMap;

#[cfg(feature = "gpu")]
pub use crate::gpu::GpuContext;

/// Without GPU support there is never a device to hand over.
#[cfg(not(feature = "gpu"))]
#[derive(Clone)]
pub enum GpuContext {}

mod turns;

use turns::{Deferred, Unrecorded};
pub use turns::{Turned, Undone};

/// How often a running GPU simulation is read back, as the state to fall back on.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(3);

/// Generations the session plans for when it asks the registry for an engine: an open-ended run.
const PLANNED_GENERATIONS: u64 = 1 << 16;

/// The shortest go-to, or run step, for which auto considers HashLife's jumps.
const JUMP: u64 = 1 << 10;

/// A job in flight, with what its answer changes when it lands.
enum Pending {
    /// Cells changed (Step N, go to, a fill); `mark_start`: they become what Reset returns to.
    /// `switched`: the job ran on another engine, which stays (auto's choice for the job).
    Cells {
        handle: JobHandle<()>,
        mark_start: bool,
        switched: Option<Choice>,
    },
    /// A new engine: its rule, universe and the registry's choice.
    Engine {
        handle: JobHandle<()>,
        rebuilt: Box<Rebuilt>,
    },
    /// A checkpoint of the running GPU engine.
    Checkpoint(JobHandle<(Cells, u64)>),
    /// The cells written to this file, with what its format could not keep.
    Saved(JobHandle<Vec<String>>, PathBuf),
}

impl Pending {
    fn label(&self) -> &str {
        match self {
            Pending::Cells { handle, .. } | Pending::Engine { handle, .. } => &handle.label,
            Pending::Checkpoint(h) => &h.label,
            Pending::Saved(h, _) => &h.label,
        }
    }

    fn cancel(&self) {
        match self {
            Pending::Cells { handle, .. } | Pending::Engine { handle, .. } => handle.cancel(),
            Pending::Checkpoint(h) => h.cancel(),
            Pending::Saved(h, _) => h.cancel(),
        }
    }
}

/// What a state the worker reads in order with the edits becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StateFor {
    Start,
    StartAndCheckpoint,
    Checkpoint,
}

/// What a new engine brings when its job lands.
struct Rebuilt {
    rule: Rule,
    universe: Universe,
    choice: Choice,
    /// What Reset returns to: the new cells, or the start moved into the new universe.
    start: (Cells, u64),
    /// The rule Reset returns to: the new one, unless it came after the start's generation.
    start_rule: Rule,
    /// Whether `start` is also the new engine's state (a load: the GPU falls back on it).
    loaded: bool,
}

/// What a simulation keeps across engines: the seed of stochastic rules, the engine asked for
/// (`auto` or a name) and HashLife's memory.
pub struct Settings {
    pub seed: u64,
    pub wanted: String,
    pub memory: Option<u64>,
}

/// The outcome of a save, once its job has landed: the file and what its format could not
/// keep, or why it failed.
pub type Saved = Result<(PathBuf, Vec<String>), JobError>;

/// A Life-like simulation and everything done to it.
pub struct Session {
    worker: Worker,
    pub rule: Rule,
    pub universe: Universe,
    seed: u64,
    /// `auto` or an engine of the registry, as the Engine menu says.
    pub wanted: String,
    pub choice: Choice,
    /// Auto moved the simulation to HashLife for a long jump (a go-to, a run in big steps):
    /// a run watched step by step moves it back.
    jumped: bool,
    /// The device for GPU engines: none in CPU mode, nor after the GPU failed.
    gpu: Option<GpuContext>,
    memory: Option<u64>,
    /// What Reset returns to: the pattern as loaded, with the edits made at its generation,
    /// or what the user set as the start since.
    start: (Cells, u64),
    /// The start's rule: Reset puts it back, as in Golly, when the rule changed later on.
    start_rule: Rule,
    /// A state the worker reads in order with the edits, and what it becomes: Reset's start,
    /// the state to fall back on, or both.
    start_pending: Option<(Receiver<StateRead>, StateFor)>,
    /// The state to fall back on when the GPU fails.
    checkpoint: (Cells, u64),
    checkpoint_at: Instant,
    /// Why the GPU engine stopped, once it has.
    pub failure: Option<String>,
    job: Option<Pending>,
    /// The outcome of the last job that failed (shown as a notice).
    pub job_error: Option<String>,
    /// The outcome of the last save.
    pub saved: Option<Saved>,
    figures: Status,
    /// Undo and redo.
    history: History,
    /// Steps taken whose states the worker has not read yet, in order: they join the history
    /// as it reads them, a frame or a piece of work later.
    unrecorded: VecDeque<Unrecorded>,
    /// What was asked for that needs the work before it to have landed (the job in flight,
    /// the states the worker has still to read): done in order by `poll`, so that no frame
    /// waits for a piece of work.
    deferred: VecDeque<Deferred>,
    /// What the deferred undos and redos did, for the window to follow.
    turned: VecDeque<Turned>,
    /// The last edit a deferred action queued: until the worker has applied it, the figures
    /// are those of before.
    caught_up_at: u64,
}

/// Cells and generation as the worker read them, in order with the edits.
pub(super) type StateRead = EngineResult<(Cells, u64)>;

/// The registry's request for `universe` with these cells.
fn request_for(
    rule: Rule,
    universe: Universe,
    seed: u64,
    cells: &Cells,
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
            // A session shows the generations as they pass.
            stride: 1,
            from_quadtree: cells.is_quadtree(),
        });
    #[cfg(feature = "gpu")]
    {
        r.options = Options {
            memory,
            context: gpu.clone(),
            forbid_gpu: gpu.is_none(),
            ..Default::default()
        };
    }
    #[cfg(not(feature = "gpu"))]
    {
        let _ = gpu;
        r.options = Options {
            memory,
            forbid_gpu: true,
        };
    }
    r
}

/// Makes the engine and loads the cells.
fn make_engine(
    wanted: &str,
    request: &Request,
    cells: &Cells,
    generation: u64,
) -> EngineResult<(Box<dyn Engine>, Choice)> {
    let (mut e, choice) = registry::create(wanted, request)?;
    cells.load(e.as_mut())?;
    e.set_generation(generation);
    Ok((e, choice))
}

/// The cells of `from` moved to `to`. Onto a bounded universe, the middle of the old one or
/// of the plane pattern's box goes to the middle, cut down where it is larger (never wrapped
/// across the edges); onto the plane, the cells stay where they are.
fn moved(cells: Cells, from: Universe, to: Universe) -> EngineResult<Cells> {
    let Some((width, height)) = to.size() else {
        return Ok(cells);
    };
    let tiles = cells.into_tiles()?;
    // The piece kept: the middle of the old torus, or of the plane pattern's box, as much of
    // it as the new torus holds.
    let (x, y, w, h) = match from.size() {
        Some((ow, oh)) => (0, 0, ow, oh),
        None => match tiles.bounds() {
            Some(b) => (
                b.left,
                b.top,
                (b.right - b.left + 1).min(u32::MAX as i64) as u32,
                (b.bottom - b.top + 1).min(u32::MAX as i64) as u32,
            ),
            None => return Ok(Cells::default()),
        },
    };
    let (pw, ph) = (w.min(width), h.min(height));
    let src =
        crate::engine::CellRect::new(x + ((w - pw) / 2) as i64, y + ((h - ph) / 2) as i64, pw, ph);
    let at = (((width - pw) / 2) as i64, ((height - ph) / 2) as i64);
    Ok(tiles.cut(src, at).into())
}

impl Session {
    /// A simulation of `cells` on `universe`, on the engine `wanted` (or `auto`'s choice);
    /// `gpu` is the device for GPU engines, `None` to keep to the CPU.
    pub fn new(
        gpu: Option<GpuContext>,
        rule: Rule,
        universe: Universe,
        (cells, generation): (Cells, u64),
        settings: Settings,
    ) -> EngineResult<Self> {
        let Settings {
            seed,
            wanted,
            memory,
        } = settings;
        let request = request_for(rule, universe, seed, &cells, &gpu, memory);
        let (engine, choice) = make_engine(&wanted, &request, &cells, generation)?;
        let settings = Settings {
            seed,
            wanted,
            memory,
        };
        Ok(Self::with_engine(
            gpu,
            engine,
            choice,
            (rule, universe),
            (cells, generation),
            settings,
        ))
    }

    /// A session on an engine already made for `cells` (the command line's, with the
    /// registry's reason for it).
    pub fn with_engine(
        gpu: Option<GpuContext>,
        engine: Box<dyn Engine>,
        choice: Choice,
        (rule, universe): (Rule, Universe),
        (cells, generation): (Cells, u64),
        settings: Settings,
    ) -> Self {
        let Settings {
            seed,
            wanted,
            memory,
        } = settings;
        let worker = Worker::new(engine);
        worker.set_pace(Pace::PerSecond(16.0));
        let figures = worker.figures();
        Self {
            worker,
            rule,
            universe,
            seed,
            wanted,
            choice,
            jumped: false,
            gpu,
            memory,
            start: (cells.clone(), generation),
            start_rule: rule,
            start_pending: None,
            checkpoint: (cells, generation),
            checkpoint_at: Instant::now(),
            failure: None,
            job: None,
            job_error: None,
            saved: None,
            figures,
            history: History::new(History::default_bound()),
            unrecorded: VecDeque::new(),
            deferred: VecDeque::new(),
            turned: VecDeque::new(),
            caught_up_at: 0,
        }
    }

    /// The engines a session can be asked for: `auto` and every engine of the registry, each
    /// with a line that says what it is.
    pub fn engines() -> Vec<(&'static str, &'static str)> {
        let mut v = vec![(
            "auto",
            "the cheapest engine for the work, chosen again at each load",
        )];
        v.extend(registry::all().iter().map(|s| (s.name, s.summary)));
        v
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
        self.choice.kind.on_gpu()
    }

    /// The label of the job in flight, if any.
    pub fn busy(&self) -> Option<&str> {
        self.job.as_ref().map(Pending::label)
    }

    /// Engines replaced so far (a renderer binds [`Session::view_source`] again when it
    /// changes).
    pub fn engine_version(&self) -> u64 {
        self.worker.engine_version()
    }

    /// The engine's GPU buffers, where a renderer can draw from them.
    #[cfg(feature = "gpu")]
    pub fn view_source(&self) -> Option<crate::engine::ViewSource> {
        self.worker.view_source()
    }

    /// Per frame: the worker's figures, a finished job, a GPU failure, a checkpoint, the
    /// undo steps the worker has read.
    pub fn poll(&mut self) {
        self.figures = self.worker.figures();
        self.record_ready();
        self.take_start(false);
        if let Some(landed) = self.take_landed() {
            // The figures the job published before its answer, which those read above may
            // predate: a landing compares the engine it ran on with them (`adopt`).
            self.figures = self.worker.figures();
            self.land(landed);
            // A run's error is the next step's to handle (a fall-back from the GPU), even when
            // a job on the same failed engine reported its own after it.
            self.worker.clear_job_error();
            self.figures = self.worker.figures();
        }
        if let Some(error) = self.figures.error.clone() {
            let was_running = error.stopped_run();
            let error = error.to_string();
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
                Ok(access.with(|e| -> EngineResult<(Cells, u64)> {
                    Ok((Cells::read(e)?, e.generation()))
                })?)
            });
            self.job = Some(Pending::Checkpoint(h));
        }
        self.run_deferred();
    }

    /// The job in flight, once it has answered, with its answer.
    fn take_landed(&mut self) -> Option<Landed> {
        let landed = match self.job.as_ref()? {
            Pending::Cells { handle, .. } | Pending::Engine { handle, .. } => {
                Landed::Unit(handle.try_take()?)
            }
            Pending::Checkpoint(h) => Landed::Checkpoint(h.try_take()?),
            Pending::Saved(h, _) => Landed::Saved(h.try_take()?),
        };
        Some(landed)
    }

    fn land(&mut self, landed: Landed) {
        let pending = self.job.take().expect("a job landed");
        match (landed, pending) {
            (Landed::Unit(Ok(())), Pending::Engine { rebuilt, .. }) => {
                let Rebuilt {
                    rule,
                    universe,
                    choice,
                    start,
                    start_rule,
                    loaded,
                } = *rebuilt;
                self.rule = rule;
                self.start_rule = start_rule;
                self.universe = universe;
                self.choice = choice;
                if loaded {
                    self.checkpoint = start.clone();
                } else {
                    // A move: the engine's state is the moved current one.
                    self.queue_snapshot(StateFor::Checkpoint);
                }
                self.start = start;
            }
            (
                Landed::Unit(Ok(())),
                Pending::Cells {
                    mark_start,
                    switched,
                    ..
                },
            ) => {
                self.adopt(switched);
                if mark_start {
                    self.mark_start();
                }
            }
            (Landed::Unit(Err(e)), Pending::Cells { switched, .. }) => {
                // A cancelled go-to stops on the engine it ran on.
                self.adopt(switched);
                self.job_error = Some(if e.is_cancelled() {
                    "cancelled".into()
                } else {
                    e.to_string()
                });
            }
            (Landed::Checkpoint(Ok(c)), _) => {
                self.checkpoint = c;
                self.checkpoint_at = Instant::now();
            }
            (Landed::Saved(Ok(warnings)), Pending::Saved(_, path)) => {
                self.saved = Some(Ok((path, warnings)));
            }
            (Landed::Saved(Err(e)), _) => self.saved = Some(Err(e)),
            (Landed::Unit(Err(e)) | Landed::Checkpoint(Err(e)), _) => {
                self.job_error = Some(if e.is_cancelled() {
                    "cancelled".into()
                } else {
                    e.to_string()
                });
            }
            (Landed::Unit(Ok(())), _) | (Landed::Saved(Ok(_)), _) => {}
        }
    }

    /// The engine a job switched to, once the worker runs it.
    fn adopt(&mut self, switched: Option<Choice>) {
        if let Some(c) = switched.filter(|c| self.figures.engine == c.engine) {
            self.jumped = c.kind == EngineKind::HashLife;
            self.choice = c;
        }
    }

    /// The registry's request for a piece of work of `generations` on the cells as the worker
    /// last published them, looked at every `stride` (0: only at the end).
    fn job_request(&self, generations: u64, stride: u64) -> Request {
        let span = self
            .figures
            .bounds
            .or_else(|| self.start.0.bounds())
            .map_or(0, |b| b.width().saturating_mul(b.height()));
        let mut request = request_for(
            self.rule,
            self.universe,
            self.seed,
            &Cells::default(),
            &self.gpu,
            self.memory,
        );
        request.workload = Workload {
            generations,
            population: self.figures.population.unwrap_or(0),
            span,
            stride,
            from_quadtree: false,
        };
        request
    }

    /// `auto`'s engine for a piece of work of `generations`, looked at every `stride` (0: only
    /// at the end), when it is not the one running: a long go-to jumps on HashLife, a run
    /// watched generation by generation goes back to the tile engine.
    fn engine_for(&self, generations: u64, stride: u64) -> Option<Choice> {
        self.auto_choice(generations, stride)
            .filter(|choice| choice.engine != self.choice.engine)
    }

    /// `auto`'s choice for a piece of work of `generations`, looked at every `stride`, where
    /// the user left the engine to it.
    fn auto_choice(&self, generations: u64, stride: u64) -> Option<Choice> {
        if !self.wanted.eq_ignore_ascii_case("auto") {
            return None;
        }
        let request = self.job_request(generations, stride);
        registry::choose("auto", &request).ok()
    }

    /// After a GPU failure: the simulation goes on on the CPU from the last good state. Returns
    /// whether a CPU engine took over.
    fn fall_back(&mut self, error: String) -> bool {
        let lost_at = self.generation();
        self.worker.set_running(false);
        self.take_start(true);
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

    /// Waits until the worker has nothing in hand (tests and the command line; a window never
    /// waits).
    pub fn settle(&mut self) {
        while self.job.is_some() || !self.deferred.is_empty() {
            std::thread::sleep(Duration::from_millis(1));
            self.poll();
        }
        self.worker.wait_idle();
        // The figures published after everything done so far.
        self.worker.sync();
        self.poll();
        self.take_start(true);
    }

    pub fn play(&mut self) {
        // A run in big steps jumps on HashLife when auto would; one watched step by step
        // goes back to auto's engine for that, if a jump left HashLife running.
        let step = self.worker.step_size();
        let next = if step >= JUMP {
            self.engine_for(PLANNED_GENERATIONS.max(step), step)
                .filter(|c| c.kind == EngineKind::HashLife)
        } else if self.jumped {
            self.engine_for(PLANNED_GENERATIONS, step)
        } else {
            None
        };
        if self.job.is_none()
            && let Some(choice) = next
        {
            // The move is a job: the worker runs it before the run's first piece, and the
            // window does not wait for it (a large pattern's cells take a while to move).
            let wanted = self.wanted.clone();
            if self
                .rebuild_with(self.rule, self.universe, None, 0, &wanted, Some(step))
                .is_ok()
            {
                self.jumped = choice.kind == EngineKind::HashLife;
            }
        }
        if !self.figures.running {
            // Where the run starts: what the GPU falls back on (Reset goes on returning to
            // the pattern's start).
            self.queue_snapshot(StateFor::Checkpoint);
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

    /// What the worker records of each generation.
    pub fn set_watch(&self, watch: Watch) {
        if self.worker.watch() != watch {
            self.worker.set_watch(watch);
        }
    }

    /// Asks for the cells under the view; the worker reads them when it is free and after
    /// every piece of work while the request stands.
    pub fn request_view(&self, request: ViewRequest) {
        self.worker.request_view(request);
    }

    /// The latest picture of the cells under the view.
    pub fn view(&self) -> Option<ViewPicture> {
        self.worker.view()
    }

    /// Asks for the live cells' box; it arrives in the figures' `bounds` once
    /// `bounds_answer` reaches the ticket returned.
    pub fn request_bounds(&self) -> u64 {
        self.worker.request_bounds()
    }

    /// The live cells' box, when the figures answer the request with this ticket (or a later
    /// one): `Some(None)` for an empty universe.
    pub fn bounds_for(&self, ticket: u64) -> Option<Option<Bounds>> {
        (self.figures.bounds_answer >= ticket).then_some(self.figures.bounds)
    }

    /// A job is in flight: say so instead of starting another.
    fn refuse_if_busy(&self) -> Result<(), SessionError> {
        match &self.job {
            Some(p) => Err(SessionError::Busy(p.label().to_string())),
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
        while matches!(self.job, Some(Pending::Engine { .. })) {
            std::thread::sleep(Duration::from_millis(1));
            self.poll();
        }
    }

    /// Writes the cells to `path` in a job (a large torus takes a while, and the window goes
    /// on meanwhile); the outcome comes back in `saved`.
    pub fn save(
        &mut self,
        path: PathBuf,
        meta: crate::session::save::Meta,
        format: crate::pattern::Format,
    ) -> Result<(), SessionError> {
        self.refuse_if_busy()?;
        let label = format!("saving {}", path.display());
        let file = path.clone();
        let h = self.worker.submit(label, 0, move |access, _| {
            let written = access
                .with(|e| crate::session::save::text_of(e, &meta, format))
                .map_err(|e| JobError::File(format!("{e:#}")))?;
            crate::pattern::write_atomically(&file, written.text.as_bytes())
                .map_err(|e| JobError::File(format!("{}: {e}", file.display())))?;
            Ok(written.warnings)
        });
        self.job = Some(Pending::Saved(h, path));
        Ok(())
    }

    /// Runs `gens` generations in one job, under one hold of the engine, with the GPU
    /// fall-back of a run that nothing watches (`session/fallback.rs`: a device lost under it
    /// goes on on the CPU from the last checkpoint of the run, as `request` asks for it). The
    /// command line's `run`; the answer says what happened when the GPU failed.
    pub fn run_unwatched(&mut self, gens: u64, request: Request) -> JobHandle<Option<String>> {
        self.worker
            .submit(format!("run {gens}"), gens, move |access, progress| {
                Ok(access.with_box(|engine| {
                    crate::session::fallback::step_with_fallback(engine, &request, gens, progress)
                })?)
            })
    }

    /// [`Self::run_unwatched`] on the caller's thread, for a caller that would only wait for
    /// its answer (the command line's `run` with no progress bar to draw). The worker is never
    /// woken: a wake of the other core and back cost up to 0.7 ms of a 3 ms run here.
    pub fn run_here(&mut self, gens: u64, request: &Request) -> EngineResult<Option<String>> {
        let progress = Progress::new(gens);
        self.worker.run_here(|engine| {
            crate::session::fallback::step_with_fallback(engine, request, gens, &progress)
        })
    }

    /// Steps `gens` generations as a job with progress (after what is still deferred).
    pub fn step(&mut self, gens: u64) -> Result<(), SessionError> {
        if !self.deferred.is_empty() {
            self.deferred.push_back(Deferred::Step(gens));
            return Ok(());
        }
        self.step_now(gens)
    }

    fn step_now(&mut self, gens: u64) -> Result<(), SessionError> {
        self.refuse_if_busy()?;
        self.pause();
        // Only the end matters (the plot keeps a point per piece): auto's engine for that.
        let chosen = (gens >= JUMP).then(|| self.auto_choice(gens, 0)).flatten();
        // Where it is the engine running already, the reason shown is this job's, not the
        // one of the job it was chosen for.
        if let Some(c) = chosen
            .as_ref()
            .filter(|c| c.engine == self.choice.engine && c.engine == self.figures.engine)
        {
            self.choice.reason = c.reason.clone();
        }
        let switched =
            chosen.filter(|c| c.engine != self.choice.engine && c.kind == EngineKind::HashLife);
        let make = switched.as_ref().map(|_| self.job_request(gens, 0));
        let h = self
            .worker
            .submit(format!("step {gens}"), gens, move |access, progress| {
                if let Some(request) = make {
                    let (cells, generation) = access.with(|e| -> EngineResult<(Cells, u64)> {
                        Ok((Cells::read(e)?, e.generation()))
                    })?;
                    // `auto` again, for the same request: the engine chosen above, or where
                    // which one pays is not known up front (a rule file's gas or its
                    // replicator), a trial of both that goes on with the faster.
                    let (engine, _) = make_engine("auto", &request, &cells, generation)?;
                    access.replace(engine);
                }
                access.step(gens, progress)?;
                Ok(())
            });
        self.job = Some(Pending::Cells {
            handle: h,
            mark_start: false,
            switched,
        });
        Ok(())
    }

    /// Runs to generation `target` with progress; one before the current generation goes back
    /// to the start and runs forward from there, as in Golly.
    pub fn go_to(&mut self, target: u64) -> Result<(), SessionError> {
        let now = self.generation();
        if target < now || !self.deferred.is_empty() {
            // The start may still be on its way, and the job in flight must land: the frame
            // does not wait for either.
            self.cancel();
            self.pause();
            self.deferred.push_back(Deferred::GoTo(target));
            self.run_deferred();
            return Ok(());
        }
        self.step_now(target - now)
    }

    /// A go-to once the work before it has landed: forward, or back to the start and then
    /// forward, as in Golly.
    fn go_back_to(&mut self, target: u64) -> Result<(), SessionError> {
        let now = self.generation();
        if target >= now {
            return self.step_now(target - now);
        }
        let start = self.start.1;
        if target < start {
            return Err(SessionError::BeforeStart { target, start });
        }
        self.reset_now()?;
        // After Reset's own work (a new engine, when the start's rule differs).
        self.deferred.push_front(Deferred::Step(target - start));
        Ok(())
    }

    /// Cancels the job in flight; it stops at a whole generation.
    pub fn cancel(&mut self) {
        if let Some(p) = &self.job {
            p.cancel();
        }
        self.worker.cancel_jobs();
    }

    /// Cancels the job in flight and waits for it to stop (a few milliseconds).
    pub fn cancel_and_wait(&mut self) {
        self.stop_job();
    }

    /// Runs `f` on the engine as a job with progress (big edits: a fill of a huge torus);
    /// the cells become what Reset returns to.
    pub fn edit_job(
        &mut self,
        label: &str,
        f: impl FnOnce(&mut dyn Engine, &crate::engine::Progress) -> EngineResult<()> + Send + 'static,
    ) -> Result<(), SessionError> {
        self.refuse_if_busy()?;
        self.pause();
        let h = self.worker.submit(label, 0, move |access, progress| {
            Ok(access.with(|e| f(e, progress))?)
        });
        self.job = Some(Pending::Cells {
            handle: h,
            mark_start: true,
            switched: None,
        });
        Ok(())
    }

    /// Queues an edit: it is applied before the next piece of work, so that a frame never
    /// waits for one in progress. Edits and reads keep their order.
    /// Returns its ticket for [`Session::applied`].
    pub fn edit(&self, edit: Edit) -> u64 {
        self.worker.edit(edit)
    }

    /// Whether the edit with this ticket has been applied (as of the last `poll`).
    pub fn applied(&self, ticket: u64) -> bool {
        self.figures.edits_applied >= ticket
    }

    /// Draws (or erases) `cells` as part of the stroke `log`. Returns the ticket.
    pub fn draw(&self, cells: Vec<(i64, i64)>, log: &StrokeLog) -> u64 {
        self.edit(Edit::Draw {
            cells,
            log: log.clone(),
        })
    }

    /// Writes a bitmap at `at`.
    pub fn put(&self, cells: Grid, at: (i64, i64), how: Put) {
        self.edit(Edit::Put { cells, at, how });
    }

    /// Reads the engine between two pieces of work, in order with the edits: the answer comes
    /// back a frame or a piece later, and nothing waits for it meanwhile (a copy, an analysis,
    /// an autosave).
    pub fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Engine) -> EngineResult<T> + Send + 'static,
    ) -> Reading<T> {
        let (to, answer) = channel();
        self.edit(Edit::Read(Box::new(move |e| {
            let _ = to.send(f(e).map_err(JobError::from));
        })));
        Reading { answer }
    }

    /// Whether nothing asked for is still on its way: no job in flight, nothing deferred.
    pub fn idle(&self) -> bool {
        self.job.is_none() && self.deferred.is_empty()
    }

    /// Reads the engine now, after the edits queued so far: waits for the piece of work in
    /// progress. For tests and the command line, never for the window.
    pub fn read_now<R>(&self, f: impl FnOnce(&mut dyn Engine) -> R) -> R {
        self.worker.with_engine(f)
    }

    /// The cells now, as tiles, after the edits queued so far.
    pub fn export_now(&self) -> EngineResult<(TileMap, u64)> {
        self.read_now(|e| Ok((e.export()?, e.generation())))
    }

    /// The cells of a rectangle now.
    pub fn cells_now(&self, rect: CellRect) -> EngineResult<Grid> {
        self.read_now(|e| e.cells_in(rect))
    }

    /// The live cells in their box, now.
    pub fn pattern_now(&self) -> EngineResult<Grid> {
        self.read_now(|e| match e.bounds()?.and_then(|b| b.rect()) {
            Some(r) => e.cells_in(r),
            None => Ok(Grid::new(0, 0)),
        })
    }

    /// The whole torus as a grid (tests and small tori).
    pub fn grid(&self) -> EngineResult<Grid> {
        self.read_now(|e| e.grid())
    }

    /// Empties the universe (or the rectangle `rect`), back to generation 0 when it is all.
    pub fn clear(&mut self, rect: Option<CellRect>) -> Result<(), SessionError> {
        match rect {
            Some(r) => self.put(
                Grid::try_new_bitmap(r.width, r.height)?,
                (r.x, r.y),
                Put::Replace,
            ),
            None => {
                self.edit(Edit::Clear);
            }
        }
        self.mark_start();
        Ok(())
    }

    /// Empties everything outside `keep`.
    pub fn clear_outside(&mut self, keep: CellRect) {
        self.edit(Edit::KeepOnly(keep));
        self.mark_start();
    }

    /// Moves the cells to another universe (a resize, the plane and back), in a job: centred
    /// on a torus, cut down when it is smaller; where they are when going to or from the plane.
    pub fn move_to(&mut self, universe: Universe) -> Result<(), SessionError> {
        self.move_with_rule(self.rule, universe)
    }

    /// The same under another rule, in one job (a rule string with its own torus size).
    pub fn move_with_rule(&mut self, rule: Rule, universe: Universe) -> Result<(), SessionError> {
        if let Universe::Torus { width, height } = universe {
            Grid::check_torus_size(width as u64, height as u64)?;
        }
        let wanted = self.wanted.clone();
        self.rebuild_with(rule, universe, None, 0, &wanted, None)
    }

    /// Whether a job is in flight (a go-to, a step, a save, a new engine).
    pub fn job_in_flight(&self) -> bool {
        self.job.is_some()
    }

    /// Replaces the engine in a job: new cells, rule, universe or engine choice. Reset will
    /// return to the new cells.
    pub fn rebuild(
        &mut self,
        rule: Rule,
        universe: Universe,
        cells: Option<Cells>,
        generation: u64,
        wanted: &str,
    ) -> Result<(), SessionError> {
        self.rebuild_with(rule, universe, cells, generation, wanted, None)
    }

    /// `stride`: the run that follows looks every so many generations (a run in big steps),
    /// for auto's choice.
    fn rebuild_with(
        &mut self,
        rule: Rule,
        universe: Universe,
        cells: Option<Cells>,
        generation: u64,
        wanted: &str,
        stride: Option<u64>,
    ) -> Result<(), SessionError> {
        self.stop_job();
        self.pause();
        self.wanted = wanted.to_string();
        let gpu = self.gpu.clone();
        let (seed, memory) = (self.seed, self.memory);
        let from = self.universe;
        // The cells to move over: given, or the current ones (read in the job).
        let label = match &cells {
            Some(_) => format!("loading onto {}", universe.describe()),
            None => format!("moving to {}", universe.describe()),
        };
        // The registry chooses on this thread, from what the cells are known to be; the engine
        // is made and filled on the worker.
        let probe = cells.clone().unwrap_or_else(|| self.start.0.clone());
        let with_stride = move |mut r: Request| {
            if let Some(s) = stride {
                r.workload.stride = s;
                r.workload.generations = r.workload.generations.max(s);
            }
            r
        };
        let request = with_stride(request_for(rule, universe, seed, &probe, &gpu, memory));
        let choice = registry::choose(wanted, &request)?;
        let loaded = cells.is_some();
        // A move keeps the pattern's start, moved with the cells: Reset goes back to it.
        let start = match &cells {
            Some(c) => (c.clone(), generation),
            None => {
                self.take_start(true);
                let (c, g) = self.start.clone();
                (moved(c, from, universe)?, g)
            }
        };
        // A rule changed at the start's generation is the pattern's own; a later change is
        // undone by Reset.
        let start_rule = if loaded || self.generation() == start.1 {
            rule
        } else {
            self.start_rule
        };
        let engine_name = choice.engine;
        let h = self.worker.submit(label, 0, move |access, _| {
            let (cells, generation) = match cells {
                Some(c) => (c, generation),
                None => {
                    let (c, g) = access.with(|e| -> EngineResult<(Cells, u64)> {
                        Ok((Cells::read(e)?, e.generation()))
                    })?;
                    (moved(c, from, universe)?, g)
                }
            };
            let request = with_stride(request_for(rule, universe, seed, &cells, &gpu, memory));
            let (engine, _) = make_engine(engine_name, &request, &cells, generation)?;
            access.replace(engine);
            Ok(())
        });
        self.job = Some(Pending::Engine {
            handle: h,
            rebuilt: Box::new(Rebuilt {
                rule,
                universe,
                choice,
                start,
                start_rule,
                loaded,
            }),
        });
        // A move, or a new engine for a run in big steps, goes on with the plot as it is.
        if stride.is_none() && loaded {
            self.worker.clear_history();
        }
        Ok(())
    }

    /// Back to the start state, in the start's rule, once the job in flight has stopped and
    /// the start is known (a frame later, or a piece of work).
    pub fn reset(&mut self) -> Result<(), SessionError> {
        self.cancel();
        self.pause();
        self.deferred.push_back(Deferred::Reset);
        self.run_deferred();
        Ok(())
    }

    fn reset_now(&mut self) -> Result<(), SessionError> {
        self.pause();
        let (cells, generation) = self.start.clone();
        if self.rule != self.start_rule {
            let wanted = self.wanted.clone();
            return self.rebuild(
                self.start_rule,
                self.universe,
                Some(cells),
                generation,
                &wanted,
            );
        }
        self.edit(Edit::Import {
            cells: Box::new(cells),
            generation,
        });
        self.worker.clear_history();
        Ok(())
    }

    /// Puts cells back in place (an undo step on the same rule and universe).
    pub fn import(&mut self, cells: Cells, generation: u64) {
        self.edit(Edit::Import {
            cells: Box::new(cells),
            generation,
        });
        self.edited_at(generation);
    }

    /// After an edit: at the start's generation the edit is part of the pattern (the user is
    /// building it), and Reset returns to it, as in Golly; later, the start stays where it is
    /// until the user moves it (Set as start, a save).
    pub fn mark_start(&mut self) {
        self.edited_at(self.generation());
    }

    fn edited_at(&mut self, generation: u64) {
        self.worker.restart_watch();
        self.take_start(false);
        if generation == self.start.1 {
            self.start_rule = self.rule;
            self.queue_start(!self.figures.running);
        } else if !self.figures.running {
            self.queue_snapshot(StateFor::Checkpoint);
        }
    }

    /// The current cells become what Reset returns to (Set as start, a save).
    pub fn set_start(&mut self) {
        self.start_rule = self.rule;
        self.queue_start(!self.figures.running);
    }

    /// Asks the worker for the cells after the edits queued so far, as what Reset returns to
    /// (and, with `checkpoint`, the state the GPU falls back on). Nothing waits for it.
    fn queue_start(&mut self, checkpoint: bool) {
        self.queue_snapshot(if checkpoint {
            StateFor::StartAndCheckpoint
        } else {
            StateFor::Start
        });
    }

    fn queue_snapshot(&mut self, what: StateFor) {
        let (to, state) = channel();
        self.edit(Edit::Snapshot(to));
        self.start_pending = Some((state, what));
    }

    /// The start state the worker has read, once it has; `wait`: waits for it (Reset, a GPU
    /// failure, tests).
    fn take_start(&mut self, wait: bool) {
        let Some((state, checkpoint)) = &self.start_pending else {
            return;
        };
        let got = if wait {
            state.recv().ok()
        } else {
            match state.try_recv() {
                Ok(s) => Some(s),
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => None,
            }
        };
        let what = *checkpoint;
        self.start_pending = None;
        if let Some(Ok(s)) = got {
            if what != StateFor::Start {
                self.checkpoint = s.clone();
            }
            if what != StateFor::Checkpoint {
                self.start = s;
            }
        }
    }

    /// What Reset returns to.
    pub fn start_state(&self) -> &(Cells, u64) {
        &self.start
    }

    /// The last state known whole while a run goes on: where it started, or its latest
    /// checkpoint (what autosave keeps: the edits before the run are in it).
    pub fn checkpoint_state(&mut self) -> &(Cells, u64) {
        self.take_start(true);
        &self.checkpoint
    }

    /// The same without waiting: `None` while a state that may become it is on its way.
    pub fn known_checkpoint(&mut self) -> Option<(Cells, u64)> {
        self.take_start(false);
        self.start_pending
            .is_none()
            .then(|| self.checkpoint.clone())
    }

    pub fn history(&self) -> Vec<(u64, u64)> {
        self.worker.history()
    }

    pub fn thinned_history(&self) -> Thinned {
        self.worker.thinned_history()
    }

    pub fn set_history(&self, history: Thinned) {
        self.worker.set_history(history);
    }

    /// Simulates a GPU failure (tests): the device is destroyed under the running engine.
    pub fn destroy_device_for_test(&self) {
        #[cfg(feature = "gpu")]
        if let Some(ctx) = &self.gpu {
            ctx.device.destroy();
        }
    }

    /// The device, while GPU engines may run on it.
    pub fn gpu_context(&self) -> Option<&GpuContext> {
        self.gpu.as_ref()
    }
}

/// A job's answer, by what it returns.
enum Landed {
    Unit(Result<(), JobError>),
    Checkpoint(Result<(Cells, u64), JobError>),
    Saved(Result<Vec<String>, JobError>),
}

/// Why the session did not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Grid(#[from] crate::grid::GridError),
    #[error("busy with {0} (Esc or Cancel stops it)")]
    Busy(String),
    #[error("generation {target} is before the start of this pattern, generation {start}")]
    BeforeStart { target: u64, start: u64 },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::TileMap;

    fn cells(list: &[(i64, i64)]) -> Cells {
        let mut t = TileMap::new();
        for &(x, y) in list {
            t.set(x, y, true);
        }
        t.into()
    }

    fn sorted(c: Cells) -> Vec<(i64, i64)> {
        let mut v: Vec<_> = c.into_tiles().unwrap().cells().collect();
        v.sort();
        v
    }

    #[test]
    fn a_plane_pattern_moves_to_the_middle_of_a_torus_cut_to_its_size() {
        // A row from x = -100 to -91 onto a 4x4 torus: its middle four cells, in the middle
        // rows, never wrapped.
        let row: Vec<_> = (-100..=-91).map(|x| (x, -7)).collect();
        let got = moved(cells(&row), Universe::Plane, Universe::torus(4, 4)).unwrap();
        assert_eq!(sorted(got), vec![(0, 1), (1, 1), (2, 1), (3, 1)]);
        // Onto the plane, nothing moves.
        let back = moved(cells(&row), Universe::torus(4, 4), Universe::Plane).unwrap();
        assert_eq!(sorted(back), row);
        // A torus onto a larger one: the old torus's middle goes to the new one's.
        let got = moved(
            cells(&[(0, 0), (9, 9)]),
            Universe::torus(10, 10),
            Universe::torus(20, 20),
        )
        .unwrap();
        assert_eq!(sorted(got), vec![(5, 5), (14, 14)]);
    }
}
