//! A simulation on its own thread. The thread that owns a [`Worker`] (the app's UI thread)
//! never steps an engine: it says what it wants (run at a pace, step N, any job with progress)
//! and reads what the worker publishes (generation, population, the rate achieved, the cells
//! under the view). The one exception is an owner with nothing else to do while it waits, the
//! command line's `run`, which steps on its own thread ([`Worker::run_here`]); the worker's
//! thread starts only when something is asked of it. Long work runs in pieces of a few
//! milliseconds, so that the published state stays fresh, cancelling takes effect at once, and
//! the engine is never held for long.
//!
//! The engine sits in a mutex that the worker takes piece by piece; the owner may take it
//! between pieces for quick reads and edits ([`Worker::with_engine`]), and the worker makes way
//! for it. A job that fails on a GPU engine can be retried on the CPU from a checkpoint; that
//! policy belongs to the caller.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineResult, Progress, Work};
use crate::session::edit::Edit;
pub use crate::session::history::Thinned;
use crate::session::job::JobResult;
pub use crate::session::job::{JobError, JobHandle};
pub use crate::session::pace::Pace;
pub use crate::session::status::{Busy, Status, Watch, WorkError};
pub use crate::session::view::{ViewCells, ViewPicture, ViewRequest};

mod thread;
use thread::{advance, next_piece, worker_loop};

/// What the worker runs of a job: it sends the answer itself, and returns its error's text
/// for the status line.
type Run = Box<dyn FnOnce(&Access, &Progress) -> Option<String> + Send>;

/// A job as the worker holds it.
struct Job {
    pub label: String,
    pub progress: Arc<Progress>,
    pub run: Run,
}

/// A job and the handle its answer comes back through.
fn job<T: Send + 'static>(
    label: String,
    total: u64,
    run: impl FnOnce(&Access, &Progress) -> JobResult<T> + Send + 'static,
) -> (Job, JobHandle<T>) {
    let (tx, rx): (Sender<JobResult<T>>, _) = channel();
    let progress = Arc::new(Progress::new(total));
    let job = Job {
        label: label.clone(),
        progress: progress.clone(),
        run: Box::new(move |access, progress| {
            let result = run(access, progress);
            let error = result.as_ref().err().map(|e| e.to_string());
            // The figures (the engine's name among them) are the job's before its answer is.
            access.shared.publish_figures(true);
            let _ = tx.send(result);
            error
        }),
    };
    (
        job,
        JobHandle {
            progress,
            answer: rx,
            label,
        },
    )
}

#[derive(Default)]
struct Control {
    running: bool,
    pace: Option<Pace>,
    /// Generations per step (HashLife's 2^k); a run advances in whole steps.
    step: u64,
    stop_at: Option<u64>,
    jobs: Vec<Job>,
    /// Edits to apply before the next piece of work, in order, and how many were ever queued.
    edits: Vec<Edit>,
    edits_queued: u64,
    /// The latest request for the live cells' box, and the latest one answered.
    bounds_asked: u64,
    bounds_answered: u64,
    view: Option<ViewRequest>,
    view_dirty: bool,
    quit: bool,
    /// Asks the worker to publish the engine's figures (after an edit by the owner).
    refresh: bool,
    watch: Watch,
}

struct Shared {
    engine: Mutex<Box<dyn Engine>>,
    control: Mutex<Control>,
    wake: Condvar,
    status: Mutex<Status>,
    view: Mutex<Option<ViewPicture>>,
    /// Set while the owner waits for the engine: the worker pauses between pieces.
    owner_waiting: AtomicBool,
    version: AtomicU64,
    repeats: Mutex<crate::session::repeat::RepeatWatch>,
    /// When the live cells' box was last published.
    bounds_at: Mutex<Option<Instant>>,
    /// The engine's GPU buffers for a renderer, and a count of engine replacements (a
    /// renderer binds them again when it changes).
    #[cfg(feature = "gpu")]
    source: Mutex<Option<crate::engine::ViewSource>>,
    engines: AtomicU64,
}

/// The engine, as a job reaches it: a piece at a time.
pub struct Access {
    shared: Arc<Shared>,
}

impl Access {
    /// Runs `f` on the engine. Keep `f` short (a piece of work): the owner waits meanwhile.
    pub fn with<R>(&self, f: impl FnOnce(&mut dyn Engine) -> R) -> R {
        self.shared.make_way();
        let mut e = lock(&self.shared.engine);
        self.shared.apply_edits(e.as_mut());
        f(e.as_mut())
    }

    /// Runs `f` on the engine's box, which `f` may replace (a GPU engine that fails and goes
    /// on on the CPU); the view and the figures follow the engine that is there after it.
    pub fn with_box<R>(&self, f: impl FnOnce(&mut Box<dyn Engine>) -> R) -> R {
        self.shared.make_way();
        let mut e = lock(&self.shared.engine);
        self.shared.apply_edits(e.as_mut());
        let r = f(&mut e);
        self.shared.note_engine(e.as_ref());
        drop(e);
        lock(&self.shared.control).view_dirty = true;
        r
    }

    /// Replaces the engine (a load, a resize, a rule change).
    pub fn replace(&self, engine: Box<dyn Engine>) {
        self.shared.make_way();
        self.shared.note_engine(engine.as_ref());
        *lock(&self.shared.engine) = engine;
        lock(&self.shared.control).view_dirty = true;
    }

    /// Steps `gens` in pieces of about the engine's `piece_ms`, publishing as it goes; stops at a whole
    /// generation when `progress` is cancelled. Returns the generations done.
    ///
    /// A jumping engine's step costs about the same whatever its length, so its pieces are whole
    /// strides of a power of two, one plot point each (a few hundred over the job), and a stride
    /// that makes more than [`STRIDE_NODES`] doubles: the points are then what the job spends
    /// its time on. A go-to of 2^20 on metapixel-galaxy took about 30 s in pieces of a few
    /// hundred generations (the 15 ms a piece may take), where one jump takes 0.2 s. Cheap
    /// strides go several to a piece, up to the piece's time; a piece holds the engine for one
    /// stride at most beyond that, never for the whole job (the owner may be waiting for it).
    pub fn step(&self, gens: u64, progress: &Progress) -> EngineResult<u64> {
        let mut done = 0;
        let mut piece = 1u64;
        // A jumping engine's stride, set when one is first seen, and its strides a piece.
        let mut stride: Option<u64> = None;
        let mut strides = 1u64;
        let plot_stride = prev_power_of_two((gens / PLOT_POINTS).max(1));
        // A jumping engine's strides this piece and the nodes they made, where it counts them.
        type Jumped = Option<(u64, Option<u64>)>;
        while done < gens && !progress.cancelled() {
            let t = Instant::now();
            let watch = lock(&self.shared.control).watch;
            let (did, target_ms, jumped) = self.with(|e| -> EngineResult<(u64, f64, Jumped)> {
                let left = gens - done;
                let jumps = e.jumps();
                let (n, s) = if jumps {
                    let s = *stride.get_or_insert(plot_stride);
                    (s.saturating_mul(strides).min(left), s)
                } else {
                    let n = piece.min(left);
                    (n, if watch.populations { plot_stride } else { n })
                };
                let before = e.work().and_then(Work::nodes_made);
                let did = advance(&self.shared, e, n, s, progress, watch)?;
                let made = e
                    .work()
                    .and_then(Work::nodes_made)
                    .zip(before)
                    .map(|(a, b)| a.saturating_sub(b));
                Ok((did, e.piece_ms(), jumps.then_some((n.div_ceil(s), made))))
            })?;
            done += did;
            self.shared.publish_figures(false);
            let took = t.elapsed();
            match (stride.as_mut(), jumped) {
                (Some(s), Some((taken, Some(made)))) => {
                    // By the nodes a stride makes, not the clock: the same job leaves the same
                    // plot on a loaded machine.
                    let per_stride = made / taken.max(1);
                    if per_stride > STRIDE_NODES {
                        *s = s.saturating_mul(2);
                        strides = (strides / 2).max(1);
                    } else if per_stride < STRIDE_NODES / 8 && *s > plot_stride {
                        // Cheap again (acorn once its first 5000 generations are past): the
                        // plot's points come back.
                        *s /= 2;
                    } else if took.as_secs_f64() * 1000.0 < target_ms {
                        strides = strides.saturating_mul(2);
                    }
                }
                _ => piece = next_piece(piece, did, took, target_ms),
            }
        }
        Ok(done)
    }
}

/// The most nodes a jumping engine's stride (one plot point) may make before it doubles, a
/// few milliseconds of HashLife's (2-5 million nodes a second here): a job of a few hundred
/// points then spends at most about a second on them.
const STRIDE_NODES: u64 = 1 << 14;

/// The plot points a long job on a jumping engine leaves, at least.
const PLOT_POINTS: u64 = 256;

/// The largest power of two at most `n` (n ≥ 1).
fn prev_power_of_two(n: u64) -> u64 {
    1 << (63 - n.max(1).leading_zeros())
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Shared {
    /// A new engine: its buffers for a renderer, and one more replacement counted.
    fn note_engine(&self, engine: &dyn Engine) {
        #[cfg(feature = "gpu")]
        {
            *lock(&self.source) = engine.view_source();
        }
        #[cfg(not(feature = "gpu"))]
        let _ = engine;
        self.engines.fetch_add(1, Ordering::Release);
    }

    /// Applies the edits queued so far, with the engine in hand. An edit that fails says so on
    /// the status line.
    fn apply_edits(&self, e: &mut dyn Engine) {
        let (edits, queued) = {
            let mut c = lock(&self.control);
            (std::mem::take(&mut c.edits), c.edits_queued)
        };
        if edits.is_empty() {
            return;
        }
        for edit in edits {
            if let Err(err) = edit.apply(e) {
                lock(&self.status).error = Some(WorkError::Edit(Arc::new(err)));
            }
        }
        {
            // The generation with the ticket: whoever waits for these edits (a go-to after an
            // undo) counts from the generation they left.
            let mut s = lock(&self.status);
            s.edits_applied = queued;
            s.generation = e.generation();
        }
        let mut c = lock(&self.control);
        c.refresh = true;
        c.view_dirty = true;
    }

    /// Answers the latest request for the live cells' box.
    fn answer_bounds(&self, ticket: u64) {
        let bounds = {
            let mut e = lock(&self.engine);
            self.apply_edits(e.as_mut());
            e.bounds().ok().flatten()
        };
        let mut s = lock(&self.status);
        s.bounds = bounds;
        s.bounds_answer = ticket;
        self.bump(&mut s);
    }

    /// Waits while the owner wants the engine.
    fn make_way(&self) {
        let mut spins = 0;
        while self.owner_waiting.load(Ordering::Acquire) && spins < 200 {
            std::thread::sleep(Duration::from_micros(250));
            spins += 1;
        }
    }

    fn bump(&self, s: &mut Status) {
        s.version = self.version.fetch_add(1, Ordering::Relaxed) + 1;
    }

    /// Publishes generation and population (and a point of the plot).
    fn publish_figures(&self, force_point: bool) {
        let want_bounds = lock(&self.control).watch.bounds && {
            let mut at = lock(&self.bounds_at);
            let due = at.is_none_or(|t| t.elapsed() >= Duration::from_millis(100));
            if due {
                *at = Some(Instant::now());
            }
            due || force_point
        };
        let (name, generation, population, gpu_current, bounds) = {
            let mut e = lock(&self.engine);
            let gpu_current = e.current_buffer();
            let bounds = want_bounds.then(|| e.bounds().ok().flatten());
            (
                e.name(),
                e.generation(),
                e.population().ok(),
                gpu_current,
                bounds,
            )
        };
        let repeat = lock(&self.repeats).found();
        let mut s = lock(&self.status);
        s.repeat = repeat;
        if let Some(b) = bounds {
            s.bounds = b;
        }
        s.engine = name;
        s.gpu_current = gpu_current;
        s.generation = generation;
        s.population = population;
        if let Some(p) = population {
            s.history.record(generation, p, force_point);
        }
        self.bump(&mut s);
        lock(&self.control).view_dirty = true;
    }
}

pub struct Worker {
    shared: Arc<Shared>,
    /// Started by the first thing that needs it (a job, a run, an edit or a view asked for).
    /// An owner that only holds the engine itself ([`Worker::run_here`], a headless run) never
    /// starts it: on a small virtual machine, starting a thread and waking it on the other core
    /// and back costs as much as a short run.
    thread: OnceLock<JoinHandle<()>>,
}

impl Worker {
    pub fn new(engine: Box<dyn Engine>) -> Worker {
        let shared = Arc::new(Shared {
            engine: Mutex::new(engine),
            control: Mutex::new(Control {
                pace: Some(Pace::PerSecond(16.0)),
                step: 1,
                ..Default::default()
            }),
            wake: Condvar::new(),
            status: Mutex::new(Status::default()),
            view: Mutex::new(None),
            owner_waiting: AtomicBool::new(false),
            version: AtomicU64::new(0),
            repeats: Mutex::new(Default::default()),
            bounds_at: Mutex::new(None),
            #[cfg(feature = "gpu")]
            source: Mutex::new(None),
            engines: AtomicU64::new(0),
        });
        shared.note_engine(lock(&shared.engine).as_ref());
        shared.publish_figures(true);
        Worker {
            shared,
            thread: OnceLock::new(),
        }
    }

    /// The worker's thread, started if it was not.
    fn start(&self) {
        self.thread.get_or_init(|| {
            let s = self.shared.clone();
            std::thread::Builder::new()
                .name("lifelab worker".into())
                .spawn(move || worker_loop(s))
                .expect("a thread can be started")
        });
    }

    fn control(&self) -> MutexGuard<'_, Control> {
        lock(&self.shared.control)
    }

    /// Wakes the worker for what was just asked of it, starting it if need be.
    fn poke(&self) {
        self.start();
        self.shared.wake.notify_all();
    }

    /// Wakes the worker if it has started: for what matters only to a worker that runs
    /// (a pace, figures to publish after the owner held the engine); one that starts later
    /// finds it in the control.
    fn nudge(&self) {
        if self.thread.get().is_some() {
            self.shared.wake.notify_all();
        }
    }

    pub fn status(&self) -> Status {
        lock(&self.shared.status).clone()
    }

    /// The status without the plot's history (cheap, every frame).
    pub fn figures(&self) -> Status {
        let s = lock(&self.shared.status);
        Status {
            history: Thinned::default(),
            busy: s.busy.clone(),
            error: s.error.clone(),
            ..*s
        }
    }

    pub fn history(&self) -> Vec<(u64, u64)> {
        lock(&self.shared.status).history.points().to_vec()
    }

    /// The plot's history as kept (for an undo step).
    pub fn thinned_history(&self) -> Thinned {
        lock(&self.shared.status).history.clone()
    }

    /// Puts back a plot history an undo step kept.
    pub fn set_history(&self, history: Thinned) {
        let mut s = lock(&self.shared.status);
        s.history = history;
        self.shared.bump(&mut s);
    }

    pub fn set_running(&self, running: bool) {
        {
            let mut c = self.control();
            c.running = running;
        }
        let mut s = lock(&self.shared.status);
        s.running = running;
        s.stopped_after = None;
        if !running {
            s.rate = 0.0;
        }
        self.shared.bump(&mut s);
        drop(s);
        self.poke();
    }

    pub fn is_running(&self) -> bool {
        self.control().running
    }

    pub fn set_pace(&self, pace: Pace) {
        self.control().pace = Some(pace);
        self.nudge();
    }

    pub fn pace(&self) -> Pace {
        self.control().pace.unwrap_or(Pace::Max)
    }

    /// What to record of every generation (see [`Watch`]).
    pub fn set_watch(&self, watch: Watch) {
        let was = std::mem::replace(&mut self.control().watch, watch);
        if watch.repeats && !was.repeats {
            lock(&self.shared.repeats).restart(false);
        }
        if !watch.repeats && was.repeats {
            lock(&self.shared.repeats).restart(false);
            // The hash costs the dense engine a pass per generation: stop paying for it. Queued,
            // so that the window never waits for a piece of work (a HashLife stride can take a
            // second).
            self.edit(Edit::StopHashing);
        }
        self.control().refresh = true;
        self.poke();
    }

    pub fn watch(&self) -> Watch {
        self.control().watch
    }

    /// The state was set here (a load, an edit): a repeat found from now on began no earlier.
    pub fn restart_watch(&self) {
        lock(&self.shared.repeats).restart(true);
        lock(&self.shared.status).repeat = None;
    }

    /// Generations per step (a power of two for HashLife's jumps).
    pub fn set_step(&self, step: u64) {
        self.control().step = step.max(1);
        self.poke();
    }

    pub fn step_size(&self) -> u64 {
        self.control().step
    }

    /// A run stops when it reaches this generation (screenshots, "go to").
    pub fn set_stop_at(&self, stop: Option<u64>) {
        self.control().stop_at = stop;
        self.poke();
    }

    /// Asks for the cells under the view; the worker reads them when it is free and again after
    /// every piece of work while the request stands.
    pub fn request_view(&self, request: ViewRequest) {
        let mut c = self.control();
        if c.view != Some(request) {
            c.view = Some(request);
            c.view_dirty = true;
            drop(c);
            self.poke();
        }
    }

    /// Engines replaced so far: a renderer that bound [`Worker::view_source`] binds again
    /// when it changes.
    pub fn engine_version(&self) -> u64 {
        self.shared.engines.load(Ordering::Acquire)
    }

    /// The engine's GPU buffers, where a renderer can draw from them; read without waiting
    /// for the engine.
    #[cfg(feature = "gpu")]
    pub fn view_source(&self) -> Option<crate::engine::ViewSource> {
        lock(&self.shared.source).clone()
    }

    /// The latest picture of the cells under the view.
    pub fn view(&self) -> Option<ViewPicture> {
        lock(&self.shared.view).clone()
    }

    /// Runs `f` on the engine from the owner's thread: for quick reads and edits. The worker
    /// stops between pieces of work meanwhile.
    pub fn with_engine<R>(&self, f: impl FnOnce(&mut dyn Engine) -> R) -> R {
        self.hold(|e| f(e.as_mut()))
    }

    /// Runs `f` on the engine's box from the owner's thread, for as long as it takes, as a
    /// job's [`Access::with_box`] does on the worker's: for an owner that would only wait for
    /// the job's answer (the command line's `run`), with no handoff to the worker and back.
    /// `f` may replace the engine.
    pub fn run_here<R>(&self, f: impl FnOnce(&mut Box<dyn Engine>) -> R) -> R {
        self.hold(|e| {
            let r = f(e);
            self.shared.note_engine(e.as_ref());
            r
        })
    }

    fn hold<R>(&self, f: impl FnOnce(&mut Box<dyn Engine>) -> R) -> R {
        self.shared.owner_waiting.store(true, Ordering::Release);
        let r = {
            let mut e = lock(&self.shared.engine);
            self.shared.apply_edits(e.as_mut());
            f(&mut e)
        };
        self.shared.owner_waiting.store(false, Ordering::Release);
        let mut c = self.control();
        c.refresh = true;
        c.view_dirty = true;
        drop(c);
        self.nudge();
        r
    }

    /// Replaces the engine from the owner's thread (after a failure, say).
    pub fn replace_engine(&self, engine: Box<dyn Engine>) {
        self.shared.owner_waiting.store(true, Ordering::Release);
        self.shared.note_engine(engine.as_ref());
        *lock(&self.shared.engine) = engine;
        self.shared.owner_waiting.store(false, Ordering::Release);
        lock(&self.shared.status).history.clear();
        self.control().refresh = true;
        self.poke();
    }

    /// Forgets a job's error, but not one that stopped a run: the owner deals with that next.
    pub fn clear_job_error(&self) {
        let mut s = lock(&self.shared.status);
        if !s.error.as_ref().is_some_and(WorkError::stopped_run) {
            s.error = None;
        }
    }

    /// Forgets the last error (once the owner has dealt with it).
    pub fn clear_error(&self) {
        let mut s = lock(&self.shared.status);
        s.error = None;
    }

    /// Starts the plot's history afresh from the current generation.
    pub fn clear_history(&self) {
        lock(&self.shared.status).history.clear();
        self.restart_watch();
        self.control().refresh = true;
        self.poke();
    }

    /// Like [`Worker::with_engine`], but only if the engine is free now.
    pub fn try_engine<R>(&self, f: impl FnOnce(&mut dyn Engine) -> R) -> Option<R> {
        let mut e = self.shared.engine.try_lock().ok()?;
        Some(f(e.as_mut()))
    }

    /// Starts a job: it runs on the worker with `progress` (total `total`), between two pieces
    /// of a run in progress, and its typed answer comes back through the handle.
    pub fn submit<T: Send + 'static>(
        &self,
        label: impl Into<String>,
        total: u64,
        run: impl FnOnce(&Access, &Progress) -> JobResult<T> + Send + 'static,
    ) -> JobHandle<T> {
        let (job, handle) = job(label.into(), total, run);
        self.control().jobs.push(job);
        self.poke();
        handle
    }

    /// Steps `gens` generations as a job with progress (Step N); the answer is the
    /// generations done.
    pub fn step(&self, gens: u64) -> JobHandle<u64> {
        self.submit(format!("step {gens}"), gens, move |access, progress| {
            Ok(access.step(gens, progress)?)
        })
    }

    /// Queues an edit: the worker applies it before its next piece of work, so the owner
    /// never waits for one in progress.
    /// Returns the edit's ticket: [`Status::edits_applied`] reaches it once it is applied.
    pub fn edit(&self, edit: Edit) -> u64 {
        let mut c = self.control();
        c.edits.push(edit);
        c.edits_queued += 1;
        let ticket = c.edits_queued;
        drop(c);
        self.poke();
        ticket
    }

    /// Tickets handed out so far: the last edit queued has this one.
    pub fn edits_queued(&self) -> u64 {
        self.control().edits_queued
    }

    /// Asks for the live cells' box; the worker answers between two pieces of work, in
    /// [`Status::bounds`], with [`Status::bounds_answer`] at least the ticket returned.
    pub fn request_bounds(&self) -> u64 {
        let mut c = self.control();
        c.bounds_asked += 1;
        let ticket = c.bounds_asked;
        drop(c);
        self.poke();
        ticket
    }

    /// Cancels every job queued or running.
    pub fn cancel_jobs(&self) {
        for j in &self.control().jobs {
            j.progress.cancel();
        }
        if let Some(b) = &lock(&self.shared.status).busy {
            b.progress.cancel();
        }
    }

    /// Waits until the worker has published its figures after everything asked of it so far
    /// (tests; a window never waits). Gives up after ten seconds.
    pub fn sync(&self) {
        let before = lock(&self.shared.status).version;
        let queued = {
            let mut c = self.control();
            c.refresh = true;
            c.edits_queued
        };
        self.poke();
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            let s = lock(&self.shared.status);
            if s.version > before
                && s.busy.is_none()
                && s.edits_applied >= queued
                && !self.control().refresh
            {
                return;
            }
            drop(s);
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// Waits until no job is queued or running (tests, shutdown).
    pub fn wait_idle(&self) {
        loop {
            let idle = self.control().jobs.is_empty() && lock(&self.shared.status).busy.is_none();
            if idle {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel_jobs();
        {
            let mut c = self.control();
            c.quit = true;
            c.running = false;
        }
        self.nudge();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_history_stays_evenly_spread() {
        let mut h = Thinned::default();
        for g in 0..=1_000_000u64 {
            h.record(g, g % 7, false);
        }
        let p = h.points();
        assert!(p.len() <= Thinned::MAX);
        assert_eq!(p.first().unwrap().0, 0);
        assert_eq!(p.last().unwrap().0, 1_000_000);
        // Every gap is the stride (the last one may be shorter).
        let widest = p.windows(2).map(|w| w[1].0 - w[0].0).max().unwrap();
        assert!(widest <= 64, "{widest}");
        // Back in time: later points go.
        h.record(10, 3, false);
        assert_eq!(h.points().last(), Some(&(10, 3)));
    }
    use crate::engine::Universe;
    use crate::registry::{Request, create};
    use crate::rule::Rule;

    fn worker() -> Worker {
        let (e, _) = create(
            "tiles",
            &Request::new(Rule::life(), Universe::torus(64, 64)),
        )
        .unwrap();
        Worker::new(e)
    }

    /// A view of two million cells on the dense engine is read in bands; joined, they are the
    /// cells (and the samples) a whole read gives.
    #[test]
    fn a_large_view_read_in_bands_is_the_whole_read() {
        let (w, h) = (2048u32, 1024u32);
        let (mut e, _) = create("cpu", &Request::new(Rule::life(), Universe::torus(w, h))).unwrap();
        assert!(e.view_costs_area());
        let mut g = crate::grid::Grid::new(w, h);
        let mut v: u64 = 0x9E37_79B9_7F4A_7C15;
        for y in 0..h {
            for x in 0..w {
                v ^= v << 13;
                v ^= v >> 7;
                v ^= v << 17;
                g.set(x, y, v.is_multiple_of(3));
            }
        }
        e.set_grid(&g, 0).unwrap();
        let rect = crate::engine::CellRect::new(0, 0, w, h);
        let whole = e.sample(rect, 4).unwrap();
        let worker = Worker::new(e);
        for block in [1, 4] {
            let request = ViewRequest { rect, block };
            worker.request_view(request);
            let t = Instant::now();
            let picture = loop {
                if let Some(p) = worker.view().filter(|p| p.request == request) {
                    break p;
                }
                assert!(t.elapsed() < Duration::from_secs(20), "no view");
                std::thread::sleep(Duration::from_millis(5));
            };
            match (block, picture.cells) {
                (1, ViewCells::Cells(cells)) => assert_eq!(cells, g),
                (4, ViewCells::Sampled(s)) => {
                    assert_eq!((s.columns, s.rows), (whole.columns, whole.rows));
                    assert_eq!(s.values, whole.values);
                }
                (b, other) => panic!("block {b}: {other:?}"),
            }
        }
    }

    #[test]
    fn an_owner_that_holds_the_engine_itself_never_starts_the_thread() {
        let w = worker();
        w.set_pace(Pace::Max);
        w.with_engine(|e| e.set_cell(10, 10, true)).unwrap();
        w.with_engine(|e| e.set_cell(11, 10, true)).unwrap();
        w.with_engine(|e| e.set_cell(12, 10, true)).unwrap();
        let did = w.run_here(|e| e.step(5));
        assert!(did.is_ok());
        // A blinker after five generations: vertical.
        let cells: Vec<bool> = w.with_engine(|e| {
            [(11, 9), (11, 10), (11, 11), (10, 10)]
                .map(|(x, y)| e.cell(x, y).unwrap())
                .to_vec()
        });
        assert_eq!(cells, [true, true, true, false]);
        assert!(w.thread.get().is_none(), "the worker's thread started");
        // The first thing asked of the worker starts it, and it publishes what the owner did.
        w.sync();
        assert!(w.thread.get().is_some());
        assert_eq!((w.status().generation, w.status().population), (5, Some(3)));
    }

    #[test]
    fn a_step_job_reports_progress_and_lands_on_its_generation() {
        let w = worker();
        w.with_engine(|e| e.set_cell(10, 10, true)).unwrap();
        let h = w.step(100);
        let done = h.wait().unwrap();
        assert_eq!(done, 100);
        w.wait_idle();
        assert_eq!(w.status().generation, 100);
    }

    /// HashLife with acorn, the plot watched.
    fn jumping_worker() -> Worker {
        let (mut e, _) = create("hashlife", &Request::new(Rule::life(), Universe::Plane)).unwrap();
        for (x, y) in [(1, 0), (3, 1), (0, 2), (1, 2), (4, 2), (5, 2), (6, 2)] {
            e.set_cell(x, y, true).unwrap();
        }
        let w = Worker::new(e);
        w.set_watch(Watch {
            populations: true,
            ..Watch::default()
        });
        w
    }

    /// A long job on a jumping engine, in strides that double where a stride is slow, lands on
    /// its generation: acorn is stable from generation 5206 with 633 cells (LifeWiki), its
    /// gliders included. The plot has the job's end, and points in order.
    #[test]
    fn a_long_job_on_a_jumping_engine_lands_on_its_generation() {
        let w = jumping_worker();
        let h = w.step(1 << 20);
        assert_eq!(h.wait().unwrap(), 1 << 20);
        w.wait_idle();
        w.sync();
        let s = w.status();
        assert_eq!((s.generation, s.population), (1 << 20, Some(633)));
        let plot = w.history();
        assert_eq!(plot.last(), Some(&(1 << 20, 633)));
        assert!(plot.windows(2).all(|p| p[0].0 < p[1].0), "{plot:?}");
        assert!(plot.len() >= 8, "{} points", plot.len());
    }

    /// A cancel reaches inside a jumping engine's stride: a job of 2^40 generations of a soup
    /// of `B3/S2-a34`, which grows without end, stops at the whole generation it reports.
    #[test]
    fn cancelling_a_jumping_engine_s_job_stops_inside_its_stride() {
        let rule: Rule = "B3/S2-a34".parse().unwrap();
        let (mut e, _) = create("hashlife", &Request::new(rule, Universe::Plane)).unwrap();
        let mut soup = crate::grid::Grid::new(64, 64);
        soup.fill_random(0.4, 3);
        e.put(&soup, (0, 0), crate::engine::Put::Or).unwrap();
        let w = Worker::new(e);
        let h = w.step(1 << 40);
        std::thread::sleep(Duration::from_millis(30));
        h.cancel();
        let done = h.wait().unwrap();
        w.wait_idle();
        assert_eq!(w.status().generation, done);
        assert!(done < 1 << 40);
    }

    #[test]
    fn cancelling_stops_at_a_whole_generation() {
        let w = worker();
        let h = w.step(u64::MAX / 2);
        std::thread::sleep(Duration::from_millis(30));
        h.cancel();
        let done = h.wait().unwrap();
        w.wait_idle();
        assert_eq!(w.status().generation, done);
        assert!(done < u64::MAX / 2);
    }

    #[test]
    fn a_run_stops_at_the_generation_asked_for() {
        let w = worker();
        w.set_pace(Pace::Max);
        w.set_stop_at(Some(500));
        w.set_running(true);
        let t = Instant::now();
        while w.is_running() && t.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(w.status().generation, 500);
    }

    /// Runs `engine` on the plane from acorn at step `step` and full speed for a while, then
    /// pauses: the generation is a whole number of steps from 0, and on a jumping engine the
    /// plot has a point at every step.
    fn run_at_step(engine: &str, step: u64) -> (u64, Vec<(u64, u64)>) {
        let (e, _) = create(engine, &Request::new(Rule::life(), Universe::Plane)).unwrap();
        let w = Worker::new(e);
        let acorn = crate::pattern::library::get("acorn").unwrap();
        w.with_engine(|e| -> crate::engine::EngineResult<()> {
            for (x, y) in acorn.cells.alive_cells() {
                e.set_cell(x as i64, y as i64, true)?;
            }
            Ok(())
        })
        .unwrap();
        w.set_watch(Watch {
            populations: true,
            ..Default::default()
        });
        w.set_step(step);
        w.set_pace(Pace::Max);
        w.set_running(true);
        std::thread::sleep(Duration::from_millis(400));
        w.set_running(false);
        w.wait_idle();
        let s = w.status();
        (s.generation, s.history.points().to_vec())
    }

    #[test]
    fn a_run_at_step_2_to_the_k_moves_in_whole_steps() {
        // (engine, step, whether it jumps)
        for (engine, step, jumps) in [("tiles", 8, false), ("hashlife", 1024, true)] {
            let (generation, points) = run_at_step(engine, step);
            assert!(generation >= step, "{engine}: {generation}");
            assert_eq!(generation % step, 0, "{engine}: paused at {generation}");
            // The tile engine records every generation for the plot; HashLife one per step.
            if jumps {
                for &(g, _) in &points {
                    assert_eq!(g % step, 0, "{engine}: a point at {g}");
                }
                // Step by step, not one jump per piece: the widest gap is a step, or the
                // plot's thinning stride once the points pass its bound (a doubling piece
                // would leave a gap of half the run).
                let widest = points.windows(2).map(|w| w[1].0 - w[0].0).max().unwrap();
                let stride = generation / (Thinned::MAX as u64 / 4);
                assert!(
                    widest <= step.max(stride),
                    "{engine}: a gap of {widest} in {} points to {generation}",
                    points.len()
                );
            }
        }
    }
}
