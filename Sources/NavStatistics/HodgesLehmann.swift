/// Hodges–Lehmann estimate of the median of paired differences (the pseudo-median: median of
/// the M = n(n+1)/2 Walsh averages (dᵢ + dⱼ)/2, i ≤ j; Hodges & Lehmann 1963) with the distribution-free
/// confidence interval that inverts the Wilcoxon signed-rank test (Bauer 1972; R's
/// `wilcox.test(conf.int=TRUE)`): [W₍C₎, W₍M+1−C₎] over the sorted Walsh averages, C the smallest
/// integer with P(T ≤ C) ≥ α/2 under the exact null (n ≤ 60), or
/// C = ⌊n(n+1)/4 − z·σ + ½⌋ by the normal approximation beyond. The achieved confidence is ≥ the
/// nominal one (discrete).
///
/// The Walsh averages are never stored: each order statistic W₍k₎ is selected by bisection over
/// the ordered bit patterns of doubles, counting the averages ≤ x in O(n) with two pointers over
/// the sorted differences (the averages of a sorted sample are monotone in both indices, and
/// floating-point addition and halving are monotone). The result is the very double a full sort
/// of the computed averages (dᵢ + dⱼ)/2 gives (checked against that sort in the tests).
public struct HodgesLehmann: Sendable, Equatable {
    public var n: Int
    public var estimate: Double
    public var low: Double
    public var high: Double

    /// - Parameter d: finite differences.
    /// - Returns: nil for an empty sample.
    /// - Complexity: O(n log n) time (a sort, then at most 64 O(n) counts per order statistic),
    ///   O(n) memory.
    public init?(differences d: [Double], confidence: Double = 0.95) {
        n = d.count
        guard n > 0 else { return nil }
        let walsh = WalshAverages(d)
        let m = walsh.count
        estimate = m % 2 == 1 ? walsh.orderStatistic(m / 2 + 1) : (walsh.orderStatistic(m / 2) + walsh.orderStatistic(m / 2 + 1)) / 2
        let alpha = (1 - confidence) / 2
        var c: Int
        if n <= 60 {
            let dist = SignedRankDistribution(n: n)
            let target = alpha * dist.total
            var cumulative = 0.0
            c = 0
            while c < dist.counts.count {
                cumulative += Double(dist.counts[c])
                if cumulative >= target { break }
                c += 1
            }
        } else {
            let nn = Double(n)
            let sigma = (nn * (nn + 1) * (2 * nn + 1) / 24).squareRoot()
            c = Int((nn * (nn + 1) / 4 - StandardNormal.quantile(1 - alpha) * sigma + 0.5).rounded(.down))
        }
        c = max(1, min(c, (m + 1) / 2))
        low = walsh.orderStatistic(c)
        high = walsh.orderStatistic(m - c + 1)
    }
}

/// The Walsh averages (dᵢ + dⱼ)/2, i ≤ j, of a sample, as order statistics without storing them.
public struct WalshAverages: Sendable {
    /// The sample, sorted.
    public let sorted: [Double]
    /// n(n+1)/2.
    public var count: Int { sorted.count * (sorted.count + 1) / 2 }

    public init(_ d: [Double]) { sorted = d.sorted() }

    @inline(__always) func average(_ i: Int, _ j: Int) -> Double { (sorted[i] + sorted[j]) / 2 }

    /// Number of averages ≤ x. Complexity: O(n).
    public func countNotAbove(_ x: Double) -> Int {
        let n = sorted.count
        var total = 0
        var j = n - 1  // largest j with average(i, j) ≤ x; non-increasing in i
        for i in 0..<n {
            while j >= i && !(average(i, j) <= x) { j -= 1 }
            if j < i { break }
            total += j - i + 1
        }
        return total
    }

    /// The k-th smallest average (1-based, 1 ≤ k ≤ count): the smallest double x with at least k
    /// averages ≤ x, found by bisection on the doubles' total order. Complexity: O(64·n).
    public func orderStatistic(_ k: Int) -> Double {
        let n = sorted.count
        var lo = Self.orderKey(average(0, 0)), hi = Self.orderKey(average(n - 1, n - 1))
        // Invariant: countNotAbove(value(hi)) ≥ k; the answer lies in [lo, hi].
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if countNotAbove(Self.value(mid)) >= k { hi = mid } else { lo = mid + 1 }
        }
        let x = Self.value(lo)
        return x == 0 ? 0 : x  // −0 and +0 compare equal, so the count cannot tell them apart: +0
    }

    /// Doubles (no NaN) mapped to unsigned integers in the same order (−0 and +0 adjacent).
    static func orderKey(_ x: Double) -> UInt64 {
        let b = x.bitPattern
        return b & (1 << 63) != 0 ? ~b : b | (1 << 63)
    }
    static func value(_ k: UInt64) -> Double {
        Double(bitPattern: k & (1 << 63) != 0 ? k & ~(1 << 63) : ~k)
    }
}
