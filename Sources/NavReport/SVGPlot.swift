import Foundation

/// A minimal, deterministic SVG line plot: colour-blind-safe styles (`PlotStyle`), the legend
/// beside the plot inside the canvas (the canvas grows with the number of series), round tick
/// values (`niceTicks`, `tickLabel`), numbers with 2 decimals.
public struct SVGPlot: Sendable {
    public struct Series: Sendable {
        public var label: String
        public var points: [(x: Double, y: Double)]
        public var dashed: Bool
        /// Style index (`PlotStyle`): the same index gives the same colour and dash in every plot,
        /// so a configuration keeps its colour across plots. nil: the series' position.
        public var style: Int?
        public init(label: String, points: [(x: Double, y: Double)], dashed: Bool = false, style: Int? = nil) {
            self.label = label; self.points = points; self.dashed = dashed; self.style = style
        }
    }

    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var series: [Series]
    /// Same scale on both axes (maps and paths).
    public var equalAspect = false
    /// The figure's text alternative (Markdown), drawn as the SVG's `<title>`; nil: none.
    public var description: String?

    public init(title: String, xLabel: String, yLabel: String, series: [Series], equalAspect: Bool = false) {
        self.title = title; self.xLabel = xLabel; self.yLabel = yLabel; self.series = series; self.equalAspect = equalAspect
    }

    /// The colour-blind-safe palette (`PlotStyle.okabeIto`), for plots that pick colours themselves.
    static let palette = PlotStyle.okabeIto

    /// Longest legend label shown (longer ones end in "…").
    static let legendCharacters = 72

    public var svg: String {
        let longest = min(Self.legendCharacters, series.map(\.label.count).max() ?? 0)
        let right = 50.0 + 6.6 * Double(longest)
        let left = 64.0, top = 36.0, bottom = 46.0
        let width = 470.0 + right
        // Room for every legend entry (16 px each) beside the plot.
        let height = max(420.0, top + 14 + 16 * Double(series.count) + bottom)
        let all = series.flatMap(\.points).filter { $0.x.isFinite && $0.y.isFinite }
        var x0 = all.map(\.x).min() ?? 0, x1 = all.map(\.x).max() ?? 1
        var y0 = all.map(\.y).min() ?? 0, y1 = all.map(\.y).max() ?? 1
        if x1 - x0 < 1e-9 { x0 -= 0.5; x1 += 0.5 }
        if y1 - y0 < 1e-9 { y0 -= 0.5; y1 += 0.5 }
        let pw = width - left - right, ph = height - top - bottom
        var sx = pw / (x1 - x0), sy = ph / (y1 - y0)
        if equalAspect { let s = min(sx, sy); sx = s; sy = s }
        func f(_ v: Double) -> String { fixed2(v) }
        func px(_ x: Double) -> Double { left + (x - x0) * sx }
        func py(_ y: Double) -> Double { top + ph - (y - y0) * sy }
        var s =
            svgCanvasOpening(width: width, height: height, description: description) + svgTitle(title, x: width / 2, y: 20, fontSize: 14)
            + svgFrame(left: left, top: top, width: pw, height: ph)
        let xEnd = equalAspect ? x0 + pw / sx : x1, yEnd = equalAspect ? y0 + ph / sy : y1
        let (xTicks, xStep) = niceTicks(x0, xEnd), (yTicks, yStep) = niceTicks(y0, yEnd)
        for v in xTicks {
            let label = tickLabel(v, step: xStep)
            s += "<line x1=\"\(f(px(v)))\" y1=\"\(f(top + ph))\" x2=\"\(f(px(v)))\" y2=\"\(f(top + ph + 4))\" stroke=\"#888\"/>\n"
            s += "<text x=\"\(f(px(v)))\" y=\"\(f(top + ph + 16))\" text-anchor=\"middle\">\(label)</text>\n"
        }
        s += svgLeftTicks(yTicks, step: yStep, left: left, y: py)
        s += svgAxisTitles(x: xLabel, y: yLabel, left: left, top: top, width: pw, height: ph, canvasHeight: height)
        for (i, serie) in series.enumerated() {
            let style = PlotStyle(serie.style ?? i)
            let dash = serie.dashed ? " stroke-dasharray=\"5,3\"" : style.dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
            let pts = serie.points.filter { $0.x.isFinite && $0.y.isFinite }.map { "\(f(px($0.x))),\(f(py($0.y)))" }.joined(separator: " ")
            s += "<polyline fill=\"none\" stroke=\"\(style.color)\" stroke-width=\"1.5\"\(dash) points=\"\(pts)\"/>\n"
            let ly = top + 14 + Double(i) * 16
            s +=
                "<line x1=\"\(f(width - right + 10))\" y1=\"\(f(ly - 4))\" x2=\"\(f(width - right + 30))\" y2=\"\(f(ly - 4))\" stroke=\"\(style.color)\" stroke-width=\"2\"\(dash)/>\n"
            let label = serie.label.count > Self.legendCharacters ? String(serie.label.prefix(Self.legendCharacters - 1)) + "…" : serie.label
            s += "<text x=\"\(f(width - right + 34))\" y=\"\(f(ly))\">\(xmlEscaped(label))</text>\n"
        }
        return s + "</svg>\n"
    }
}

/// Empirical CDF points of `values` (sorted value, fraction ≤ it), at most `maxPoints` of them
/// (evenly spaced in rank, always including the largest value).
public func cdfPoints(_ values: [Double], maxPoints: Int = 200) -> [(x: Double, y: Double)] {
    let s = values.filter(\.isFinite).sorted()
    guard !s.isEmpty else { return [] }
    let step = max(1, s.count / maxPoints)
    var ranks = Array(stride(from: step - 1, to: s.count, by: step))
    if ranks.last != s.count - 1 { ranks.append(s.count - 1) }
    return ranks.map { (x: s[$0], y: Double($0 + 1) / Double(s.count)) }
}

/// v with two decimals ("-12.30"), without Foundation's formatter (plots have many points).
func fixed2(_ v: Double) -> String {
    guard v.isFinite else { return "0.00" }
    let hundredths = Int64((v * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let a = abs(hundredths)
    let frac = a % 100
    return "\(sign)\(a / 100).\(frac < 10 ? "0" : "")\(frac)"
}

/// The style of series k: one of the 8 colours of the Okabe–Ito palette (distinguishable with
/// every common colour-vision deficiency), then, for k ≥ 8, the same colours dashed and then
/// dotted: 24 distinct styles before any repeats.
public struct PlotStyle: Sendable, Equatable {
    public static let okabeIto = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"]
    public var color: String
    /// SVG `stroke-dasharray`, nil for a solid line.
    public var dash: String?
    public init(_ k: Int) {
        let i = max(0, k)
        color = Self.okabeIto[i % 8]
        dash = [nil, "7,3", "2,2"][(i / 8) % 3]
    }
}
