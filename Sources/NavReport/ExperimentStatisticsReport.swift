import Foundation
import NavCore
import NavIO
import NavStatistics

extension ExperimentStatistics {
    /// `cells.csv`: one row per (route or `all`) × configuration × metric.
    /// (Every cell only when the statistics were computed without a `cellSink`.)
    public var cellsCSV: String { Self.cellsHeader + cells.map(Self.csvLine).joined() }

    /// `comparisons.csv`: every configuration group against the baseline, per route table and key metric.
    public var comparisonsCSV: String { Self.comparisonsHeader + comparisons.map(Self.csvLine).joined() }

    /// Writes `comparisonsCSV` to `path` atomically, a line at a time.
    public func writeComparisonsCSV(to path: String) throws(TraceError) {
        let w = try AtomicTextWriter(path: path)
        w.write(Self.comparisonsHeader)
        writeComparisonLines(to: w)
        try w.commit()
    }

    /// Appends the comparisons' lines of `comparisons.csv` (no header) to `writer`.
    public func writeComparisonLines(to writer: AtomicTextWriter) {
        for c in comparisons { writer.write(Self.csvLine(c)) }
    }

    public static let cellsHeader =
        "route,configuration,metric,unit,n,nan_count,mean,median,std,ci_low,ci_high,ci_method,percentile_low,percentile_high\n"
    public static let comparisonsHeader =
        "route,metric,configuration,baseline,n,median_difference,ci_low,ci_high,p_value,p_holm,test,significant,mean_difference,p_permutation,identical_configurations\n"

    public static func csvLine(_ c: Cell) -> String {
        [
            c.route, c.configuration, c.metric, c.unit, String(c.n), String(c.nanCount), formatNumber(c.mean), formatNumber(c.median),
            formatNumber(c.std), formatNumber(c.ciLow), formatNumber(c.ciHigh), c.ciMethod, formatNumber(c.percentileLow),
            formatNumber(c.percentileHigh),
        ].map(csvField).joined(separator: ",") + "\n"
    }

    static func csvLine(_ c: Comparison) -> String {
        [
            c.route, c.metric, c.configuration, c.baseline, String(c.n), formatNumber(c.medianDifference), formatNumber(c.ciLow),
            formatNumber(c.ciHigh), formatNumber(c.pValue), formatNumber(c.pHolm), c.test, c.significant ? "true" : "false",
            formatNumber(c.meanDifference), formatNumber(c.pPermutation), c.identical.joined(separator: ";"),
        ]
        .map(csvField).joined(separator: ",") + "\n"
    }

    /// Cells of the key metrics by table, configuration and metric (built once per statistics:
    /// `cellIndex`; the Markdown tables show key metrics only, so the other cells are not indexed).
    static func index(_ cells: [Cell], metrics: [String]) -> [String: Int] {
        let wanted = Set(metrics)
        return Dictionary(
            cells.indices.filter { wanted.contains(cells[$0].metric) }
                .map { (cells[$0].route + "\u{1}" + cells[$0].configuration + "\u{1}" + cells[$0].metric, $0) },
            uniquingKeysWith: { a, _ in a })
    }

    /// A Markdown table for one route (or `allRoutesLabel`): one row per group of identical
    /// configurations, cells `mean [ci_low, ci_high]`, n, NaN values left out, and the best group
    /// per metric in bold only when it beats every other after Holm.
    ///
    /// A cell of fewer than `minimumUnitsForInterval` units shows its mean and says it has too
    /// few units for a CI (a bootstrap of 3 values gives intervals like [1.000, 1.000]);
    /// `cells.csv` keeps every interval.
    public func tableMarkdown(_ table: String) -> String {
        let index = cellIndex
        let gs = groups[table] ?? []
        let metrics = keyMetrics
        guard !gs.isEmpty else { return "No runs.\n" }
        func unit(_ m: String) -> String { units[m] ?? "" }
        var s = "| configuration | n | " + metrics.map { "\($0) (\(unit($0)))" }.joined(separator: " | ") + " |\n"
        s += "|---|---:|" + String(repeating: "---|", count: metrics.count) + "\n"
        let bestHere = best[table] ?? [:]
        for g in gs {
            let name = g.members.map(markdownInline).joined(separator: "; ")
            let n =
                metrics.compactMap { index[table + "\u{1}" + g.representative + "\u{1}" + $0].map { cells[$0].n + cells[$0].nanCount } }.max() ?? 0
            s += "| \(name) | \(n) | "
            s +=
                metrics.map { m -> String in
                    guard let i = index[table + "\u{1}" + g.representative + "\u{1}" + m] else { return "–" }
                    let c = cells[i]
                    guard c.mean.isFinite else { return "– (\(c.nanCount) NaN)" }
                    var text = String(format: "%.3f", c.mean)
                    let interval = c.n >= minimumUnitsForInterval
                    if c.ciLow.isFinite && interval { text += String(format: " [%.3f, %.3f]", c.ciLow, c.ciHigh) }
                    if bestHere[m] == g.representative { text = "**\(text)**" }
                    let nan = c.nanCount > 0 ? ", \(c.nanCount) NaN left out" : ""
                    if !interval {
                        text += " (n=\(c.n)\(nan): too few units for a CI)"
                    } else if c.nanCount > 0 {
                        text += " (n=\(c.n)\(nan))"
                    }
                    return text
                }.joined(separator: " | ") + " |\n"
        }
        let verdicts = metrics.filter { MetricPolarity.of($0) != .neutral }.map { m in
            bestHere[m].map { "\(m): \(markdownInline($0))" } ?? "\(m): no significant difference"
        }
        if gs.count > 1 {
            s +=
                "\nBest (better than every other row, Wilcoxon signed-rank, Holm at α = \(formatNumber(options.alpha))): "
                + verdicts.joined(separator: "; ") + ".\n"
        }
        return s
    }

    /// The comparisons of one table with the baseline: Hodges–Lehmann median difference [CI],
    /// Holm-adjusted Wilcoxon p.
    ///
    /// - Parameter units: what one independent unit is, as the text names it.
    public func comparisonsMarkdown(_ table: String, units: String = "route × session × seed") -> String {
        let rows = comparisons.filter { $0.route == table }
        guard let base = rows.first?.baseline else { return "" }
        var s =
            "Against \(markdownInline(base)) (paired over \(units); median difference [95 % CI], Holm-adjusted p; * significant):\n\n"
        s +=
            "| configuration | n | " + keyMetrics.joined(separator: " | ") + " |\n|---|---:|" + String(repeating: "---|", count: keyMetrics.count)
            + "\n"
        var order: [String] = []
        for r in rows where !order.contains(r.configuration) { order.append(r.configuration) }
        for c in order {
            let mine = rows.filter { $0.configuration == c }
            s +=
                "| \(markdownInline(c)) | \(mine.map(\.n).max() ?? 0) | "
                + keyMetrics.map { m -> String in
                    guard let r = mine.first(where: { $0.metric == m }), r.medianDifference.isFinite else { return "–" }
                    return String(format: "%+.3g [%+.3g, %+.3g] p=%.2g", r.medianDifference, r.ciLow, r.ciHigh, r.pHolm) + (r.significant ? " *" : "")
                }.joined(separator: " | ") + " |\n"
        }
        return s
    }

    /// Main effects table: one row per (dimension, level), mean difference from the first level [CI].
    public var mainEffectsMarkdown: String {
        guard !mainEffects.isEmpty else { return "The sweep varies no dimension besides the seed.\n" }
        var s =
            "Each level's mean difference from the dimension's first level, paired over every other dimension and averaged per unit "
            + "(route × session × seed; n units), with a 95 % BCa bootstrap CI over the units (* the CI excludes 0).\n\n"
        s +=
            "| dimension | level − reference | n | " + keyMetrics.joined(separator: " | ") + " |\n|---|---|---:|"
            + String(repeating: "---|", count: keyMetrics.count) + "\n"
        var order: [String] = []
        for e in mainEffects where !order.contains(e.dimension + "\u{1}" + e.level) { order.append(e.dimension + "\u{1}" + e.level) }
        for k in order {
            let mine = mainEffects.filter { $0.dimension + "\u{1}" + $0.level == k }
            let e0 = mine[0]
            s +=
                "| \(e0.dimension) | \(markdownInline(e0.level)) − \(markdownInline(e0.reference)) | \(mine.map(\.n).max() ?? 0) | "
                + keyMetrics.map { m -> String in
                    guard let e = mine.first(where: { $0.metric == m }), e.meanDifference.isFinite else { return "–" }
                    let sig = intervalExcludesZero(low: e.ciLow, high: e.ciHigh)
                    return String(format: "%+.3g [%+.3g, %+.3g]", e.meanDifference, e.ciLow, e.ciHigh) + (sig ? " *" : "")
                }.joined(separator: " | ") + " |\n"
        }
        return s
    }
}

/// The overall, main-effects and per-route sections of summary.md with their uncertainty.
/// In pieces to be written one after another: the overall and main-effects sections, then one
/// piece a route. `routeSections`, when given, are the routes' sections rendered already
/// (`routeSectionMarkdown` of each route's statistics, as `ExperimentStatistics`'s `routeSink`
/// hands them over).
func statisticalSections(_ st: ExperimentStatistics, routes: [String], plots: [String: [ReportFigure]], routeSections: [String]? = nil) -> [String] {
    var md = "## Overall\n\n"
    md +=
        "Cells are `mean [95 % BCa bootstrap CI]` over the units (route × session × seed; \(st.options.resamples) resamples, seeded; "
        + "rates of 0/1 metrics with Wilson intervals) — n is the number of units; NaN values are left out and counted. "
        + "Configurations with identical results on every unit share one row. Lower is better for errors, drift, corrections and "
        + "false or missed arrivals; higher for agreement, precision, recall and completion. All cells: `cells.csv`; all "
        + "comparisons: `comparisons.csv`.\n\n"
    md += st.tableMarkdown(allRoutesLabel) + "\n"
    if !st.plots.isEmpty {
        md += "Distributions over the units (box: quartiles and median; diamond: mean; whiskers: 1.5·IQR; one box per row above):\n\n"
        for plot in st.plots { md += plot.markdown + "\n\n" }
    }
    let overall = st.comparisonsMarkdown(allRoutesLabel)
    if !overall.isEmpty { md += overall + "\n" }
    if let map = st.heatMapFigure {
        md +=
            "The comparisons at a glance (a cell: the configuration's mean, the number of the Overall table; ▲ better or ▼ worse than "
            + "the baseline where the comparison above is significant after Holm, n.s. where it is not, ↑ ↓ for a metric without "
            + "a better direction; colour repeats the symbol):\n\n" + map.markdown + "\n\n"
    }
    md += "## Main effects\n\n" + st.mainEffectsMarkdown + "\n"
    return [md] + (routeSections ?? routes.map { st.routeSectionMarkdown($0, plots: plots[$0] ?? []) })
}

extension ExperimentStatistics {
    /// The section of summary.md for `route`: its table, its comparisons and its plots.
    public func routeSectionMarkdown(_ route: String, plots: [ReportFigure]) -> String {
        var md = "## Route \(markdownInline(route))\n\n" + tableMarkdown(route) + "\n"
        let c = comparisonsMarkdown(route)
        if !c.isEmpty { md += c + "\n" }
        for plot in plots { md += plot.markdown + "\n\n" }
        return md
    }
}

/// The comparison of the configurations of one result kind's table (estimators, filters) over
/// its independent units, pooled over routes: each row's mean with its 95 % CI and n units (a
/// unit is a route × session; configurations are paired within it, never counted as
/// replicates), the best in bold only when it beats every other after Holm (Wilcoxon
/// signed-rank), then every configuration against the first, paired (Hodges–Lehmann median
/// difference [CI], Holm-adjusted p). The same statistics as the guidance tables
/// (`ExperimentStatistics`, docs/statistics.md) — and the kind's Findings line: `title`, then per key metric with a direction the configuration
/// better than every other after Holm, or "none", with n `units`.
public func pairedConfigurationReport(
    _ table: MetricsTable, options: StatisticsOptions, keyMetrics: [String], title: String, units: String
) -> (markdown: String, finding: String) {
    var o = options
    o.baseline = nil  // the kind's first configuration
    let present = Set(table.rows.map(\.metric))
    let metrics = keyMetrics.filter { present.contains($0) }
    guard !metrics.isEmpty else { return ("No results.\n", "\(title): no results.") }
    let statistics = ExperimentStatistics(table: table, keyMetrics: metrics, options: o)
    let comparisons = statistics.comparisonsMarkdown(allRoutesLabel, units: "route × session")
    let best = statistics.best[allRoutesLabel] ?? [:]
    let verdicts = metrics.filter { MetricPolarity.of($0) != .neutral }.map { m in "\(m): " + (best[m].map { markdownInline($0) } ?? "none") }
    let n = statistics.cells.filter { $0.route == allRoutesLabel }.map { $0.n + $0.nanCount }.max() ?? 0
    let finding =
        (statistics.groups[allRoutesLabel]?.count ?? 0) > 1
        ? "\(title), best (better than every other after Holm, n = \(n) \(units)): " + verdicts.joined(separator: "; ") + "."
        : "\(title): one configuration (n = \(n) \(units))."
    return (statistics.tableMarkdown(allRoutesLabel) + (comparisons.isEmpty ? "" : "\n" + comparisons), finding)
}

// MARK: - Findings

extension ExperimentStatistics {
    /// The replay's answers for the Findings section, one line per swept dimension and one for
    /// the best configuration: per dimension, each level against the dimension's first level on
    /// the key metrics with a direction — better or worse where the main effect's 95 % CI
    /// excludes 0, "no difference" otherwise — with n units; then, per key metric, the
    /// configuration better than every other after Holm (pooled over routes), or that none is.
    public var findings: [String] {
        var lines: [String] = []
        var dims: [String] = []
        for e in mainEffects where !dims.contains(e.dimension) { dims.append(e.dimension) }
        for d in dims {
            let effects = mainEffects.filter { $0.dimension == d && MetricPolarity.of($0.metric) != .neutral }
            guard let reference = effects.first?.reference else { continue }
            var levels: [String] = []
            for e in effects where !levels.contains(e.level) { levels.append(e.level) }
            let parts = levels.map { level -> String in
                let mine = effects.filter { $0.level == level }
                let said = mine.compactMap { e -> String? in
                    guard intervalExcludesZero(low: e.ciLow, high: e.ciHigh) else { return nil }
                    let better = (MetricPolarity.of(e.metric) == .lowerIsBetter) == (e.meanDifference < 0)
                    let unit = units[e.metric].map { $0.isEmpty ? "" : " \($0)" } ?? ""
                    return "\(better ? "better" : "worse") on \(e.metric) (\(findingNumber(e.meanDifference))\(unit) "
                        + "[\(findingNumber(e.ciLow)), \(findingNumber(e.ciHigh))])"
                }
                return "\(markdownInline(level)) vs \(markdownInline(reference)): " + (said.isEmpty ? "no difference" : said.joined(separator: ", "))
            }
            let n = effects.map(\.n).max() ?? 0
            lines.append("Replay, \(markdownInline(d)): " + parts.joined(separator: "; ") + " (95 % CIs over n = \(n) units).")
        }
        let bestHere = best[allRoutesLabel] ?? [:]
        let gs = groups[allRoutesLabel] ?? []
        if gs.count > 1 {
            let metrics = keyMetrics.filter { MetricPolarity.of($0) != .neutral && units[$0] != nil }
            let verdicts = metrics.map { m in "\(m): " + (bestHere[m].map { markdownInline($0) } ?? "none") }
            let n = cells.filter { $0.route == allRoutesLabel }.map { $0.n + $0.nanCount }.max() ?? 0
            lines.append(
                "Replay, best configuration (better than every other on all routes after Holm, n = \(n) units): "
                    + verdicts.joined(separator: "; ") + ".")
        }
        return lines
    }
}

/// A number of a Findings line: 3 significant digits, signed.
func findingNumber(_ v: Double) -> String { v.isFinite ? String(format: "%+.3g", v) : "–" }
