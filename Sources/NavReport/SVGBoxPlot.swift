import Foundation
import NavCore
import NavIO
import NavStatistics

/// A deterministic SVG box plot, one box per group: the box spans the quartiles (numpy's linear
/// interpolation), the line inside is the median, the diamond the mean, whiskers reach the most
/// extreme values within 1.5·IQR of the box (Tukey), points beyond are drawn one by one.
/// Groups are numbered on the x axis and named in the legend beside the plot; each box has the
/// colour of its `PlotStyle` index, so a configuration has the same colour in every plot, and its
/// number (under the box and leading its legend entry, `data-mark`) tells it apart without colour.
public struct SVGBoxPlot: Sendable {
    public struct Group: Sendable {
        public var label: String
        public var values: [Double]
        public var style: Int
        public init(label: String, values: [Double], style: Int) { self.label = label; self.values = values; self.style = style }
    }
    public var title: String
    public var yLabel: String
    /// Title of the x axis (the groups are numbered there and named in the legend).
    public var xLabel: String
    public var groups: [Group]
    /// The figure's text alternative (Markdown), drawn as the SVG's `<title>`; nil: none.
    public var description: String?
    /// At most this many outliers drawn per box (evenly spaced in rank), so a box of 100,000
    /// errors stays a small file.
    public static let maxOutliersDrawn = 300

    public init(title: String, yLabel: String, xLabel: String = "configuration (legend)", groups: [Group]) {
        self.title = title; self.yLabel = yLabel; self.xLabel = xLabel; self.groups = groups
    }

    /// Quartiles, whisker ends and outliers of the finite values.
    public static func summary(_ values: [Double]) -> (q1: Double, median: Double, q3: Double, low: Double, high: Double, outliers: [Double])? {
        let s = values.filter(\.isFinite).sorted()
        guard !s.isEmpty else { return nil }
        let q1 = quantile(sorted: s, 0.25, method: .linear), med = quantile(sorted: s, 0.5, method: .linear),
            q3 = quantile(sorted: s, 0.75, method: .linear)
        let fence = 1.5 * (q3 - q1)
        let inside = s.filter { $0 >= q1 - fence && $0 <= q3 + fence }
        return (q1, med, q3, inside.first ?? q1, inside.last ?? q3, s.filter { $0 < q1 - fence || $0 > q3 + fence })
    }

    public var svg: String {
        let longest = min(SVGPlot.legendCharacters, groups.map(\.label.count).max() ?? 0) + 4
        let right = 50.0 + 6.6 * Double(longest), left = 64.0, top = 36.0, bottom = 46.0
        let width = max(470.0, 60 + 36 * Double(groups.count)) + right
        let height = max(420.0, top + 14 + 16 * Double(groups.count) + bottom)
        let pw = width - left - right, ph = height - top - bottom
        let all = groups.flatMap(\.values).filter(\.isFinite)
        var y0 = all.min() ?? 0, y1 = all.max() ?? 1
        if y1 - y0 < 1e-9 { y0 -= 0.5; y1 += 0.5 }
        let pad = (y1 - y0) * 0.05
        y0 -= pad; y1 += pad
        func f(_ v: Double) -> String { fixed2(v) }
        func py(_ y: Double) -> Double { top + ph - (y - y0) / (y1 - y0) * ph }
        let slot = pw / Double(max(1, groups.count))
        var s =
            svgCanvasOpening(width: width, height: height, description: description) + svgTitle(title, x: width / 2, y: 20, fontSize: 14)
            + svgFrame(left: left, top: top, width: pw, height: ph)
        let (yTicks, yStep) = niceTicks(y0, y1)
        s += svgLeftTicks(yTicks, step: yStep, left: left, y: py)
        s += svgAxisTitles(x: xLabel, y: yLabel, left: left, top: top, width: pw, height: ph, canvasHeight: height)
        for (i, g) in groups.enumerated() {
            let color = PlotStyle(g.style).color
            let cx = left + slot * (Double(i) + 0.5), half = min(14, slot * 0.35)
            s += "<text x=\"\(f(cx))\" y=\"\(f(top + ph + 16))\" text-anchor=\"middle\">\(i + 1)</text>\n"
            if let b = Self.summary(g.values) {
                s += "<line x1=\"\(f(cx))\" y1=\"\(f(py(b.low)))\" x2=\"\(f(cx))\" y2=\"\(f(py(b.q1)))\" stroke=\"\(color)\"/>\n"
                s += "<line x1=\"\(f(cx))\" y1=\"\(f(py(b.q3)))\" x2=\"\(f(cx))\" y2=\"\(f(py(b.high)))\" stroke=\"\(color)\"/>\n"
                s +=
                    "<rect x=\"\(f(cx - half))\" y=\"\(f(py(b.q3)))\" width=\"\(f(2 * half))\" height=\"\(f(max(0.5, py(b.q1) - py(b.q3))))\" fill=\"\(color)\" fill-opacity=\"0.25\" stroke=\"\(color)\"/>\n"
                s +=
                    "<line x1=\"\(f(cx - half))\" y1=\"\(f(py(b.median)))\" x2=\"\(f(cx + half))\" y2=\"\(f(py(b.median)))\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
                let mean = Statistics.mean(g.values.filter(\.isFinite))
                s +=
                    "<path d=\"M \(f(cx)) \(f(py(mean) - 4)) L \(f(cx + 4)) \(f(py(mean))) L \(f(cx)) \(f(py(mean) + 4)) L \(f(cx - 4)) \(f(py(mean))) Z\" fill=\"white\" stroke=\"\(color)\"/>\n"
                let step = max(1, (b.outliers.count + Self.maxOutliersDrawn - 1) / Self.maxOutliersDrawn)
                for o in Swift.stride(from: 0, to: b.outliers.count, by: step).map({ b.outliers[$0] }) {
                    s += "<circle cx=\"\(f(cx))\" cy=\"\(f(py(o)))\" r=\"2\" fill=\"none\" stroke=\"\(color)\"/>\n"
                }
            }
            let ly = top + 14 + Double(i) * 16
            let name = g.label.count > SVGPlot.legendCharacters ? String(g.label.prefix(SVGPlot.legendCharacters - 1)) + "…" : g.label
            s +=
                "<g class=\"legend-entry\"><rect x=\"\(f(width - right + 10))\" y=\"\(f(ly - 9))\" width=\"10\" height=\"10\" fill=\"\(color)\" fill-opacity=\"0.25\" stroke=\"\(color)\"/>"
            s += "<text x=\"\(f(width - right + 24))\" y=\"\(f(ly))\"><tspan data-mark=\"number\">\(i + 1)</tspan>: \(xmlEscaped(name))</text></g>\n"
        }
        return s + "</svg>\n"
    }
}

extension SVGBoxPlot {
    /// The text alternative of a box plot of configurations: the boxes with the lowest and the highest
    /// median (`summary`'s, the line drawn) with their n finite values, and how many boxes there are.
    /// `measure` ("cross_track_rmse (m)") and `scope` ("all routes") name what is drawn; names are
    /// escaped for Markdown (`markdownInline`).
    ///
    /// - Complexity: O(n log n) for n values (the sort of each box).
    public func configurationFinding(measure: String, scope: String) -> String {
        let boxes = groups.compactMap { g in Self.summary(g.values).map { (label: g.label, median: $0.median, n: g.values.filter(\.isFinite).count) }
        }
        let head = "\(markdownInline(measure)) by configuration, \(markdownInline(scope))"
        let count =
            "\(groups.count) configuration\(groups.count == 1 ? "" : "s")"
            + (boxes.count < groups.count ? " (\(groups.count - boxes.count) without a finite value)" : "")
        guard let low = boxes.min(by: { $0.median < $1.median }), let high = boxes.max(by: { $0.median < $1.median }) else {
            return head + ": no finite value; \(count)."
        }
        func box(_ b: (label: String, median: Double, n: Int)) -> String {
            let shared = boxes.filter { $0.median == b.median }.count
            return "\(figureNumber(b.median)) (\(markdownInline(b.label)), n = \(b.n)\(shared > 1 ? "; \(shared) configurations share it" : ""))"
        }
        if low.median == high.median { return head + ": every median \(figureNumber(low.median)); \(count)." }
        return head + ": lowest median \(box(low)), highest \(box(high)); \(count)."
    }
}

extension ExperimentStatistics {
    /// What the box plots draw, read from the table alone (so it may be read while the
    /// statistics are computed): the configurations in table order and each key metric's values by
    /// configuration.
    public struct BoxPlotValues: Sendable {
        var configs: [String]
        var values: [String: [String: [Double]]]
    }

    /// - Complexity: O(rows).
    public static func boxPlotValues(_ table: MetricsTable, keyMetrics: [String]) -> BoxPlotValues {
        let view = RowView(table)
        var configs: [String] = [], seenConfigs = Set<String>()
        var values: [String: [String: [Double]]] = [:]  // metric → configuration → values
        let key = Set(keyMetrics)
        var last = ("", "")  // (label, without seed) of the previous row: rows of one run share it
        for r in table.rows {
            let c: String
            if r.configuration == last.0 {
                c = last.1
            } else {
                c = view.configuration(r); last = (r.configuration, c)
                if seenConfigs.insert(c).inserted { configs.append(c) }
            }
            if key.contains(r.metric) { values[r.metric, default: [:]][c, default: []].append(r.value) }
        }
        return BoxPlotValues(configs: configs, values: values)
    }

    /// Box plots of the key metrics over all routes (`boxPlotValues`): one box per group of identical
    /// configurations (the values of its units), coloured by the configuration's position in the
    /// experiment, so colours agree across plots. Returns (file name, SVG, text alternative) triples;
    /// file names go through `safeFileComponent`; the text alternative (`configurationFinding`) is
    /// also the SVG's `<title>`.
    public func boxPlots(_ read: BoxPlotValues) -> [(file: String, svg: String, alt: String)] {
        let gs = groups[allRoutesLabel] ?? []
        // Each key metric's plot drawn on the workers, kept in key-metric order.
        let metrics = keyMetrics, units = units
        let workers = ProcessInfo.processInfo.activeProcessorCount
        return mapConcurrently(metrics.count, workers: workers) { i -> (file: String, svg: String, alt: String)? in
            let m = metrics[i], configs = read.configs
            guard let byConfig = read.values[m] else { return nil }
            let boxes = gs.map { g in
                SVGBoxPlot.Group(
                    label: g.members.count > 1 ? "\(g.representative) (+\(g.members.count - 1) identical)" : g.representative,
                    values: byConfig[g.representative] ?? [], style: configs.firstIndex(of: g.representative) ?? 0)
            }
            let unit = units[m].map { $0.isEmpty ? "" : " (\($0))" } ?? ""
            var plot = SVGBoxPlot(title: "\(m) by configuration (all routes)", yLabel: m + unit, groups: boxes)
            let alt = plot.configurationFinding(measure: m + unit, scope: "all routes")
            plot.description = alt
            return (file: "box-\(safeFileComponent(m)).svg", svg: plot.svg, alt: alt)
        }.compactMap { $0 }
    }
}
