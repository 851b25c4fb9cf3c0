import Foundation

/// How much a metric may change before it counts: |Δ| ≤ absolute + relative·|baseline|.
public struct CompareTolerance: Sendable, Equatable, Codable {
    public var absolute: Double
    public var relative: Double
    public init(absolute: Double, relative: Double) { self.absolute = absolute; self.relative = relative }
    /// A tolerance as a spec's `compare:` or `--tolerance` gives it: both parts finite and ≥ 0,
    /// else nil (NaN or a negative part makes every metric, or none, regress).
    public init?(checkedAbsolute absolute: Double, relative: Double) {
        guard absolute.isFinite, relative.isFinite, absolute >= 0, relative >= 0 else { return nil }
        self.init(absolute: absolute, relative: relative)
    }
    /// What a tolerance must be, for messages.
    public static let expected = "{absolute: a finite number ≥ 0, relative: a finite number ≥ 0}"
    public static let exact = CompareTolerance(absolute: 1e-9, relative: 1e-6)
}

/// One metric of one run that moved beyond its tolerance, or disappeared.
public struct MetricChange: Sendable, Equatable {
    public var route: String, session: String, configuration: String, metric: String
    public var baseline: Double
    /// nil when the row is missing from the current table.
    public var current: Double?
    public var polarity: MetricPolarity
    public var regressed: Bool
    /// The run's `seed` parameter, "" when its table has none.
    public var seed = ""
}

public struct Comparison: Sendable {
    public var changes: [MetricChange]
    public var compared: Int
    public var regressions: [MetricChange] { changes.filter(\.regressed) }
    public var improvements: [MetricChange] { changes.filter { !$0.regressed } }
}

/// Compares `current` with `baseline` row by row (route, session, configuration, metric).
/// A change beyond tolerance in the worse direction (by `MetricPolarity`) is a regression;
/// so are a finite value turned NaN and a row missing from `current`. Neutral metrics never regress.
public func compareMetrics(
    baseline: MetricsTable, current: MetricsTable, tolerances: [String: CompareTolerance] = [:],
    defaultTolerance: CompareTolerance = .exact
) -> Comparison {
    let now = Dictionary(current.rows.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    var changes: [MetricChange] = []
    for r in baseline.rows {
        let polarity = MetricPolarity.of(r.metric)
        let tol = tolerances[r.metric] ?? defaultTolerance
        guard let c = now[r.key] else {
            changes.append(
                MetricChange(
                    route: r.route, session: r.session, configuration: r.configuration, metric: r.metric,
                    baseline: r.value, current: nil, polarity: polarity, regressed: true))
            continue
        }
        if r.value.isNaN && c.isNaN { continue }
        if r.value.isNaN != c.isNaN {
            changes.append(
                MetricChange(
                    route: r.route, session: r.session, configuration: r.configuration, metric: r.metric,
                    baseline: r.value, current: c, polarity: polarity, regressed: c.isNaN && polarity != .neutral))
            continue
        }
        let delta = c - r.value
        guard abs(delta) > tol.absolute + tol.relative * abs(r.value) else { continue }
        let worse = polarity == .lowerIsBetter ? delta > 0 : polarity == .higherIsBetter ? delta < 0 : false
        changes.append(
            MetricChange(
                route: r.route, session: r.session, configuration: r.configuration, metric: r.metric,
                baseline: r.value, current: c, polarity: polarity, regressed: worse))
    }
    return Comparison(changes: changes, compared: baseline.rows.count)
}

/// Markdown table of the changes, regressions first.
public func comparisonMarkdown(_ c: Comparison, baselineName: String, currentName: String) -> String {
    var md = "# Compare \(currentName) with \(baselineName)\n\n"
    md += "\(c.compared) metrics compared: \(c.regressions.count) regressed, \(c.improvements.count) changed otherwise.\n\n"
    guard !c.changes.isEmpty else { return md + "No metric moved beyond its tolerance.\n" }
    md += "| | route | session | configuration | metric | baseline | current | change |\n|---|---|---|---|---|---:|---:|---:|\n"
    for ch in c.regressions + c.improvements {
        let cur = ch.current.map { String(format: "%.6g", $0) } ?? "missing"
        let delta = ch.current.map { String(format: "%+.3g", $0 - ch.baseline) } ?? "–"
        md +=
            "| \(ch.regressed ? "**worse**" : "ok") | \(ch.route) | \(ch.session) | \(ch.configuration) | \(ch.metric) | "
            + "\(String(format: "%.6g", ch.baseline)) | \(cur) | \(delta) |\n"
    }
    return md
}
