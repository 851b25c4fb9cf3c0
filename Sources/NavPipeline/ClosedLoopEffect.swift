import NavStatistics

/// A guidance level's effect on the closed-loop success rate: mean over units of (success at
/// `level` − success at `reference`), the other guidance dimensions averaged within a unit.
public struct ClosedLoopEffect: Sendable, Equatable {
    /// The sweep dimension's `metrics.csv` column (as `ExperimentStatistics.MainEffect.dimension`).
    public var dimension: String
    public var level: String
    public var reference: String
    /// Units: walkers (run index of a recording × walls × walker × VIO error × seed cell).
    public var n: Int
    public var meanDifference: Double
    public var ciLow: Double
    public var ciHigh: Double
    /// The 95 % CI excludes 0 (`intervalExcludesZero`).
    public var significant: Bool { intervalExcludesZero(low: ciLow, high: ciHigh) }
}
