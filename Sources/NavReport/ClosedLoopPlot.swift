import Foundation
import NavCore
import NavSim

/// An SVG of a closed-loop route seen from above: the floor plan's walls (grey; floor 0 thick), the true
/// keypoint polyline (black, 2 px) with its keypoints (circles), the destination (a larger red circle
/// in a ring, labelled), and walked paths (thin, one colour each: individual walkers, not categories).
/// A legend under the title tells walls, route, destination and walkers apart by width, marker and
/// label, never by colour alone.
/// x = east, up = north (−z). Deterministic text (fixed number formatting). `description`: the figure's
/// text alternative (`closedLoopFloorPlanFinding`), drawn as its `<title>`.
///
/// - Complexity: O(walls + keypoints + path points).
public func closedLoopSVG(
    title: String, walls: [(x0: Double, z0: Double, x1: Double, z1: Double, floor: Int)], keypoints: [Vector3],
    paths: [(label: String, points: [Vector3])],
    width: Double = 640, height: Double = 480, description: String? = nil
) -> String {
    var xs = keypoints.map(\.x) + paths.flatMap { $0.points.map(\.x) }
    var ns = keypoints.map { -$0.z } + paths.flatMap { $0.points.map { -$0.z } }
    for w in walls { xs += [w.x0, w.x1]; ns += [-w.z0, -w.z1] }
    let margin = 40.0
    let x0 = (xs.min() ?? 0) - 1, x1 = (xs.max() ?? 1) + 1, n0 = (ns.min() ?? 0) - 1, n1 = (ns.max() ?? 1) + 1
    let scale = min((width - 2 * margin) / (x1 - x0), (height - 2 * margin - 20) / (n1 - n0))
    func px(_ x: Double) -> String { String(format: "%.1f", margin + (x - x0) * scale) }
    func py(_ n: Double) -> String { String(format: "%.1f", height - margin - (n - n0) * scale) }
    func esc(_ s: String) -> String { xmlEscaped(s) }
    var s = svgCanvasOpening(width: width, height: height, description: description)
    s += "<text x=\"\(Int(width / 2))\" y=\"18\" text-anchor=\"middle\">\(esc(title))</text>\n"
    s +=
        "<text x=\"\(Int(width / 2))\" y=\"\(Int(height - 8))\" text-anchor=\"middle\">east (m); north up; 1 m = \(String(format: "%.1f", scale)) px</text>\n"
    for w in walls {
        s +=
            "<line x1=\"\(px(w.x0))\" y1=\"\(py(-w.z0))\" x2=\"\(px(w.x1))\" y2=\"\(py(-w.z1))\" stroke=\"#888\" stroke-width=\"\(w.floor == 0 ? 3 : 1.5)\"/>\n"
    }
    let colours = walkerPathColours
    for (i, p) in paths.enumerated() where !p.points.isEmpty {
        let pts = p.points.map { "\(px($0.x)),\(py(-$0.z))" }.joined(separator: " ")
        s +=
            "<polyline fill=\"none\" stroke=\"\(colours[i % colours.count])\" stroke-width=\"1\" opacity=\"\(walkerPathOpacity)\" points=\"\(pts)\"><title>\(esc(p.label))</title></polyline>\n"
    }
    s +=
        "<polyline fill=\"none\" stroke=\"black\" stroke-width=\"2\" points=\"\(keypoints.map { "\(px($0.x)),\(py(-$0.z))" }.joined(separator: " "))\"><title>route (true keypoints)</title></polyline>\n"
    for (i, k) in keypoints.enumerated() {
        s +=
            "<circle cx=\"\(px(k.x))\" cy=\"\(py(-k.z))\" r=\"\(i == keypoints.count - 1 ? 5 : 3.5)\" fill=\"\(i == keypoints.count - 1 ? "red" : "black")\"/>\n"
    }
    if let end = keypoints.last {
        s += "<circle cx=\"\(px(end.x))\" cy=\"\(py(-end.z))\" r=\"8\" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\"/>\n"
        s += "<text x=\"\(px(end.x))\" y=\"\(String(format: "%.1f", (Double(py(-end.z)) ?? 0) - 11))\" text-anchor=\"middle\">destination</text>\n"
    }
    // Legend (y 30–44, above the plan): wall, route with a keypoint, destination, a walker.
    let entries: [(mark: String, label: String)] = [
        ("<line x1=\"0\" y1=\"-4\" x2=\"18\" y2=\"-4\" stroke=\"#888\" stroke-width=\"3\"/>", "walls"),
        (
            "<line x1=\"0\" y1=\"-4\" x2=\"18\" y2=\"-4\" stroke=\"black\" stroke-width=\"2\"/><circle data-mark=\"keypoint\" cx=\"9\" cy=\"-4\" r=\"3.5\" fill=\"black\"/>",
            "route and keypoints"
        ),
        (
            "<circle data-mark=\"destination\" cx=\"9\" cy=\"-4\" r=\"5\" fill=\"red\"/><circle cx=\"9\" cy=\"-4\" r=\"8\" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\"/>",
            "destination"
        ),
        ("<line x1=\"0\" y1=\"-4\" x2=\"18\" y2=\"-4\" stroke=\"\(colours[0])\" stroke-width=\"1\"/>", "a walker (thin, one colour each)"),
    ]
    var lx = 10.0
    for e in entries {
        s +=
            "<g class=\"legend-entry\" transform=\"translate(\(String(format: "%.1f", lx)) 42)\">\(e.mark)<text x=\"24\" y=\"0\">\(e.label)</text></g>\n"
        lx += 24 + 6.6 * Double(e.label.count) + 16
    }
    s += "</svg>\n"
    return s
}

/// The finding of a closed-loop floor plan (its text alternative): what it shows (`title`: route and
/// setting), the route's keypoints, how many walkers are drawn, how many of them succeeded (arrived
/// within 2 m of the destination, not lost) and the range and median of their end-of-route errors.
///
/// - Complexity: O(w log w) for w walkers.
public func closedLoopFloorPlanFinding(title: String, keypoints: Int, walkers: [(success: Bool, endOfRouteError: Double)]) -> String {
    let head =
        "\(markdownInline(title)): floor plan from above with the route's \(keypoints) keypoint\(keypoints == 1 ? "" : "s") "
        + "and \(walkers.count) walker\(walkers.count == 1 ? "" : "s") drawn"
    guard !walkers.isEmpty else { return head + "." }
    let errors = walkers.map(\.endOfRouteError).filter(\.isFinite).sorted()
    let spread =
        errors.isEmpty
        ? ""
        : "; end-of-route error \(figureNumber(errors[0])) to \(figureNumber(errors[errors.count - 1])) m "
            + "(median \(figureNumber(quantile(sorted: errors, 0.5, method: .linear))) m)"
    return head
        + ": \(walkers.filter(\.success).count) of \(walkers.count) arrived within \(figureNumber(WalkOutcome.successRadius)) m of the destination"
        + spread + "."
}

/// The walked paths' colours, one per walker in turn (individuals, not categories): tab10's hues,
/// its orange, green, purple, pink and cyan darkened so that every path, drawn at
/// `walkerPathOpacity` on white, keeps WCAG 2.1's 3:1 non-text contrast (1.4.11).
let walkerPathColours = ["#1f77b4", "#c85a00", "#238023", "#d62728", "#8451b0", "#8c564b", "#c2399a", "#0f7c8a"]
/// The walked paths' opacity: overlapping walkers stay visible through each other.
let walkerPathOpacity = 0.8
