import Foundation

/// A minimal, deterministic SVG line plot: colour-blind-safe styles (`PlotStyle`), the legend
/// beside the plot inside the canvas (the canvas grows with the number of series), round tick
/// values (`niceTicks`, `tickLabel`), numbers with 2 decimals. Colour is never the only channel:
/// each series also has its style's marker shape (drawn at up to `markersPerSeries` of its
/// points, every point of a short series) and, from the 9th style on, a dash pattern; each legend
/// entry (`<g class="legend-entry">`) shows the line with its dash and marker.
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
    /// Markers drawn on a series at most (evenly spaced in index); a series of at most
    /// `markersPerSeries` points has one on each point.
    static let markersPerSeries = 8

    public var svg: String {
        let longest = min(Self.legendCharacters, series.map(\.label.count).max() ?? 0)
        let right = 50.0 + 6.6 * Double(longest)
        let left = 64.0, top = 36.0, bottom = 46.0
        let width = 470.0 + right
        // Room for every legend entry (16 px each) beside the plot.
        let height = max(420.0, top + 14 + 16 * Double(series.count) + bottom)
        // Closures, not key paths: a key path to a tuple's element is projected at run time, per point.
        let all = series.flatMap { $0.points }.filter { $0.x.isFinite && $0.y.isFinite }
        var x0 = all.lazy.map { $0.x }.min() ?? 0, x1 = all.lazy.map { $0.x }.max() ?? 1
        var y0 = all.lazy.map { $0.y }.min() ?? 0, y1 = all.lazy.map { $0.y }.max() ?? 1
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
            let finite = serie.points.filter { $0.x.isFinite && $0.y.isFinite }
            var points: [UInt8] = []
            points.reserveCapacity(finite.count * 16)
            for (k, p) in finite.enumerated() {
                if k > 0 { points.append(UInt8(ascii: " ")) }
                appendFixed2(px(p.x), to: &points)
                points.append(UInt8(ascii: ","))
                appendFixed2(py(p.y), to: &points)
            }
            let pts = String(decoding: points, as: UTF8.self)
            // The colour's casing, once per series (its contrast takes six powers).
            let casing = lineCasing(style.color)
            if let casing {
                s += "<polyline fill=\"none\" stroke=\"\(casing)\" stroke-width=\"2.75\"\(dash) points=\"\(pts)\"/>\n"
            }
            s += "<polyline fill=\"none\" stroke=\"\(style.color)\" stroke-width=\"1.5\"\(dash) points=\"\(pts)\"/>\n"
            for k in Self.markerIndices(count: finite.count, series: i) {
                s += style.marker.svg(x: px(finite[k].x), y: py(finite[k].y), color: style.color, casing: casing) + "\n"
            }
            let ly = top + 14 + Double(i) * 16
            s += "<g class=\"legend-entry\">"
            let legendLine = "<line x1=\"\(f(width - right + 10))\" y1=\"\(f(ly - 4))\" x2=\"\(f(width - right + 30))\" y2=\"\(f(ly - 4))\""
            if let casing { s += legendLine + " stroke=\"\(casing)\" stroke-width=\"3.25\"\(dash)/>" }
            s += legendLine + " stroke=\"\(style.color)\" stroke-width=\"2\"\(dash)/>"
            s += style.marker.svg(x: width - right + 20, y: ly - 4, color: style.color, casing: casing)
            let label = serie.label.count > Self.legendCharacters ? String(serie.label.prefix(Self.legendCharacters - 1)) + "…" : serie.label
            s += "<text x=\"\(f(width - right + 34))\" y=\"\(f(ly))\">\(xmlEscaped(label))</text></g>\n"
        }
        return s + "</svg>\n"
    }
}

extension SVGPlot {
    /// The indices of a series of `count` points that carry a marker: every point up to
    /// `markersPerSeries`, else that many evenly spaced, shifted by a quarter spacing per series
    /// (`series` mod 4) so markers of overlapping curves do not hide one another.
    static func markerIndices(count: Int, series: Int) -> [Int] {
        guard count > markersPerSeries else { return Array(0..<count) }
        let spacing = Double(count) / Double(markersPerSeries)
        let shift = (0.5 + Double(series % 4) * 0.25) * spacing
        return (0..<markersPerSeries).map { min(count - 1, Int((Double($0) * spacing + shift).rounded(.down))) }
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
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: fixed2MaximumBytes) { b in
        String(decoding: UnsafeBufferPointer(rebasing: b[writeFixed2(v, into: b)...]), as: UTF8.self)
    }
}

/// Appends `fixed2(v)`'s bytes to `out` (a polyline's points: no String per coordinate).
func appendFixed2(_ v: Double, to out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: fixed2MaximumBytes) { b in
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[writeFixed2(v, into: b)...]))
    }
}

/// The longest `fixed2` text: a sign, 17 digits of Int64 hundredths' units, a point, 2 digits.
private let fixed2MaximumBytes = 24

/// Writes `fixed2(v)`'s text at the end of `b` (`fixed2MaximumBytes` long), last digit first:
/// at least "d.dd", a "-" before a negative value. Returns where the text starts.
@inline(__always)
private func writeFixed2(_ v: Double, into b: UnsafeMutableBufferPointer<UInt8>) -> Int {
    var n = b.count
    guard v.isFinite else {
        for c in "0.00".utf8.reversed() { n &-= 1; b[n] = c }
        return n
    }
    let scaled = (v * 100).rounded()
    // Beyond Int64 (no canvas coordinate is): the text of the nearest representable hundredths.
    let hundredths = scaled >= 0x1p63 ? Int64.max : scaled < -0x1p63 ? Int64.min : Int64(scaled)
    var a = hundredths.magnitude, digits = 0
    repeat {
        n &-= 1
        b[n] = UInt8(ascii: "0") &+ UInt8(a % 10)
        a /= 10
        digits &+= 1
        if digits == 2 {
            n &-= 1
            b[n] = UInt8(ascii: ".")
        }
    } while a > 0 || digits < 3
    if hundredths < 0 {
        n &-= 1
        b[n] = UInt8(ascii: "-")
    }
    return n
}

/// The style of series k: one of the 8 colours of the Okabe–Ito palette (distinguishable with
/// every common colour-vision deficiency), each with its own marker shape, then, for k ≥ 8, the
/// same colours and markers dashed and then dotted: 24 distinct styles before any repeats, told
/// apart without colour by (marker, dash) alone.
public struct PlotStyle: Sendable, Equatable {
    public static let okabeIto = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"]
    public var color: String
    /// SVG `stroke-dasharray`, nil for a solid line.
    public var dash: String?
    /// The marker shape drawn on the series and in its legend entry.
    public var marker: PlotMarker
    public init(_ k: Int) {
        let i = max(0, k)
        color = Self.okabeIto[i % 8]
        dash = [nil, "7,3", "2,2"][(i / 8) % 3]
        marker = PlotMarker.allCases[i % PlotMarker.allCases.count]
    }
}

/// A marker shape of a series (the channel beside colour), drawn 7 px wide, hollow (white fill)
/// with the series' colour as stroke; its SVG element carries `data-mark` = the shape's name, so
/// a check can compare legend entries without their colour.
public enum PlotMarker: String, Sendable, CaseIterable {
    case circle, square, triangle, diamond, invertedTriangle = "inverted-triangle", plus, cross, star

    /// The marker centred at (x, y): one `<path>` (no newline), after a wider dark one beneath it
    /// when the colour is too light on white (`lineCasing`).
    public func svg(x: Double, y: Double, color: String) -> String { svg(x: x, y: y, color: color, casing: lineCasing(color)) }

    /// `svg(x:y:color:)` with the colour's `lineCasing` already known (a plot's series draws
    /// many markers in one colour).
    func svg(x: Double, y: Double, color: String, casing: String?) -> String {
        let r = 3.5
        func p(_ dx: Double, _ dy: Double) -> String { "\(fixed2(x + dx * r)) \(fixed2(y + dy * r))" }
        let d: String
        switch self {
        case .circle: d = "M \(p(-1, 0)) A \(fixed2(r)) \(fixed2(r)) 0 1 0 \(p(1, 0)) A \(fixed2(r)) \(fixed2(r)) 0 1 0 \(p(-1, 0)) Z"
        case .square: d = "M \(p(-0.9, -0.9)) L \(p(0.9, -0.9)) L \(p(0.9, 0.9)) L \(p(-0.9, 0.9)) Z"
        case .triangle: d = "M \(p(0, -1.1)) L \(p(1, 0.8)) L \(p(-1, 0.8)) Z"
        case .diamond: d = "M \(p(0, -1.2)) L \(p(1, 0)) L \(p(0, 1.2)) L \(p(-1, 0)) Z"
        case .invertedTriangle: d = "M \(p(0, 1.1)) L \(p(1, -0.8)) L \(p(-1, -0.8)) Z"
        case .plus: d = "M \(p(-1.2, 0)) L \(p(1.2, 0)) M \(p(0, -1.2)) L \(p(0, 1.2))"
        case .cross: d = "M \(p(-1, -1)) L \(p(1, 1)) M \(p(-1, 1)) L \(p(1, -1))"
        case .star: d = "M \(p(-1.2, 0)) L \(p(1.2, 0)) M \(p(-0.6, -1.05)) L \(p(0.6, 1.05)) M \(p(-0.6, 1.05)) L \(p(0.6, -1.05))"
        }
        let open = [.plus, .cross, .star].contains(self)
        let mark = "<path data-mark=\"\(rawValue)\" d=\"\(d)\" fill=\"\(open ? "none" : "white")\" stroke=\"\(color)\" stroke-width=\"1.5\"/>"
        guard let casing else { return mark }
        return "<path d=\"\(d)\" fill=\"none\" stroke=\"\(casing)\" stroke-width=\"2.5\"/>" + mark
    }
}
