import Foundation
import NavIO

/// Limits on what an experiment spec may ask for, checked when the spec is read, before
/// anything is built: a value passed to `ExperimentSpec.load`/`parse` (the CLI's
/// `--max-configurations`), never a global.
public struct SpecLimits: Sendable, Equatable {
    /// Most configurations a sweep grid may have (`--max-configurations` raises it). The grid is
    /// counted, with overflow checked, before it is built; 10,000 configurations × a few
    /// navigation sessions is already hours of replay.
    public var maxConfigurations: Int

    public init(maxConfigurations: Int = 10_000) { self.maxConfigurations = maxConfigurations }

    /// 10,000 configurations.
    public static var standard: SpecLimits { SpecLimits() }
}

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
