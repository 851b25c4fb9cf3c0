import NavCore

/// Descriptive statistics of a sample of finite values: what every report cell prints.
///
/// Numerical contract: mean by pairwise-free left-to-right summation (the order of the input,
/// so a report is byte-identical on rerun); `std` is the sample standard deviation (n − 1,
/// numpy `ddof=1`), NaN for n < 2; `median` the average of the two middle values for even n.
public struct SampleSummary: Sendable, Equatable {
    public var n: Int
    /// Values left out because they were NaN or infinite.
    public var nonFinite: Int
    public var mean: Double
    public var median: Double
    public var std: Double

    /// Summarises the finite values of `values`, counting the others in `nonFinite`.
    ///
    /// Complexity: O(n log n) (the median sorts a copy).
    public init(_ values: [Double]) {
        let f = values.filter(\.isFinite)
        n = f.count
        nonFinite = values.count - f.count
        mean = Statistics.mean(f)
        median = Statistics.median(f)
        std = Statistics.standardDeviation(f)
    }
}

/// Small numerical helpers shared by the tests and intervals of this module.
public enum Statistics {
    /// Arithmetic mean; NaN when empty.
    public static func mean(_ x: [Double]) -> Double {
        x.isEmpty ? .nan : x.reduce(0, +) / Double(x.count)
    }

    /// Median (average of the middle two for even n); NaN when empty.
    public static func median(_ x: [Double]) -> Double {
        guard !x.isEmpty else { return .nan }
        let s = x.sorted()
        let m = s.count / 2
        return s.count % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2
    }

    /// Sample standard deviation with n − 1 in the denominator; NaN for n < 2.
    public static func standardDeviation(_ x: [Double]) -> Double {
        guard x.count > 1 else { return .nan }
        let m = mean(x)
        return (x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count - 1)).squareRoot()
    }

    /// Average ranks (1-based; ties get the mean of the ranks they span), as
    /// `scipy.stats.rankdata(method='average')`, and the sizes of the tie groups (> 1).
    ///
    /// Complexity: O(n log n).
    public static func averageRanks(_ x: [Double]) -> (ranks: [Double], tieSizes: [Int]) {
        let order = x.indices.sorted { x[$0] < x[$1] || (x[$0] == x[$1] && $0 < $1) }
        var ranks = [Double](repeating: 0, count: x.count)
        var ties: [Int] = []
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count && x[order[j + 1]] == x[order[i]] { j += 1 }
            let r = Double(i + j + 2) / 2
            for k in i...j { ranks[order[k]] = r }
            if j > i { ties.append(j - i + 1) }
            i = j + 1
        }
        return (ranks, ties)
    }

    /// Values from which `quantilesBySelection` reads tail order statistics in one pass.
    static let tailPassMinimumCount = 2_048

    /// The quantiles `qs` of `x` (numpy's `linear` method: NavCore's `quantile(sorted:_:method:)`
    /// of the sorted values, bit for bit) by selecting only the order statistics they need; `x`
    /// is reordered in place.
    ///
    /// When every order statistic needed lies within the outer eighth of ranks at either end
    /// (the bootstrap's tail quantiles) of at least `tailPassMinimumCount` values, they are read
    /// in one pass by `tailOrderStatistics` instead, and `x` is left as it is (on fewer, the
    /// heaps' bookkeeping costs more than the partitions: a walk's 95th percentile of ~350
    /// deviations).
    ///
    /// Complexity: O(n log k) expected for k quantiles (multiple quickselect, median-of-three
    /// pivots); O(n + t log t) expected for tail ranks within t of the ends.
    public static func quantilesBySelection(_ x: inout [Double], _ qs: [Double]) -> [Double] {
        guard !x.isEmpty else { return qs.map { _ in .nan } }
        let positions = qs.map { quantilePosition(count: x.count, $0, method: .linear) }
        var needed = Set<Int>()
        for p in positions { needed.insert(p.lo); needed.insert(p.hi) }
        let n = x.count, ranks = Array(needed).sorted()
        let lowCount = (ranks.last { $0 < n / 2 }).map { $0 + 1 } ?? 0
        let highCount = (ranks.first { $0 >= n / 2 }).map { n - $0 } ?? 0
        if n >= tailPassMinimumCount, lowCount + highCount <= n / 8,
            let tails = x.withUnsafeBufferPointer({ tailOrderStatistics($0, ranks: ranks, lowCount: lowCount, highCount: highCount) })
        {
            let value = Dictionary(uniqueKeysWithValues: zip(ranks, tails))
            return positions.map { quantileInterpolate(value[$0.lo]!, value[$0.hi]!, $0.weight) }
        }
        x.withUnsafeMutableBufferPointer { selectOrderStatistics(&$0, Array(needed).sorted(), 0, $0.count - 1) }
        return positions.map { quantileInterpolate(x[$0.lo], x[$0.hi], $0.weight) }
    }
}
