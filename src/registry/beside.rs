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

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;

/// Runs `beside` on a new thread named `name`, on another core where there is one, and `here`
/// on the calling thread at the same time; returns both results once both have ended.
/// `here` is told whether the thread started: where it could not (`None` beside), `here` runs
/// alone. A panic on the thread is raised here once `here` has ended, as [`std::thread::scope`]
/// does.
///
/// The thread hands its result over before it ends, and is not waited for after that: a
/// thread's end (its stack and its allocator's arena given back) took 70-150 µs, which every
/// race paid after its winner had finished (limited-spacefiller to 1000: 0.5 ms, raced).
pub(super) fn race_beside<'env, A, R>(
    name: &str,
    beside: impl FnOnce() -> A + Send + 'env,
    here: impl FnOnce(bool) -> R,
) -> (Option<A>, R)
where
    A: Send + 'env,
{
    let (placed, cores) = (AtomicBool::new(false), Cores::allowed());
    let (placed, cores) = (&placed, &cores);
    let (result, handed) = mpsc::sync_channel(1);
    let body = move || {
        // The caller moves this thread just after making it; waiting for that (yielding, in
        // case this thread runs on the caller's core) keeps the move from coming after the
        // cores are given back, which would keep them from this thread for good.
        while !placed.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
        if let Some(cores) = cores {
            cores.give_to_this_thread();
        }
        // Nothing borrowed is touched after the result is sent: the caller may return then.
        let _ = result.send(panic::catch_unwind(AssertUnwindSafe(beside)));
    };
    // SAFETY: the thread borrows only what outlives this call (`'env`), and `placed` and
    // `cores`, which live until the result is received: it is sent last, and `Handed` waits
    // for it before this function returns or unwinds (or for the thread's end, where it never
    // comes).
    let spawned = unsafe {
        std::thread::Builder::new()
            .name(name.into())
            .spawn_unchecked(body)
    };
    let Ok(handle) = spawned else {
        return (None, here(false));
    };
    let handed = Handed {
        handed,
        thread: Some(handle),
    };
    // Set however the move ends, so that the thread never waits for ever.
    let placing = SetOnDrop(placed);
    if let (Some(cores), Some(thread)) = (cores, &handed.thread) {
        cores.move_off_this_core(thread);
    }
    drop(placing);
    let out = here(true);
    let result = handed.take();
    (
        Some(result.unwrap_or_else(|panic| panic::resume_unwind(panic))),
        out,
    )
}

/// What [`race_beside_owned`]'s thread came to.
pub(super) enum Beside<A> {
    /// It could not be started: `here` ran alone.
    NotStarted,
    /// `here` ended first and did not need it: it was left to stop and end on its own.
    Left,
    Done(A),
}

/// [`race_beside`] for a thread that borrows nothing: where `here` ends first and `wanted`
/// says the thread's result is not needed, the thread is not waited for at all (a rival that
/// lost stops at its next look at its cancel, 20-110 µs on, and frees its memory there).
pub(super) fn race_beside_owned<A, R>(
    name: &str,
    beside: impl FnOnce() -> A + Send + 'static,
    here: impl FnOnce(bool) -> R,
    wanted: impl FnOnce(&R) -> bool,
) -> (Beside<A>, R)
where
    A: Send + 'static,
{
    let placed = Arc::new(AtomicBool::new(false));
    let cores = Cores::allowed();
    let (result, handed) = mpsc::sync_channel(1);
    let body = {
        let (placed, cores) = (Arc::clone(&placed), cores.clone());
        move || {
            // As in `race_beside`: the move comes before the cores are given back.
            while !placed.load(Ordering::Acquire) {
                std::thread::yield_now();
            }
            if let Some(cores) = &cores {
                cores.give_to_this_thread();
            }
            let _ = result.send(panic::catch_unwind(AssertUnwindSafe(beside)));
        }
    };
    let spawned = std::thread::Builder::new().name(name.into()).spawn(body);
    let Ok(thread) = spawned else {
        return (Beside::NotStarted, here(false));
    };
    let placing = SetOnDrop(&placed);
    if let Some(cores) = &cores {
        cores.move_off_this_core(&thread);
    }
    drop(placing);
    let out = here(true);
    let got = if wanted(&out) {
        // A short spin first: a blocked caller took 20-50 µs to be woken on a virtual machine.
        let began = std::time::Instant::now();
        loop {
            match handed.try_recv() {
                Err(mpsc::TryRecvError::Empty) if began.elapsed().as_micros() < 200 => {
                    std::hint::spin_loop()
                }
                Err(mpsc::TryRecvError::Empty) => break handed.recv().ok(),
                Err(mpsc::TryRecvError::Disconnected) => break None,
                Ok(r) => break Some(r),
            }
        }
    } else {
        match handed.try_recv() {
            Ok(r) => Some(r),
            Err(mpsc::TryRecvError::Empty) => return (Beside::Left, out),
            Err(mpsc::TryRecvError::Disconnected) => None,
        }
    };
    match got {
        Some(Ok(a)) => (Beside::Done(a), out),
        Some(Err(panic)) => panic::resume_unwind(panic),
        // The thread ended without sending: a panic outside `beside`.
        None => match thread.join() {
            Err(panic) => panic::resume_unwind(panic),
            Ok(()) => unreachable!("the thread sends its result before it ends"),
        },
    }
}

/// The thread's result, taken when it is sent; dropped untaken (an unwinding caller), it
/// waits for it all the same.
struct Handed<T> {
    handed: Receiver<std::thread::Result<T>>,
    thread: Option<JoinHandle<()>>,
}

impl<T> Handed<T> {
    fn take(mut self) -> std::thread::Result<T> {
        let got = self.handed.recv();
        let thread = self.thread.take().expect("taken once");
        match got {
            // The thread ends on its own; it touches nothing of the caller's any more.
            Ok(result) => result,
            // It ended without sending: a panic outside `beside`, raised here.
            Err(_) => match thread.join() {
                Err(panic) => Err(panic),
                Ok(()) => unreachable!("the thread sends its result before it ends"),
            },
        }
    }
}

impl<T> Drop for Handed<T> {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take()
            && self.handed.recv().is_err()
        {
            let _ = thread.join();
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
#[derive(Clone)]
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
#[derive(Clone)]
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

    /// The owned form: a result wanted is waited for; one not wanted is waited for only where
    /// it is there already, and a thread still running is left to end on its own.
    #[test]
    fn an_owned_thread_is_waited_for_only_where_its_result_is_wanted() {
        let (beside, here) = race_beside_owned("test", || 6u64, |ran| ran, |_| true);
        assert!(matches!(beside, Beside::Done(6)));
        assert!(here);
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let (beside, _) = race_beside_owned("test", move || wait.recv().is_ok(), |_| (), |_| false);
        // The thread waits for `go`, which comes only now: it was still running.
        assert!(matches!(beside, Beside::Left));
        let _ = go.send(());
    }

    #[test]
    fn a_panic_in_an_owned_thread_whose_result_is_wanted_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| {
            race_beside_owned("test", || -> u64 { panic!("beside") }, |_| (), |_| true)
        });
        assert!(caught.is_err());
    }
}
