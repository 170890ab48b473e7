//! The GPU fall-back for a run that steps on the calling thread (the command line's `run`): a
//! GPU engine is read back every few seconds, and when the device fails under it, the cells of
//! the last good generation go on, on the CPU engine `auto` chooses, to the generation asked
//! for. The app's [`super::Session`] does the same on its worker.

use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineError, EngineResult, Progress};
use crate::registry::{self, Request};
use crate::tiles::TileMap;

/// How often a running GPU engine is read back, as the state to fall back on.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(3);

/// A failure of the device, which a CPU engine can recover from, rather than a request the
/// engine refused.
pub fn is_device_failure(e: &EngineError) -> bool {
    matches!(
        e,
        EngineError::DeviceLost(_) | EngineError::OutOfMemory(_) | EngineError::Gpu(_)
    )
}

/// Steps `engine` `gens` generations (fewer when `progress` is cancelled), then finishes its
/// work. When a GPU engine fails, the run goes on on the CPU from the last checkpoint, `engine`
/// becomes that CPU engine, and the answer says what happened.
pub fn step_with_fallback(
    engine: &mut Box<dyn Engine>,
    request: &Request,
    gens: u64,
    progress: &Progress,
) -> EngineResult<Option<String>> {
    let first = engine.generation();
    crate::engine::check_reach(first, gens)?;
    let target = first + gens;
    if !engine.kind().on_gpu() {
        engine.step_with(gens, progress)?;
        engine.finish()?;
        return Ok(None);
    }
    let mut checkpoint: (TileMap, u64) = (engine.export()?, first);
    let mut at = Instant::now();
    let mut note = None;
    // Stretches between looks at the clock: long enough that the look costs nothing.
    let mut stretch = 64u64;
    loop {
        let left = target - engine.generation();
        let result = if left == 0 || progress.cancelled() {
            engine.finish().map(|_| None)
        } else {
            let t = Instant::now();
            let n = stretch.min(left);
            engine.step_with(n, progress).and_then(|did| {
                // A checkpoint is the state of a generation the device has finished.
                if engine.kind().on_gpu() && at.elapsed() >= CHECKPOINT_EVERY {
                    engine.finish()?;
                    checkpoint = (engine.export()?, engine.generation());
                    at = Instant::now();
                }
                if t.elapsed() < CHECKPOINT_EVERY / 8 {
                    stretch = stretch.saturating_mul(2);
                }
                Ok(Some(did))
            })
        };
        match result {
            Ok(None) => return Ok(note),
            Ok(Some(_)) => {}
            Err(e) if engine.kind().on_gpu() && is_device_failure(&e) => {
                let lost_at = engine.generation();
                let mut cpu = request.clone();
                cpu.options.forbid_gpu = true;
                #[cfg(feature = "gpu")]
                {
                    cpu.options.context = None;
                }
                let (mut next, choice) = registry::create("auto", &cpu)?;
                next.import(&checkpoint.0)?;
                next.set_generation(checkpoint.1);
                progress.set_done(checkpoint.1 - first);
                note = Some(format!(
                    "{e} (at generation {lost_at}); the state of generation {} went on on the {} engine",
                    checkpoint.1, choice.engine
                ));
                *engine = next;
            }
            Err(e) => return Err(e),
        }
    }
}
