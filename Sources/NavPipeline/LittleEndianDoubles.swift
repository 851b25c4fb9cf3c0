/// IEEE 754 doubles as 8 little-endian bytes each: the one encoding of the numbers the results
/// store keeps as bytes (the artifacts `plot_paths` and `walkers`, the resampling memo), so every
/// bit pattern, NaN payloads and −0 included, reads back as it was written.
extension Array where Element == UInt8 {
    /// Appends the 8 bytes of `value`, least significant first.
    mutating func appendLittleEndian(_ value: Double) {
        Swift.withUnsafeBytes(of: value.bitPattern.littleEndian) { append(contentsOf: $0) }
    }

    /// The double whose 8 bytes start at `offset` (the caller has checked they are there).
    func littleEndianDouble(at offset: Int) -> Double {
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(self[offset + k]) << (8 * UInt64(k)) }
        return Double(bitPattern: bits)
    }
}
