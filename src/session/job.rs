//! Jobs: work the owner hands the worker, run between two pieces of a run, with progress and
//! cancellation, whose typed answer comes back through a [`JobHandle`].

use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};

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

/// A job in flight, as the owner sees it.
pub struct JobHandle<T> {
    pub progress: Arc<Progress>,
    pub(crate) answer: Receiver<JobResult<T>>,
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

/// A read of the cells that the worker answers in order with the edits, between two pieces of
/// work (a copy, an analysis, an autosave): whoever asked looks for the answer a frame later
/// and no frame waits for the piece in progress.
pub struct Reading<T> {
    pub(crate) answer: Receiver<JobResult<T>>,
}

impl<T> Reading<T> {
    /// The answer, once there is one.
    pub fn try_take(&self) -> Option<JobResult<T>> {
        match self.answer.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(JobError::Stopped)),
        }
    }

    /// Waits for the answer (a thread of its own, tests).
    pub fn wait(self) -> JobResult<T> {
        self.answer.recv().unwrap_or(Err(JobError::Stopped))
    }
}
