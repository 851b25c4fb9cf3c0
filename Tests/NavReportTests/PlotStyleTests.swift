import Foundation
import NavCore
import Testing

@testable import NavReport

/// Plots a paper can use: round ticks, distinct colour-blind-safe styles, legends inside the canvas.
@Suite struct PlotStyleTests {
    /// The plots use `niceTicks` and `tickLabel` (ErrorPlot.swift): labels like "0.5", never "0.5023".
    @Test func ticksAreRoundAndCoverTheRange() {
        func labels(_ lo: Double, _ hi: Double) -> [String] { let t = niceTicks(lo, hi); return t.ticks.map { tickLabel($0, step: t.step) } }
        #expect(labels(0.4977, 1.0023) == ["0.5", "0.6", "0.7", "0.8", "0.9", "1.0"])
        #expect(labels(0, 10) == ["0", "2", "4", "6", "8", "10"])
        #expect(labels(-3.2, 47) == ["0", "10", "20", "30", "40"])
        for (lo, hi) in [(0.0013, 0.0071), (12.0, 1234.0), (-1.0, 1.0), (0.5023, 0.5024)] {
            let t = niceTicks(lo, hi)
            #expect(t.ticks.count >= 2 && t.ticks.count <= 8, "\(lo)…\(hi): \(t.ticks)")
            for v in t.ticks {
                #expect(v >= lo - 1e-12 && v <= hi + 1e-12)
                let label = tickLabel(v, step: t.step)
                #expect(abs(Double(label)! - v) <= 1e-9 * max(1, abs(v)), "\(label) vs \(v)")
            }
        }
        let svg = SVGPlot(
            title: "t", xLabel: "x (m)", yLabel: "y (m)", series: [SVGPlot.Series(label: "a", points: [(x: 0.4977, y: 0.5023), (x: 1.0023, y: 0.9)])]
        ).svg
        #expect(!svg.contains(">0.5023<") && svg.contains(">0.5<"))
    }

    /// WCAG 2.1 non-text contrast (1.4.11, 3:1 on white): the colours under it, by the published
    /// relative-luminance formula (computed apart from the code: #E69F00 2.25, #56B4E9 2.31,
    /// #F0E442 1.32 : 1), are drawn over a dark casing that has it, against white and against them;
    /// the others are drawn as they are.
    @Test func lightColoursGetACasing() {
        let light: Set = ["#E69F00", "#56B4E9", "#F0E442"]
        for c in PlotStyle.okabeIto {
            let casing = lineCasing(c)
            #expect((casing != nil) == light.contains(c), "\(c)")
            if let casing { #expect(wcagContrast(casing, "#ffffff") >= 3 && wcagContrast(casing, c) >= 3, "\(c)") }
        }
        #expect(abs(wcagContrast("#F0E442", "#ffffff") - 1.32) < 0.01 && abs(wcagContrast("#E69F00", "#ffffff") - 2.25) < 0.01)
        // In a plot: the casing beneath the line, the legend's line and each marker.
        let svg = SVGPlot(
            title: "t", xLabel: "x", yLabel: "y",
            series: (0..<5).map { k in SVGPlot.Series(label: "s\(k)", points: [(x: 0, y: Double(k)), (x: 1, y: Double(k) + 1)]) }
        ).svg
        #expect(svg.components(separatedBy: "stroke=\"#404040\" stroke-width=\"2.75\"").count - 1 == 3)
        #expect(svg.components(separatedBy: "stroke=\"#404040\" stroke-width=\"3.25\"").count - 1 == 3)
        let yellowLine = svg.range(of: "<polyline fill=\"none\" stroke=\"#F0E442\"")!.lowerBound
        let casingLine = svg.range(of: "<polyline fill=\"none\" stroke=\"#404040\"", options: .backwards, range: svg.startIndex..<yellowLine)!
        #expect(svg[casingLine.upperBound..<yellowLine].components(separatedBy: "<polyline").count == 1)
    }

    /// The closed-loop walkers' thin paths, drawn translucent, keep 3:1 on white: each colour
    /// composited over white at the paths' opacity (per channel: a·c + (1 − a)·255).
    @Test func walkerPathsKeepNonTextContrast() {
        #expect(Set(walkerPathColours).count == walkerPathColours.count)
        for c in walkerPathColours {
            let v = UInt32(c.dropFirst(), radix: 16)!
            let channels: [UInt32] = [(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff]
            let composite = channels.map { (ch: UInt32) -> String in
                let blended: Double = walkerPathOpacity * Double(ch) + (1 - walkerPathOpacity) * 255
                return String(format: "%02x", Int(blended.rounded()))
            }.joined()
            #expect(wcagContrast("#" + composite, "#ffffff") >= 3, "\(c) at opacity \(walkerPathOpacity)")
        }
    }

    @Test func twentyFourSeriesHaveTwentyFourStylesAndFitTheCanvas() throws {
        let styles = (0..<24).map { PlotStyle($0) }
        let colourDashes: Set<String> = Set(styles.map { (s: PlotStyle) -> String in "\(s.color)\(s.dash ?? "")" })
        #expect(colourDashes.count == 24)
        #expect(Set(styles.map(\.color)).isSubset(of: Set(PlotStyle.okabeIto)))
        let series = (0..<24).map { k in
            SVGPlot.Series(
                label: "tol=0.\(k) reg=gravity-aligned anchors=all arrival=symmetric position_filter=ema:tau=0.3 (+2 identical)",
                points: [(x: 0, y: Double(k)), (x: 1, y: Double(k) + 1)])
        }
        let svg = SVGPlot(title: "t", xLabel: "x (m)", yLabel: "y (m)", series: series).svg
        let height = try #require(Double(svg.firstMatch(of: /height="(\d+)"/)!.1))
        let width = try #require(Double(svg.firstMatch(of: /width="(\d+)"/)!.1))
        // Every legend text lies inside the canvas.
        for m in svg.matches(of: /<text x="([0-9.]+)" y="([0-9.]+)">([^<]*)<\/text>/) {
            let x = Double(m.1)!, y = Double(m.2)!
            #expect(y <= height && x + 6.6 * Double(m.3.count) <= width + 1, "legend '\(m.3)' at \(x),\(y) outside \(width)×\(height)")
        }
        #expect(svg.contains("…"))
    }

    /// A legend entry's channels besides colour: its marks (`data-mark`, with the text of a marking
    /// text or tspan), dash patterns, line widths and element kinds; colours and labels left out.
    static func legendSignatures(_ svg: String) -> [String] {
        svg.matches(of: /<g class="legend-entry"[^>]*>(.*)<\/g>/).map { m in
            let e = String(m.1)
            let marks = e.matches(of: /data-mark="([^"]*)"(?:[^>]*>([^<]*)<\/(?:tspan|text)>)?/).map { "\($0.1):\($0.2 ?? "")" }
            let dashes = e.matches(of: /stroke-dasharray="([^"]*)"/).map { String($0.1) }
            let widths = e.matches(of: /stroke-width="([^"]*)"/).map { String($0.1) }
            let kinds = e.matches(of: /<(line|path|rect|circle|polyline)\b/).map { String($0.1) }
            return [marks, dashes, widths, kinds].map { $0.joined(separator: ",") }.joined(separator: "|")
        }
    }

    /// Issue 51: colour is never the only channel. Each figure's legend entries differ without
    /// their colours: 24 line styles by (marker, dash), boxes by their number, the closed-loop floor
    /// plan by width and marker, the error plot's lines by dash, the heat map by symbol.
    @Test func legendEntriesDifferBesidesColour() {
        let styles = (0..<24).map { PlotStyle($0) }
        let markerDashes: Set<String> = Set(styles.map { (s: PlotStyle) -> String in "\(s.marker)\(s.dash ?? "")" })
        #expect(markerDashes.count == 24)
        let lines = SVGPlot(
            title: "t", xLabel: "x", yLabel: "y",
            series: (0..<24).map { k in SVGPlot.Series(label: "s", points: (0..<30).map { (x: Double($0), y: Double(k + $0)) }) }
        ).svg
        let lineEntries = Self.legendSignatures(lines)
        #expect(lineEntries.count == 24 && Set(lineEntries).count == 24)
        // Markers on the curves too: 8 per 30-point series, one per point of a 3-point series.
        #expect(lines.matches(of: /<path data-mark="circle"/).count == 3 * (8 + 1))  // series 0, 8, 16 (+ legend)
        #expect(SVGPlot.markerIndices(count: 3, series: 5) == [0, 1, 2])
        #expect(SVGPlot.markerIndices(count: 80, series: 1) == [7, 17, 27, 37, 47, 57, 67, 77])
        let dashedTwin = SVGPlot(
            title: "t", xLabel: "x", yLabel: "y",
            series: [
                .init(label: "a true", points: [(x: 0, y: 0), (x: 1, y: 1)]),
                .init(label: "a estimated", points: [(x: 0, y: 1), (x: 1, y: 0)], dashed: true),
            ]
        ).svg
        #expect(Set(Self.legendSignatures(dashedTwin)).count == 2)
        let boxes = SVGBoxPlot(
            title: "b", yLabel: "m", groups: (0..<10).map { SVGBoxPlot.Group(label: "same label", values: [1, 2, 3], style: $0 % 8) }
        ).svg
        let boxEntries = Self.legendSignatures(boxes)
        #expect(boxEntries.count == 10 && Set(boxEntries).count == 10)
        let plan = closedLoopSVG(
            title: "r", walls: [(x0: 0, z0: 0, x1: 5, z1: 0, floor: 0)],
            keypoints: [Vector3(0, 0, 0), Vector3(5, 0, -5)], paths: [(label: "w1", points: [Vector3(0, 0, 0), Vector3(4, 0, -4)])])
        let planEntries = Self.legendSignatures(plan)
        #expect(planEntries.count == 4 && Set(planEntries).count == 4)
        #expect(plan.contains(">destination</text>"))
        let map = SVGHeatMap(
            title: "h", rows: ["a", "b"], columns: ["m"], cells: [[.init(value: 1, verdict: .baseline)], [.init(value: 2, verdict: .worse)]]
        ).svg
        let mapEntries = Self.legendSignatures(map)
        #expect(mapEntries.count == 6 && Set(mapEntries).count == 6)
    }

    /// Tukey box: quartiles by linear interpolation (numpy's default), whiskers within 1.5·IQR.
    @Test func boxSummaryAndOneBoxPerGroup() throws {
        // numpy.percentile([1, 2, 3, 4, 100], [25, 50, 75]) = [2, 3, 4]; fence 1.5·2 = 3 → 100 is an outlier.
        let b = try #require(SVGBoxPlot.summary([4, 2, 100, 1, 3, .nan]))
        #expect(b.q1 == 2 && b.median == 3 && b.q3 == 4 && b.low == 1 && b.high == 4 && b.outliers == [100])
        let plot = SVGBoxPlot(
            title: "end_of_route_error", yLabel: "end_of_route_error (m)",
            groups: (0..<9).map { SVGBoxPlot.Group(label: "config \($0)", values: [1, 2, 3, Double($0)], style: $0) })
        #expect(plot.svg.matches(of: /fill-opacity="0.25"/).count == 18)  // a box and a legend swatch per group
        #expect(plot.svg.contains(PlotStyle(8).color) && plot.svg.contains("end_of_route_error (m)"))
    }
}
