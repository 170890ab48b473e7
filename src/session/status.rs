//! What the worker publishes after every piece of work, and what it is asked to watch.

use std::sync::Arc;
use std::time::Instant;

use crate::engine::{EngineError, Progress};
use crate::session::history::Thinned;

/// A job's progress, for a progress bar.
#[derive(Clone, Debug)]
pub struct Busy {
    pub label: String,
    pub progress: Arc<Progress>,
    pub started: Instant,
}

impl Busy {
    /// (done, total, per second, seconds left), with the estimate of what is done inside a
    /// step in progress (a HashLife jump) counted as done.
    pub fn figures(&self) -> (u64, u64, f64, Option<f64>) {
        let (done, total) = self.progress.estimate();
        let secs = self.started.elapsed().as_secs_f64().max(1e-6);
        let rate = done as f64 / secs;
        let left = (rate > 0.0 && total > done).then(|| (total - done) as f64 / rate);
        (done, total, rate, left)
    }
}

/// What the worker records of the generations it runs, beyond the current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    /// The population of every generation, for the plot (Step N included), where the engine
    /// gives it without losing its speed (not HashLife's jumps: there, one point per step).
    pub populations: bool,
    /// The census hash of every generation, to see the whole universe repeat.
    pub repeats: bool,
    /// The live cells' box, for a view that follows them.
    pub bounds: bool,
}

impl Default for Watch {
    fn default() -> Self {
        Self {
            populations: true,
            repeats: false,
            bounds: false,
        }
    }
}

/// Why a piece of the worker's work failed, for its owner to deal with (a GPU engine lost:
/// fall back) or show.
#[derive(Clone, Debug, thiserror::Error)]
pub enum WorkError {
    /// A step of the run failed, and the run stopped.
    #[error("{0}")]
    Run(Arc<EngineError>),
    /// A queued edit could not be applied.
    #[error("edit: {0}")]
    Edit(Arc<EngineError>),
    /// A job failed: its handle has the typed error; this is what it says.
    #[error("{label}: {message}")]
    Job { label: String, message: String },
}

impl WorkError {
    /// Whether it stopped a run (rather than failing an edit or a job).
    pub fn stopped_run(&self) -> bool {
        matches!(self, WorkError::Run(_))
    }
}

/// What the worker publishes after every piece of work.
#[derive(Clone, Debug, Default)]
pub struct Status {
    pub engine: &'static str,
    pub generation: u64,
    pub population: Option<u64>,
    pub running: bool,
    /// Generations per second actually achieved over the last half second or so.
    pub rate: f64,
    pub busy: Option<Busy>,
    /// Why the last piece of work failed.
    pub error: Option<WorkError>,
    /// (generation, population) as the run went, for the plot.
    pub history: Thinned,
    /// Counts every change, so that the owner knows when to look again.
    pub version: u64,
    /// When a `stop_at` generation was reached, and how long after the run started.
    pub stopped_after: Option<f64>,
    /// A GPU engine's current buffer (of its ping-pong pair), for a viewer drawing from it.
    pub gpu_current: Option<usize>,
    /// The universe repeats (when watched).
    pub repeat: Option<crate::session::repeat::Repeat>,
    /// The live cells' box: while watched, and as the answer to a request.
    pub bounds: Option<crate::engine::Bounds>,
    /// The latest request for the box that `bounds` answers.
    pub bounds_answer: u64,
    /// Edits applied so far, counted as they were queued.
    pub edits_applied: u64,
}
