/// Order statistics near both ends of a sample in one pass: the ranks ≤ `lowCount` − 1 come
/// from the `lowCount` smallest values and those ≥ n − `highCount` from the `highCount` largest,
/// each kept in a binary heap (a max-heap of the smallest values seen, a min-heap of the
/// largest) as the values stream by, then sorted. A value enters a heap only when it beats the
/// heap's top, so on values in random order (resampled means) a pass is about n comparisons per
/// side plus O(k log k) — against the several partition passes of a quickselect whose targets
/// lie at both tails (the bootstrap's 2.5 % and 97.5 % and their BCa-adjusted neighbours).
///
/// First tried: `thresholdTails`, which usually answers in one pass of two comparisons a value.
///
/// The values returned are the sample's order statistics themselves, so any caller gets the bits
/// a full sort would give (`TailOrderStatisticsTests`: against sorting, with ties).
///
/// - Returns: the values at `ranks` (0-based, ascending order of the sample), or nil when a rank
///   lies in neither tail or the sample holds a NaN (the caller selects another way).
/// - Complexity: O(n log k) worst case, O(n + k log k) expected on shuffled values, for
///   k = `lowCount` + `highCount`; O(k) memory. `values` is not modified.
func tailOrderStatistics(_ values: UnsafeBufferPointer<Double>, ranks: [Int], lowCount: Int, highCount: Int) -> [Double]? {
    let n = values.count
    guard lowCount >= 0, highCount >= 0, lowCount + highCount <= n,
        ranks.allSatisfy({ $0 >= 0 && $0 < n && ($0 < lowCount || $0 >= n - highCount) })
    else { return nil }
    if let found = thresholdTails(values, ranks: ranks, lowCount: lowCount, highCount: highCount) { return found }
    var low = [Double](), high = [Double]()
    low.reserveCapacity(lowCount)
    high.reserveCapacity(highCount)
    /// Restores the heap property from the root; `above(a, b)`: a belongs above b.
    func siftDown(_ h: inout [Double], _ above: (Double, Double) -> Bool) {
        var i = 0
        let count = h.count
        while true {
            let l = 2 * i + 1, r = l + 1
            var top = i
            if l < count && above(h[l], h[top]) { top = l }
            if r < count && above(h[r], h[top]) { top = r }
            if top == i { return }
            h.swapAt(i, top)
            i = top
        }
    }
    /// Adds a value to a heap that is not yet full.
    func siftUp(_ h: inout [Double], _ v: Double, _ above: (Double, Double) -> Bool) {
        h.append(v)
        var i = h.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if !above(h[i], h[parent]) { return }
            h.swapAt(i, parent)
            i = parent
        }
    }
    for v in values {
        if v.isNaN { return nil }
        if lowCount > 0 {
            if low.count < lowCount {
                siftUp(&low, v, >)
            } else if v < low[0] {
                low[0] = v
                siftDown(&low, >)
            }
        }
        if highCount > 0 {
            if high.count < highCount {
                siftUp(&high, v, <)
            } else if v > high[0] {
                high[0] = v
                siftDown(&high, <)
            }
        }
    }
    low.sort()
    high.sort()
    return ranks.map { $0 < lowCount ? low[$0] : high[$0 - (n - highCount)] }
}

/// `tailOrderStatistics` by thresholds: the order statistics of every 32nd value estimate a value below which
/// more than `lowCount` values lie (and one above which more than `highCount` lie, each 3
/// standard deviations of the estimate plus 2 ranks out); one pass keeps the values beyond them
/// (a rare, well-predicted branch), and sorting those gives the order statistics — exact,
/// because every value smaller than the k-th smallest is at most the threshold whenever at least
/// k values are. Nil when it cannot be sure (too few values kept, too many, a NaN, a sample too
/// small): the heaps decide.
///
/// - Complexity: O(n + m) expected for the m values kept and a few ranks.
private func thresholdTails(_ values: UnsafeBufferPointer<Double>, ranks: [Int], lowCount: Int, highCount: Int) -> [Double]? {
    let n = values.count, stride = 32, m = n / stride
    guard m >= 64 else { return nil }
    var sample = [Double](unsafeUninitializedCapacity: m) { s, initialized in
        for j in 0..<m { s[j] = values[j &* stride] }
        initialized = m
    }
    if sample.contains(where: \.isNaN) { return nil }
    func sampleRank(_ k: Int) -> Int {
        let expected = Double(k) / Double(stride)
        return Int(expected + 3 * expected.squareRoot() + 2)
    }
    let rl = sampleRank(lowCount), rh = sampleRank(highCount)
    guard rl < m, rh < m else { return nil }
    // The two thresholds are order statistics of the sample: selected, not sorted (only
    // compared with, so the sign of a zero does not matter).
    sample.withUnsafeMutableBufferPointer { selectOrderStatistics(&$0, Array(Set([rl, m - 1 - rh])).sorted(), 0, m - 1) }
    let tLow = lowCount > 0 ? sample[rl] : -.infinity
    let tHigh = highCount > 0 ? sample[m - 1 - rh] : .infinity
    let cap = n / 4
    var low: [Double] = [], high: [Double] = []
    low.reserveCapacity(2 * lowCount + 64)
    high.reserveCapacity(2 * highCount + 64)
    for v in values where !(v > tLow && v < tHigh) {
        if v.isNaN { return nil }
        if lowCount > 0 && v <= tLow { low.append(v) }
        if highCount > 0 && v >= tHigh { high.append(v) }
        if low.count > cap || high.count > cap { return nil }
    }
    guard low.count >= lowCount, high.count >= highCount else { return nil }
    placeRanked(&low, ranks.filter { $0 < lowCount })
    placeRanked(&high, ranks.filter { $0 >= n - highCount }.map { high.count - (n - $0) })
    return ranks.map { $0 < lowCount ? low[$0] : high[high.count - (n - $0)] }
}

/// Puts at each of `positions` the value a sort of `values` (no NaN) would put there: selected
/// (O(count) expected for a few positions), or sorted when `values` holds a −0, whose order
/// against +0 a stable sort takes from the input and selection would not.
private func placeRanked(_ values: inout [Double], _ positions: [Int]) {
    guard !positions.isEmpty else { return }
    if values.contains(where: { $0 == 0 && $0.sign == .minus }) {
        values.sort()
    } else {
        values.withUnsafeMutableBufferPointer { selectOrderStatistics(&$0, Array(Set(positions)).sorted(), 0, $0.count - 1) }
    }
}
