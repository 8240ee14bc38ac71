//! A large zeroed block of 64-bit atomics for the transposition table, on huge pages where the
//! operating system offers them.
//!
//! On Linux the block is an anonymous `mmap` (zero pages, touched lazily), aligned to 2 MiB and
//! advised with `madvise(MADV_HUGEPAGE)` before first touch, so that a 1 GiB table needs 512 TLB
//! entries instead of 262,144. Elsewhere it is an ordinary zeroed allocation.

use std::sync::atomic::AtomicU64;

/// Size of a transparent huge page on x86-64 and aarch64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// A zeroed, owned slice of `AtomicU64`.
pub(crate) struct AtomicBlock {
    ptr: *mut AtomicU64,
    len: usize,
    /// Whether the kernel accepted the huge-page advice.
    huge_pages: bool,
    #[cfg(target_os = "linux")]
    mapping: (*mut u8, usize),
}

// SAFETY: the block is a slice of atomics, which are Sync; the raw pointers are owned.
unsafe impl Send for AtomicBlock {}
unsafe impl Sync for AtomicBlock {}

#[cfg(target_os = "linux")]
mod sys {
    use std::ffi::{c_int, c_long, c_void};
    pub const PROT_READ: c_int = 1;
    pub const PROT_WRITE: c_int = 2;
    pub const MAP_PRIVATE: c_int = 2;
    pub const MAP_ANONYMOUS: c_int = 0x20;
    pub const MADV_HUGEPAGE: c_int = 14;
    pub const MAP_FAILED: *mut c_void = !0 as *mut c_void;
    // The C library is linked by std on Linux; these are its plain POSIX entry points.
    extern "C" {
        pub fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: c_int,
            flags: c_int,
            fd: c_int,
            offset: c_long,
        ) -> *mut c_void;
        pub fn munmap(addr: *mut c_void, len: usize) -> c_int;
        pub fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
}

/// Whether the kernel's transparent huge pages are switched off (`[never]`).
#[cfg(target_os = "linux")]
fn huge_pages_disabled() -> bool {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
        .is_ok_and(|setting| setting.contains("[never]"))
}

/// The most memory this process may have, and what sets it: the machine's memory, the
/// process's control group (`memory.max`, cgroup v2, or `memory.limit_in_bytes`, v1) or its
/// address-space limit (`ulimit -v`), whichever is least; `None` where none can be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryCeiling {
    /// Bytes.
    pub bytes: u64,
    /// What sets it, for messages: `this machine's memory`, `the control group's limit`,
    /// `the address-space limit (ulimit -v)`.
    pub source: &'static str,
    /// What a table could have: three quarters of the ceiling or of the memory available now,
    /// whichever is less.
    pub usable: u64,
}

/// Reads the memory ceiling ([`MemoryCeiling`]).
pub fn memory_ceiling() -> Option<MemoryCeiling> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let meminfo_field = |name: &str| -> Option<u64> {
        let line = meminfo.as_deref()?.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace()
            .nth(1)?
            .parse::<u64>()
            .ok()?
            .checked_mul(1024)
    };
    let mut limits: Vec<(u64, &'static str)> = Vec::new();
    if let Some(total) = meminfo_field("MemTotal:") {
        limits.push((total, "this machine's memory"));
    }
    if let Some(group) = cgroup_limit() {
        limits.push((group, "the control group's memory limit"));
    }
    if let Some(address_space) = address_space_limit() {
        limits.push((address_space, "the address-space limit (ulimit -v)"));
    }
    let (bytes, source) = limits.into_iter().min_by_key(|&(bytes, _)| bytes)?;
    let available = meminfo_field("MemAvailable:").unwrap_or(bytes).min(bytes);
    Some(MemoryCeiling {
        bytes,
        source,
        usable: available / 4 * 3,
    })
}

/// The memory limit of this process's control group, if it has one.
fn cgroup_limit() -> Option<u64> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in membership.lines() {
        // v2: `0::/path`; v1: `N:memory:/path` (or a list of controllers holding `memory`).
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        let file = if controllers.is_empty() {
            format!("/sys/fs/cgroup{path}/memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes")
        } else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        // `max` (v2) or a huge number (v1) means no limit.
        return text
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|&bytes| bytes < 1 << 60);
    }
    None
}

/// The address-space limit of this process (`ulimit -v`), if set.
fn address_space_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    // `Max address space   SOFT   HARD   bytes`; `unlimited` reads as none.
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

impl AtomicBlock {
    /// A block of `len` zeroed words, or `None` if the memory cannot be had.
    #[cfg(target_os = "linux")]
    pub(crate) fn zeroed(len: usize) -> Option<AtomicBlock> {
        let bytes = len.checked_mul(8)?;
        let mapped = bytes.checked_add(HUGE_PAGE)?;
        // SAFETY: an anonymous private mapping with no address hint; checked against MAP_FAILED.
        let base = unsafe {
            sys::mmap(
                std::ptr::null_mut(),
                mapped,
                sys::PROT_READ | sys::PROT_WRITE,
                sys::MAP_PRIVATE | sys::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == sys::MAP_FAILED {
            return None;
        }
        let base = base as *mut u8;
        let start = base.wrapping_add(base.align_offset(HUGE_PAGE));
        // SAFETY: [start, start + bytes) lies inside the mapping just made.
        let advised = unsafe { sys::madvise(start as *mut _, bytes, sys::MADV_HUGEPAGE) } == 0;
        // With transparent huge pages set to `never` the advice is taken and ignored.
        let huge_pages = advised && !huge_pages_disabled();
        let block = AtomicBlock {
            ptr: start as *mut AtomicU64,
            len,
            huge_pages,
            mapping: (base, mapped),
        };
        Some(block)
    }

    /// A block of `len` zeroed words, or `None` if the memory cannot be had.
    #[cfg(not(target_os = "linux"))]
    pub(crate) fn zeroed(len: usize) -> Option<AtomicBlock> {
        let layout = std::alloc::Layout::array::<AtomicU64>(len).ok()?;
        // SAFETY: the layout has non-zero size (callers ask for at least one bucket).
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut AtomicU64;
        if ptr.is_null() {
            return None;
        }
        Some(AtomicBlock {
            ptr,
            len,
            huge_pages: false,
        })
    }

    /// Touches every page now, with `threads` threads at once: the page faults (and the
    /// kernel's clearing and compaction for huge pages, seconds per GiB on a busy machine) then
    /// belong to setting the table up, not to the first positions searched.
    pub(crate) fn touch(&self, threads: usize) {
        let words = self.words();
        let chunk = words.len().div_ceil(threads.max(1)).max(1);
        std::thread::scope(|scope| {
            for part in words.chunks(chunk) {
                scope.spawn(move || {
                    for word in part.iter().step_by(4096 / 8) {
                        word.store(0, std::sync::atomic::Ordering::Relaxed);
                    }
                });
            }
        });
    }

    /// The words.
    #[inline(always)]
    pub(crate) fn words(&self) -> &[AtomicU64] {
        // SAFETY: ptr points to len zero-initialised AtomicU64 owned by self (zero is a valid
        // AtomicU64), aligned to at least 8 bytes.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// Whether the kernel accepted the huge-page advice for this block.
    pub(crate) fn huge_pages(&self) -> bool {
        self.huge_pages
    }
}

impl Drop for AtomicBlock {
    #[cfg(target_os = "linux")]
    fn drop(&mut self) {
        // SAFETY: the mapping was made by mmap in `zeroed` and is unmapped once.
        unsafe {
            sys::munmap(self.mapping.0 as *mut _, self.mapping.1);
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn drop(&mut self) {
        let layout = std::alloc::Layout::array::<AtomicU64>(self.len).expect("layout was valid");
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe { std::alloc::dealloc(self.ptr as *mut u8, layout) }
    }
}

/// A byte count for people, in binary units with one decimal: `1.0 GiB`, `521.0 MiB`,
/// `4096 B`.
///
/// ```
/// use score4_solver::format_bytes;
/// assert_eq!(format_bytes(1 << 30), "1.0 GiB");
/// assert_eq!(format_bytes(546_308_096), "521.0 MiB");
/// assert_eq!(format_bytes(1000), "1000 B");
/// ```
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A least size for people, rounded up to whole MiB so that the figure shown is enough:
/// `521 MiB`, `65 MiB`.
///
/// ```
/// use score4_solver::format_minimum;
/// assert_eq!(format_minimum(67_109_104), "65 MiB");
/// assert_eq!(format_minimum(546_308_096), "521 MiB");
/// ```
pub fn format_minimum(bytes: u64) -> String {
    format!("{} MiB", bytes.div_ceil(1 << 20))
}
