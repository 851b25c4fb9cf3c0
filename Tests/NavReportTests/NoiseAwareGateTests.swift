import Foundation
import NavCore
import NavReport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The noise-aware gate of `navbench compare`: tolerance AND significance, the per-row fallback,
/// self-comparison, JUnit XML and pandas-written metrics.csv.
@Suite struct NoiseAwareGateTests {
    /// `units` runs of one metric whose true value is 2 m, measured with `noise` relative noise,
    /// the current one worse by `shift` (relative).
    static func pair(shift: Double, noise: Double = 0.10, units: Int = 30, seed: UInt64 = 7) -> (MetricsTable, MetricsTable) {
        var rng = SeededRandom(seed: seed)
        var b: [MetricRow] = [], c: [MetricRow] = []
        for u in 0..<units {
            let base = 2 * (1 + noise * rng.gaussian()), now = 2 * (1 + shift) * (1 + noise * rng.gaussian())
            for (rows, v) in [(0, base), (1, now)] {
                let row = MetricRow(
                    route: "R1", session: "nav\(u)", configuration: "default", parameters: [], metric: "end_of_route_error", value: v, unit: "m")
                if rows == 0 { b.append(row) } else { c.append(row) }
            }
        }
        return (MetricsTable(parameterColumns: [], rows: b), MetricsTable(parameterColumns: [], rows: c))
    }

    static let fivePercent = ["end_of_route_error": CompareTolerance(absolute: 0, relative: 0.05)]

    /// The issue's check, as rates over 200 seeded pairs (30 units, independent 10 % noise per run,
    /// tolerance 5 %): 3 % worse is flagged in at most 2 % of the pairs (the rule's bound is 2.5 %
    /// at the tolerance itself), 30 % worse in every pair.
    @Test func smallShiftInNoiseIsNotFlaggedLargeOneIs() {
        let pairs = 200
        var small = 0, large = 0, smallTwoStep = 0
        for seed in UInt64(1)...UInt64(pairs) {
            let (b3, c3) = Self.pair(shift: 0.03, seed: seed)
            let r3 = noiseAwareGate(baseline: b3, current: c3, tolerances: Self.fivePercent, resamples: 1000)
            small += r3.regressions.count
            // The two-step rule (estimate beyond tolerance, CI excludes 0), for the record.
            let g = r3.gated[0]
            if g.meanDifference > 0.05 * g.baselineMean && g.ciLow > 0 { smallTwoStep += 1 }
            let (b30, c30) = Self.pair(shift: 0.30, seed: seed)
            let r30 = noiseAwareGate(baseline: b30, current: c30, tolerances: Self.fivePercent, resamples: 1000)
            large += r30.regressions.count
            #expect(r30.gated[0].paired)
        }
        let message =
            "3 % worse flagged in \(small)/\(pairs) pairs (two-step rule: \(smallTwoStep)/\(pairs)); 30 % worse flagged in \(large)/\(pairs)"
        print(message)
        #expect(Double(small) <= 0.02 * Double(pairs), "\(message)")
        #expect(large == pairs, "\(message)")
        // Pure noise with the strict default tolerance: the CI includes zero.
        let (b0, c0) = Self.pair(shift: 0, seed: 3)
        let none = noiseAwareGate(baseline: b0, current: c0, resamples: 2000)
        #expect(none.regressions.isEmpty, "\(none.gated.map { "\($0.reason) [\($0.ciLow), \($0.ciHigh)]" })")
        #expect(none.gated[0].reason == "within noise (CI includes 0)" || none.gated[0].reason == "no worse")
    }

    /// Configurations are nested in units, never replicates: 6 sessions × 10 configurations that
    /// share each session's noise are 6 units (n = 6, the bootstrap resamples sessions), and a
    /// shift well inside the sessions' spread is within noise; counted as 60 rows its CI would be
    /// √10 times too narrow. A `seed` column splits units: 3 sessions × 2 seeds are 6.
    @Test func configurationsAreNotReplicates() {
        var rng = SeededRandom(seed: 11)
        var b: [MetricRow] = [], c: [MetricRow] = []
        for u in 0..<6 {
            let sessionNoise = 0.5 * rng.gaussian()
            for k in 0..<10 {
                let base = 2 + sessionNoise + 0.001 * Double(k), now = base + 0.05 + 0.2 * rng.gaussian()
                func row(_ v: Double) -> MetricRow {
                    MetricRow(
                        route: "R1", session: "nav\(u)", configuration: "c\(k)", parameters: ["c\(k)"], metric: "end_of_route_error", value: v,
                        unit: "m")
                }
                b.append(row(base)); c.append(row(now))
            }
        }
        let r = noiseAwareGate(
            baseline: MetricsTable(parameterColumns: ["config"], rows: b), current: MetricsTable(parameterColumns: ["config"], rows: c),
            resamples: 2000)
        #expect(r.gated[0].n == 6 && r.gated[0].paired)
        var seeded: [MetricRow] = []
        for s in 0..<3 {
            for seed in ["1", "2"] {
                seeded.append(
                    MetricRow(
                        route: "R1", session: "nav\(s)", configuration: "d", parameters: [seed], metric: "end_of_route_error", value: 1, unit: "m"))
            }
        }
        let t = MetricsTable(parameterColumns: ["seed"], rows: seeded)
        #expect(noiseAwareGate(baseline: t, current: t).gated[0].n == 6)
        let unseeded = MetricsTable(parameterColumns: ["other"], rows: seeded)
        #expect(noiseAwareGate(baseline: unseeded, current: unseeded).gated[0].n == 3)
    }

    @Test func verdictCases() {
        let lower = MetricPolarity.lowerIsBetter, higher = MetricPolarity.higherIsBetter
        #expect(gateVerdict(estimate: -1, low: -2, high: -0.5, polarity: lower, allowance: 0.1) == (false, "no worse"))
        #expect(gateVerdict(estimate: 0.05, low: 0.01, high: 0.09, polarity: lower, allowance: 0.1) == (false, "within tolerance"))
        #expect(gateVerdict(estimate: 0.2, low: -0.01, high: 0.4, polarity: lower, allowance: 0.1) == (false, "within noise (CI includes 0)"))
        #expect(gateVerdict(estimate: 0.2, low: 0.05, high: 0.4, polarity: lower, allowance: 0.1).reason.hasPrefix("possibly worse"))
        #expect(gateVerdict(estimate: 0.2, low: 0.15, high: 0.4, polarity: lower, allowance: 0.1).regressed)
        #expect(gateVerdict(estimate: -0.2, low: -0.4, high: -0.15, polarity: higher, allowance: 0.1).regressed)
        #expect(!gateVerdict(estimate: 0.2, low: 0.15, high: 0.4, polarity: higher, allowance: 0.1).regressed)
        #expect(!gateVerdict(estimate: 0.2, low: 0.15, high: 0.4, polarity: .neutral, allowance: 0).regressed)
    }

    @Test func selfComparisonNeverRegressesEvenWithRepeatedKeys() {
        let (b, _) = Self.pair(shift: 0, seed: 1)
        // Ten copies of the same (route, session, configuration): keys repeat, values differ.
        var rows: [MetricRow] = []
        for k in 0..<10 {
            rows += b.rows.map {
                var r = $0; r.value += Double(k); r.session = "nav1"; return r
            }
        }
        let t = MetricsTable(parameterColumns: [], rows: rows)
        #expect(noiseAwareGate(baseline: t, current: t, resamples: 500).regressions.isEmpty)
        #expect(noiseAwareGate(baseline: b, current: b, resamples: 500).regressions.isEmpty)
    }

    @Test func unpairableFallsBackToTheRowRuleAndSaysSo() throws {
        let row = MetricRow(route: "R1", session: "nav1", configuration: "default", parameters: [], metric: "end_of_route_error", value: 1, unit: "m")
        var worse = row
        worse.value = 1.5
        let r = noiseAwareGate(baseline: MetricsTable(parameterColumns: [], rows: [row]), current: MetricsTable(parameterColumns: [], rows: [worse]))
        #expect(r.regressions.count == 1)
        #expect(!r.gated[0].paired && r.gated[0].reason.contains("per-row tolerance rule"))
        // A missing row is a regression; a neutral metric is not gated.
        let counts = MetricRow(
            route: "R1", session: "nav1", configuration: "default", parameters: [], metric: "instructions", value: 3, unit: "count")
        let missing = noiseAwareGate(
            baseline: MetricsTable(parameterColumns: [], rows: [row, counts]), current: MetricsTable(parameterColumns: [], rows: []))
        #expect(missing.gated.count == 1 && missing.regressions.count == 1 && missing.gated[0].reason.contains("missing"))
    }

    @Test func junitIsWellFormedWithCountsInAttributes() throws {
        let (b, c) = Self.pair(shift: 0.30, seed: 2)
        var cur = c
        cur.rows += [
            MetricRow(route: "R<&>", session: "s", configuration: "x", parameters: [], metric: "clock_agreement", value: 0.5, unit: "fraction")
        ]
        var base = b
        base.rows += [
            MetricRow(route: "R<&>", session: "s", configuration: "x", parameters: [], metric: "clock_agreement", value: 0.9, unit: "fraction")
        ]
        let r = noiseAwareGate(baseline: base, current: cur, tolerances: Self.fivePercent, resamples: 1000)
        let xml = gateJUnitXML(r, suiteName: "current vs \"baseline\"")
        let doc = try XMLDocument(xmlString: xml, options: [])
        let root = try #require(doc.rootElement())
        #expect(root.name == "testsuites")
        let suite = try #require(root.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "tests")?.stringValue == "2")
        #expect(suite.attribute(forName: "failures")?.stringValue == "2")
        #expect(suite.attribute(forName: "errors")?.stringValue == "0")
        let cases = suite.elements(forName: "testcase")
        #expect(cases.count == 2)
        #expect(cases.map { $0.attribute(forName: "classname")?.stringValue } == ["navbench.compare.R1", "navbench.compare.R<&>"])
        let failure = try #require(cases[0].elements(forName: "failure").first)
        let message = failure.attribute(forName: "message")?.stringValue ?? ""
        #expect(message.contains("baseline") && message.contains("current") && message.contains("difference") && message.contains("CI ["))
    }

    @Test func pandasWrittenMetricsAreRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("navbench-pandas-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("metrics.csv").path
        // What DataFrame.to_csv(index=False) writes: floats with '.0', NaN as an empty cell.
        try
            "route,session,configuration,seed,metric,value,unit\nR1,nav1,default,1,end_of_route_error,,m\nR1,nav1,default,1,clock_agreement,1.0,fraction\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let t = try MetricsTable.read(path)
        #expect(t.rows.count == 2 && t.rows[0].value.isNaN && t.rows[1].value == 1)
        #expect(noiseAwareGate(baseline: t, current: t).regressions.isEmpty)
    }
}
