import NavCore
import NavStatistics

/// The summary statistics evo reports for an error array, with evo's (numpy's) conventions.
///
/// - rmse = √(Σe²/n); sse = Σe²;
/// - mean = Σe/n; std = √(Σ(e − mean)²/n) (population, numpy `ddof=0`);
/// - median: numpy's (the mean of the two middle values for an even count);
/// - min, max.
///
/// Sums use Neumaier compensated summation, so they agree with numpy's pairwise sums to
/// ~1e-15 relative.
public struct ErrorStatistics: Codable, Equatable, Sendable {
    public var rmse: Double
    public var mean: Double
    public var median: Double
    public var std: Double
    public var min: Double
    public var max: Double
    public var sse: Double
    /// Number of errors summarised.
    public var count: Int

    /// - Throws: `MetricError.noErrors` for an empty array, `.nonFinite` if an error is NaN or infinite.
    /// - Complexity: O(n) expected (the median selects its two order statistics in a copy
    ///   instead of sorting it: the same bits, `quantilePosition` and `quantileInterpolate`).
    public init(_ e: [Double]) throws(MetricError) {
        guard !e.isEmpty else { throw .noErrors }
        if let i = e.firstIndex(where: { !$0.isFinite }) { throw .nonFinite(index: i, value: e[i]) }
        let n = Double(e.count)
        var sum = CompensatedSum(), sq = CompensatedSum()
        var lo = e[0], hi = e[0]
        for x in e {
            sum.add(x); sq.add(x * x)
            if x < lo { lo = x }
            if x > hi { hi = x }
        }
        mean = sum.value / n
        sse = sq.value
        rmse = (sse / n).squareRoot()
        var dev = CompensatedSum()
        for x in e { let d = x - mean; dev.add(d * d) }
        std = (dev.value / n).squareRoot()
        min = lo; max = hi
        var copy = e
        median = Statistics.quantilesBySelection(&copy, [0.5])[0]
        count = e.count
    }
}

/// Neumaier's compensated sum (Kahan–Babuška): exact to ~1 ulp of the result for any order.
struct CompensatedSum {
    var sum = 0.0, compensation = 0.0
    @inline(__always) mutating func add(_ x: Double) {
        let t = sum + x
        if abs(sum) >= abs(x) { compensation += (sum - t) + x } else { compensation += (x - t) + sum }
        sum = t
    }
    var value: Double { sum + compensation }
}
