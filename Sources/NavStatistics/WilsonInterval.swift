/// Wilson score interval of a binomial proportion (Wilson 1927), as statsmodels
/// `proportion_confint(count, nobs, alpha, method='wilson')`:
///
///     z = Φ⁻¹(1 − α/2),  centre = (p̂ + z²/2n) / (1 + z²/n),
///     half-width = z·√(p̂(1 − p̂)/n + z²/4n²) / (1 + z²/n).
///
/// Well behaved at p̂ = 0 and 1 and for small n, where the Wald interval collapses.
public struct WilsonInterval: Sendable, Equatable {
    public var successes: Int
    public var trials: Int
    public var low: Double
    public var high: Double
    public var proportion: Double { trials == 0 ? .nan : Double(successes) / Double(trials) }

    /// - Parameters: `confidence` in (0, 1), default 0.95. NaN bounds when `trials` is 0.
    /// Complexity: O(1).
    public init(successes: Int, trials: Int, confidence: Double = 0.95) {
        self.successes = successes
        self.trials = trials
        guard trials > 0 else { low = .nan; high = .nan; return }
        let n = Double(trials), p = Double(successes) / n
        let z = StandardNormal.quantile(1 - (1 - confidence) / 2)
        let z2 = z * z
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
        low = centre - half
        high = centre + half
    }
}
