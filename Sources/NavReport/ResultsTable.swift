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
        [n, r.metric, r.relation, r.unit, String(r.pairs)] + r.statistics.named.map { v in
            format == .csv ? formatNumber(v.1) : String(format: "%.6f", v.1)
        }
    }
    switch format {
    case .csv:
        return ([header] + rows).map { $0.map(csvEscape).joined(separator: ",") }.joined(separator: "\n") + "\n"
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

/// Box plots of the saved errors, one box per result (evo_res's box plot): the box spans the
/// quartiles (numpy `linear`), the line is the median, whiskers reach the furthest error
/// within 1.5 IQR of the box, errors beyond are dots. Round ticks, unit on the axis.
///
/// - Complexity: O(n log n) per result (sorting).
public func resultsBoxPlotSVG(_ results: [SavedEvaluation]) -> String {
    let names = resultNames(results)
    let width = 160.0 + 110 * Double(max(1, results.count)), height = 460.0
    let left = 80.0, top = 40.0, pw = width - left - 30, ph = height - top - 90
    let units = Set(results.map(\.unit))
    let unit = units.count == 1 ? units.first! : "mixed units"
    let unitText = unit == "none" ? "" : " (\(unit))"
    struct Box { var q1, median, q3, lo, hi: Double; var outliers: [Double] }
    let boxes: [Box] = results.map { r in
        let e = r.errorValues.filter(\.isFinite).sorted()
        guard !e.isEmpty else { return Box(q1: 0, median: 0, q3: 0, lo: 0, hi: 0, outliers: []) }
        let q1 = quantile(sorted: e, 0.25, method: .linear), q3 = quantile(sorted: e, 0.75, method: .linear)
        let iqr = q3 - q1
        let lo = e.first { $0 >= q1 - 1.5 * iqr } ?? e[0], hi = e.last { $0 <= q3 + 1.5 * iqr } ?? e[e.count - 1]
        let out = e.filter { $0 < lo || $0 > hi }
        let step = max(1, out.count / 300)
        return Box(q1: q1, median: quantile(sorted: e, 0.5, method: .linear), q3: q3, lo: lo, hi: hi,
                   outliers: Swift.stride(from: 0, to: out.count, by: step).map { out[$0] })
    }
    let ymax = (boxes.flatMap { [$0.hi] + $0.outliers }.max() ?? 1) * 1.05
    let y1 = ymax > 0 ? ymax : 1
    func py(_ v: Double) -> Double { top + ph - v / y1 * ph }
    var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    let metrics = Set(results.map { "\($0.metric.uppercased()) \($0.relation)" }).sorted().joined(separator: ", ")
    s += "<text x=\"\(fixed2(width / 2))\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">\(svgEscape(metrics))</text>\n"
    s += "<rect x=\"\(fixed2(left))\" y=\"\(fixed2(top))\" width=\"\(fixed2(pw))\" height=\"\(fixed2(ph))\" fill=\"none\" stroke=\"#888\"/>\n"
    let (ticks, step) = niceTicks(0, y1, target: 6)
    for v in ticks {
        s += "<line x1=\"\(fixed2(left))\" y1=\"\(fixed2(py(v)))\" x2=\"\(fixed2(left + pw))\" y2=\"\(fixed2(py(v)))\" stroke=\"#eee\"/>"
        s += "<text x=\"\(fixed2(left - 7))\" y=\"\(fixed2(py(v) + 4))\" text-anchor=\"end\">\(tickLabel(v, step: step))</text>\n"
    }
    let cy = top + ph / 2
    s += "<text x=\"24\" y=\"\(fixed2(cy))\" text-anchor=\"middle\" transform=\"rotate(-90 24 \(fixed2(cy)))\">error\(svgEscape(unitText))</text>\n"
    let slot = pw / Double(max(1, boxes.count))
    for (k, b) in boxes.enumerated() {
        let cx = left + slot * (Double(k) + 0.5), hw = min(30, slot * 0.3)
        let colour = SVGPlot.palette[(k + 1) % SVGPlot.palette.count]
        s += "<line x1=\"\(fixed2(cx))\" y1=\"\(fixed2(py(b.lo)))\" x2=\"\(fixed2(cx))\" y2=\"\(fixed2(py(b.q1)))\" stroke=\"#333\"/>"
        s += "<line x1=\"\(fixed2(cx))\" y1=\"\(fixed2(py(b.q3)))\" x2=\"\(fixed2(cx))\" y2=\"\(fixed2(py(b.hi)))\" stroke=\"#333\"/>\n"
        for v in [b.lo, b.hi] {
            s += "<line x1=\"\(fixed2(cx - hw / 2))\" y1=\"\(fixed2(py(v)))\" x2=\"\(fixed2(cx + hw / 2))\" y2=\"\(fixed2(py(v)))\" stroke=\"#333\"/>"
        }
        s += "<rect x=\"\(fixed2(cx - hw))\" y=\"\(fixed2(py(b.q3)))\" width=\"\(fixed2(2 * hw))\" height=\"\(fixed2(max(0.5, py(b.q1) - py(b.q3))))\" fill=\"\(colour)\" fill-opacity=\"0.6\" stroke=\"#333\"/>"
        s += "<line x1=\"\(fixed2(cx - hw))\" y1=\"\(fixed2(py(b.median)))\" x2=\"\(fixed2(cx + hw))\" y2=\"\(fixed2(py(b.median)))\" stroke=\"#000\" stroke-width=\"2\"/>\n"
        for o in b.outliers { s += "<circle cx=\"\(fixed2(cx))\" cy=\"\(fixed2(py(o)))\" r=\"1.8\" fill=\"none\" stroke=\"#555\"/>" }
        s += "\n<text x=\"\(fixed2(cx))\" y=\"\(fixed2(top + ph + 18))\" text-anchor=\"middle\">\(svgEscape(String(names[k].prefix(24))))</text>\n"
    }
    // Legend inside the canvas, below the axis labels (never over a box).
    let lx = left, ly = top + ph + 30
    s += "<rect x=\"\(fixed2(lx))\" y=\"\(fixed2(ly))\" width=\"242\" height=\"40\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbb\"/>\n"
    s += "<text x=\"\(fixed2(lx + 8))\" y=\"\(fixed2(ly + 16))\">box: quartiles, line: median</text>\n"
    s += "<text x=\"\(fixed2(lx + 8))\" y=\"\(fixed2(ly + 32))\">whiskers: 1.5 IQR, dots: beyond</text>\n"
    return s + "</svg>\n"
}
