//! A race's second thread, started on a core other than the caller's.
//!
//! Linux puts a new thread on its creator's core and leaves it queued there while the creator
//! runs, until an idle core's balance pulls it over. On a virtual machine of two cores that
//! took 3-5 ms in nine starts of ten while the creator computed (the twenty-third session's
//! measure, BENCHMARKS.md): longer than the whole race on many of Golly's small patterns, and
//! a HashLife that jumped here waited for a rival that had not begun. Moved off the caller's
//! core as soon as it exists, the thread started within 0.2 ms in every start. It stays off
//! that core for the race, where the caller's side runs.

use std::thread::JoinHandle;

/// Runs `beside` on a new thread named `name`, on another core where there is one, and `here`
/// on the calling thread at the same time; returns both results once both have ended.
/// `here` is told whether the thread started: where it could not (`None` beside), `here` runs
/// alone. A panic on the thread is raised here once `here` has ended, as [`std::thread::scope`]
/// does.
pub(super) fn race_beside<'env, A, R>(
    name: &str,
    beside: impl FnOnce() -> A + Send + 'env,
    here: impl FnOnce(bool) -> R,
) -> (Option<A>, R)
where
    A: Send + 'env,
{
    // SAFETY: the thread borrows only what outlives this call (`'env`), and `Joined` joins it
    // before this function returns or unwinds.
    let spawned = unsafe {
        std::thread::Builder::new()
            .name(name.into())
            .spawn_unchecked(beside)
    };
    let Ok(handle) = spawned else {
        return (None, here(false));
    };
    away_from_this_core(&handle);
    let joined = Joined(Some(handle));
    let out = here(true);
    let result = joined.join();
    (
        Some(result.unwrap_or_else(|panic| std::panic::resume_unwind(panic))),
        out,
    )
}

/// Joins the thread when dropped, an unwinding caller included.
struct Joined<T>(Option<JoinHandle<T>>);

impl<T> Joined<T> {
    fn join(mut self) -> std::thread::Result<T> {
        self.0.take().expect("joined once").join()
    }
}

impl<T> Drop for Joined<T> {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            let _ = h.join();
        }
    }
}

/// Lets `thread` run on every core the caller may, but the one the caller runs on now (where
/// there is another).
#[cfg(target_os = "linux")]
fn away_from_this_core<T>(thread: &JoinHandle<T>) {
    use std::os::unix::thread::JoinHandleExt;
    const SIZE: usize = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: system calls on a set owned here (a zeroed cpu_set_t is empty, and they write at
    // most SIZE bytes) and on a thread that has not been joined.
    unsafe {
        let mut others: libc::cpu_set_t = std::mem::zeroed();
        let Ok(here) = usize::try_from(libc::sched_getcpu()) else {
            return;
        };
        if libc::sched_getaffinity(0, SIZE, &mut others) != 0 {
            return;
        }
        libc::CPU_CLR(here, &mut others);
        if libc::CPU_COUNT(&others) > 0 {
            libc::pthread_setaffinity_np(thread.as_pthread_t(), SIZE, &others);
        }
    }
}

/// Elsewhere the thread starts where the system puts it.
#[cfg(not(target_os = "linux"))]
fn away_from_this_core<T>(_: &JoinHandle<T>) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[test]
    fn both_sides_run_and_the_thread_may_borrow() {
        let cells = [1u64, 2, 3];
        let (beside, here) = race_beside("test", || cells.iter().sum::<u64>(), |ran| (ran, 7));
        assert_eq!(beside, Some(6));
        assert_eq!(here, (true, 7));
    }

    /// The cores a thread may run on.
    #[cfg(target_os = "linux")]
    fn allowed() -> i32 {
        // SAFETY: a system call on a set owned here.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set);
            libc::CPU_COUNT(&set)
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_thread_may_not_run_on_the_caller_s_core_where_there_is_another() {
        let cores = allowed();
        let (beside, _) = race_beside("test", allowed, |_| ());
        assert_eq!(beside, Some(if cores > 1 { cores - 1 } else { cores }));
        assert_eq!(allowed(), cores, "the caller's own cores are unchanged");
    }

    #[test]
    fn a_panic_beside_reaches_the_caller_after_its_side_ends() {
        let ended = AtomicBool::new(false);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            race_beside(
                "test",
                || panic!("beside"),
                |_| ended.store(true, Ordering::Relaxed),
            )
        }));
        assert!(caught.is_err());
        assert!(ended.load(Ordering::Relaxed));
    }
}
