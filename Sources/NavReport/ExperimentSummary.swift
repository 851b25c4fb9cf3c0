import Foundation
import NavCore
import NavIO

/// What a report is stamped with so it can be traced to its inputs.
public struct ReportStamp: Sendable, Codable, Equatable {
    public var experiment: String
    public var navbenchVersion: String
    public var specSHA256: String
    /// (file, sha256) of every input, sorted by file.
    public var inputs: [[String]]
    public var command: String
    public init(experiment: String, navbenchVersion: String, specSHA256: String, inputs: [[String]], command: String) {
        self.experiment = experiment; self.navbenchVersion = navbenchVersion; self.specSHA256 = specSHA256
        self.inputs = inputs; self.command = command
    }
}

/// Mean of the finite values, NaN when none.
func finiteMean(_ v: [Double]) -> Double {
    let f = v.filter(\.isFinite)
    return f.isEmpty ? .nan : f.reduce(0, +) / Double(f.count)
}

/// Mean of each (group, configuration, metric) over sessions, in first-appearance order.
public struct AggregatedTable: Sendable {
    public var configurations: [String]
    public var metrics: [String]
    public var units: [String: String]
    /// value[configuration][metric]
    public var value: [String: [String: Double]]
    public var runs: [String: Int]

    /// Complexity: O(rows) time; memory O(configurations · metrics + sessions), not O(rows)
    /// (running sums of the finite values, added in row order as `finiteMean` would).
    public init<S: Sequence>(_ rows: S) where S.Element == MetricRow {
        var configs: [String] = [], metrics: [String] = []
        var units: [String: String] = [:]
        var sums: [String: [String: (sum: Double, count: Int)]] = [:]
        var sessions: [String: Set<String>] = [:]
        var last = ("", "", "")
        for r in rows {
            if sums[r.configuration] == nil { configs.append(r.configuration); sums[r.configuration] = [:] }
            if units[r.metric] == nil { metrics.append(r.metric); units[r.metric] = r.unit }
            var s = sums[r.configuration]![r.metric] ?? (0, 0)
            if r.value.isFinite { s.sum += r.value; s.count += 1 }
            sums[r.configuration]![r.metric] = s
            if (r.configuration, r.route, r.session) != last {  // rows of one run share these
                last = (r.configuration, r.route, r.session)
                sessions[r.configuration, default: []].insert(r.route + "/" + r.session)
            }
        }
        configurations = configs
        self.metrics = metrics
        self.units = units
        value = sums.mapValues { $0.mapValues { $0.count == 0 ? .nan : $0.sum / Double($0.count) } }
        runs = sessions.mapValues(\.count)
    }

    /// The configuration with the best value of `metric`, if the metric has a polarity and
    /// there is a unique best.
    public func best(_ metric: String) -> String? {
        let polarity = MetricPolarity.of(metric)
        guard polarity != .neutral else { return nil }
        let scored = configurations.compactMap { c -> (String, Double)? in
            guard let v = value[c]?[metric], v.isFinite else { return nil }
            return (c, v)
        }
        guard scored.count > 1 else { return nil }
        let target = polarity == .lowerIsBetter ? scored.map(\.1).min()! : scored.map(\.1).max()!
        let winners = scored.filter { $0.1 == target }
        return winners.count == 1 ? winners[0].0 : nil
    }
}

/// Renders the experiment's `summary.md`: per route a table comparing configurations on the
/// key metrics (means over the route's sessions, the best in bold), an overall table, failed
/// inputs, and the stamp. Deterministic: no clock, no machine facts.
///
/// `sections` is the Markdown of the spec's other sections (aids, APE, closed loop), each starting
/// with a blank line and a `## ` heading. With the guidance replay they follow the inputs table;
/// with `guidance: false` (a spec with no `sweep` whose inputs hold no navigation session: nothing
/// was asked of the replay) the run count, configurations and guidance sections are left out and
/// the page opens with `sections`, then the failed inputs and the inputs.
public func experimentSummaryMarkdown(
    table: MetricsTable, stamp: ReportStamp, keyMetrics: [String],
    failures: [String], plots: [String: [String]] = [:],
    statistics: ExperimentStatistics? = nil, guidance: Bool = true, sections: String = ""
) -> String {
    var md = "# Experiment \(stamp.experiment)\n\n"
    md += "navbench \(stamp.navbenchVersion) · spec sha256 `\(stamp.specSHA256.prefix(16))` · regenerate with `\(stamp.command)`\n\n"
    guard guidance else {
        if !failures.isEmpty { md += "\(failures.count) failed (listed below).\n\n" }
        return md + sections.drop { $0 == "\n" } + (sections.isEmpty ? "" : "\n") + summaryFooter(stamp: stamp, failures: failures)
    }
    // One pass, memory O(routes + configurations + sessions) whatever the number of rows.
    var routes: [String] = [], configs: [String] = [], seenConfigs = Set<String>(), runs = Set<String>()
    var last = ("", "", "")
    for r in table.rows where (r.route, r.session, r.configuration) != last {
        last = (r.route, r.session, r.configuration)
        if !routes.contains(r.route) { routes.append(r.route) }
        if seenConfigs.insert(r.configuration).inserted { configs.append(r.configuration) }
        runs.insert(r.route + "/" + r.session)
    }
    md += "\(routes.count) routes, \(configs.count) configurations, \(runs.count) navigation runs"
    md += failures.isEmpty ? ".\n\n" : "; \(failures.count) failed (listed below).\n\n"
    md += "Configurations:\n\n" + configurationLegend(table) + "\n"
    if let st = statistics {
        md += statisticalSections(st, routes: routes, plots: plots)
    } else {
        let render = { (rows: [MetricRow]) in configurationTableMarkdown(rows, keyMetrics: keyMetrics) }
        md +=
            "## Overall\n\nMeans over all routes and sessions; the best configuration per metric in bold "
            + "(lower is better for errors, drift, corrections and false or missed arrivals; higher for agreement, precision, recall and completion).\n\n"
        md += render(Array(table.rows)) + "\n"
        let byRoute = Dictionary(grouping: Array(table.rows), by: \.route)
        for route in routes {
            md += "## Route \(markdownInline(route))\n\n" + render(byRoute[route] ?? []) + "\n"
            for plot in plots[route] ?? [] { md += "![\(plot)](\(plot))\n\n" }
        }
    }
    return md + summaryFooter(stamp: stamp, failures: failures) + sections
}

/// The failed inputs (or "None.") and the inputs with their checksums.
private func summaryFooter(stamp: ReportStamp, failures: [String]) -> String {
    "## Failed inputs\n\n" + (failures.isEmpty ? "None.\n" : failures.map { "- \(markdownCode($0))\n" }.joined())
        + "\n## Inputs\n\n| file | sha256 |\n|---|---|\n" + stamp.inputs.map { "| \(markdownInline($0[0])) | `\($0[1])` |\n" }.joined()
}

/// One line per configuration label with its parameter values.
func configurationLegend(_ table: MetricsTable) -> String {
    var seen = Set<String>(), lines = ""
    for r in table.rows where !seen.contains(r.configuration) {
        seen.insert(r.configuration)
        lines +=
            "- \(markdownCode(r.configuration)): " + zip(table.parameterColumns, r.parameters).map { "\($0)=\($1)" }.joined(separator: ", ") + "\n"
    }
    return lines
}

/// A table of configurations (rows) × metrics (columns): means over runs, the best in bold.
public func configurationTableMarkdown<S: Sequence>(_ rows: S, keyMetrics: [String]) -> String where S.Element == MetricRow {
    let agg = AggregatedTable(rows)
    let metrics = keyMetrics.filter { agg.units[$0] != nil }
    var s = "| configuration | runs | " + metrics.map { "\($0) (\(agg.units[$0]!))" }.joined(separator: " | ") + " |\n"
    s += "|---|---:|" + String(repeating: "---:|", count: metrics.count) + "\n"
    let best = Dictionary(uniqueKeysWithValues: metrics.map { ($0, agg.best($0)) })
    for c in agg.configurations {
        s += "| \(markdownInline(c)) | \(agg.runs[c] ?? 0) | "
        s +=
            metrics.map { m -> String in
                let v = agg.value[c]?[m] ?? .nan
                let text = v.isFinite ? String(format: "%.3f", v) : "–"
                return best[m] == c ? "**\(text)**" : text
            }.joined(separator: " | ") + " |\n"
    }
    return s
}
