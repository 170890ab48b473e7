//! How much memory lifelab lets itself take, decided and explained in one place, so that a grid
//! too large, a pattern too large and an engine too hungry are refused with the same words
//! before anything is allocated (an allocation the system cannot honour kills the process
//! instead of failing).

use std::sync::atomic::{AtomicU64, Ordering};

/// The most memory one grid or engine may take whatever the system has. Far above any GPU
/// today; what stops a 10^6 x 10^6 request before it tries to allocate 116 GiB.
pub const CAP_BYTES: u64 = 1 << 36;

/// A lower limit, when set (0: none): `--memory`, embedders and the fuzz targets set it.
static SET_LIMIT: AtomicU64 = AtomicU64::new(0);

/// Caps what lifelab may take (0 removes the cap).
pub fn set_limit(bytes: u64) {
    SET_LIMIT.store(bytes, Ordering::Relaxed);
}

/// Bytes of system memory available to new allocations, where the system says (Linux).
pub fn available() -> Option<u64> {
    // Read at most once a second: a start asks it a dozen times (every engine's limit and
    // default), and each read of /proc/meminfo costs tens of microseconds in the kernel.
    static LAST: std::sync::Mutex<Option<(std::time::Instant, Option<u64>)>> =
        std::sync::Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((at, value)) = *last
        && at.elapsed() < std::time::Duration::from_secs(1)
    {
        return value;
    }
    let value = read_available();
    *last = Some((std::time::Instant::now(), value));
    value
}

fn read_available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Where the limit in force comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitSource {
    /// [`CAP_BYTES`].
    Cap,
    /// [`set_limit`].
    Set,
    /// Half of what the system has available (the other half is left to everything else).
    Available(u64),
}

/// The limit in force now, and why it is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub bytes: u64,
    pub source: LimitSource,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let limit = human_bytes(self.bytes);
        match self.source {
            LimitSource::Cap => write!(f, "lifelab's fixed cap of {limit}"),
            LimitSource::Set => write!(f, "the memory limit of {limit} that was set (--memory)"),
            LimitSource::Available(a) => write!(
                f,
                "lifelab's limit of {limit}, half of the {} this system has available",
                human_bytes(a)
            ),
        }
    }
}

/// The most one grid or engine may take now.
pub fn limit() -> Limit {
    let mut limit = Limit {
        bytes: CAP_BYTES,
        source: LimitSource::Cap,
    };
    let set = SET_LIMIT.load(Ordering::Relaxed);
    if set > 0 && set < limit.bytes {
        limit = Limit {
            bytes: set,
            source: LimitSource::Set,
        };
    }
    if let Some(a) = available()
        && a / 2 < limit.bytes
    {
        limit = Limit {
            bytes: a / 2,
            source: LimitSource::Available(a),
        };
    }
    limit
}

/// Something would need more memory than lifelab may take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} needs {}, more than {limit}", human_bytes(*needed))]
pub struct MemoryError {
    pub what: String,
    pub needed: u64,
    pub limit: Limit,
}

/// Fails when `needed` bytes for `what` exceed the limit in force. `what` reads as the subject
/// of a sentence: "a 65536x65536 torus on the cpu engine".
pub fn check(what: impl FnOnce() -> String, needed: u64) -> Result<(), MemoryError> {
    let limit = limit();
    if needed <= limit.bytes {
        return Ok(());
    }
    Err(MemoryError {
        what: what(),
        needed,
        limit,
    })
}

/// `1.5 GiB`, `512 MiB`, `12 KiB`, `100 B`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// An empty vector with room for `capacity` items, backed by huge pages where the system
/// offers them (Linux's transparent huge pages in `madvise` mode): for big tables read at
/// random, one page fault per 2 MiB instead of per 4 KiB, and far fewer TLB misses. Small
/// vectors are plain ones. The advice is a hint, and fails silently.
pub fn vec_in_huge_pages<T>(capacity: usize) -> Vec<T> {
    let size = std::mem::size_of::<T>().max(1);
    if capacity * size < HUGE / 2 {
        return Vec::with_capacity(capacity);
    }
    // Room for whole 2 MiB-aligned pages whatever alignment the allocator gives. Only pages
    // touched after the advice take it; an allocation this big usually comes fresh from the
    // system, untouched.
    let v: Vec<T> = Vec::with_capacity(capacity + HUGE / size);
    advise_huge_pages(&v);
    v
}

/// [`vec_in_huge_pages`] for a vector that must never move: all of `capacity` reserved at
/// once, or `None` where the system refuses that much address space. The pages cost nothing
/// until touched. A vector that grows is moved, and a move within 2 MiB splits its huge pages:
/// on jagged2, HashLife's doubling node vector had 71 of its 210 MB in huge pages, and the
/// rest in 4 KiB ones, each read at random a TLB miss.
///
/// The first 2 MiB stay in small pages: a small pattern's store never reaches past them, and a
/// huge page the system has not handed out before costs milliseconds to clear on a virtual
/// machine.
pub fn reserve_in_huge_pages<T>(capacity: usize) -> Option<Vec<T>> {
    let size = std::mem::size_of::<T>().max(1);
    let mut v = Vec::new();
    v.try_reserve_exact(capacity.checked_add(HUGE / size)?)
        .ok()?;
    advise_huge_pages_from(&v, HUGE);
    Some(v)
}

const HUGE: usize = 2 << 20;

/// Asks for huge pages under the whole 2 MiB pages of a vector's allocation, as
/// [`vec_in_huge_pages`] does: for a vector that has grown (a reallocation moves or extends it
/// without the advice), so that the pages it touches next come 2 MiB at a time.
pub fn advise_huge_pages<T>(v: &Vec<T>) {
    advise_huge_pages_from(v, 0);
}

/// [`advise_huge_pages`] past the first `skip` bytes of the allocation.
fn advise_huge_pages_from<T>(v: &Vec<T>, skip: usize) {
    #[cfg(target_os = "linux")]
    {
        let size = std::mem::size_of::<T>().max(1);
        let start = v.as_ptr() as usize;
        let end = start + v.capacity() * size;
        let (from, to) = ((start + skip).next_multiple_of(HUGE), end / HUGE * HUGE);
        if to > from {
            // SAFETY: the range lies inside the vector's own allocation, and MADV_HUGEPAGE
            // changes no contents, only how later faults are served.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (v, skip);
}

/// `--memory MB` (the command line's and the app's): a whole number of MiB whose bytes fit in
/// 64 bits (a larger one used to wrap round to a tiny limit when shifted into bytes).
pub fn parse_mib(text: &str) -> Result<u64, String> {
    let mib: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number of MiB"))?;
    match mib.checked_mul(1 << 20) {
        Some(_) if mib > 0 => Ok(mib),
        Some(_) => Err("0 MiB leaves no room at all".into()),
        None => Err(format!(
            "{mib} MiB is more than 2^64 bytes (at most {} MiB)",
            u64::MAX >> 20
        )),
    }
}

/// Whether an allocation failure is also reported as the one JSON object on stdout (`--json`).
static JSON_ERRORS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes an allocation failure print `{"error": ...}` on stdout as well (a `--json` run).
pub fn set_json_errors(on: bool) {
    JSON_ERRORS.store(on, Ordering::Relaxed);
}

/// The system allocator, ending the process with a clear error when an allocation fails
/// instead of Rust's abort ("memory allocation of 512 bytes failed" and a core dump). Every
/// estimate lifelab makes refuses work up front; this is for what slips past them (the system
/// promised memory it then could not give, or a limit such as `ulimit -v` that
/// `MemAvailable` does not show). The binary installs it with `#[global_allocator]`.
pub struct Guarded;

std::thread_local! {
    /// Set while [`alloc_zeroed_or_null`] asks: a null result is the caller's to handle.
    static FALLIBLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `std::alloc::alloc_zeroed`, through the global allocator, with a null result returned to
/// the caller even under [`Guarded`]: a grid that cannot be had is an error the app shows, not
/// the end of the process.
///
/// # Safety
/// As for `std::alloc::alloc_zeroed`: `layout` has a non-zero size.
pub unsafe fn alloc_zeroed_or_null(layout: std::alloc::Layout) -> *mut u8 {
    FALLIBLE.with(|f| f.set(true));
    // SAFETY: the caller's contract.
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    FALLIBLE.with(|f| f.set(false));
    p
}

fn fallible() -> bool {
    FALLIBLE.with(|f| f.get())
}

// SAFETY: every call is passed to `System` unchanged; only a null result is acted on, and that
// path never returns.
unsafe impl std::alloc::GlobalAlloc for Guarded {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        let p = unsafe { std::alloc::System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { std::alloc::System.alloc_zeroed(layout) };
        if p.is_null() && !fallible() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: as for `alloc`.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }
}

/// Says that `bytes` could not be had and ends the process with exit code 1. Nothing here may
/// allocate: the message is put together in a buffer on the stack and written with `write(2)`,
/// and `_exit` runs nothing that could.
#[cfg(target_os = "linux")]
fn out_of_memory(bytes: usize) -> ! {
    struct Buf {
        bytes: [u8; 320],
        len: usize,
    }
    impl Buf {
        fn of(parts: &[&[u8]]) -> Buf {
            let mut b = Buf {
                bytes: [0; 320],
                len: 0,
            };
            parts.iter().for_each(|p| b.push(p));
            b
        }
        fn push(&mut self, s: &[u8]) {
            let n = s.len().min(self.bytes.len() - self.len);
            self.bytes[self.len..self.len + n].copy_from_slice(&s[..n]);
            self.len += n;
        }
        fn number(&mut self, mut v: usize) {
            let mut digits = [0u8; 20];
            let mut i = digits.len();
            loop {
                i -= 1;
                digits[i] = b'0' + (v % 10) as u8;
                v /= 10;
                if v == 0 {
                    break;
                }
            }
            self.push(&digits[i..]);
        }
        fn write(&self, fd: i32) {
            // SAFETY: the buffer is valid for `len` bytes.
            unsafe { libc::write(fd, self.bytes.as_ptr().cast(), self.len) };
        }
    }
    let mut message = Buf::of(&[b"out of memory: the system refused "]);
    message.number(bytes);
    message.push(
        b" bytes, though lifelab's estimate allowed the work; give a lower --memory, or a \
          smaller pattern or torus",
    );
    let text = &message.bytes[..message.len];
    if JSON_ERRORS.load(Ordering::Relaxed) {
        Buf::of(&[b"{\"error\":\"", text, b"\"}\n"]).write(1);
    }
    Buf::of(&[b"error: ", text, b"\n"]).write(2);
    // SAFETY: ends the process at once; nothing runs after it.
    unsafe { libc::_exit(1) }
}

/// Elsewhere Rust's own handler reports the failure.
#[cfg(not(target_os = "linux"))]
fn out_of_memory(bytes: usize) -> ! {
    std::alloc::handle_alloc_error(
        std::alloc::Layout::from_size_align(bytes.max(1), 1).expect("a valid layout"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All of a reservation is there at once, and a reservation past what the address space
    /// can hold is refused, not an abort (HashLife then falls back on a vector that grows).
    #[test]
    fn a_reservation_is_whole_or_refused() {
        let v = reserve_in_huge_pages::<u64>(3 << 20).expect("24 MiB of address space");
        assert!(v.is_empty() && v.capacity() >= 3 << 20);
        assert!(reserve_in_huge_pages::<u64>(usize::MAX / 4).is_none());
        assert!(reserve_in_huge_pages::<u64>(usize::MAX).is_none());
    }

    #[test]
    fn the_message_names_the_need_and_the_limit_with_its_reason() {
        let e = MemoryError {
            what: "a 100000x100000 torus on the cpu engine".into(),
            needed: 3 << 30,
            limit: Limit {
                bytes: 1 << 30,
                source: LimitSource::Available(2 << 30),
            },
        };
        assert_eq!(
            e.to_string(),
            "a 100000x100000 torus on the cpu engine needs 3.0 GiB, more than lifelab's limit of \
             1.0 GiB, half of the 2.0 GiB this system has available"
        );
    }
}
