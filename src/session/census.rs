//! A census running beside the simulation: the app's Census panel starts it, reads its
//! progress and its table as it grows, and stops it. It runs on its own thread over the cores
//! (the census owns no engine of the session's), and a stop ends it at a whole soup.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::census::{self, Haul, Progress, Request};

pub struct CensusJob {
    pub request: Request,
    progress: Arc<Progress>,
    latest: Arc<Mutex<Option<Haul>>>,
    thread: Option<JoinHandle<Result<Haul, String>>>,
    started: Instant,
    /// When the thread ended (the rate is of the time it ran).
    finished: Option<Instant>,
    /// The finished census, or why it failed.
    pub result: Option<Result<Haul, String>>,
}

impl CensusJob {
    pub fn start(request: Request) -> Self {
        let progress = Arc::new(Progress::default());
        let latest = Arc::new(Mutex::new(None));
        let thread = {
            let (request, progress, latest) = (request.clone(), progress.clone(), latest.clone());
            std::thread::Builder::new()
                .name("census".into())
                .spawn(move || {
                    let run = || {
                        census::run_with(&request, &progress, &|h: &Haul| {
                            if let Ok(mut l) = latest.lock() {
                                *l = Some(h.clone());
                            }
                        })
                    };
                    // One core is left to the window, so that it keeps drawing.
                    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                    match rayon::ThreadPoolBuilder::new()
                        .num_threads(cores.saturating_sub(1).max(1))
                        .thread_name(|i| format!("census-{i}"))
                        .build()
                    {
                        Ok(pool) => pool.install(run),
                        Err(_) => run(),
                    }
                })
                .ok()
        };
        let result = thread
            .is_none()
            .then(|| Err("could not start the census's thread".to_string()));
        CensusJob {
            request,
            progress,
            latest,
            thread,
            started: Instant::now(),
            finished: None,
            result,
        }
    }

    /// Ends the census after the soups in hand.
    pub fn stop(&self) {
        self.progress.stop.store(true, Ordering::Relaxed);
    }

    pub fn running(&self) -> bool {
        self.result.is_none()
    }

    /// Soups done and objects found so far, and the seconds since the start.
    pub fn progress(&self) -> (u64, u64, f64) {
        (
            self.progress.soups.load(Ordering::Relaxed),
            self.progress.objects.load(Ordering::Relaxed),
            self.finished
                .unwrap_or_else(Instant::now)
                .duration_since(self.started)
                .as_secs_f64(),
        )
    }

    /// The haul: the finished one, or the one after the last whole batch.
    pub fn haul(&mut self) -> Option<Haul> {
        self.poll();
        match &self.result {
            Some(Ok(h)) => Some(h.clone()),
            _ => self.latest.lock().ok().and_then(|l| l.clone()),
        }
    }

    /// Collects the result once the thread has ended.
    pub fn poll(&mut self) {
        if self.thread.as_ref().is_some_and(|t| t.is_finished())
            && let Some(t) = self.thread.take()
        {
            self.finished = Some(Instant::now());
            self.result = Some(
                t.join()
                    .unwrap_or_else(|_| Err("the census's thread panicked".into())),
            );
        }
    }
}

impl Drop for CensusJob {
    fn drop(&mut self) {
        self.stop();
    }
}
