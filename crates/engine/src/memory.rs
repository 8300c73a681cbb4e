//! Memory hints for the transposition table, the engine's one module with `unsafe`: huge pages
//! asked of the operating system (no I/O; advice the kernel may ignore), and prefetches.
//!
//! Each probe of the table lands on a random cache line of many megabytes, and with pages of
//! 4 KiB nearly every probe also misses the TLB (on a virtual machine, a two-level page walk).
//! On Linux, where transparent huge pages are enabled "always" or "madvise", `MADV_HUGEPAGE`
//! asks for pages of 2 MiB under the table, as Stockfish does for its own.
#![allow(unsafe_code)]

/// Asks the kernel to back the spare capacity of `buffer` (not yet touched) with huge pages.
/// Does nothing where that cannot be asked, and ignores a refusal.
pub fn advise_huge_pages<T>(buffer: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = buffer.as_mut_ptr() as usize;
        let end = start + buffer.capacity() * std::mem::size_of::<T>();
        let (first, last) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
        if last > first {
            // SAFETY: [first, last) lies within the allocation that `buffer` owns, whole pages
            // only; MADV_HUGEPAGE changes neither the contents nor the validity of that memory,
            // only how the kernel backs it (and the advice may be refused, which is harmless).
            let _ = unsafe {
                rustix::mm::madvise(
                    first as *mut std::ffi::c_void,
                    last - first,
                    rustix::mm::Advice::LinuxHugepage,
                )
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buffer;
}

/// Asks the processor to bring the cache line at `address` closer, ahead of its use (a hint:
/// nothing is read, and no address can fault).
#[inline(always)]
pub fn prefetch<T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only hints the cache and never dereferences its pointer (any
    // address is allowed); SSE, which it needs, is part of every x86-64 processor.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
