import Foundation
import NavCore
import NavReport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The gate's labels (worse, mixed, better, ok) and the runs the per-row rule names (issue 52, item 4).
@Suite struct GateLabelTests {
    /// 3 sessions × 2 configurations of one route and metric, seed 1: too few units to pair.
    static func table(_ values: [Double], metric: String = "false_arrivals", unit: String = "count", sessions: [String]? = nil) -> MetricsTable {
        let names = sessions ?? ["nav1", "nav2", "nav3"]
        var rows: [MetricRow] = []
        for (i, v) in values.enumerated() {
            rows.append(
                MetricRow(
                    route: "R1", session: names[i / 2], configuration: "cfg\(i % 2)", parameters: ["1"], metric: metric, value: v, unit: unit))
        }
        return MetricsTable(parameterColumns: ["seed"], rows: rows)
    }

    /// The user's report: the mean improved (4 runs 1 → 0) while two runs went 0 → 1. A
    /// regression (the rule is unchanged) labelled mixed, the two runs named with their seed.
    @Test func improvedMeanWithRegressingRunsIsMixedAndNamesTheRuns() {
        let r = noiseAwareGate(baseline: Self.table([1, 1, 1, 1, 0, 0]), current: Self.table([0, 0, 0, 0, 1, 1]))
        let g = r.gated[0]
        #expect(g.regressed && g.label == .mixed && !g.improved)
        #expect(g.rowRegressions.map(\.session) == ["nav3", "nav3"] && g.rowRegressions.allSatisfy { $0.seed == "1" })
        #expect(g.rowImprovements.count == 4)
        let runs = gateRunsText(g) { $0 }
        #expect(
            runs.hasPrefix("worse in 2 runs: nav3 [cfg0, seed 1]: 0 → 1; nav3 [cfg1, seed 1]: 0 → 1. better in 4 runs: nav1 [cfg0, seed 1]: 1 → 0"))
        let md = gateMarkdown(r, baselineName: "b", currentName: "c")
        #expect(md.contains("**1 regressed**") && md.contains("1 of the regressions **mixed**"))
        #expect(md.contains("| **mixed** | R1 | false_arrivals | 3 | 0.666667 | 0.333333 |"))
        #expect(!md.contains("| **worse** |"))
        let xml = gateJUnitXML(r, suiteName: "s")
        #expect(xml.contains("failures=\"1\"") && xml.contains("false_arrivals on R1 mixed (runs worse, the mean better)"))
        #expect(xml.contains("<system-out>verdict: mixed</system-out>") && xml.contains("nav3 [cfg0, seed 1]: 0 → 1"))
    }

    /// A worse mean by the row rule stays worse, the run named; more than 5 runs are cut with "and N more".
    @Test func rowRuleRegressionNamesRunsAndBoundsTheList() {
        let one = noiseAwareGate(baseline: Self.table([0, 0, 0, 0, 0, 0]), current: Self.table([0, 0, 1, 0, 0, 0]))
        #expect(one.gated[0].label == .worse && gateRunsText(one.gated[0]) { $0 } == "worse in 1 run: nav2 [cfg0, seed 1]: 0 → 1")
        let b = MetricsTable(
            parameterColumns: ["seed"], rows: (0..<4).flatMap { Self.table([0, 0, 0, 0, 0, 0], sessions: ["a\($0)", "b\($0)", "c\($0)"]).rows })
        let c = MetricsTable(
            parameterColumns: ["seed"], rows: (0..<4).flatMap { Self.table([1, 1, 1, 1, 1, 1], sessions: ["a\($0)", "b\($0)", "c\($0)"]).rows })
        // 12 sessions are units enough to pair: the row rule needs fewer.
        let all = noiseAwareGate(baseline: b, current: c, minimumPairs: 20)
        let text = gateRunsText(all.gated[0]) { $0 }
        #expect(all.gated[0].label == .worse && text.hasPrefix("worse in 24 runs: ") && text.hasSuffix("; and 19 more"))
        #expect(text.components(separatedBy: " → ").count == 6)
    }

    /// Better: by the row rule no run worse and the mean better beyond the tolerance; paired,
    /// the whole CI beyond the tolerance on the better side. Never counted as a failure.
    @Test func clearImprovementsAreBetter() {
        let rows = noiseAwareGate(
            baseline: Self.table([2, 2, 2, 2, 2, 2], metric: "end_point_drift", unit: "m"),
            current: Self.table([1.9, 1.9, 1.9, 1.9, 1.9, 1.9], metric: "end_point_drift", unit: "m"))
        #expect(rows.gated[0].label == .better && rows.regressions.isEmpty)
        // One run better, the rest unchanged: no run worse, the mean better.
        let partly = noiseAwareGate(
            baseline: Self.table([2, 2, 2, 2, 2, 2], metric: "end_point_drift", unit: "m"),
            current: Self.table([1, 2, 2, 2, 2, 2], metric: "end_point_drift", unit: "m"))
        #expect(partly.gated[0].label == .better)
        // Higher is better: a lower recall is worse, a higher one better.
        let recall = noiseAwareGate(
            baseline: Self.table([0.5, 0.5, 0.5, 0.5, 0.5, 0.5], metric: "on_track_recall", unit: "fraction"),
            current: Self.table([0.6, 0.6, 0.6, 0.6, 0.6, 0.4], metric: "on_track_recall", unit: "fraction"))
        #expect(recall.gated[0].label == .mixed)
        let (b, c) = NoiseAwareGateTests.pair(shift: -0.30, seed: 4)
        let paired = noiseAwareGate(baseline: b, current: c, tolerances: NoiseAwareGateTests.fivePercent, resamples: 1000)
        #expect(paired.gated[0].paired && paired.gated[0].label == .better, "\(paired.gated[0].reason)")
        let (b0, c0) = NoiseAwareGateTests.pair(shift: 0, seed: 3)
        #expect(noiseAwareGate(baseline: b0, current: c0, resamples: 1000).gated[0].label == .ok)
        #expect(gateImprovement(estimate: -0.2, low: -0.4, high: -0.15, polarity: .lowerIsBetter, allowance: 0.1))
        #expect(!gateImprovement(estimate: -0.2, low: -0.4, high: -0.05, polarity: .lowerIsBetter, allowance: 0.1))
        #expect(gateImprovement(estimate: 0.2, low: 0.15, high: 0.4, polarity: .higherIsBetter, allowance: 0.1))
        #expect(!gateImprovement(estimate: 0.2, low: 0.15, high: 0.4, polarity: .neutral, allowance: 0))
        let md = gateMarkdown(rows, baselineName: "b", currentName: "c")
        #expect(md.contains("**0 regressed**, 1 moved without regressing (1 better)") && md.contains("| better | R1 | end_point_drift |"))
        let xml = gateJUnitXML(rows, suiteName: "s")
        #expect(xml.contains("failures=\"0\"") && xml.contains("<system-out>verdict: better\n"))
    }

    /// Names from data (a session with `|`, `<`, a backtick, a newline) are escaped in the
    /// Markdown cell and in the JUnit XML, which parses back to the name.
    @Test func hostileRunNamesAreEscaped() throws {
        let hostile = "s|1<b>`x\ny&z"
        let sessions = [hostile, "nav2", "nav3"]
        let r = noiseAwareGate(
            baseline: Self.table([0, 0, 0, 0, 0, 0], sessions: sessions), current: Self.table([1, 0, 0, 0, 0, 0], sessions: sessions))
        let md = gateMarkdown(r, baselineName: "b", currentName: "c")
        let row = try #require(md.split(separator: "\n").first { $0.hasPrefix("| **worse** |") })
        #expect(row.contains("s\\|1\\<b\\>\\`x\\\\ny\\&z [cfg0, seed 1]: 0 → 1"))
        #expect(!md.contains("s|1") && !md.contains("<b>"))
        let xml = gateJUnitXML(r, suiteName: "s")
        #expect(!xml.contains("<b>") && xml.contains("s|1&lt;b&gt;`x\\ny&amp;z [cfg0, seed 1]: 0 → 1"))
        let doc = try XMLDocument(data: Data(xml.utf8))
        let failure = try #require(try doc.nodes(forXPath: "//failure").first)
        #expect(failure.stringValue?.contains("s|1<b>`x\\ny&z [cfg0, seed 1]: 0 → 1") == true)
    }
}
