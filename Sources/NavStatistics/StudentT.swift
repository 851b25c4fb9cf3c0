import RealModule

/// Student's t distribution with ν degrees of freedom (ν > 0).
///
/// Numerical contract: `cdf` through the regularized incomplete beta function,
/// P(|T| > t) = I_{ν/(ν+t²)}(ν/2, ½), evaluated by its continued fraction (modified Lentz,
/// relative error ≈ 1e-14); `quantile` inverts the tail probability by bisection (relative
/// error ≈ 1e-13, the error of the tail probability divided by its log-derivative). Checked against `scipy.stats.t` in NavStatisticsTests.
public struct StudentT: Sendable, Equatable {
    public var degreesOfFreedom: Double

    public init(degreesOfFreedom: Double) { self.degreesOfFreedom = degreesOfFreedom }

    /// P(T ≤ t). Complexity: O(1) (≤ 300 continued-fraction terms).
    public func cdf(_ t: Double) -> Double {
        guard !t.isNaN, degreesOfFreedom > 0 else { return .nan }
        if t.isInfinite { return t > 0 ? 1 : 0 }
        let v = degreesOfFreedom
        let tail = 0.5 * regularizedIncompleteBeta(v / (v + t * t), a: v / 2, b: 0.5)
        return t > 0 ? 1 - tail : tail
    }

    /// P(T > t), computed without the cancellation of 1 − cdf in the upper tail.
    public func sf(_ t: Double) -> Double { cdf(-t) }

    /// t with P(T ≤ t) = p; ±∞ at 0 and 1, NaN outside [0, 1]. Bisection on the tail
    /// probability P(T > t) = 1 − p (no cancellation near p = 1), to a relative width of 1e-15.
    ///
    /// Complexity: O(1) (≤ 64 doublings, then ≤ 1100 halvings; ≈ 60 in practice).
    public func quantile(_ p: Double) -> Double {
        guard p >= 0, p <= 1, degreesOfFreedom > 0 else { return .nan }
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        if p == 0.5 { return 0 }
        if p < 0.5 { return -upperQuantile(p) }
        return upperQuantile(1 - p)
    }

    /// t > 0 with P(T > t) = q, q in (0, ½).
    private func upperQuantile(_ q: Double) -> Double {
        var lo = 0.0, hi = 1.0
        while sf(hi) > q { lo = hi; hi *= 2; if hi > 1e300 { return .infinity } }
        for _ in 0..<1100 {
            let mid = lo + (hi - lo) / 2
            if mid <= lo || mid >= hi || hi - lo <= 1e-15 * hi { break }
            if sf(mid) > q { lo = mid } else { hi = mid }
        }
        return lo + (hi - lo) / 2
    }
}

/// I_x(a, b), the regularized incomplete beta function, by the continued fraction of
/// Abramowitz & Stegun 26.5.8 (modified Lentz), using the symmetry I_x(a, b) = 1 − I_{1−x}(b, a)
/// where the fraction converges faster.
func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    if x > (a + 1) / (a + b + 2) { return 1 - regularizedIncompleteBeta(1 - x, a: b, b: a) }
    let logFront = Double.logGamma(a + b) - Double.logGamma(a) - Double.logGamma(b) + a * Double.log(x) + b * Double.log(1 - x)
    let tiny = 1e-300
    var c = 1.0, d = 1 - (a + b) * x / (a + 1)
    if abs(d) < tiny { d = tiny }
    d = 1 / d
    var h = d
    for m in 1...300 {
        let m = Double(m)
        // Even term d_{2m} = m(b − m)x / ((a + 2m − 1)(a + 2m)).
        var num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        d = 1 + num * d; if abs(d) < tiny { d = tiny }
        c = 1 + num / c; if abs(c) < tiny { c = tiny }
        d = 1 / d
        h *= d * c
        // Odd term d_{2m+1} = −(a + m)(a + b + m)x / ((a + 2m)(a + 2m + 1)).
        num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1 + num * d; if abs(d) < tiny { d = tiny }
        c = 1 + num / c; if abs(c) < tiny { c = tiny }
        d = 1 / d
        let delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16 { break }
    }
    return Double.exp(logFront) * h / a
}
