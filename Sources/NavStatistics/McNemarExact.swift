import RealModule

/// McNemar's exact test of paired binary outcomes (McNemar 1947), as
/// `statsmodels.stats.contingency_tables.mcnemar(table, exact=True)`: of the n = b + c
/// discordant pairs (b: success under the first condition only, c: under the second only), under
/// H₀ each is either kind with probability ½, so
///
///     p = min(1, 2 · P(B ≤ min(b, c))),  B ~ Binomial(n, ½)
///
/// (two-sided; the concordant pairs carry no information). With no discordant pair p = 1.
///
/// navbench pairs the same virtual walker (seed, run: common random numbers) under two guidance
/// configurations: success under one and not the other is a discordant pair.
///
/// Numerical contract: the binomial terms from log-gamma and the ratio
/// P(k + 1)/P(k) = (n − k)/(k + 1), summed smallest first; relative error ≈ 1e-13 for n up to
/// 10⁶, checked against statsmodels in NavStatisticsTests.
public struct McNemarExact: Sendable, Equatable {
    /// Pairs with success under the first condition only.
    public var firstOnly: Int
    /// Pairs with success under the second condition only.
    public var secondOnly: Int
    /// Two-sided exact p-value.
    public var pValue: Double

    /// nil when a count is negative.
    /// Complexity: O(min(b, c)).
    public init?(firstOnly b: Int, secondOnly c: Int) {
        guard b >= 0, c >= 0 else { return nil }
        firstOnly = b
        secondOnly = c
        let n = b + c, k = min(b, c)
        guard n > 0 else { pValue = 1; return }
        // P(B = 0) = 2⁻ⁿ, then the ratio; in logs until the terms are representable.
        let nd = Double(n)
        var logTerm = -nd * Double.log(2)
        var sum = 0.0
        for i in 0...k {
            sum += Double.exp(logTerm)
            logTerm += Double.log((nd - Double(i)) / Double(i + 1))
        }
        pValue = min(1, 2 * sum)
    }
}
