import Foundation

/// A minimal, deterministic SVG line plot (fixed size, fixed palette, numbers with 2 decimals).
public struct SVGPlot: Sendable {
    public struct Series: Sendable {
        public var label: String
        public var points: [(x: Double, y: Double)]
        public var dashed: Bool
        public init(label: String, points: [(x: Double, y: Double)], dashed: Bool = false) {
            self.label = label; self.points = points; self.dashed = dashed
        }
    }

    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var series: [Series]
    /// Same scale on both axes (maps and paths).
    public var equalAspect = false

    public init(title: String, xLabel: String, yLabel: String, series: [Series], equalAspect: Bool = false) {
        self.title = title; self.xLabel = xLabel; self.yLabel = yLabel; self.series = series; self.equalAspect = equalAspect
    }

    static let palette = ["#000000", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf"]

    public var svg: String {
        let width = 640.0, height = 420.0, left = 60.0, right = 170.0, top = 36.0, bottom = 46.0
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
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        s += "<text x=\"\(f(width / 2))\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">\(escape(title))</text>\n"
        s += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(pw))\" height=\"\(f(ph))\" fill=\"none\" stroke=\"#888\"/>\n"
        for k in 0...4 {
            let xv = x0 + Double(k) / 4 * (equalAspect ? pw / sx : x1 - x0)
            let yv = y0 + Double(k) / 4 * (equalAspect ? ph / sy : y1 - y0)
            s += "<text x=\"\(f(px(xv)))\" y=\"\(f(top + ph + 16))\" text-anchor=\"middle\">\(String(format: "%.4g", xv))</text>\n"
            s += "<text x=\"\(f(left - 6))\" y=\"\(f(py(yv) + 4))\" text-anchor=\"end\">\(String(format: "%.4g", yv))</text>\n"
        }
        s += "<text x=\"\(f(left + pw / 2))\" y=\"\(f(height - 8))\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
        s += "<text x=\"14\" y=\"\(f(top + ph / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 14 \(f(top + ph / 2)))\">\(escape(yLabel))</text>\n"
        for (i, serie) in series.enumerated() {
            let color = Self.palette[i % Self.palette.count]
            let pts = serie.points.filter { $0.x.isFinite && $0.y.isFinite }.map { "\(f(px($0.x))),\(f(py($0.y)))" }.joined(separator: " ")
            s += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\"\(serie.dashed ? " stroke-dasharray=\"5,3\"" : "") points=\"\(pts)\"/>\n"
            let ly = top + 14 + Double(i) * 16
            s += "<line x1=\"\(f(width - right + 10))\" y1=\"\(f(ly - 4))\" x2=\"\(f(width - right + 30))\" y2=\"\(f(ly - 4))\" stroke=\"\(color)\" stroke-width=\"2\"\(serie.dashed ? " stroke-dasharray=\"5,3\"" : "")/>\n"
            s += "<text x=\"\(f(width - right + 34))\" y=\"\(f(ly))\">\(escape(String(serie.label.prefix(22))))</text>\n"
        }
        return s + "</svg>\n"
    }

    func escape(_ t: String) -> String {
        t.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
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
