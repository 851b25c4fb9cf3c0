/// Welch's two-sample t test from summary statistics (Welch 1947), as
/// `scipy.stats.ttest_ind_from_stats(mean1, std1, nobs1, mean2, std2, nobs2, equal_var=False)`:
///
///     t = (x̄₁ − x̄₂) / √(s₁²/n₁ + s₂²/n₂),
///     ν = (s₁²/n₁ + s₂²/n₂)² / ((s₁²/n₁)²/(n₁ − 1) + (s₂²/n₂)²/(n₂ − 1))   (Welch–Satterthwaite),
///
/// with s the sample standard deviations (n − 1). `pGreater` is P(T ≥ t) (is mean 1 larger?),
/// `pLess` P(T ≤ t), `pTwoSided` twice the smaller.
///
/// Two samples with no spread at all give t = ±∞ when the means differ (p 0 on that side), NaN
/// when they are equal (no test: the caller decides, as for equal data).
public struct WelchTTest: Sendable, Equatable {
    public var t: Double
    public var degreesOfFreedom: Double
    public var pGreater: Double
    public var pLess: Double
    public var pTwoSided: Double { min(1, 2 * min(pGreater, pLess)) }

    /// nil when a sample has fewer than 2 values or a statistic is not finite.
    /// Complexity: O(1).
    public init?(mean1: Double, sd1: Double, n1: Int, mean2: Double, sd2: Double, n2: Int) {
        guard n1 > 1, n2 > 1, [mean1, sd1, mean2, sd2].allSatisfy(\.isFinite), sd1 >= 0, sd2 >= 0 else { return nil }
        let v1 = sd1 * sd1 / Double(n1), v2 = sd2 * sd2 / Double(n2)
        let diff = mean1 - mean2
        let se = (v1 + v2).squareRoot()
        if se == 0 {
            guard diff != 0 else { return nil }
            t = diff > 0 ? .infinity : -.infinity
            degreesOfFreedom = Double(n1 + n2 - 2)
            pGreater = diff > 0 ? 0 : 1
            pLess = diff > 0 ? 1 : 0
            return
        }
        t = diff / se
        degreesOfFreedom = (v1 + v2) * (v1 + v2) / (v1 * v1 / Double(n1 - 1) + v2 * v2 / Double(n2 - 1))
        let dist = StudentT(degreesOfFreedom: degreesOfFreedom)
        pGreater = dist.sf(t)
        pLess = dist.cdf(t)
    }
}
