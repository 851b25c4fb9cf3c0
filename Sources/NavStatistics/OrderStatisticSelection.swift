// Order statistics placed by quickselect (`quantilesBySelection` and the tails' order statistics).

/// Places the order statistics `ks` (sorted, within lo…hi) at their indices: one quickselect
/// per k, each on what lies past the last (nothing allocated).
///
/// Complexity: O(n) expected per k.
func selectOrderStatistics(_ a: inout UnsafeMutableBufferPointer<Double>, _ ks: [Int], _ lo: Int, _ hi: Int) {
    var from = lo
    for k in ks where k >= from && k <= hi {
        selectOrderStatistic(&a, k, from, hi)
        from = k + 1
    }
}

/// Places the order statistic k of a[lo…hi] at k, the smaller values before it and the larger
/// after: median-of-three pivots, Hoare partitions, narrowing to k's side.
private func selectOrderStatistic(_ a: inout UnsafeMutableBufferPointer<Double>, _ k: Int, _ lo: Int, _ hi: Int) {
    var lo = lo, hi = hi
    while lo < hi {
        let mid = lo + (hi - lo) / 2
        if a[mid] < a[lo] { a.swapAt(mid, lo) }
        if a[hi] < a[lo] { a.swapAt(hi, lo) }
        if a[hi] < a[mid] { a.swapAt(hi, mid) }
        let pivot = a[mid]
        var i = lo, j = hi
        while i <= j {
            while a[i] < pivot { i += 1 }
            while a[j] > pivot { j -= 1 }
            if i <= j { a.swapAt(i, j); i += 1; j -= 1 }
        }
        // Now a[lo…j] ≤ pivot ≤ a[i…hi], and lo…hi between j and i equal the pivot.
        if k <= j { hi = j } else if k >= i { lo = i } else { return }
    }
}
