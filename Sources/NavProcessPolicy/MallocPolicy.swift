#if canImport(Glibc)
import Glibc
#endif

// Process policy of the executables (`navbench`, `navbench-bench`): how glibc's allocator treats
// large buffers, and the page-fault count the benchmarks report. No library imports this
// module (scripts/check_layers.py): a library never sets process-wide state.

/// Keeps large buffers in the process's heap once freed, so the next array of a similar size
/// reuses pages that are already mapped instead of faulting in fresh ones.
///
/// Why: glibc serves allocations above its mmap threshold with fresh `mmap`s and returns freed
/// heap tops above its trim threshold to the kernel; both thresholds move with the sizes seen.
/// A 26 MB array read from HDF5 is then written page by page into new memory: ~15,000 minor
/// faults when transparent huge pages are not available (a fragmented, busy machine), ~1,500
/// when they are — the 0.04 s vs 0.02 s per read that the contiguous-read benchmark switched
/// between. Fixed thresholds (mmap above 256 MiB, trim above 512 MiB of free top) make repeated
/// reads fault-free. Up to 512 MiB of freed memory may stay mapped.
///
/// Large buffers then all come from the heap, where a small block allocated between two of them
/// (libhdf5 keeps its free-listed blocks for good) splits the heap into holes of exactly the
/// arrays' sizes; the next small allocation carves a few KiB out of the smallest hole, the same
/// array no longer fits it and takes the next one, and the last array grows the heap: a second
/// read of the same three datasets peaked one 26 MB array higher than the first (119.8 vs 94.8
/// MiB, h5py 96.5 MiB). So this also sets aside `smallAllocationReserve` bytes of free heap below a
/// block that stays allocated (`reserveHeapForSmallAllocations`): glibc serves a small request
/// from the smallest free block that fits, the reserve, so large arrays stay side by side at the
/// heap top, merge back into it when freed, and the next read reuses the same pages — no faults
/// and no growth. The reserve's pages count only once touched.
///
/// Called once by the CLI for every command but the sweeps (`run`, `merge`: there it kept every
/// freed session's pages and memory grew with the routes), and skipped when
/// `NAVBENCH_MALLOC_DEFAULTS=1` is set (to compare memory figures with glibc's own thresholds);
/// a no-op off glibc.
/// - Complexity: O(1); call it once, before large buffers are allocated.
public func keepLargeBuffersMapped() {
    #if canImport(Glibc)
    _ = glibcMallopt(-3, 256 << 20)  // M_MMAP_THRESHOLD (malloc.h; not in the Glibc module)
    _ = glibcMallopt(-1, 512 << 20)  // M_TRIM_THRESHOLD
    reserveHeapForSmallAllocations(smallAllocationReserve)
    #endif
}

/// Bytes of free heap `keepLargeBuffersMapped` sets aside for small allocations: more than
/// libhdf5 and the Swift runtime keep allocated between reads (tens of KiB), far less than the
/// arrays it keeps apart. A gzip read's chunk buffers (1.5 MB) do not fit: they come from the
/// top and are freed before the next array. 8 MiB held them too, but peaked 1.6 MiB higher and
/// its gzip reads were 1–2 % slower (scripts/bench-h5-rss.sh, docs/benchmarks.md).
public let smallAllocationReserve = 1 << 20

#if canImport(Glibc)
/// The block that keeps the reserve from merging into the heap top; allocated for good (its
/// pages are never written but the first).
nonisolated(unsafe) private var reserveFence: UnsafeMutableRawPointer?

/// Allocates `bytes` from the heap (the thresholds must already send it there), then as many
/// again (the fence: nothing but the heap top can hold it when the first came from there, so it
/// lands right above; never touched, so one page of it is resident), and frees the first: a
/// free block of the main arena that is not the top, which glibc's best fit then prefers for
/// every request it can hold. When the fence lands below (a free block of that size existed),
/// both are freed and nothing is reserved.
private func reserveHeapForSmallAllocations(_ bytes: Int) {
    guard reserveFence == nil, let block = malloc(bytes) else { return }
    if let fence = malloc(bytes) {
        if fence > block { reserveFence = fence } else { free(fence) }
    }
    free(block)
}
#endif

/// Minor page faults of this process so far (getrusage), for benchmarks; 0 off Linux.
public func minorPageFaults() -> Int {
    #if canImport(Glibc)
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_minflt
    #else
    return 0
    #endif
}

#if canImport(Glibc)
/// glibc's `int mallopt(int param, int value)` (malloc.h, which the Glibc module does not import).
@_silgen_name("mallopt") private func glibcMallopt(_ param: Int32, _ value: Int32) -> Int32
#endif
