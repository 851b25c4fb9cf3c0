/// The median of the positive values of a sequence too long to hold in memory, exactly as
/// `SamplingSummary.medianInterval` computes it on an array (the middle value, or the mean of
/// the two middle values), by radix selection on the IEEE bit patterns (positive doubles order
/// like their bit patterns as unsigned integers).
///
/// `scan` must feed the same values to `visit` every time it is called (in blocks of any size);
/// it is called five times: one count, then one pass per 16 bits of the pattern.
///
/// - Returns: 0 when there is no positive value.
/// - Complexity: O(5 n) time, O(2¹⁷) memory.
public func medianOfPositiveValues(scan: ((UnsafeBufferPointer<Double>) -> Void) throws -> Void) rethrows -> Double {
    var positives = 0
    try scan { block in for v in block where v > 0 { positives += 1 } }
    if positives == 0 { return 0 }
    let ranks = positives % 2 == 1 ? [positives / 2] : [positives / 2 - 1, positives / 2]
    var prefix = [UInt64](repeating: 0, count: ranks.count)
    var remaining = ranks  // rank within the values that share the prefix
    for pass in 0..<4 {
        let shift = UInt64(48 - 16 * pass)
        var histograms = [[Int]](repeating: [Int](repeating: 0, count: 1 << 16), count: ranks.count)
        let p = prefix
        try scan { block in
            for v in block where v > 0 {
                let bits = v.bitPattern
                let high = pass == 0 ? 0 : bits >> (shift + 16)
                let bucket = Int((bits >> shift) & 0xFFFF)
                for r in p.indices where high == p[r] { histograms[r][bucket] += 1 }
            }
        }
        for r in ranks.indices {
            var below = 0
            for b in 0..<(1 << 16) {
                let n = histograms[r][b]
                if remaining[r] < below + n {
                    prefix[r] = (prefix[r] << 16) | UInt64(b)
                    remaining[r] -= below
                    break
                }
                below += n
            }
        }
    }
    let values = prefix.map { Double(bitPattern: $0) }
    return values.count == 1 ? values[0] : (values[0] + values[1]) / 2
}
