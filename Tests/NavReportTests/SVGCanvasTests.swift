import Foundation
import Testing

@testable import NavReport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Names from data reach plot titles, legends and axis labels: every plot must stay well-formed
/// XML whatever they hold (markup, quotes, control characters).
@Suite struct SVGCanvasTests {
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
