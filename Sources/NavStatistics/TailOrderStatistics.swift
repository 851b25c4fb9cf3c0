/// Order statistics near both ends of a sample in one pass: the ranks ≤ `lowCount` − 1 come
/// from the `lowCount` smallest values and those ≥ n − `highCount` from the `highCount` largest,
/// each kept in a binary heap (a max-heap of the smallest values seen, a min-heap of the
/// largest) as the values stream by, then sorted. A value enters a heap only when it beats the
/// heap's top, so on values in random order (resampled means) a pass is about n comparisons per
/// side plus O(k log k) — against the several partition passes of a quickselect whose targets
/// lie at both tails (the bootstrap's 2.5 % and 97.5 % and their BCa-adjusted neighbours).
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
