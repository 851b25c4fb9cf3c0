/// Wilcoxon signed-rank test of paired differences (two-sided), following the methods
/// `scipy.stats.wilcoxon` documents with its defaults `zero_method='wilcox'` (zero differences
/// are dropped before ranking) and `correction=False`:
///
/// - R⁺ = Σ ranks of |dᵢ| over dᵢ > 0 (average ranks for ties), n = number of non-zero dᵢ;
/// - **exact** (n ≤ 50 and no zeros or ties): p = min(1, 2·min(P(T ≤ R⁺), P(T ≥ R⁺))) under the
///   null distribution of T, the sum of a random subset of {1…n};
/// - **permutation** (scipy ≥ 1.13's `method='auto'` for ≤ 13 differences with ties or zeros): the
///   same two-sided p over all 2ⁿ sign patterns of the observed (average) ranks — exact given the ties;
/// - **normal approximation** otherwise: z = (R⁺ − n(n+1)/4 [− ½·sign, with continuity
///   correction]) / σ, σ² = n(n+1)(2n+1)/24 − Σ(t³ − t)/48 over tie groups of size t;
///   p = 2·(1 − Φ(|z|)).
public struct WilcoxonSignedRank: Sendable, Equatable {
    public enum Method: String, Sendable { case exact, permutation, approximate = "normal-approximation" }

    /// Non-zero differences used.
    public var n: Int
    /// Zero differences dropped (`zero_method='wilcox'`).
    public var zeros: Int
    public var rankSumPositive: Double
    public var rankSumNegative: Double
    /// scipy's statistic for the two-sided test: min(R⁺, R⁻).
    public var statistic: Double { min(rankSumPositive, rankSumNegative) }
    /// The z-score of the normal approximation (NaN for the exact method).
    public var z: Double
    public var pValue: Double
    public var method: Method

    /// Largest n for which the exact null distribution is used (`scipy`: 50).
    public static let exactLimit = 50
    /// Largest sample (zeros included) for which ties or zeros give the permutation method (`scipy`: 13).
    public static let permutationLimit = 13

    /// - Parameters:
    ///   - differences: paired differences (NaN values must be removed by the caller).
    ///   - method: nil chooses as scipy's `method='auto'`: exact when n ≤ 50 with no zeros and no ties;
    ///     with ties or zeros, permutation when the sample (zeros included) has ≤ 13 values, else the
    ///     normal approximation. n > 50 always uses the normal approximation.
    ///   - correction: continuity correction of the normal approximation (scipy default: false).
    /// - Returns: nil when no difference is non-zero.
    /// Complexity: O(n log n) for the ranks; the exact p adds O(n³) (the null distribution, n ≤ 50).
    public init?(differences d: [Double], method: Method? = nil, correction: Bool = false) {
        let nonzero = d.filter { $0 != 0 }
        zeros = d.count - nonzero.count
        n = nonzero.count
        guard n > 0 else { return nil }
        let (ranks, ties) = Statistics.averageRanks(nonzero.map { abs($0) })
        var plus = 0.0, minus = 0.0
        for (r, x) in zip(ranks, nonzero) { if x > 0 { plus += r } else { minus += r } }
        rankSumPositive = plus
        rankSumNegative = minus
        let chosen =
            method
            ?? (d.count > Self.exactLimit
                ? .approximate
                : (zeros == 0 && ties.isEmpty) ? .exact : d.count <= Self.permutationLimit ? .permutation : .approximate)
        self.method = chosen
        let nn = Double(n)
        switch chosen {
        case .exact:
            z = .nan
            let dist = SignedRankDistribution(n: n)
            pValue = min(1, 2 * min(dist.cdf(plus), dist.sf(plus)))
        case .permutation:
            z = .nan
            // Every sign pattern of the non-zero ranks; rank sums are multiples of ½, so exact in Double.
            var le = 0, ge = 0
            let patterns = 1 << n
            for mask in 0..<patterns {
                var s = 0.0
                for i in 0..<n where (mask >> i) & 1 == 1 { s += ranks[i] }
                if s <= plus { le += 1 }
                if s >= plus { ge += 1 }
            }
            pValue = min(1, 2 * Double(min(le, ge)) / Double(patterns))
        case .approximate:
            let mean = nn * (nn + 1) / 4
            var variance = nn * (nn + 1) * (2 * nn + 1)
            variance -= Double(ties.reduce(0) { $0 + $1 * $1 * $1 - $1 }) / 2
            let se = (variance / 24).squareRoot()
            var num = plus - mean
            if correction { num -= 0.5 * (num > 0 ? 1 : num < 0 ? -1 : 0) }
            z = num / se
            pValue = min(1, 2 * StandardNormal.sf(abs(z)))
        }
    }
}

/// Null distribution of the signed-rank statistic T = Σ of a uniformly random subset of {1…n}
/// (every sign pattern equally likely). Counts by dynamic programming; exact in UInt64 for n ≤ 62.
///
/// Complexity: O(n³) time, O(n²) memory.
public struct SignedRankDistribution: Sendable {
    public let n: Int
    /// counts[k] = number of subsets with sum k, k = 0 … n(n+1)/2.
    public let counts: [UInt64]
    public var total: Double { Double(sign: .plus, exponent: n, significand: 1) }

    public init(n: Int) {
        self.n = n
        let top = n * (n + 1) / 2
        var c = [UInt64](repeating: 0, count: top + 1)
        c[0] = 1
        if n > 0 {
            for k in 1...n {
                var s = k * (k + 1) / 2
                while s >= k { c[s] &+= c[s - k]; s -= 1 }
            }
        }
        counts = c
    }

    /// P(T ≤ t); t may be a half-integer (average ranks), then P(T ≤ ⌊t⌋).
    public func cdf(_ t: Double) -> Double {
        let k = Int(t.rounded(.down))
        if k < 0 { return 0 }
        if k >= counts.count - 1 { return 1 }
        var s: UInt64 = 0
        for i in 0...k { s += counts[i] }
        return Double(s) / total
    }

    /// P(T ≥ t) = P(T ≤ n(n+1)/2 − t) by symmetry.
    public func sf(_ t: Double) -> Double { cdf(Double(counts.count - 1) - t.rounded(.up)) }

    /// Number of subsets with sum ≤ k.
    func cumulativeCount(_ k: Int) -> UInt64 {
        guard k >= 0 else { return 0 }
        var s: UInt64 = 0
        for i in 0...min(k, counts.count - 1) { s += counts[i] }
        return s
    }
}
