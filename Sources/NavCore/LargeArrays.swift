#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to back a large, not yet touched buffer with transparent huge pages, as
/// numpy does for arrays of 4 MiB and more: filling 60 MB then takes ~30 page faults instead
/// of ~15,000. Advisory only: no effect where THP is off, on small buffers, or off Linux.
public func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
    #if os(Linux)
    let huge = 2 << 20
    guard let base = buffer.baseAddress, buffer.count >= 4 << 20 else { return }
    let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
    let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
    guard end > start, let p = UnsafeMutableRawPointer(bitPattern: start) else { return }
    _ = madvise(p, end - start, MADV_HUGEPAGE)
    #endif
}

extension Array {
    /// An array of `count` elements filled by `fill`, with huge pages advised for large sizes.
    /// `fill` must initialise every element.
    @inlinable
    public static func large(count: Int, fill: (UnsafeMutableBufferPointer<Element>) -> Void) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buf, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(buf))
            fill(buf)
            initialized = count
        }
    }
}

/// Keeps large buffers in the process's heap once freed, so the next array of a similar size
/// reuses pages that are already mapped instead of faulting in fresh ones.
///
/// Why: glibc serves allocations above its mmap threshold with fresh `mmap`s and returns freed
/// heap tops above its trim threshold to the kernel; both thresholds move with the sizes seen.
/// A 26 MB array read from HDF5 is then written page by page into new memory: ~15,000 minor
/// faults when transparent huge pages are not available (a fragmented, busy machine), ~1,500
/// when they are — the 0.04 s vs 0.02 s per read that the contiguous-read benchmark switched
/// between. Fixed thresholds (mmap above 256 MiB, trim above 512 MiB of free top) make repeated
/// reads fault-free. Peak memory is unchanged; up to 512 MiB of freed memory may stay mapped.
/// Called once by the CLI for every command but the sweeps (`run`, `merge`: there it kept every
/// freed session's pages and memory grew with the routes), and skipped when
/// `NAVBENCH_MALLOC_DEFAULTS=1` is set (to compare memory figures with glibc's own thresholds);
/// a no-op off glibc.
public func keepLargeBuffersMapped() {
    #if canImport(Glibc)
    _ = glibcMallopt(-3, 256 << 20)  // M_MMAP_THRESHOLD (malloc.h; not in the Glibc module)
    _ = glibcMallopt(-1, 512 << 20)  // M_TRIM_THRESHOLD
    #endif
}

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
