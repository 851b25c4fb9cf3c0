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
