import Foundation
import NavCore
import NavIO
import NavMetrics

/// `navbench res`: several saved results side by side, as evo_res.
public enum ResultsFormat: String, Sendable, CaseIterable {
    /// Aligned text columns (evo_res's console table).
    case table
    /// One row per result, numbers in shortest round-trip form.
    case csv
    /// A GitHub Markdown table, numbers with 6 decimals.
    case markdown
}

/// The name of each result in the table: the estimate file's name; the result folder's
/// name when two results share an estimate name (as evo_res requires unique names).
///
/// - Complexity: O(n).
public func resultNames(_ results: [SavedEvaluation]) -> [String] {
    let base = results.map { ($0.estimate as NSString).lastPathComponent }
    return results.indices.map { i in
        base.filter { $0 == base[i] }.count > 1 ? (folderName(results[i])) : base[i]
    }
}

private func folderName(_ r: SavedEvaluation) -> String { ((r.folder as NSString).standardizingPath as NSString).lastPathComponent }

/// The table of `navbench res`: one row per result with metric, relation, unit, pairs and
/// evo's statistics (rmse, mean, median, std, min, max, sse).
///
/// - Complexity: O(results).
public func resultsTable(_ results: [SavedEvaluation], format: ResultsFormat) -> String {
    let names = resultNames(results)
    let statNames = ["rmse", "mean", "median", "std", "min", "max", "sse"]
    let header = ["name", "metric", "relation", "unit", "pairs"] + statNames
    let rows: [[String]] = zip(names, results).map { n, r in
        [n, r.metric, r.relation, r.unit, String(r.pairs)]
            + r.statistics.named.map { v in
                format == .csv ? formatNumber(v.1) : String(format: "%.6f", v.1)
            }
    }
    switch format {
    case .csv:
        return ([header] + rows).map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\n") + "\n"
    case .markdown:
        var s = "| " + header.joined(separator: " | ") + " |\n"
        s += "|" + header.indices.map { $0 < 4 ? "---|" : "---:|" }.joined() + "\n"
        for r in rows { s += "| " + r.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n" }
        return s
    case .table:
        let widths = header.indices.map { c in ([header] + rows).map { $0[c].count }.max() ?? 0 }
        func line(_ r: [String]) -> String {
            r.indices.map { c in
                let pad = String(repeating: " ", count: widths[c] - r[c].count)
                return c < 4 ? r[c] + pad : pad + r[c]
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        return ([header] + rows).map(line).joined(separator: "\n") + "\n"
    }
}

/// Box plots of the saved errors, one box per result (evo_res's box plot), drawn by
/// `SVGBoxPlot`: quartiles (numpy `linear`), median line, mean diamond, Tukey whiskers, the
/// errors beyond as dots; results numbered on the x axis and named in the legend.
///
/// - Complexity: O(n log n) per result (sorting).
public func resultsBoxPlotSVG(_ results: [SavedEvaluation]) -> String {
    let names = resultNames(results)
    let units = Set(results.map(\.unit))
    let unit = units.count == 1 ? units.first! : "mixed units"
    let metrics = Set(results.map { "\($0.metric.uppercased()) \($0.relation)" }).sorted().joined(separator: ", ")
    let groups = results.indices.map { k in SVGBoxPlot.Group(label: names[k], values: results[k].errorValues, style: k + 1) }
    return SVGBoxPlot(title: metrics, yLabel: "error" + (unit == "none" ? "" : " (\(unit))"), xLabel: "result (legend)", groups: groups).svg
}
