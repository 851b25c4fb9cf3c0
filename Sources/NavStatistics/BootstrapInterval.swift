import NavCore

/// Bootstrap confidence interval of the mean (Efron & Tibshirani 1993, ch. 13–14): B resamples
/// with replacement drawn from a `SeededRandom` stream, so the interval is a function of the
/// data, the seed and B only.
///
/// - **percentile**: the α/2 and 1 − α/2 quantiles of the B resampled means (linear
///   interpolation, numpy's default);
/// - **BCa** (bias-corrected and accelerated, as `scipy.stats.bootstrap(method='BCa')`):
///   z₀ = Φ⁻¹(share of resampled means below the mean, ties counting half),
///   â = Σ(θ̄₍.₎ − θ₍ᵢ₎)³ / (6·(Σ(θ̄₍.₎ − θ₍ᵢ₎)²)^{3/2}) from the jackknife means θ₍ᵢ₎,
///   α₁,₂ = Φ(z₀ + (z₀ + z_{α/2, 1−α/2}) / (1 − â(z₀ + z_{α/2, 1−α/2}))), then those quantiles;
/// - **small-sample expansion** (Hesterberg 2015, "What teachers should know about the
///   bootstrap", §4: the expanded percentile interval): both methods use
///   z_{α/2} = −√(n/(n−1))·t_{α/2, n−1} in place of the normal quantile, which corrects the
///   bootstrap's narrowness bias (its spread is σ̂·√((n−1)/n), and the normal quantile ignores
///   the uncertainty of σ̂). Without it a nominal 95 % BCa interval of a mean of 10 normal
///   values covers ≈ 91 %; with it ≈ 95 % (BootstrapIntervalTests.bcaCoversTheTrueMean).
///
/// n = 1 gives NaN bounds; a constant sample gives the degenerate interval [x, x].
public struct BootstrapInterval: Sendable, Equatable {
    public enum Method: String, Sendable, CaseIterable { case bca = "bca", percentile = "percentile" }

    public var estimate: Double
    public var low: Double
    public var high: Double
    public var method: Method
    public var resamples: Int
    /// (low, high).
    public var interval: (low: Double, high: Double) { (low, high) }

    /// Default number of resamples.
    public static let defaultResamples = 10_000

    /// Both intervals of the mean of `values` (finite values only) from one set of resamples.
    ///
    /// Complexity: O(B·n) time, O(B) memory.
    public static func mean(
        _ values: [Double], confidence: Double = 0.95, resamples: Int = defaultResamples,
        seed: UInt64
    ) -> (bca: BootstrapInterval, percentile: BootstrapInterval) {
        let n = values.count
        let theta = Statistics.mean(values)
        func both(_ lo: Double, _ hi: Double, _ plo: Double, _ phi: Double) -> (bca: BootstrapInterval, percentile: BootstrapInterval) {
            (
                BootstrapInterval(estimate: theta, low: lo, high: hi, method: .bca, resamples: resamples),
                BootstrapInterval(estimate: theta, low: plo, high: phi, method: .percentile, resamples: resamples)
            )
        }
        guard n > 1, resamples > 1 else { return both(.nan, .nan, .nan, .nan) }
        if values.allSatisfy({ $0 == values[0] }) { return both(theta, theta, theta, theta) }
        var means = resampledMeans(values, resamples: resamples, seed: seed)
        let (bca, percentile) = intervals(values, resampledMeans: &means, confidence: confidence)
        return both(bca.low, bca.high, percentile.low, percentile.high)
    }

    /// The means of `resamples` resamples of `values` with replacement: resample b sums, left to
    /// right, the values at the n indices of draws b·n ..< (b + 1)·n of `SeededRandom(seed:)`
    /// (Lemire's multiply-shift: index = ⌊n·draw / 2⁶⁴⌋, bias ≤ n/2⁶⁴), then divides by n
    /// (ResamplingLanesTests writes the definition out). Four resamples are summed side by side, each from its own
    /// jump-ahead copy of the stream and still left to right, so the means are the definition's
    /// bit for bit while four additions are in flight instead of one.
    ///
    /// - Complexity: O(B·n) time, O(B) memory.
    package static func resampledMeans(_ values: [Double], resamples: Int, seed: UInt64) -> [Double] {
        let n = values.count, count = UInt64(n)
        let stream = SeededRandom(seed: seed)
        var means = [Double](repeating: 0, count: resamples)
        let lanes = 4, full = resamples / lanes * lanes
        values.withUnsafeBufferPointer { x in
            var b = 0
            while b < full {
                var g0 = stream.advanced(by: b * n), g1 = stream.advanced(by: (b + 1) * n)
                var g2 = stream.advanced(by: (b + 2) * n), g3 = stream.advanced(by: (b + 3) * n)
                var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
                for _ in 0..<n {
                    s0 += x[Int(count.multipliedFullWidth(by: g0.next()).high)]
                    s1 += x[Int(count.multipliedFullWidth(by: g1.next()).high)]
                    s2 += x[Int(count.multipliedFullWidth(by: g2.next()).high)]
                    s3 += x[Int(count.multipliedFullWidth(by: g3.next()).high)]
                }
                means[b] = s0 / Double(n); means[b + 1] = s1 / Double(n)
                means[b + 2] = s2 / Double(n); means[b + 3] = s3 / Double(n)
                b += lanes
            }
            var rng = stream.advanced(by: full * n)
            for b in full..<resamples {
                var s = 0.0
                for _ in 0..<n { s += x[Int(count.multipliedFullWidth(by: rng.next()).high)] }
                means[b] = s / Double(n)
            }
        }
        return means
    }

    /// The BCa and percentile limits of the mean of `values` from given resampled means (the
    /// second half of `mean`, public so it can be checked against
    /// `scipy.stats.bootstrap(..., bootstrap_result=…)` on the same resamples).
    /// `smallSampleExpansion` false gives scipy's intervals exactly; true (navbench's reports)
    /// replaces z_{α/2} by −√(n/(n−1))·t_{α/2, n−1}, which is scipy's interval at the
    /// confidence 1 − 2Φ(−√(n/(n−1))·t_{1−α/2, n−1}).
    ///
    /// `resampledMeans` is reordered (selection). n < 2 or fewer than 2 resamples give NaN.
    ///
    /// Complexity: O(B + n).
    public static func intervals(
        _ values: [Double], resampledMeans means: inout [Double], confidence: Double = 0.95,
        smallSampleExpansion: Bool = true
    ) -> (bca: (low: Double, high: Double), percentile: (low: Double, high: Double)) {
        let n = values.count
        guard n > 1 else { return ((.nan, .nan), (.nan, .nan)) }
        let z = smallSampleExpansion ? expandedQuantile(n: n, confidence: confidence) : -StandardNormal.quantile((1 - confidence) / 2)
        return intervals(values, resampledMeans: &means, confidence: confidence, smallSampleExpansion: smallSampleExpansion, quantile: z)
    }

    /// √(n/(n−1))·t_{1−α/2, n−1}: the small-sample expansion's replacement of z_{1−α/2}, the same
    /// for every sample of n values (computed once per n by a caller with many).
    package static func expandedQuantile(n: Int, confidence: Double) -> Double {
        (Double(n) / Double(n - 1)).squareRoot() * StudentT(degreesOfFreedom: Double(n - 1)).quantile(1 - (1 - confidence) / 2)
    }

    /// `intervals` with its upper quantile given: `expandedQuantile(n:confidence:)` with the
    /// expansion, else −Φ⁻¹(α/2).
    package static func intervals(
        _ values: [Double], resampledMeans means: inout [Double], confidence: Double, smallSampleExpansion: Bool, quantile zExpanded: Double
    ) -> (bca: (low: Double, high: Double), percentile: (low: Double, high: Double)) {
        let n = values.count, resamples = means.count
        guard n > 1, resamples > 1 else { return ((.nan, .nan), (.nan, .nan)) }
        let theta = Statistics.mean(values)
        let alpha = (1 - confidence) / 2
        let tail = smallSampleExpansion ? StandardNormal.cdf(-zExpanded) : alpha
        // Bias correction: share of resampled means below θ̂ (ties count half).
        let (below, equal) = countBelowAndEqual(means, theta)
        let z0 = StandardNormal.quantile((Double(below) + 0.5 * Double(equal)) / Double(resamples))
        // Acceleration from the jackknife (leave-one-out means).
        let total = values.reduce(0, +)
        let jack = values.map { (total - $0) / Double(n - 1) }
        let jackMean = Statistics.mean(jack)
        var num = 0.0, den = 0.0
        for t in jack { let d = jackMean - t; num += d * d * d; den += d * d }
        let a = den > 0 ? num / (6 * pow15(den)) : 0
        func adjusted(_ zAlpha: Double) -> Double {
            let s = z0 + zAlpha
            return StandardNormal.cdf(z0 + s / (1 - a * s))
        }
        let a1 = adjusted(-zExpanded), a2 = adjusted(zExpanded)
        // Only four quantiles are needed: select their order statistics (O(B)) instead of sorting (O(B log B)).
        let q = Statistics.quantilesBySelection(&means, a1.isFinite && a2.isFinite ? [tail, 1 - tail, a1, a2] : [tail, 1 - tail])
        guard q.count == 4 else { return ((.nan, .nan), (q[0], q[1])) }
        return ((q[2], q[3]), (q[0], q[1]))
    }

    private static func pow15(_ x: Double) -> Double { x * x.squareRoot() }

    /// The values below `theta` and equal to it (NaN in neither). Counted four at a time in
    /// vector masks, without a branch per value: which way a mean falls is a coin toss near θ̂,
    /// and the compiler turns a scalar `m < θ ? 1 : 0` back into a mispredicted branch.
    private static func countBelowAndEqual(_ values: [Double], _ theta: Double) -> (below: Int, equal: Int) {
        values.withUnsafeBufferPointer { v in
            let t = SIMD4<Double>(repeating: theta)
            var below = SIMD4<Int64>.zero, equal = SIMD4<Int64>.zero
            var i = 0
            while i &+ 4 <= v.count {
                let x = SIMD4<Double>(v[i], v[i &+ 1], v[i &+ 2], v[i &+ 3])
                below &+= SIMD4<Int64>.zero.replacing(with: 1, where: x .< t)
                equal &+= SIMD4<Int64>.zero.replacing(with: 1, where: x .== t)
                i &+= 4
            }
            var b = Int(below.wrappedSum()), e = Int(equal.wrappedSum())
            while i < v.count {
                if v[i] < theta { b &+= 1 }
                if v[i] == theta { e &+= 1 }
                i &+= 1
            }
            return (b, e)
        }
    }
}

/// Independent units a mean needs before a report prints its confidence interval (fewer: the mean
/// and "too few units for a CI") and before the regression gate pairs a metric (fewer: its
/// per-row tolerance rule decides).
public let minimumUnitsForInterval = 5

/// Whether a confidence interval [low, high] excludes 0: both bounds finite and on one side of 0
/// by more than rounding — a bound within 1e-9 of the interval's width of 0 counts as 0 (a mean
/// of fractions k/n leaves ±1e-18 where the exact bound is 0, and such an interval does not
/// exclude it). The one test behind every "significant" or `*` a report prints from an interval.
public func intervalExcludesZero(low: Double, high: Double) -> Bool {
    guard low.isFinite, high.isFinite, low <= high else { return false }
    let rounding = 1e-9 * (high - low)
    return low > rounding || high < -rounding
}

/// The seed of a named sub-stream of `seed` (first draw of `SeededRandom(seed:label:)`), so each
/// cell, comparison or gate has its own bootstrap stream whatever order they are computed in.
public func streamSeed(_ seed: UInt64, _ label: String) -> UInt64 {
    var g = SeededRandom(seed: seed, label: label)
    return g.next()
}
