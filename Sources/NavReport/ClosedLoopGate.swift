import Foundation

/// One closed-loop cell (route, walker, VIO error, walls, guidance configuration, seed) whose
/// outcome got worse than the baseline's, or disappeared.
public struct ClosedLoopRegression: Sendable, Equatable {
    public var route: String
    public var configuration: String
    public var metric: String
    public var baseline: Double
    /// nil when the cell is missing from the current table.
    public var current: Double?
    /// The bound the current value crossed (the baseline's 95 % interval end on the worse side).
    public var bound: Double
}

/// The closed-loop part of the regression gate (`closed-loop.csv` of two runs of the same
/// spec): per cell, the success rate and the mean end-of-route error. The baseline's own 95 %
/// interval of the cell (Wilson for the rate, Student t for the mean error; both in the file)
/// is the tolerance: a regression is a current success rate below the baseline's interval, a
/// current mean end-of-route error above it, a value turned NaN, or a cell missing. Walks are
/// seeded, so an unchanged model reproduces the baseline exactly; the interval lets a change
/// of the model that moves a cell by less than its sampling error through, and stops one that
/// moves it by more. Cells only in the current table are new, not regressions.
public struct ClosedLoopGate: Sendable {
    /// One gated value: a baseline cell × gated metric, and whether it regressed (a JUnit testcase).
    public struct Check: Sendable, Equatable {
        public var route: String
        public var configuration: String
        public var metric: String
        /// The regression when this check failed, nil when it passed.
        public var regression: ClosedLoopRegression?
    }
    /// Every gated value, in the baseline's row order.
    public var checks: [Check]
    public var regressions: [ClosedLoopRegression] { checks.compactMap(\.regression) }
    /// Cells compared (present in the baseline).
    public var cells: Int

    /// The gated metrics and the bound of each: (metric, bound column, worse when current is above the bound).
    public static let gated: [(metric: String, bound: String, higherIsWorse: Bool)] = [
        ("success_rate", "success_rate_ci_low", false),
        ("end_of_route_error", "end_of_route_error_ci_high", true),
    ]

    /// - Complexity: O(rows).
    public init(baseline: MetricsTable, current: MetricsTable) {
        func cellKey(_ r: MetricRow) -> String { ([r.route, r.session, r.configuration] + r.parameters).joined(separator: "\u{1}") }
        func index(_ t: MetricsTable) -> [String: [String: Double]] {
            var out: [String: [String: Double]] = [:]
            for r in t.rows { out[cellKey(r), default: [:]][r.metric] = r.value }
            return out
        }
        let b = index(baseline), c = index(current)
        var labels: [String: (String, String)] = [:], order: [String] = []
        for r in baseline.rows where labels[cellKey(r)] == nil { labels[cellKey(r)] = (r.route, r.configuration); order.append(cellKey(r)) }
        var out: [Check] = []
        for key in order {
            let (route, configuration) = labels[key]!
            let base = b[key]!
            for g in Self.gated {
                guard let bv = base[g.metric], !bv.isNaN else { continue }
                let bound = base[g.bound] ?? bv
                var check = Check(route: route, configuration: configuration, metric: g.metric, regression: nil)
                if let cv = c[key]?[g.metric] {
                    let worse = cv.isNaN || (g.higherIsWorse ? cv > bound : cv < bound)
                    if worse {
                        check.regression = ClosedLoopRegression(
                            route: route, configuration: configuration, metric: g.metric, baseline: bv, current: cv, bound: bound)
                    }
                } else {
                    check.regression = ClosedLoopRegression(
                        route: route, configuration: configuration, metric: g.metric, baseline: bv, current: nil, bound: bound)
                }
                out.append(check)
            }
        }
        checks = out
        cells = order.count
    }

    /// The Markdown section of `navbench compare`.
    public var markdown: String {
        var md =
            "\n## Closed loop (`closed-loop.csv`)\n\n\(cells) cells compared on success rate and mean end-of-route error, "
            + "\(checks.count) gated values (tolerance: the baseline cell's 95 % interval): \(regressions.count) regressed.\n"
        guard !regressions.isEmpty else { return md }
        md += "\n| route | cell | metric | baseline | bound | current |\n|---|---|---|---:|---:|---:|\n"
        for r in regressions {
            md +=
                "| \(markdownInline(r.route)) | \(markdownInline(r.configuration)) | \(r.metric) | \(String(format: "%.3f", r.baseline)) | "
                + "\(String(format: "%.3f", r.bound)) | \(r.current.map { String(format: "%.3f", $0) } ?? "missing") |\n"
        }
        return md
    }
}
