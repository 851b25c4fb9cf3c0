/// Student t interval of a mean (the one interval of a mean navbench prints outside the
/// bootstrap): x̄ ± t₁₋α/₂,ₙ₋₁ · s/√n, with s the sample standard deviation (n − 1), as
/// `scipy.stats.t.interval(confidence, n − 1, loc=mean, scale=sem)`.
///
/// Used for a report cell with a large sample, for the paired differences of a comparison and
/// for the mean end-of-route error of a closed-loop cell. n < 2 gives NaN bounds; a constant
/// sample gives [x, x].
public struct StudentTInterval: Sendable, Equatable {
    public var n: Int
    public var mean: Double
    public var low: Double
    public var high: Double

    /// - Parameters: `confidence` in (0, 1), default 0.95.
    /// Complexity: O(n).
    public init(_ x: [Double], confidence: Double = 0.95) {
        n = x.count
        mean = Statistics.mean(x)
        guard n > 1 else { low = .nan; high = .nan; return }
        let t = StudentT(degreesOfFreedom: Double(n - 1)).quantile(1 - (1 - confidence) / 2)
        let halfWidth = t * Statistics.standardDeviation(x) / Double(n).squareRoot()
        low = mean - halfWidth
        high = mean + halfWidth
    }

    public var interval: (low: Double, high: Double) { (low, high) }
}
