import Foundation
import NavIO

extension Sweep {
    /// The values of each dimension as text, in `SweepDimension.all` order.
    var dimensionValues: [(name: String, values: [String])] {
        SweepDimension.all.map { ($0.key, values(of: $0)) }
    }

    /// The number of configurations, or nil when it overflows `Int`.
    ///
    /// - Complexity: O(dimensions).
    public var configurationCount: Int? {
        var n = 1
        for d in dimensionValues {
            let (p, o) = n.multipliedReportingOverflow(by: d.values.count)
            if o { return nil }
            n = p
        }
        return n
    }

    /// Throws on a value repeated within a dimension (it would duplicate rows) and on a grid of
    /// more than `limits.maxConfigurations` configurations.
    func checkLimits(file: String, limits: SpecLimits) throws(SpecError) {
        for d in dimensionValues {
            var seen = Set<String>()
            for v in d.values where !seen.insert(v).inserted {
                throw SpecError(file: file, key: "sweep.\(d.name)", problem: "'\(escapedForMessage(v))' is listed twice; each value once")
            }
        }
        let limit = limits.maxConfigurations
        guard let n = configurationCount, n <= limit else {
            let shown = configurationCount.map(String.init) ?? "more than 2^63"
            throw SpecError(
                file: file, key: "sweep",
                problem: "\(shown) configurations, more than the limit of \(limit) (--max-configurations raises it)")
        }
    }
}
