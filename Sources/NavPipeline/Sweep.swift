import NavGuidance

/// The sweep grid: every combination of these lists is one configuration. Values are the
/// levels of each `SweepDimension` (parsed once, where the spec is read), by key; a dimension
/// not swept has its default level.
public struct Sweep: Sendable, Equatable {
    public var levels: [String: [SweepLevel]] = [:]
    public init() {}

    /// The levels of a dimension (its default alone when not swept).
    public func levels(of d: SweepDimension) -> [SweepLevel] { levels[d.key] ?? [d.defaultLevel] }
    /// The canonical texts of a dimension's levels (labels, `metrics.csv`, YAML).
    public func values(of d: SweepDimension) -> [String] { levels(of: d).map(\.text) }

    /// The options a level of the sweep sets, from the default options.
    private func options(_ level: SweepLevel) -> GuidanceOptions {
        var o = GuidanceOptions()
        level.apply(to: &o)
        return o
    }
    /// The RDP tolerances swept, metres.
    public var rdpTolerance: [Double] { levels(of: .rdpTolerance).map { options($0).rdpTolerance } }
    /// The seeds swept.
    public var seeds: [UInt64] { levels(of: .seeds).map { options($0).seed } }

    /// Equal when they give the same grid (a dimension left out equals its default given).
    public static func == (a: Sweep, b: Sweep) -> Bool {
        SweepDimension.all.allSatisfy { a.levels(of: $0) == b.levels(of: $0) }
    }
}

/// One point of the sweep grid.
public struct Configuration: Sendable {
    public var label: String
    public var options: GuidanceOptions
    /// Values of `Configuration.columns`.
    public var parameters: [String]

    /// The `metrics.csv` parameter columns, one per sweep dimension.
    public static var columns: [String] { SweepDimension.all.map(\.column) }
}

extension Sweep {
    /// Every combination, in a fixed order (the first dimension varies slowest); labels name
    /// only the dimensions that vary.
    public var configurations: [Configuration] {
        let dims = SweepDimension.all
        let lists = dims.map { levels(of: $0) }
        var combos: [[SweepLevel]] = [[]]
        for l in lists { combos = combos.flatMap { c in l.map { c + [$0] } } }
        return combos.map { levels in
            var o = GuidanceOptions()
            for level in levels { level.apply(to: &o) }
            let label = zip(dims, zip(levels, lists)).filter { $0.1.1.count > 1 }.map { "\($0.0.label)=\($0.1.0.text)" }.joined(separator: " ")
            return Configuration(label: label.isEmpty ? "default" : label, options: o, parameters: levels.map(\.text))
        }
    }
}
