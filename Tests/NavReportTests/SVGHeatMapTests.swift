import Foundation
import Testing

@testable import NavReport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Issue 51: the configuration × metric heat map shows the report's own comparisons with the
/// baseline (no statistics of its own), oriented by polarity, never by colour alone, at AA contrast.
@Suite struct SVGHeatMapTests {
    /// A comparison as `ExperimentStatistics` would hold it.
    static func comparison(_ median: Double, mean: Double? = nil, significant: Bool) -> ExperimentStatistics.Comparison {
        .init(
            route: allRoutesLabel, metric: "m", configuration: "c", baseline: "b", n: 10, medianDifference: median, ciLow: median - 1,
            ciHigh: median + 1, meanDifference: mean ?? median, pValue: significant ? 0.001 : 0.5, pHolm: significant ? 0.004 : 1,
            test: "wilcoxon-exact", pPermutation: 0.5, significant: significant, identical: [])
    }

    @Test func verdictIsTheComparisonsOrientedByPolarity() {
        typealias V = SVGHeatMap.Verdict
        #expect(V.of(Self.comparison(-1, significant: true), polarity: .lowerIsBetter) == .better)
        #expect(V.of(Self.comparison(-1, significant: true), polarity: .higherIsBetter) == .worse)
        #expect(V.of(Self.comparison(2, significant: true), polarity: .lowerIsBetter) == .worse)
        #expect(V.of(Self.comparison(2, significant: true), polarity: .higherIsBetter) == .better)
        #expect(V.of(Self.comparison(2, significant: true), polarity: .neutral) == .higher)
        #expect(V.of(Self.comparison(-2, significant: true), polarity: .neutral) == .lower)
        // A large difference that the test did not call significant stays "n.s.".
        #expect(V.of(Self.comparison(-50, significant: false), polarity: .lowerIsBetter) == .notSignificant)
        // Median difference 0: the mean difference's sign; both 0: n.s.
        #expect(V.of(Self.comparison(0, mean: 0.5, significant: true), polarity: .lowerIsBetter) == .worse)
        #expect(V.of(Self.comparison(0, mean: 0, significant: true), polarity: .lowerIsBetter) == .notSignificant)
        #expect(V.of(nil, polarity: .lowerIsBetter) == .noValue)
    }

    /// 10 units; configuration a=y adds 1 m of error on every unit (worse), a=z removes 0.5 m of
    /// error and adds 0.1 of precision on every unit (better on both), a=w changes nothing but noise.
    static func table() -> MetricsTable {
        var rows: [MetricRow] = []
        for a in ["x", "y", "z", "w"] {
            for s in 0..<10 {
                let noise = a == "w" ? (s % 2 == 0 ? 0.01 : -0.01) * Double(s + 1) : 0
                let error = 2 + 0.3 * Double(s) + (a == "y" ? 1 + 0.01 * Double(s) : a == "z" ? -0.5 - 0.01 * Double(s) : noise)
                let precision = 0.5 + 0.01 * Double(s) + (a == "z" ? 0.1 + 0.001 * Double(s) : 0)
                rows.append(
                    MetricRow(
                        route: "R1", session: "nav\(s)", configuration: "a=\(a)", parameters: [a], metric: "end_of_route_error",
                        value: error, unit: "m"))
                rows.append(
                    MetricRow(
                        route: "R1", session: "nav\(s)", configuration: "a=\(a)", parameters: [a], metric: "on_track_precision",
                        value: precision, unit: "fraction"))
                rows.append(
                    MetricRow(
                        route: "R1", session: "nav\(s)", configuration: "a=\(a)", parameters: [a], metric: "instructions",
                        value: Double(10 + s + (a == "y" ? 3 : 0)), unit: "count"))
            }
        }
        return MetricsTable(parameterColumns: ["a"], rows: rows)
    }

    @Test func cellsAreTheStatisticsMeansAndComparisons() throws {
        var o = StatisticsOptions()
        o.resamples = 500
        let keys = ["end_of_route_error", "on_track_precision", "instructions"]
        let st = ExperimentStatistics(table: Self.table(), keyMetrics: keys, options: o)
        let map = try #require(st.heatMap())
        #expect(map.rows == ["a=x", "a=y", "a=z", "a=w"])
        #expect(map.columns == ["end_of_route_error (m)", "on_track_precision (fraction)", "instructions (count)"])
        // Every cell: the statistics' mean and the verdict of the statistics' comparison (nothing recomputed).
        for (i, configuration) in ["a=x", "a=y", "a=z", "a=w"].enumerated() {
            for (j, m) in keys.enumerated() {
                let cell = try #require(st.cells.first { $0.route == allRoutesLabel && $0.configuration == configuration && $0.metric == m })
                #expect(map.cells[i][j].value == cell.mean)
                let c = st.comparisons.first { $0.route == allRoutesLabel && $0.configuration == configuration && $0.metric == m }
                #expect(map.cells[i][j].verdict == (i == 0 ? .baseline : SVGHeatMap.Verdict.of(c, polarity: MetricPolarity.of(m))))
            }
        }
        // What those comparisons say for this table (exact Wilcoxon over 10 one-signed units, Holm over 6 tests).
        #expect(
            map.cells.map { $0.map(\.verdict) } == [
                [.baseline, .baseline, .baseline], [.worse, .notSignificant, .higher], [.better, .better, .notSignificant],
                [.notSignificant, .notSignificant, .notSignificant],
            ])
        #expect(map.cells[1][0].text == figureNumber(map.cells[1][0].value) + " ▼")
        #expect(map.cells[2][1].text == figureNumber(map.cells[2][1].value) + " ▲")
        #expect(map.cells[1][2].text == figureNumber(map.cells[1][2].value) + " ↑")
        #expect(map.cells[3][0].text.hasSuffix(" n.s.") && map.cells[0][0].text.hasSuffix(" ref"))
        // The finding: counts over the 9 compared cells and the configurations with most better / worse.
        let finding = try #require(map.description)
        #expect(
            finding
                == "Configuration × metric heat map, all routes, against a=x (means; better or worse only where the paired Wilcoxon "
                + "signed-rank test, Holm-adjusted at α = 0.05, says so): 2 of 9 cells better, 1 worse, 1 higher or lower (no better "
                + "direction), 5 not significant; most better: a=z (2 of 3 metrics); most worse: a=y (1 of 3 metrics).")
        let svg = map.svg
        #expect(svg.contains("<title>\(xmlEscaped(markdownPlainText(finding)))</title>"))
        // Each cell's text is drawn on its fill; the legend names each symbol.
        #expect(svg.contains("fill=\"#fd8d3c\" stroke=\"#777\"/>\n<text x=\"") && svg.contains(">\(map.cells[1][0].text)</text>"))
        for v in [SVGHeatMap.Verdict.better, .worse, .notSignificant, .baseline, .higher, .lower] {
            #expect(svg.contains(" data-mark=\"symbol\">\(xmlEscaped(v.symbol))</text><text x=\"60\" y=\""))
            #expect(svg.contains(">\(v.meaning)</text>"))
        }
        // Deterministic.
        #expect(try #require(st.heatMap()).svg == svg)
        // One configuration: nothing to compare, no map.
        let one = MetricsTable(parameterColumns: ["a"], rows: Self.table().rows.filter { $0.configuration == "a=x" })
        #expect(ExperimentStatistics(table: one, keyMetrics: keys, options: o).heatMap() == nil)
    }

    @Test func tiedConfigurationsAreCountedNotNamed() {
        let map = SVGHeatMap(
            title: "t", rows: ["base", "b", "c"], columns: ["m", "n"],
            cells: [
                [.init(value: 1, verdict: .baseline), .init(value: 2, verdict: .baseline)],
                [.init(value: 0.5, verdict: .better), .init(value: 2, verdict: .notSignificant)],
                [.init(value: 2, verdict: .notSignificant), .init(value: 1, verdict: .better)],
            ])
        #expect(
            map.finding(scope: "all routes", test: "t")
                == "Configuration × metric heat map, all routes, against base (t): 2 of 4 cells better, 0 worse, 2 not significant; "
                + "2 configurations tie for most better (1 of 2 metrics each).")
    }

    @Test func hostileNamesAreEscaped() throws {
        let hostile = "x](y) <script>&\"'\n"
        var map = SVGHeatMap(
            title: "t <b>", rows: ["base", hostile], columns: ["m</text><script>", "n"],
            cells: [
                [.init(value: 1, verdict: .baseline), .init(value: 2, verdict: .baseline)],
                [.init(value: 0.5, verdict: .better), .init(value: .nan, verdict: .noValue)],
            ])
        let finding = map.finding(scope: "all <routes>", test: "t")
        #expect(finding.contains("x\\](y) \\<script\\>") && !finding.contains("<script>") && !finding.contains("\n"))
        #expect(finding.contains("1 of 1 cell better, 0 worse, 0 not significant; most better: x\\](y)"))
        map.description = finding
        let svg = map.svg
        #expect(!svg.contains("<script>") && !svg.contains("</text><script>") && !svg.contains("<b>"))
        #expect(svg.contains("x](y) &lt;script&gt;&amp;&quot;&apos;"))
        #expect(svg.contains("m&lt;/text&gt;&lt;script&gt;"))
        #expect(svg.contains(">–</text>"))
        // The SVG parses as XML (escaping is complete).
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse())
    }

    /// WCAG 2.1 AA: black cell text on every fill at ≥ 4.5:1; the better and worse fills differ from white.
    @Test func paletteHasAAContrast() {
        #expect(abs(wcagContrast("#000000", "#ffffff") - 21) < 1e-9)
        #expect(abs(wcagContrast("#777777", "#ffffff") - 4.48) < 0.01)  // the known just-failing grey
        for v in SVGHeatMap.Verdict.allCases {
            #expect(wcagContrast("#000000", v.fill) >= 4.5, "\(v) on \(v.fill)")
        }
        #expect(SVGHeatMap.Verdict.better.fill != SVGHeatMap.Verdict.worse.fill)
        // Symbols tell every verdict apart without colour.
        let symbols = SVGHeatMap.Verdict.allCases.filter { $0 != .noValue }.map(\.symbol)
        #expect(Set(symbols).count == symbols.count)
    }
}
