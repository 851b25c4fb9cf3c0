import Foundation
import NavCore
import NavReport
import Testing

/// From `statistics.large_sample` units on (default 2,000), cells and main effects use the
/// Student t interval of the mean and comparisons the normal approximation of the sign-flip
/// distribution, O(n) instead of O(B·n). Checked against scipy's t quantile and against the
/// resampling forms they replace.
@Suite struct LargeSampleStatisticsTests {
    static let n = 2_500
    /// Two configurations over n units (sessions): b = a + 0.02 + noise; skewed (exponential) values.
    static let table: MetricsTable = {
        var rng = SeededRandom(seed: 2_026)
        func uniform() -> Double { (Double(rng.next() >> 11) + 0.5) / Double(1 << 53) }
        var rows: [MetricRow] = []
        var a: [Double] = []
        for _ in 0..<n { a.append(-log(uniform())) }
        for (c, shift) in [("k=a", 0.0), ("k=b", 0.02)] {
            for s in 0..<n {
                let v = a[s] + shift + (shift == 0 ? 0 : 0.3 * (uniform() - 0.5))
                rows.append(
                    MetricRow(
                        route: "R", session: "s\(s)", configuration: c, parameters: [String(c.dropFirst(2))],
                        metric: "end_of_route_error", value: v, unit: "m"))
            }
        }
        return MetricsTable(parameterColumns: ["k"], rows: rows)
    }()

    static func statistics(largeSample: Int) -> ExperimentStatistics {
        var o = StatisticsOptions()
        o.resamples = 2_000
        o.largeSample = largeSample
        return ExperimentStatistics(table: table, keyMetrics: ["end_of_route_error"], options: o)
    }

    @Test func cellIsTheStudentTIntervalAsScipyGivesIt() throws {
        let st = Self.statistics(largeSample: 2_000)
        let cell = try #require(st.cells.first { $0.route == allRoutesLabel && $0.configuration == "k=a" })
        #expect(cell.ciMethod == "t" && cell.n == Self.n)
        #expect(cell.percentileLow.isNaN && cell.percentileHigh.isNaN)
        // scipy.stats.t.ppf(0.975, 2499) = 1.960913724872543 (scipy 1.17.1).
        let halfWidth = 1.960913724872543 * cell.std / Double(Self.n).squareRoot()
        #expect(abs(cell.ciLow - (cell.mean - halfWidth)) <= 1e-12 * cell.mean)
        #expect(abs(cell.ciHigh - (cell.mean + halfWidth)) <= 1e-12 * cell.mean)
    }

    /// At this n the closed forms and the resampling forms agree: interval ends within 5 % of the
    /// width (skewness 2 data), permutation p within 4 Monte Carlo standard errors + 0.01.
    @Test func closedFormsAgreeWithTheResamplingForms() throws {
        let fast = Self.statistics(largeSample: 2_000), slow = Self.statistics(largeSample: .max)
        for c in ["k=a", "k=b"] {
            let f = try #require(fast.cells.first { $0.route == allRoutesLabel && $0.configuration == c })
            let s = try #require(slow.cells.first { $0.route == allRoutesLabel && $0.configuration == c })
            #expect(s.ciMethod == "bca")
            let width = s.ciHigh - s.ciLow
            #expect(
                abs(f.ciLow - s.ciLow) < 0.05 * width && abs(f.ciHigh - s.ciHigh) < 0.05 * width,
                "\(c): t [\(f.ciLow), \(f.ciHigh)] vs BCa [\(s.ciLow), \(s.ciHigh)]")
        }
        let pf = try #require(fast.comparisons.first { $0.route == allRoutesLabel }).pPermutation
        let ps = try #require(slow.comparisons.first { $0.route == allRoutesLabel }).pPermutation
        let se = (max(ps, 1e-3) * (1 - ps) / 2_000).squareRoot()
        #expect(abs(pf - ps) <= 4 * se + 0.01, "normal approximation p \(pf) vs Monte Carlo \(ps)")
        #expect(pf < 1e-6)  // a shift of 0.02 over 2,500 units with noise 0.09: clearly significant
    }
}
