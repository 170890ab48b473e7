//! A race's second thread, started on a core other than the caller's.
//!
//! Linux puts a new thread on its creator's core and leaves it queued there while the creator
//! runs, until an idle core's balance pulls it over. On a virtual machine of two cores that
//! took 3-5 ms in nine starts of ten while the creator computed (the twenty-third session's
//! measure, BENCHMARKS.md): longer than the whole race on many of Golly's small patterns, and
//! a HashLife that jumped here waited for a rival that had not begun. Moved off the caller's
//! core as soon as it exists, the thread started within 0.2 ms in every start. Once running it
//! takes back every core the caller may use: a rayon pool it starts (a tile engine's first
//! parallel generation) is sized by, and runs on, the cores of the thread that starts it.

use std::sync::atomic::{AtomicBool, Ordering};
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
    let placed = AtomicBool::new(false);
    let cores = Cores::allowed();
    let body = || {
        // The caller moves this thread just after making it; waiting for that (yielding, in
        // case this thread runs on the caller's core) keeps the move from coming after the
        // cores are given back, which would keep them from this thread for good.
        while !placed.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
        if let Some(cores) = &cores {
            cores.give_to_this_thread();
        }
        beside()
    };
    // SAFETY: the thread borrows only what outlives this call (`'env`, and `placed` and
    // `cores`, which live to its end), and `Joined` joins it before this function returns or
    // unwinds: it holds the thread from the moment it exists.
    let spawned = unsafe {
        std::thread::Builder::new()
            .name(name.into())
            .spawn_unchecked(body)
    };
    let Ok(handle) = spawned else {
        return (None, here(false));
    };
    let joined = Joined(Some(handle));
    // Set however the move ends, so that the thread never waits for ever.
    let placing = SetOnDrop(&placed);
    if let (Some(cores), Some(thread)) = (&cores, &joined.0) {
        cores.move_off_this_core(thread);
    }
    drop(placing);
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

/// Sets the flag when dropped, an unwinding caller included.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// The cores a thread may run on.
#[cfg(target_os = "linux")]
struct Cores(libc::cpu_set_t);

#[cfg(target_os = "linux")]
impl Cores {
    const SIZE: usize = std::mem::size_of::<libc::cpu_set_t>();

    /// The calling thread's.
    fn allowed() -> Option<Self> {
        // SAFETY: a zeroed cpu_set_t is an empty set, and the call writes at most SIZE bytes.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            (libc::sched_getaffinity(0, Self::SIZE, &mut set) == 0).then_some(Cores(set))
        }
    }

    /// Lets `thread` run on these cores but the one the caller runs on now, where another is
    /// among them.
    fn move_off_this_core<T>(&self, thread: &JoinHandle<T>) {
        use std::os::unix::thread::JoinHandleExt;
        // SAFETY: system calls on a set owned here and on a thread that has not been joined.
        unsafe {
            let Ok(here) = usize::try_from(libc::sched_getcpu()) else {
                return;
            };
            // A set holds cores below its size in bits (`CPU_CLR` would panic past it).
            if here >= 8 * Self::SIZE {
                return;
            }
            let mut others = self.0;
            libc::CPU_CLR(here, &mut others);
            if libc::CPU_COUNT(&others) > 0 {
                libc::pthread_setaffinity_np(thread.as_pthread_t(), Self::SIZE, &others);
            }
        }
    }

    fn give_to_this_thread(&self) {
        // SAFETY: a system call on the calling thread with a set owned here.
        unsafe {
            libc::sched_setaffinity(0, Self::SIZE, &self.0);
        }
    }
}

/// Elsewhere the thread starts where the system puts it.
#[cfg(not(target_os = "linux"))]
struct Cores;

#[cfg(not(target_os = "linux"))]
impl Cores {
    fn allowed() -> Option<Self> {
        None
    }

    fn move_off_this_core<T>(&self, _: &JoinHandle<T>) {}

    fn give_to_this_thread(&self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_run_and_the_thread_may_borrow() {
        let cells = [1u64, 2, 3];
        let (beside, here) = race_beside("test", || cells.iter().sum::<u64>(), |ran| (ran, 7));
        assert_eq!(beside, Some(6));
        assert_eq!(here, (true, 7));
    }

    /// The number of cores in a set.
    #[cfg(target_os = "linux")]
    fn count(cores: &Cores) -> i32 {
        // SAFETY: reads a set owned by the caller.
        unsafe { libc::CPU_COUNT(&cores.0) }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_new_thread_is_moved_off_the_caller_s_core_where_there_is_another() {
        use std::os::unix::thread::JoinHandleExt;
        let cores = Cores::allowed().expect("the cores can be read");
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || rx.recv());
        cores.move_off_this_core(&thread);
        // SAFETY: a zeroed set, and a thread that has not been joined.
        let moved = unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            let size = std::mem::size_of::<libc::cpu_set_t>();
            libc::pthread_getaffinity_np(thread.as_pthread_t(), size, &mut set);
            Cores(set)
        };
        tx.send(()).expect("the thread waits");
        let _ = thread.join();
        let n = count(&cores);
        assert_eq!(count(&moved), if n > 1 { n - 1 } else { n });
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_thread_runs_on_every_core_the_caller_may_once_started() {
        let cores = Cores::allowed().expect("the cores can be read");
        let (inside, _) = race_beside("test", Cores::allowed, |_| ());
        let inside = inside.flatten().expect("the cores can be read");
        assert_eq!(count(&inside), count(&cores));
        // SAFETY: two sets owned here.
        assert!(unsafe { libc::CPU_EQUAL(&inside.0, &cores.0) });
        assert_eq!(count(&Cores::allowed().expect("read")), count(&cores));
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
