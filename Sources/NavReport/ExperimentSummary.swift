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
/// page; a report of many routes is written without holding it whole): the title and stamp line,
/// the Findings (`findings`, one bullet each, before any table), the count of failures, each
/// section's pieces in order (the guidance replay's first when it was asked: `guidanceReplayPieces`;
/// then aids, APE, the closed loop…), and the footer: the failed inputs (or "None.") and the
/// inputs with their checksums. Sections are separated by exactly one blank line, and a piece
/// after a blank line loses its leading newlines. Deterministic: no clock, no machine facts.
public func experimentSummaryPieces(stamp: ReportStamp, failures: [String], findings: [String], sections: [[String]]) -> [String] {
    var md = "# Experiment \(stamp.experiment)\n\n"
    md += "navbench \(stamp.navbenchVersion) · spec sha256 `\(stamp.specSHA256.prefix(16))` · regenerate with `\(stamp.command)`\n\n"
    if !findings.isEmpty {
        md +=
            "## Findings\n\nThe answers first (a level or configuration is named better only when its 95 % CI or its Holm-adjusted "
            + "test says so; n counts independent units, never configurations). The tables follow.\n\n"
            + findings.map { "- \($0)\n" }.joined() + "\n"
    }
    if !failures.isEmpty { md += "\(failures.count) failed (listed below).\n\n" }
    var pieces = [md]
    /// Whether the page so far ends with a blank line.
    var blank = true
    for section in sections {
        for (i, piece) in section.enumerated() {
            var p = Substring(piece)
            if blank || i == 0 { p = p.drop { $0 == "\n" } }
            if i == 0 && !blank { p = "\n" + p }
            guard !p.isEmpty else { continue }
            pieces.append(String(p))
            // The page's last two characters: this piece's, or its one after the last piece's.
            blank = p.hasSuffix("\n\n") || (p == "\n" && pieces[pieces.count - 2].hasSuffix("\n"))
        }
    }
    pieces.append((blank ? "" : "\n") + summaryFooter(stamp: stamp, failures: failures))
    return pieces
}

/// The guidance replay's section of `summary.md`, in pieces: the counts of routes,
/// configurations and navigation runs (one pass over `table`, memory O(routes + configurations
/// + sessions) whatever the number of rows), the configurations' legend, then per key metric the
/// overall table comparing configurations (`statistics`: mean [CI] over the units, the best in
/// bold only when it beats every other after Holm), the main effects, and the routes.
///
/// `routeSections`: the routes' sections rendered already, one piece a route (statistics computed
/// with a `routeSink`, which hold no route table); otherwise each is rendered from `statistics`.
public func guidanceReplayPieces(
    table: MetricsTable, plots: [String: [ReportFigure]] = [:], statistics: ExperimentStatistics, routeSections: [String]? = nil
) -> [String] {
    var routes: [String] = [], configs: [String] = [], seenConfigs = Set<String>(), runs = Set<String>()
    var last = ("", "", "")
    for r in table.rows.runs where (r.route, r.session, r.configuration) != last {
        last = (r.route, r.session, r.configuration)
        if !routes.contains(r.route) { routes.append(r.route) }
        if seenConfigs.insert(r.configuration).inserted { configs.append(r.configuration) }
        runs.insert(r.route + "/" + r.session)
    }
    var md = "\(routes.count) routes, \(configs.count) configurations, \(runs.count) navigation runs.\n\n"
    md += "Configurations:\n\n" + configurationLegend(table) + "\n"
    let pieces = statisticalSections(statistics, routes: routes, plots: plots, routeSections: routeSections)
    return [md + pieces[0]] + pieces.dropFirst()
}

/// The failed inputs (or "None.") and the inputs with their checksums.
private func summaryFooter(stamp: ReportStamp, failures: [String]) -> String {
    "## Failed inputs\n\n" + (failures.isEmpty ? "None.\n" : failures.map { "- \(markdownCode($0))\n" }.joined())
        + "\n## Inputs\n\n| file | sha256 |\n|---|---|\n" + stamp.inputs.map { "| \(markdownInline($0[0])) | `\($0[1])` |\n" }.joined()
}

/// One line per configuration label with its parameter values.
func configurationLegend(_ table: MetricsTable) -> String {
    var seen = Set<String>(), lines = ""
    for r in table.rows.runs where !seen.contains(r.configuration) {
        seen.insert(r.configuration)
        lines +=
            "- \(markdownCode(r.configuration)): " + zip(table.parameterColumns, r.parameters).map { "\($0)=\($1)" }.joined(separator: ", ") + "\n"
    }
    return lines
}
