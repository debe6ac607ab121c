//! The `warcsift` binary: a thin shell over [`warcsift::cli`].

use std::os::raw::{c_int, c_long};

// mimalloc: every record allocates a handful of short-lived buffers (payload, decoded text,
// token arena, output line) on worker threads; mimalloc's thread-local free lists make those
// allocations markedly cheaper than glibc malloc and avoid cross-thread arena contention.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Two functions of the mimalloc C library that the `mimalloc` crate links in (declared here
// rather than through libmimalloc-sys's `extended` feature, which would add a dependency).
extern "C" {
    fn mi_option_set(option: c_int, value: c_long);
    #[cfg(test)]
    fn mi_option_get(option: c_int) -> c_long;
}

/// `mi_option_purge_delay` in the `mi_option_e` enum of the mimalloc v3 sources that
/// libmimalloc-sys 0.1.49 bundles (`c_src/mimalloc/v3/include/mimalloc.h`); its default there
/// is 1,000 ms, which `tests::purge_delay_option_index` checks so that an upgrade that moves
/// it fails a test instead of setting some other option.
const MI_OPTION_PURGE_DELAY: c_int = 15;

/// Freed memory is returned to the OS after this many idle milliseconds. With mimalloc's
/// default (1 s), memory that a worker frees between two large pages is purged and then
/// faulted in again (and zeroed, 2 MiB at a time under transparent huge pages): page
/// zeroing was ~5% of the profile. Ten seconds keeps the working set mapped during a run
/// (its size is bounded by the records in flight anyway) and still returns memory in a
/// long idle phase.
const PURGE_DELAY_MS: c_long = 10_000;

/// Turn transparent huge pages off for this process (Linux; elsewhere a no-op). mimalloc
/// asks for huge pages on its arenas (`madvise(MADV_HUGEPAGE)`, before `main` runs), so
/// every first touch of an arena region faulted in and zeroed 2 MiB: on `big.warc.gz` with
/// one worker that was ~9% of the profile and 0.25 s of system time, with a peak RSS of
/// 100-117 MiB. With THP off, in five interleaved runs pinned to one core, system time fell
/// to 0.01-0.05 s and peak RSS to 54-56 MiB. The flag is checked at fault time, so it
/// covers the arena that is already mapped. Returns whether the kernel took it.
fn disable_transparent_huge_pages() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)` passes integers only; it sets a
        // flag on this process's memory descriptor and touches no memory of ours.
        unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1 as libc::c_ulong, 0, 0, 0) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

fn main() {
    // Best effort: an old kernel without the option just keeps huge pages.
    let _ = disable_transparent_huge_pages();
    // SAFETY: `mi_option_set` takes two plain integers, no pointers; the option index is a
    // valid `mi_option_t` (checked by a test against the library's own default), and options
    // may be set at any time (mimalloc stores them atomically). Called once, before any
    // other thread exists.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    std::process::exit(warcsift::cli::main());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purge_delay_option_index() {
        // SAFETY: as in `main`: integer arguments only, valid option index.
        let (default, set) = unsafe {
            let default = mi_option_get(MI_OPTION_PURGE_DELAY);
            mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS);
            (default, mi_option_get(MI_OPTION_PURGE_DELAY))
        };
        assert_eq!(
            default, 1000,
            "mimalloc's purge_delay moved: fix MI_OPTION_PURGE_DELAY"
        );
        assert_eq!(set, PURGE_DELAY_MS);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn transparent_huge_pages_are_off_after_the_call() {
        assert!(disable_transparent_huge_pages());
        // SAFETY: integer arguments only; PR_GET_THP_DISABLE returns the flag.
        let flag = unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) };
        assert_eq!(flag, 1);
    }
}
