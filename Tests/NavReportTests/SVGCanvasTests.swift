import Foundation
import NavCore
import Testing

@testable import NavReport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Names from data reach plot titles, legends and axis labels: every plot must stay well-formed
/// XML whatever they hold (markup, quotes, control characters).
@Suite struct SVGCanvasTests {
    /// `fixed2`: the value rounded half away from zero to hundredths, as "[-]units.dd" (the
    /// interpolated definition it replaced, on random coordinates of every scale and the
    /// rounding edges); beyond Int64 hundredths it saturates instead of trapping. `appendFixed2`
    /// writes the same bytes.
    @Test func fixed2IsTheRoundedHundredths() {
        func definition(_ v: Double) -> String {
            let h = Int64((v * 100).rounded()), a = abs(h), frac = a % 100
            return "\(h < 0 ? "-" : "")\(a / 100).\(frac < 10 ? "0" : "")\(frac)"
        }
        var rng = SeededRandom(seed: 11)
        var values: [Double] = [0, -0.0, 0.004, -0.004, 0.005, -0.005, 0.995, -0.995, 9.995, 1, -1, 123.456, 1e15, -1e15]
        for _ in 0..<5_000 { values.append(Double.random(in: -1...1, using: &rng) * pow(10, Double.random(in: -3...16, using: &rng))) }
        for v in values { #expect(fixed2(v) == definition(v), "\(v)") }
        // The bytes a polyline's points are built from, appended one value after another.
        var bytes: [UInt8] = []
        for v in values + [.nan, -.infinity, 1e300] {
            appendFixed2(v, to: &bytes)
            bytes.append(UInt8(ascii: " "))
        }
        let expected = values.map(definition) + ["0.00", "0.00", "92233720368547758.07"]
        #expect(String(decoding: bytes, as: UTF8.self) == expected.map { $0 + " " }.joined())
        #expect(fixed2(1e300) == "92233720368547758.07" && fixed2(-1e300) == "-92233720368547758.08")
        #expect(fixed2(.nan) == "0.00" && fixed2(.infinity) == "0.00")
    }

    static let hostile = "route\u{1}<script>&\"'\u{7}\u{FFFE}"

    func wellFormed(_ svg: String) -> Bool {
        let parser = XMLParser(data: Data(svg.utf8))
        return parser.parse()
    }

    @Test func linePlotWithHostileNamesIsWellFormed() {
        let plot = SVGPlot(
            title: Self.hostile, xLabel: Self.hostile, yLabel: Self.hostile,
            series: [.init(label: Self.hostile, points: [(0, 0), (1, 2)])])
        #expect(wellFormed(plot.svg))
        #expect(!plot.svg.contains("<script>"))
    }

    @Test func boxPlotWithHostileNamesIsWellFormed() {
        let plot = SVGBoxPlot(
            title: Self.hostile, yLabel: Self.hostile, xLabel: Self.hostile,
            groups: [.init(label: Self.hostile, values: [1, 2, 3, 40], style: 0)])
        #expect(wellFormed(plot.svg))
        #expect(!plot.svg.contains("<script>"))
    }

    @Test func boxPlotDrawsAtMostItsOutlierBudget() {
        // 10,000 central values and 1,000 far ones: every far value is a Tukey outlier.
        let central: [Double] = (0..<10_000).map { (i: Int) -> Double in Double(i % 10) }
        let far: [Double] = (0..<1_000).map { (i: Int) -> Double in 1_000 + Double(i) }
        let values = central + far
        let svg = SVGBoxPlot(title: "t", yLabel: "y", groups: [.init(label: "a", values: values, style: 0)]).svg
        let circles = svg.components(separatedBy: "<circle").count - 1
        #expect(circles > 0 && circles <= SVGBoxPlot.maxOutliersDrawn, "\(circles) outliers drawn")
    }
}
