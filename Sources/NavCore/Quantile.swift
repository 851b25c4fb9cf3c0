// Sample quantiles with numpy's named methods: one implementation for metrics, guidance and reports.

/// Sample quantile methods, named as numpy's `quantile(method=…)` (Hyndman & Fan 1996 types).
///
/// The continuous methods place the k-th order statistic (1-based) at plotting position
/// p_k = (k − α)/(n + 1 − α − β) and interpolate linearly between order statistics:
/// | method | H&F type | α, β |
/// |---|---|---|
/// | `interpolatedInvertedCDF` | 4 | 0, 1 |
/// | `hazen` | 5 | ½, ½ |
/// | `weibull` | 6 | 0, 0 |
/// | `linear` (numpy's default) | 7 | 1, 1 |
/// | `medianUnbiased` | 8 | ⅓, ⅓ |
/// | `normalUnbiased` | 9 | ⅜, ⅜ |
/// The IPIN competition scores with `hazen` (type 5).
public enum QuantileMethod: String, Sendable, CaseIterable, Codable {
    case interpolatedInvertedCDF = "interpolated_inverted_cdf"
    case hazen
    case weibull
    case linear
    case medianUnbiased = "median_unbiased"
    case normalUnbiased = "normal_unbiased"

    var alphaBeta: (Double, Double) {
        switch self {
        case .interpolatedInvertedCDF: return (0, 1)
        case .hazen: return (0.5, 0.5)
        case .weibull: return (0, 0)
        case .linear: return (1, 1)
        case .medianUnbiased: return (1.0 / 3, 1.0 / 3)
        case .normalUnbiased: return (3.0 / 8, 3.0 / 8)
        }
    }
}

/// The q-quantile (0 ≤ q ≤ 1) of `values` with a named method; NaN for an empty array.
///
/// - Complexity: O(n log n) (sorts a copy).
public func quantile(_ values: [Double], _ q: Double, method: QuantileMethod = .linear) -> Double {
    quantile(sorted: values.sorted(), q, method: method)
}

/// The q-quantile of already sorted values, numpy's arithmetic (`quantilePosition`, then
/// `quantileInterpolate`).
///
/// - Complexity: O(1).
public func quantile(sorted x: [Double], _ q: Double, method: QuantileMethod) -> Double {
    guard !x.isEmpty else { return .nan }
    let p = quantilePosition(count: x.count, q, method: method)
    return quantileInterpolate(x[p.lo], x[p.hi], p.weight)
}

/// Where the q-quantile of `n` (> 0) sorted values lies, numpy's virtual index
/// h = n·q + α + q·(1 − α − β) − 1 (0-based) clamped to [0, n − 1]: the order statistics
/// `lo` = ⌊h⌋ and `hi` = min(lo + 1, n − 1) (0-based) and `weight` = h − ⌊h⌋. For a caller that
/// finds the order statistics itself (by selection instead of a sort), so every quantile of
/// navbench is this one formula.
///
/// - Complexity: O(1).
public func quantilePosition(count n: Int, _ q: Double, method: QuantileMethod) -> (lo: Int, hi: Int, weight: Double) {
    let (alpha, beta) = method.alphaBeta
    var h = Double(n) * q + (alpha + q * (1 - alpha - beta)) - 1
    h = Swift.min(Swift.max(h, 0), Double(n - 1))
    let lo = Int(h.rounded(.down))
    return (lo, Swift.min(lo + 1, n - 1), h - Double(lo))
}

/// numpy's two-sided lerp between neighbouring order statistics `a` ≤ `b` at weight `t` in
/// [0, 1]: a + (b − a)·t for t < ½, b − (b − a)·(1 − t) otherwise (exact at both ends).
///
/// - Complexity: O(1).
public func quantileInterpolate(_ a: Double, _ b: Double, _ t: Double) -> Double {
    let d = b - a
    return t >= 0.5 ? b - d * (1 - t) : a + d * t
}

/// p-th percentile (0…100) with a named method.
///
/// - Complexity: O(n log n) (sorts a copy).
public func percentile(_ values: [Double], _ p: Double, method: QuantileMethod = .linear) -> Double {
    quantile(values, p / 100, method: method)
}
