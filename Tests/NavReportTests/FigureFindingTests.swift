import Foundation
import Testing

@testable import NavReport

/// Issue 51, item 4: every figure's text alternative states its finding with the numbers the
/// figure draws; names from data come out escaped in the Markdown and in report.html.
@Suite struct FigureFindingTests {
    /// A route or configuration name that would break Markdown, HTML and a single line.
    static let hostile = "x](y) <script>\nz"

    @Test func boxPlotNamesTheLowestAndHighestMedian() {
        let plot = SVGBoxPlot(
            title: "m by configuration (all routes)", yLabel: "m (m)",
            groups: [
                .init(label: "A", values: [1, 2, 3], style: 0), .init(label: "B", values: [0.6, 0.4, 0.5, .nan], style: 1),
                .init(label: "C", values: [7, 5, 6], style: 2),
            ])
        #expect(
            plot.configurationFinding(measure: "m (m)", scope: "all routes")
                == "m (m) by configuration, all routes: lowest median 0.5 (B, n = 3), highest 6 (C, n = 3); 3 configurations.")
        let same = SVGBoxPlot(
            title: "t", yLabel: "r", groups: [.init(label: "A", values: [0, 0, 1], style: 0), .init(label: "B", values: [0], style: 1)])
        #expect(same.configurationFinding(measure: "r", scope: "all routes") == "r by configuration, all routes: every median 0; 2 configurations.")
        let empty = SVGBoxPlot(title: "t", yLabel: "r", groups: [.init(label: "A", values: [.nan], style: 0)])
        #expect(
            empty.configurationFinding(measure: "r", scope: "all routes")
                == "r by configuration, all routes: no finite value; 1 configuration (1 without a finite value).")
    }

    @Test func hostileNamesAreEscapedInTheAltTheSVGAndThePage() throws {
        var plot = SVGBoxPlot(
            title: "m", yLabel: "m",
            groups: [.init(label: Self.hostile, values: [1, 2, 3], style: 0), .init(label: "B", values: [4, 5, 6], style: 1)])
        let alt = plot.configurationFinding(measure: "m", scope: "all routes")
        #expect(alt.contains("x\\](y) \\<script\\>\\\\nz"))
        #expect(!alt.contains("\n") && !alt.contains("<script>"))
        plot.description = alt
        let svg = plot.svg
        // The plain sentence, XML-escaped, as the SVG's first children.
        let text = "m by configuration, all routes: lowest median 2 (x](y) &lt;script&gt;\\nz, n = 3), highest 5 (B, n = 3); 2 configurations."
        #expect(svg.contains(">\n<title>\(text)</title>\n<rect"))
        var h = MarkdownReportToHTML(figures: ["plots/box-m.svg": svg], caveats: [])
        let html = h.feed("## Overall\n\n" + ReportFigure(path: "plots/box-m.svg", alt: alt).markdown + "\n\n") + h.finish()
        // The figure is found although its text holds `](`, and is named by the sentence.
        #expect(html.contains("<svg role=\"img\" aria-label=\"\(text)\" xmlns="))
        #expect(html.contains("<figcaption>\(text)</figcaption>"))
        #expect(!html.contains("<script>"))
        #expect(!html.contains("its numbers are in the section"))
    }

    @Test func altTextEndsAtTheFirstUnescapedBracket() {
        let line = "![a\\](b) \\\\](p.svg)"
        let end = MarkdownReportToHTML.altTextEnd(line)
        #expect(end.map { String(line[$0.upperBound...]) } == "p.svg)")
        #expect(MarkdownReportToHTML.altTextEnd("![a\\](b)") == nil)
    }

    @Test func plainTextUndoesMarkdownInline() {
        #expect(markdownPlainText(markdownInline("a [b] <c> & d_e")) == "a [b] <c> & d_e")
        #expect(markdownPlainText(markdownInline(Self.hostile)) == "x](y) <script>\\nz")
    }

    @Test func closedLoopFloorPlanCountsTheWalkersThatArrived() {
        let walkers = [(success: true, endOfRouteError: 0.5), (success: false, endOfRouteError: 3.0), (success: true, endOfRouteError: 1.0)]
        #expect(
            closedLoopFloorPlanFinding(title: "B1: cane, vio none", keypoints: 4, walkers: walkers)
                == "B1: cane, vio none: floor plan from above with the route's 4 keypoints and 3 walkers drawn: 2 of 3 arrived within 2 m "
                + "of the destination; end-of-route error 0.5 to 3 m (median 1 m).")
        #expect(
            closedLoopFloorPlanFinding(title: Self.hostile, keypoints: 1, walkers: [])
                == "x\\](y) \\<script\\>\\\\nz: floor plan from above with the route's 1 keypoint and 0 walkers drawn.")
        let svg = closedLoopSVG(title: "t", walls: [], keypoints: [], paths: [], description: "a \\<b\\> 1")
        #expect(svg.contains("<title>a &lt;b&gt; 1</title>\n<rect"))
    }

    @Test func figureNumbersAndLists() {
        #expect(figureNumber(0.41234) == "0.412")
        #expect(figureNumber(12.345) == "12.3")
        #expect(figureNumber(1) == "1")
        #expect(figureNumber(.nan) == "–")
        #expect(cappedList(["a", "b", "c"], limit: 3) == "a, b, c")
        #expect(cappedList(["a", "b", "c", "d", "e"], limit: 3) == "a, b, c, and 2 more")
    }
}
