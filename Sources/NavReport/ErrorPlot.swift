import Foundation
import NavCore
import NavGeometry

/// Round tick values covering [lo, hi]: steps of 1, 2 or 5 × 10^k, about `target` of them
/// (Heckbert's "nice numbers", Graphics Gems 1990).
///
/// - Returns: (ticks, step); ticks are multiples of step within [lo, hi] (ends included when
///   they are multiples).
/// - Complexity: O(number of ticks).
public func niceTicks(_ lo: Double, _ hi: Double, target: Int = 5) -> (ticks: [Double], step: Double) {
    guard lo.isFinite, hi.isFinite, hi > lo else { return ([lo], 1) }
    let raw = (hi - lo) / Double(max(1, target))
    let mag = pow(10, (log10(raw)).rounded(.down))
    let f = raw / mag
    let step = (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag
    var ticks: [Double] = []
    var k = (lo / step).rounded(.up)
    while k * step <= hi + step * 1e-9 {
        let v = k * step
        ticks.append(abs(v) < step * 1e-9 ? 0 : v)
        k += 1
    }
    return (ticks, step)
}

/// A tick label with as many decimals as the step needs ("0.25", "10", "-1.5").
func tickLabel(_ v: Double, step: Double) -> String {
    let decimals = max(0, min(9, Int((-log10(step)).rounded(.up))))
    return String(format: "%.\(decimals)f", v)
}

/// A colour map from 0 (dark blue) through green to 1 (yellow): viridis sampled at five
/// points, linear between them.
func colourMap(_ f: Double) -> String {
    let stops: [(Double, Double, Double)] = [(68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37)]
    let x = max(0, min(1, f.isFinite ? f : 0)) * Double(stops.count - 1)
    let i = min(stops.count - 2, Int(x)), t = x - Double(i)
    let a = stops[i], b = stops[i + 1]
    func c(_ u: Double, _ v: Double) -> Int { Int((u + (v - u) * t).rounded()) }
    return String(format: "#%02x%02x%02x", c(a.0, b.0), c(a.1, b.1), c(a.2, b.2))
}

/// The floor-plane pair of axes a trajectory is drawn in.
public enum PlotPlane: String, Sendable, CaseIterable, Codable {
    case xy, xz, yz, zx, yx, zy

    /// The plane seen from above for an up axis (z → xy, y → zx as ARKit's map view, x → yz).
    public static func floor(of up: UpAxis) -> PlotPlane {
        switch up {
        case .z: return .xy
        case .y: return .zx
        case .x: return .yz
        }
    }

    func project(_ p: Vector3) -> (Double, Double) {
        func c(_ ch: Character) -> Double { ch == "x" ? p.x : ch == "y" ? p.y : p.z }
        let s = Array(rawValue)
        return (c(s[0]), c(s[1]))
    }

    var axisNames: (String, String) { let s = Array(rawValue); return (String(s[0]), String(s[1])) }
}

/// What `--plot` draws: the reference and the aligned estimate in a plane, the estimate
/// coloured by its error, and the error over time with its RMSE, mean and median.
public struct ErrorPlotData: Sendable {
    public var title: String
    public var reference: [Vector3]
    public var estimate: [Vector3]
    /// One per estimate pose (nil: no error at that pose, drawn grey).
    public var poseErrors: [Double?]
    /// (seconds since the first pair, error) of every error.
    public var errorSeries: [(t: Double, e: Double)]
    public var unit: String
    public var rmse: Double, mean: Double, median: Double
    public var plane: PlotPlane
}

extension ErrorPlotData {
    /// Plot data of an APE or RPE report: the error of pair (i, j) drawn at pose j and time t_j
    /// (APE: i = j, one error per associated pose).
    public init<Report: PoseErrorReport>(_ r: Report, pair: PreparedPair, plane: PlotPlane) {
        let t = pair.associated.referenceTimestamps
        let t0 = t.first ?? 0
        let pairs = r.errorPairs
        var pe = [Double?](repeating: nil, count: pair.alignedEstimate.count)
        for (p, e) in zip(pairs, r.errors) { pe[p.j] = e }
        self.init(
            title: "\(r.metricName) w.r.t. \(r.relation.title) — \((r.estimatePath as NSString).lastPathComponent)",
            reference: pair.associated.reference.map(\.translation), estimate: pair.alignedEstimate.map(\.translation),
            poseErrors: pe, errorSeries: zip(pairs, r.errors).map { (t[$0.j] - t0, $1) },
            unit: r.relation.unit, rmse: r.statistics.rmse, mean: r.statistics.mean, median: r.statistics.median, plane: plane)
    }
}

/// A panel's frame: data range → pixels, with round ticks and labelled axes (units included).
private struct Panel {
    var left: Double, top: Double, width: Double, height: Double
    var x0: Double, x1: Double, y0: Double, y1: Double
    func px(_ x: Double) -> Double { left + (x - x0) / (x1 - x0) * width }
    func py(_ y: Double) -> Double { top + height - (y - y0) / (y1 - y0) * height }

    func axes(xLabel: String, yLabel: String) -> String {
        var s =
            "<rect x=\"\(fixed2(left))\" y=\"\(fixed2(top))\" width=\"\(fixed2(width))\" height=\"\(fixed2(height))\" fill=\"none\" stroke=\"#888\"/>\n"
        let (xt, xs) = niceTicks(x0, x1, target: 6), (yt, ys) = niceTicks(y0, y1, target: 5)
        for v in xt {
            s +=
                "<line x1=\"\(fixed2(px(v)))\" y1=\"\(fixed2(top + height))\" x2=\"\(fixed2(px(v)))\" y2=\"\(fixed2(top + height + 4))\" stroke=\"#888\"/>"
            s += "<text x=\"\(fixed2(px(v)))\" y=\"\(fixed2(top + height + 17))\" text-anchor=\"middle\">\(tickLabel(v, step: xs))</text>\n"
        }
        for v in yt {
            s += "<line x1=\"\(fixed2(left - 4))\" y1=\"\(fixed2(py(v)))\" x2=\"\(fixed2(left))\" y2=\"\(fixed2(py(v)))\" stroke=\"#888\"/>"
            s += "<text x=\"\(fixed2(left - 7))\" y=\"\(fixed2(py(v) + 4))\" text-anchor=\"end\">\(tickLabel(v, step: ys))</text>\n"
        }
        s += "<text x=\"\(fixed2(left + width / 2))\" y=\"\(fixed2(top + height + 36))\" text-anchor=\"middle\">\(xmlEscaped(xLabel))</text>\n"
        let cy = top + height / 2
        s +=
            "<text x=\"\(fixed2(left - 48))\" y=\"\(fixed2(cy))\" text-anchor=\"middle\" transform=\"rotate(-90 \(fixed2(left - 48)) \(fixed2(cy)))\">\(xmlEscaped(yLabel))</text>\n"
        return s
    }
}

/// A white box with entries (a line sample with its dash pattern, nil: solid, and a label) inside a
/// panel's top-left or top-right corner; each entry a `<g class="legend-entry">`.
private func legend(_ entries: [(stroke: String, dash: String?, label: String)], panel p: Panel, right: Bool) -> String {
    let w = 14 + 24 + 7.0 * Double(entries.map(\.label.count).max() ?? 0), h = 8 + 16 * Double(entries.count)
    let x = right ? p.left + p.width - w - 8 : p.left + 8, y = p.top + 8
    var s =
        "<rect x=\"\(fixed2(x))\" y=\"\(fixed2(y))\" width=\"\(fixed2(w))\" height=\"\(fixed2(h))\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbb\"/>\n"
    for (k, e) in entries.enumerated() {
        let ly = y + 14 + 16 * Double(k)
        s +=
            "<g class=\"legend-entry\"><line x1=\"\(fixed2(x + 6))\" y1=\"\(fixed2(ly - 4))\" x2=\"\(fixed2(x + 28))\" y2=\"\(fixed2(ly - 4))\" stroke=\"\(e.stroke)\" stroke-width=\"2\"\(e.dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>"
        s += "<text x=\"\(fixed2(x + 34))\" y=\"\(fixed2(ly))\">\(xmlEscaped(e.label))</text></g>\n"
    }
    return s
}

/// The `--plot` SVG: top, the trajectories in `plane` (equal scale, metres) with the
/// estimate coloured by error and a colour bar in the error's unit; bottom, the error over
/// time with RMSE, mean and median lines (each its own dash pattern and labelled at its right end:
/// colour is never the only channel). Deterministic (same data, same bytes); at most
/// 5,000 segments per curve (evenly strided).
///
/// - Complexity: O(n).
public func errorPlotSVG(_ d: ErrorPlotData) -> String {
    let width = 760.0, height = 900.0
    var s = svgCanvasOpening(width: width, height: height)
    s += "<text x=\"\(fixed2(width / 2))\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">\(xmlEscaped(d.title))</text>\n"
    let unitText = d.unit == "none" || d.unit.isEmpty ? "" : " (\(d.unit))"
    // Trajectory panel, equal scale.
    let pts = (d.reference + d.estimate).map(d.plane.project).filter { $0.0.isFinite && $0.1.isFinite }
    var x0 = pts.map(\.0).min() ?? 0, x1 = pts.map(\.0).max() ?? 1, y0 = pts.map(\.1).min() ?? 0, y1 = pts.map(\.1).max() ?? 1
    let pw = 560.0, ph = 470.0
    let span = max((x1 - x0) / pw, (y1 - y0) / ph, 1e-6) * 1.06
    let cx = (x0 + x1) / 2, cy = (y0 + y1) / 2
    x0 = cx - span * pw / 2; x1 = cx + span * pw / 2; y0 = cy - span * ph / 2; y1 = cy + span * ph / 2
    let top = Panel(left: 80, top: 40, width: pw, height: ph, x0: x0, x1: x1, y0: y0, y1: y1)
    let (ax, ay) = d.plane.axisNames
    s += top.axes(xLabel: "\(ax) (m)", yLabel: "\(ay) (m)")
    func stride(_ n: Int) -> Int { max(1, n / 5000) }
    let ref = d.reference.map(d.plane.project)
    let rs = stride(ref.count)
    let refPath = Swift.stride(from: 0, to: ref.count, by: rs).map { "\(fixed2(top.px(ref[$0].0))),\(fixed2(top.py(ref[$0].1)))" }.joined(
        separator: " ")
    s += "<polyline fill=\"none\" stroke=\"#777\" stroke-width=\"1.2\" stroke-dasharray=\"5,3\" points=\"\(refPath)\"/>\n"
    let known = d.poseErrors.compactMap { $0 }
    let emin = known.min() ?? 0, emax = known.max() ?? 1
    let erange = emax > emin ? emax - emin : 1
    let est = d.estimate.map(d.plane.project)
    let es = stride(est.count)
    var k = 0
    while k < est.count - 1 {
        let next = min(k + es, est.count - 1)
        let colour = d.poseErrors[next].map { colourMap(($0 - emin) / erange) } ?? "#bbbbbb"
        s +=
            "<line x1=\"\(fixed2(top.px(est[k].0)))\" y1=\"\(fixed2(top.py(est[k].1)))\" x2=\"\(fixed2(top.px(est[next].0)))\" y2=\"\(fixed2(top.py(est[next].1)))\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
        k = next
    }
    s += legend([("#777", "5,3", "reference"), (colourMap(0.6), nil, "estimate (aligned), colour = error")], panel: top, right: false)
    // Colour bar inside the canvas, right of the panel, with its unit.
    let barX = top.left + pw + 28, barTop = top.top + 20, barH = ph - 40
    for i in 0..<50 {
        let f0 = Double(i) / 50
        s +=
            "<rect x=\"\(fixed2(barX))\" y=\"\(fixed2(barTop + barH * (1 - f0 - 0.02)))\" width=\"14\" height=\"\(fixed2(barH / 50 + 0.5))\" fill=\"\(colourMap(f0 + 0.01))\"/>\n"
    }
    let (bt, bs) = niceTicks(emin, emax, target: 5)
    for v in bt {
        let y = barTop + barH * (1 - (v - emin) / erange)
        s += "<text x=\"\(fixed2(barX + 20))\" y=\"\(fixed2(y + 4))\">\(tickLabel(v, step: bs))</text>\n"
    }
    s += "<text x=\"\(fixed2(barX))\" y=\"\(fixed2(barTop - 6))\">error\(xmlEscaped(unitText))</text>\n"
    // Error over time.
    let series = d.errorSeries.filter { $0.t.isFinite && $0.e.isFinite }
    let t1 = max(series.map(\.t).max() ?? 1, 1e-9)
    let ymax = max(series.map(\.e).max() ?? 1, d.rmse) * 1.08
    let bottom = Panel(left: 80, top: 600, width: 640, height: 230, x0: 0, x1: t1, y0: 0, y1: ymax > 0 ? ymax : 1)
    s += bottom.axes(xLabel: "time since the first pair (s)", yLabel: "error\(unitText)")
    let ss = stride(series.count)
    let line = Swift.stride(from: 0, to: series.count, by: ss).map { "\(fixed2(bottom.px(series[$0].t))),\(fixed2(bottom.py(series[$0].e)))" }.joined(
        separator: " ")
    s += "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.2\" points=\"\(line)\"/>\n"
    let stats: [(String, Double, String, String)] = [
        ("rmse", d.rmse, "#d62728", "6,3"), ("mean", d.mean, "#2ca02c", "2,2"), ("median", d.median, "#9467bd", "10,3,2,3"),
    ]
    for (name, v, c, dash) in stats {
        s +=
            "<line x1=\"\(fixed2(bottom.left))\" y1=\"\(fixed2(bottom.py(v)))\" x2=\"\(fixed2(bottom.left + bottom.width))\" y2=\"\(fixed2(bottom.py(v)))\" stroke=\"\(c)\" stroke-width=\"1.2\" stroke-dasharray=\"\(dash)\"/>\n"
        s += "<text x=\"\(fixed2(bottom.left + bottom.width + 4))\" y=\"\(fixed2(bottom.py(v) + 4))\" font-size=\"10\">\(name)</text>\n"
    }
    let fmt = { (v: Double) in String(format: "%.4g", v) }
    s += legend([("#1f77b4", nil, "error")] + stats.map { ($0.2, $0.3, "\($0.0) \(fmt($0.1))\(unitText)") }, panel: bottom, right: true)
    return s + "</svg>\n"
}
