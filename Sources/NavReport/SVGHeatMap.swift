import Foundation
import NavCore

/// A configuration × metric heat map against a baseline configuration: one row per configuration
/// (groups of identical ones share a row), one column per key metric; a cell shows the
/// configuration's mean on the metric as text, a symbol and a fill for how it compares with the
/// baseline. The verdict is the one the report's paired comparison already made (Wilcoxon
/// signed-rank, Holm-adjusted, `ExperimentStatistics.Comparison.significant`), oriented by the
/// metric's polarity so "better" always reads the same way: ▲ better, ▼ worse, "n.s." not
/// significant; a metric without a better direction (`MetricPolarity.neutral`) says ↑ higher or
/// ↓ lower on a white cell, never better or worse. Colour is never the only channel: every fill
/// has its symbol, the legend names both, and every fill keeps black text at WCAG 2.1 AA contrast
/// (`wcagContrast` ≥ 4.5, tested). Names from data are escaped (`xmlEscaped`).
///
/// - Complexity: O(rows × columns) (drawing and the finding).
public struct SVGHeatMap: Sendable {
    /// How a cell compares with the baseline.
    public enum Verdict: String, Sendable, CaseIterable {
        case baseline, better, worse, higher, lower, notSignificant, noValue

        /// The symbol drawn after the cell's value (the channel beside colour).
        public var symbol: String {
            switch self {
            case .baseline: return "ref"
            case .better: return "▲"
            case .worse: return "▼"
            case .higher: return "↑"
            case .lower: return "↓"
            case .notSignificant: return "n.s."
            case .noValue: return ""
            }
        }

        /// The cell's fill (light enough for black text at ≥ 4.5:1; blue and orange are told apart
        /// with every common colour-vision deficiency, and the symbol tells them apart without colour).
        public var fill: String {
            switch self {
            case .baseline: return "#d9d9d9"
            case .better: return "#6baed6"
            case .worse: return "#fd8d3c"
            case .higher, .lower, .notSignificant, .noValue: return "#ffffff"
            }
        }

        /// The legend's words.
        public var meaning: String {
            switch self {
            case .baseline: return "baseline (ref)"
            case .better: return "better than the baseline"
            case .worse: return "worse than the baseline"
            case .higher: return "higher (metric without a better direction)"
            case .lower: return "lower (metric without a better direction)"
            case .notSignificant: return "not significantly different"
            case .noValue: return "no value"
            }
        }

        /// The verdict of a paired comparison with the baseline: not significant unless
        /// `comparison.significant`; otherwise the sign of its Hodges–Lehmann median difference
        /// (the mean difference when that is 0 or not finite), oriented by `polarity`.
        public static func of(_ comparison: ExperimentStatistics.Comparison?, polarity: MetricPolarity) -> Verdict {
            guard let c = comparison else { return .noValue }
            guard c.significant else { return .notSignificant }
            let d = c.medianDifference.isFinite && c.medianDifference != 0 ? c.medianDifference : c.meanDifference
            guard d.isFinite, d != 0 else { return .notSignificant }
            switch polarity {
            case .neutral: return d > 0 ? .higher : .lower
            case .lowerIsBetter: return d < 0 ? .better : .worse
            case .higherIsBetter: return d > 0 ? .better : .worse
            }
        }
    }

    public struct Cell: Sendable, Equatable {
        /// The configuration's mean on the metric (NaN: none).
        public var value: Double
        public var verdict: Verdict
        public init(value: Double, verdict: Verdict) { self.value = value; self.verdict = verdict }
        /// The cell's text: the value (3 significant digits) and the verdict's symbol.
        public var text: String {
            verdict == .noValue ? "–" : figureNumber(value) + (verdict.symbol.isEmpty ? "" : " " + verdict.symbol)
        }
    }

    public var title: String
    /// Row labels (configurations), the baseline's first.
    public var rows: [String]
    /// Column labels (metric with its unit).
    public var columns: [String]
    /// cells[row][column].
    public var cells: [[Cell]]
    /// The figure's text alternative (Markdown), drawn as the SVG's `<title>`; nil: none.
    public var description: String?

    public init(title: String, rows: [String], columns: [String], cells: [[Cell]]) {
        self.title = title; self.rows = rows; self.columns = columns; self.cells = cells
    }

    /// Width of a cell, its height, and the characters of a row label shown.
    static let cellWidth = 84.0, cellHeight = 22.0, labelCharacters = 72

    public var svg: String {
        func f(_ v: Double) -> String { fixed2(v) }
        let longest = min(Self.labelCharacters, rows.map(\.count).max() ?? 0)
        let longestColumn = min(40, columns.map(\.count).max() ?? 0)
        let left = 16 + 6.6 * Double(longest), top = 44 + 0.62 * 6.6 * Double(longestColumn) + 12
        let legendEntries: [Verdict] = [.better, .worse, .notSignificant, .baseline, .higher, .lower]
        let gridWidth = Self.cellWidth * Double(columns.count), gridHeight = Self.cellHeight * Double(rows.count)
        let width = max(560, left + gridWidth + 24 + 0.62 * 6.6 * Double(longestColumn))
        let legendTop = top + gridHeight + 24
        let height = legendTop + 16 * Double(legendEntries.count) + 16
        var s = svgCanvasOpening(width: width, height: height, description: description) + svgTitle(title, x: width / 2, y: 20, fontSize: 14)
        // Column headers, rotated −40° above their column.
        for (j, c) in columns.enumerated() {
            let x = left + Self.cellWidth * (Double(j) + 0.5), y = top - 8
            let name = c.count > 40 ? String(c.prefix(39)) + "…" : c
            s += "<text x=\"\(f(x))\" y=\"\(f(y))\" transform=\"rotate(-40 \(f(x)) \(f(y)))\">\(xmlEscaped(name))</text>\n"
        }
        for (i, r) in rows.enumerated() where i < cells.count {
            let y = top + Self.cellHeight * Double(i)
            let name = r.count > Self.labelCharacters ? String(r.prefix(Self.labelCharacters - 1)) + "…" : r
            s += "<text x=\"\(f(left - 6))\" y=\"\(f(y + 15))\" text-anchor=\"end\">\(xmlEscaped(name))</text>\n"
            for (j, cell) in cells[i].enumerated() where j < columns.count {
                let x = left + Self.cellWidth * Double(j)
                s +=
                    "<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(Self.cellWidth))\" height=\"\(f(Self.cellHeight))\" fill=\"\(cell.verdict.fill)\" stroke=\"#777\"/>\n"
                s +=
                    "<text x=\"\(f(x + Self.cellWidth / 2))\" y=\"\(f(y + 15))\" text-anchor=\"middle\" fill=\"#000\">\(xmlEscaped(cell.text))</text>\n"
            }
        }
        // Legend: a swatch with its symbol, and the words.
        for (k, v) in legendEntries.enumerated() {
            let y = legendTop + 16 * Double(k)
            s += "<g class=\"legend-entry\"><rect x=\"16\" y=\"\(f(y - 11))\" width=\"36\" height=\"14\" fill=\"\(v.fill)\" stroke=\"#777\"/>"
            s += "<text x=\"34\" y=\"\(f(y))\" text-anchor=\"middle\" font-size=\"10\" data-mark=\"symbol\">\(xmlEscaped(v.symbol))</text>"
            s += "<text x=\"60\" y=\"\(f(y))\">\(xmlEscaped(v.meaning))</text></g>\n"
        }
        return s + "</svg>\n"
    }

    /// The text alternative: the baseline, how many cells are better, worse, higher or lower
    /// and not significant, and the configuration with the most cells better and worse, or
    /// how many tie for it (none is named then). `scope` ("all routes") and `test` (the
    /// comparison's words) name what is drawn; names are escaped for Markdown (`markdownInline`).
    ///
    /// - Complexity: O(rows × columns).
    public func finding(scope: String, test: String) -> String {
        let isBaseline = { (row: [Cell]) in row.contains { $0.verdict == .baseline } }
        let compared = zip(rows, cells).filter { !isBaseline($0.1) }
        func count(_ v: Verdict) -> Int { compared.reduce(0) { $0 + $1.1.filter { $0.verdict == v }.count } }
        let (better, worse, ns) = (count(.better), count(.worse), count(.notSignificant))
        let neutral = count(.higher) + count(.lower)
        let total = compared.reduce(0) { $0 + $1.1.filter { $0.verdict != .noValue }.count }
        let base = zip(rows, cells).first { isBaseline($0.1) }?.0
        var text =
            "Configuration × metric heat map, \(markdownInline(scope))" + (base.map { ", against \(markdownInline($0))" } ?? "")
            + " (\(test)): \(better) of \(total) cell\(total == 1 ? "" : "s") better, \(worse) worse"
            + (neutral > 0 ? ", \(neutral) higher or lower (no better direction)" : "") + ", \(ns) not significant"
        func most(_ v: Verdict, _ word: String) -> String? {
            let perRow = compared.map { (label: $0.0, n: $0.1.filter { $0.verdict == v }.count) }
            guard let top = perRow.map(\.n).max(), top > 0 else { return nil }
            let leaders = perRow.filter { $0.n == top }
            guard leaders.count == 1 else { return "\(leaders.count) configurations tie for most \(word) (\(top) of \(columns.count) metrics each)" }
            return "most \(word): \(markdownInline(leaders[0].label)) (\(top) of \(columns.count) metrics)"
        }
        let extremes = [most(.better, "better"), most(.worse, "worse")].compactMap { $0 }
        if !extremes.isEmpty { text += "; " + extremes.joined(separator: "; ") }
        return text + "."
    }
}

extension ExperimentStatistics {
    /// The heat map of `table` (a route or `allRoutesLabel`): a row per group of identical
    /// configurations (the baseline's first, as `groups` orders them), a column per key metric,
    /// each cell the group's mean (`cells`) with the verdict of its comparison with the baseline
    /// (`comparisons`; nothing is computed again). nil when there is nothing to compare (fewer than
    /// two groups or no key metric). Its `description` is set (`SVGHeatMap.finding`).
    ///
    /// - Complexity: O(groups × key metrics + comparisons).
    public func heatMap(_ table: String = allRoutesLabel) -> SVGHeatMap? {
        let gs = groups[table] ?? []
        guard gs.count > 1, !keyMetrics.isEmpty else { return nil }
        var byKey: [String: Comparison] = [:]
        for c in comparisons where c.route == table { byKey[c.configuration + "\u{1}" + c.metric] = byKey[c.configuration + "\u{1}" + c.metric] ?? c }
        let cellsGrid = gs.enumerated().map { k, g in
            keyMetrics.map { m -> SVGHeatMap.Cell in
                let value = cellIndex[table + "\u{1}" + g.representative + "\u{1}" + m].map { cells[$0].mean } ?? .nan
                guard value.isFinite else { return SVGHeatMap.Cell(value: .nan, verdict: .noValue) }
                if k == 0 { return SVGHeatMap.Cell(value: value, verdict: .baseline) }
                return SVGHeatMap.Cell(value: value, verdict: .of(byKey[g.representative + "\u{1}" + m], polarity: MetricPolarity.of(m)))
            }
        }
        let labels = gs.map { g in g.members.count > 1 ? "\(g.representative) (+\(g.members.count - 1) identical)" : g.representative }
        let columns = keyMetrics.map { m in units[m].map { $0.isEmpty ? m : "\(m) (\($0))" } ?? m }
        var map = SVGHeatMap(
            title: "Key metrics by configuration against the baseline (\(table == allRoutesLabel ? "all routes" : table))", rows: labels,
            columns: columns, cells: cellsGrid)
        map.description = map.finding(
            scope: table == allRoutesLabel ? "all routes" : table,
            test:
                "means; better or worse only where the paired Wilcoxon signed-rank test, Holm-adjusted at α = \(formatNumber(options.alpha)), says so"
        )
        return map
    }
}
