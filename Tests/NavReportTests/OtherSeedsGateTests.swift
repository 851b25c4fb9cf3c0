import Foundation
import NavCore
import NavReport
import Testing

/// The gate on a rerun with other seeds (issue 28, item 5): routes of 3 units are not decided
/// row by row (each differs by the seeds' noise) but in one pooled row per metric over every
/// route's units, by a one-sided sign-flip test Holm-adjusted over the pooled metrics.
@Suite struct OtherSeedsGateTests {
    /// 7 routes × 3 sessions, two metrics; the current run's seed is 2 (the baseline's 1), its
    /// values the baseline's times (1 + `shift`) plus `noise` relative noise per row.
    static func tables(shift: Double, noise: Double, seed: UInt64) -> (MetricsTable, MetricsTable) {
        var rng = SeededRandom(seed: seed)
        var b: [MetricRow] = [], c: [MetricRow] = []
        for route in 1...7 {
            for session in 1...3 {
                for (metric, unit) in [("end_of_route_error", "m"), ("cross_track_rmse", "m")] {
                    let base = 1 + 0.3 * rng.gaussian().magnitude
                    func row(_ v: Double, _ s: String) -> MetricRow {
                        MetricRow(
                            route: "R\(route)", session: "nav\(session)", configuration: "default", parameters: [s], metric: metric, value: v,
                            unit: unit)
                    }
                    b.append(row(base, "1"))
                    c.append(row(base * (1 + shift) * (1 + noise * rng.gaussian()), "2"))
                }
            }
        }
        return (MetricsTable(parameterColumns: ["seed"], rows: b), MetricsTable(parameterColumns: ["seed"], rows: c))
    }

    @Test func seedNoiseIsNotARegression() {
        // 5 % noise per row, no shift: with the same seed it would fail every route (per-row rule).
        var failing = 0
        for seed in UInt64(1)...40 {
            let (b, c) = Self.tables(shift: 0, noise: 0.05, seed: seed)
            let r = noiseAwareGate(baseline: b, current: c, resamples: 1_000)
            #expect(r.gated.filter { $0.route != "all" }.allSatisfy { !$0.regressed && $0.reason.contains("decided over all routes") })
            #expect(r.gated.filter { $0.route == "all" }.map(\.n) == [21, 21])
            if !r.regressions.isEmpty { failing += 1 }
        }
        // Holm at 5 % over 2 metrics: at most 2 false alarms expected in 40 (binomial, P(≥ 6) < 1 %).
        #expect(failing <= 5, "\(failing) of 40 reruns with other seeds failed the gate")
    }

    @Test func aSystematicShiftFailsThePooledRow() throws {
        let (b, c) = Self.tables(shift: 0.2, noise: 0.05, seed: 3)
        let r = noiseAwareGate(baseline: b, current: c, resamples: 1_000)
        let pooled = r.gated.filter { $0.route == "all" }
        #expect(pooled.count == 2 && pooled.allSatisfy(\.regressed), "\(pooled.map(\.reason))")
        // The same shift with the same seeds: every route fails on its own rows.
        let same = MetricsTable(
            parameterColumns: ["seed"],
            rows: c.rows.map {
                var x = $0; x.parameters = ["1"]; return x
            })
        let r1 = noiseAwareGate(baseline: b, current: same, resamples: 1_000)
        #expect(r1.gated.allSatisfy(\.regressed) && !r1.gated.contains { $0.route == "all" })
    }

    @Test func rowsTurnedNaNAreCountedNotEachARegression() throws {
        let (b, c) = Self.tables(shift: 0, noise: 0, seed: 5)
        func losing(_ k: Int, gaining: Int = 0) -> MetricsTable {
            var rows = Array(c.rows)
            var lost = 0
            for i in rows.indices where rows[i].metric == "end_of_route_error" && lost < k {
                rows[i].value = .nan
                lost += 1
            }
            return MetricsTable(parameterColumns: ["seed"], rows: rows)
        }
        // 2 of 21 runs no longer end (another draw): counted in the pooled row, no regression.
        let few = noiseAwareGate(baseline: b, current: losing(2), resamples: 1_000)
        #expect(few.regressions.isEmpty, "\(few.regressions.map(\.reason))")
        let row = try #require(few.gated.first { $0.route == "all" && $0.metric == "end_of_route_error" })
        #expect(row.reason.contains("2 rows turned NaN, 0 turned finite"))
        // 12 of 21: one-sided McNemar p = 2⁻¹², significant after Holm.
        let many = noiseAwareGate(baseline: b, current: losing(12), resamples: 1_000)
        #expect(many.regressions.map(\.metric) == ["end_of_route_error"] && many.regressions[0].route == "all")
        // With the same seeds, a value turned NaN is a regression of its route as before.
        let same = MetricsTable(
            parameterColumns: ["seed"],
            rows: losing(1).rows.map {
                var x = $0; x.parameters = ["1"]; return x
            })
        #expect(noiseAwareGate(baseline: b, current: same, resamples: 1_000).regressions.count == 1)
    }
}

/// Walker counts read from a `closed-loop.csv` are data: an absurd count is no test (not an
/// allocation or a loop of that size), and the gate still answers at once.
@Suite struct ClosedLoopGateInputTests {
    static func table(runs: Double, rate: Double) -> MetricsTable {
        let metrics: [(String, Double, String)] = [
            ("success_rate", rate, "fraction"), ("end_of_route_error", 1.0, "m"), ("end_of_route_error_ci_high", 1.5, "m"), ("runs", runs, "count"),
        ]
        return MetricsTable(
            parameterColumns: ["seed"],
            rows: metrics.map { MetricRow(route: "R", session: "s", configuration: "c", parameters: ["1"], metric: $0.0, value: $0.1, unit: $0.2) })
    }

    @Test func absurdWalkerCountsAreNoTest() {
        let gate = ClosedLoopGate(baseline: Self.table(runs: 1e15, rate: 0.9), current: Self.table(runs: 1e15, rate: 0.2))
        let success = gate.checks.first { $0.metric == "success_rate" }
        #expect(success?.pValue == 1 && success?.regressed == false)
        // A real count still tests: 30 walkers, 0.9 → 0.2 (scipy's fisher_exact: 2.8e-8).
        let real = ClosedLoopGate(baseline: Self.table(runs: 30, rate: 0.9), current: Self.table(runs: 30, rate: 0.2))
        #expect(real.checks.first { $0.metric == "success_rate" }?.regressed == true)
    }
}
