import NavCore

/// A threshold score table: an error below `thresholds[k]` (metres, increasing) earns
/// `points[k]` (the first threshold it is below); above the last, 0.
public struct ThresholdScoreTable: Sendable, Equatable, Codable {
    public var thresholds: [Double]
    public var points: [Double]

    public init(thresholds: [Double], points: [Double]) { self.thresholds = thresholds; self.points = points }

    /// The Hilti SLAM Challenge 2022 table (Zhang et al., "Hilti-Oxford Dataset: A
    /// Millimeter-Accurate Benchmark for Simultaneous Localization and Mapping", RA-L 2023;
    /// the challenge's scoring rules): < 1 cm 10 points, < 3 cm 6, < 6 cm 5, < 10 cm 3, < 40 cm 1.
    public static let hilti2022 = ThresholdScoreTable(thresholds: [0.01, 0.03, 0.06, 0.10, 0.40], points: [10, 6, 5, 3, 1])

    /// Points for one error (strictly below a threshold).
    public func points(for error: Double) -> Double {
        for (t, p) in zip(thresholds, points) where error < t { return p }
        return 0
    }
}

/// A control-point score (the Hilti SLAM Challenge's): each control point's position error
/// earns the points of the table; the score is Σ points / (max points · n) × 100 %.
public struct ControlPointScore: Sendable, Equatable, Codable {
    /// Percent of the maximum.
    public var percent: Double
    public var points: [Double]
    public var errors: [Double]
}

/// - Throws: `MetricError.noErrors` for no control points, `.nonFinite` for a NaN error.
/// - Complexity: O(n · table size).
public func controlPointScore(errors: [Double], table: ThresholdScoreTable = .hilti2022) throws(MetricError) -> ControlPointScore {
    guard !errors.isEmpty else { throw .noErrors }
    if let i = errors.firstIndex(where: { !$0.isFinite }) { throw .nonFinite(index: i, value: errors[i]) }
    let pts = errors.map(table.points(for:))
    let best = table.points.max() ?? 0
    return ControlPointScore(percent: best > 0 ? pts.reduce(0, +) / (best * Double(errors.count)) * 100 : 0, points: pts, errors: errors)
}
