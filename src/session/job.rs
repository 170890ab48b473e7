//! Jobs: work the owner hands the worker, run between two pieces of a run, with progress and
//! cancellation, whose typed answer comes back through a [`JobHandle`].

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

use crate::engine::{EngineError, Progress};

/// Why a job gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A file could not be written or read; the message names it.
    #[error("{0}")]
    File(String),
    /// The worker stopped before the job ran (the session is closing).
    #[error("the worker stopped")]
    Stopped,
}

impl JobError {
    pub fn is_cancelled(&self) -> bool {
        matches!(self, JobError::Engine(EngineError::Cancelled))
    }
}

pub type JobResult<T> = Result<T, JobError>;

/// What the worker runs of a job: it sends the answer itself, and returns its error's text
/// for the status line.
type Run = Box<dyn FnOnce(&super::worker::Access, &Progress) -> Option<String> + Send>;

/// A job as the worker holds it.
pub(crate) struct Job {
    pub label: String,
    pub progress: Arc<Progress>,
    pub run: Run,
}

/// A job in flight, as the owner sees it.
pub struct JobHandle<T> {
    pub progress: Arc<Progress>,
    answer: Receiver<JobResult<T>>,
    pub label: String,
}

impl<T> JobHandle<T> {
    /// The answer, once there is one.
    pub fn try_take(&self) -> Option<JobResult<T>> {
        self.answer.try_recv().ok()
    }

    /// Waits for the answer (tests, and the owner when it must).
    pub fn wait(self) -> JobResult<T> {
        self.answer.recv().unwrap_or(Err(JobError::Stopped))
    }

    pub fn cancel(&self) {
        self.progress.cancel();
    }
}

/// A job and the handle its answer comes back through.
pub(crate) fn job<T: Send + 'static>(
    label: String,
    total: u64,
    run: impl FnOnce(&super::worker::Access, &Progress) -> JobResult<T> + Send + 'static,
) -> (Job, JobHandle<T>) {
    let (tx, rx): (Sender<JobResult<T>>, _) = channel();
    let progress = Arc::new(Progress::new(total));
    let job = Job {
        label: label.clone(),
        progress: progress.clone(),
        run: Box::new(move |access, progress| {
            let result = run(access, progress);
            let error = result.as_ref().err().map(|e| e.to_string());
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
