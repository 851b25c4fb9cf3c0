/// Hodges–Lehmann estimate of the median of paired differences (the pseudo-median: median of
/// the n(n+1)/2 Walsh averages (dᵢ + dⱼ)/2, i ≤ j; Hodges & Lehmann 1963) with the distribution-free
/// confidence interval that inverts the Wilcoxon signed-rank test (Bauer 1972; R's
/// `wilcox.test(conf.int=TRUE)`): [W₍C₎, W₍M+1−C₎] over the sorted Walsh averages, C the smallest
/// integer with P(T ≤ C) ≥ α/2 under the exact null (n ≤ 60), or
/// C = ⌊n(n+1)/4 − z·σ + ½⌋ by the normal approximation beyond. The achieved confidence is ≥ the
/// nominal one (discrete).
public struct HodgesLehmann: Sendable, Equatable {
    public var n: Int
    public var estimate: Double
    public var low: Double
    public var high: Double

    /// - Returns: nil for an empty sample. Complexity: O(n² log n) time, O(n²) memory.
    public init?(differences d: [Double], confidence: Double = 0.95) {
        n = d.count
        guard n > 0 else { return nil }
        var walsh: [Double] = []
        walsh.reserveCapacity(n * (n + 1) / 2)
        for i in 0..<n { for j in i..<n { walsh.append((d[i] + d[j]) / 2) } }
        walsh.sort()
        estimate = Statistics.median(walsh)
        let m = walsh.count
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
        low = walsh[c - 1]
        high = walsh[m - c]
    }
}
