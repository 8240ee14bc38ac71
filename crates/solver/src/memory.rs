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
        let huge_pages = unsafe { sys::madvise(start as *mut _, bytes, sys::MADV_HUGEPAGE) } == 0;
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
