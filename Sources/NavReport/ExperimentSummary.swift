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

/// Renders the experiment's `summary.md`, in pieces to be written one after another (joined, the
/// page; a report of many routes is written without holding it whole): per route a table comparing configurations on the
/// key metrics (`statistics`: mean [CI] over the units, the best in bold only when it beats every
/// other after Holm), an overall table, failed inputs, and the stamp. Deterministic: no clock, no machine facts.
///
/// `routeSections`: the routes' sections rendered already, one piece a route (statistics computed
/// with a `routeSink`, which hold no route table); otherwise each is rendered from `statistics`.
///
/// `findings` open the page (`## Findings`, one bullet each), before any table.
///
/// `sections` is the Markdown of the spec's other sections (aids, APE, closed loop), each starting
/// with a blank line and a `## ` heading. With the guidance replay they follow the inputs table;
/// with `guidance: false` (a spec with no `sweep` whose inputs hold no navigation session: nothing
/// was asked of the replay) the run count, configurations and guidance sections are left out and
/// the page opens with `sections`, then the failed inputs and the inputs.
public func experimentSummaryPieces(
    table: MetricsTable, stamp: ReportStamp, keyMetrics: [String],
    failures: [String], plots: [String: [String]] = [:],
    statistics: ExperimentStatistics, guidance: Bool = true, sections: String = "", findings: [String] = [],
    routeSections: [String]? = nil
) -> [String] {
    var md = "# Experiment \(stamp.experiment)\n\n"
    md += "navbench \(stamp.navbenchVersion) · spec sha256 `\(stamp.specSHA256.prefix(16))` · regenerate with `\(stamp.command)`\n\n"
    if !findings.isEmpty {
        md +=
            "## Findings\n\nThe answers first (a level or configuration is named better only when its 95 % CI or its Holm-adjusted "
            + "test says so; n counts independent units, never configurations). The tables follow.\n\n"
            + findings.map { "- \($0)\n" }.joined() + "\n"
    }
    guard guidance else {
        if !failures.isEmpty { md += "\(failures.count) failed (listed below).\n\n" }
        return [md + sections.drop { $0 == "\n" } + (sections.isEmpty ? "" : "\n") + summaryFooter(stamp: stamp, failures: failures)]
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
    let pieces = statisticalSections(statistics, routes: routes, plots: plots, routeSections: routeSections)
    return [md + pieces[0]] + pieces.dropFirst() + [summaryFooter(stamp: stamp, failures: failures) + sections]
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
