import Foundation
import NavMetrics
import NavReport
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

/// What the replay's section offers the sections after it (`ReportSection.offered`): each swept
/// level's main effect on the replay's metrics, with the metrics' units.
public struct ReplayMainEffects: Sendable {
    public var effects: [ExperimentStatistics.MainEffect]
    public var units: [String: String]
}

/// The Findings lines where the replay and the closed loop disagree on a guidance level against
/// its dimension's first level: the closed-loop success rate significantly higher (lower) while
/// the replay's main effect is significantly worse (better) on some key metric; both effects
/// with their 95 % CIs.
func replayClosedLoopDisagreements(
    _ replay: [ExperimentStatistics.MainEffect], _ closedLoop: [ClosedLoopEffect], units: [String: String]
) -> [String] {
    closedLoop.filter(\.significant).compactMap { c in
        let walkersBetter = c.meanDifference > 0
        let opposite = replay.filter { e in
            guard e.dimension == c.dimension, e.level == c.level, e.reference == c.reference,
                intervalExcludesZero(low: e.ciLow, high: e.ciHigh), MetricPolarity.of(e.metric) != .neutral
            else { return false }
            let replayBetter = (MetricPolarity.of(e.metric) == .lowerIsBetter) == (e.meanDifference < 0)
            return replayBetter != walkersBetter
        }
        guard !opposite.isEmpty else { return nil }
        let said = opposite.map { e in
            let unit = units[e.metric].map { $0.isEmpty ? "" : " \($0)" } ?? ""
            return "\(e.metric) \(String(format: "%+.3g", e.meanDifference))\(unit) [\(String(format: "%+.3g, %+.3g", e.ciLow, e.ciHigh))]"
        }
        return "**Replay and closed loop disagree** on \(markdownInline(c.dimension)) \(markdownInline(c.level)) vs \(markdownInline(c.reference)): "
            + "the replay finds it \(walkersBetter ? "worse" : "better") (\(said.joined(separator: "; ")), n = \(opposite.map(\.n).max() ?? 0) units), "
            + "the closed-loop walkers succeed \(walkersBetter ? "more" : "less") often "
            + "(\(String(format: "%+.3g [%+.3g, %+.3g]", c.meanDifference, c.ciLow, c.ciHigh)), n = \(c.n) walkers)."
    }
}
