import Foundation
import NavStatistics

/// The closed-loop part of the regression gate (`closed-loop.csv` of two runs of the same
/// spec): per cell, the success rate and the mean end-of-route error, the cell's seeds pooled
/// (walkers of every seed: successes and runs summed, the error's mean and standard deviation
/// pooled), so two runs with other seeds compare the same cells.
///
/// A value regresses when the current cell is worse with a Holm-adjusted one-sided p below α
/// (0.05) over every gated value of the table: success rate by Fisher's exact test on
/// (successes, failures) of current vs baseline walkers, mean end-of-route error by Welch's t
/// test from the means, the standard deviations (from the stored Student t interval:
/// s = (high − mean)·√n / t₀.₉₇₅,ₙ₋₁) and the walker counts. Holm keeps the chance that
/// a rerun with other seeds fails anywhere at most α (docs/ci.md, "False alarms", measures it).
/// A value turned NaN, or a cell missing, always regresses. Walks are seeded, so an unchanged
/// model with the same seeds reproduces the baseline exactly (every p ≥ ½). Cells only in the
/// current table are new, not regressions.
public struct ClosedLoopGate: Sendable {
    /// One gated value: a baseline cell × gated metric, and whether it regressed (a JUnit testcase).
    public struct Check: Sendable, Equatable {
        public var route: String
        public var configuration: String
        public var metric: String
        public var baseline: Double
        /// nil when the cell is missing from the current table.
        public var current: Double?
        /// The one-sided p-value of "current worse" (Fisher's exact test for the success rate,
        /// Welch's t test for the mean end-of-route error) and its Holm adjustment over every
        /// gated value; NaN for a cell missing or turned NaN.
        public var pValue: Double
        public var adjustedP: Double
        /// Worse with an adjusted p below α, missing, or turned NaN.
        public var regressed = false
    }
    /// Every gated value, in the baseline's row order.
    public var checks: [Check]
    /// The checks that regressed.
    public var regressions: [Check] { checks.filter(\.regressed) }
    /// Cells compared (present in the baseline; seeds pooled).
    public var cells: Int
    /// The family-wise error rate of the gate (Holm).
    public var alpha: Double

    /// The gated metrics: (metric, worse when the current value is higher).
    public static let gated: [(metric: String, higherIsWorse: Bool)] = [("success_rate", false), ("end_of_route_error", true)]

    /// A cell's walkers pooled over its seeds.
    struct Pooled {
        var runs = 0.0, successes = 0.0
        /// Σ n·mean and Σ (n − 1)s² + n·mean² of the end-of-route error (for the pooled mean and variance).
        var errorSum = 0.0, errorSquares = 0.0, errorRuns = 0.0
        var nan: Set<String> = []

        mutating func add(_ values: [String: Double]) {
            let n = values["runs"] ?? .nan
            for g in ClosedLoopGate.gated where (values[g.metric] ?? 0).isNaN { nan.insert(g.metric) }
            guard n.isFinite, n > 0 else { return }
            runs += n
            successes += (values["success_rate"] ?? .nan) * n
            let mean = values["end_of_route_error"] ?? .nan, high = values["end_of_route_error_ci_high"] ?? .nan
            guard mean.isFinite else { return }
            var variance = 0.0
            if n > 1, high.isFinite {
                let s = (high - mean) * n.squareRoot() / StudentT(degreesOfFreedom: n - 1).quantile(0.975)
                variance = s * s
            }
            errorSum += n * mean
            errorSquares += (n - 1) * variance + n * mean * mean
            errorRuns += n
        }
        var successRate: Double { runs > 0 ? successes / runs : .nan }
        var errorMean: Double { errorRuns > 0 ? errorSum / errorRuns : .nan }
        var errorSD: Double {
            guard errorRuns > 1 else { return .nan }
            return max(0, (errorSquares - errorRuns * errorMean * errorMean) / (errorRuns - 1)).squareRoot()
        }
        func value(_ metric: String) -> Double {
            if nan.contains(metric) { return .nan }
            return metric == "success_rate" ? successRate : errorMean
        }
    }

    /// - Parameter alpha: the family-wise error rate of the closed-loop checks (Holm).
    /// - Complexity: O(rows + cells · runs) (Fisher's exact test sums O(runs) terms).
    public init(baseline: MetricsTable, current: MetricsTable, alpha: Double = 0.05) {
        let seedColumn = baseline.parameterColumns.firstIndex(of: "seed")
        func cellKey(_ r: MetricRow) -> String {
            let others = r.parameters.enumerated().filter { $0.offset != seedColumn }.map(\.element)
            return ([r.route, r.session, r.configuration] + others).joined(separator: "\u{1}")
        }
        func pool(_ t: MetricsTable) -> (cells: [String: Pooled], order: [String], labels: [String: (String, String)]) {
            var perSeed: [String: [String: Double]] = [:], seedOrder: [String] = []
            for r in t.rows {
                let k = cellKey(r) + "\u{2}" + (seedColumn.map { $0 < r.parameters.count ? r.parameters[$0] : "" } ?? "")
                if perSeed[k] == nil { seedOrder.append(k) }
                perSeed[k, default: [:]][r.metric] = r.value
            }
            var cells: [String: Pooled] = [:], order: [String] = [], labels: [String: (String, String)] = [:]
            for r in t.rows where labels[cellKey(r)] == nil { labels[cellKey(r)] = (r.route, r.configuration); order.append(cellKey(r)) }
            for k in seedOrder {
                let cell = String(k[..<k.lastIndex(of: "\u{2}")!])
                cells[cell, default: Pooled()].add(perSeed[k]!)
            }
            return (cells, order, labels)
        }
        let b = pool(baseline), c = pool(current)
        var out: [Check] = []
        for key in b.order {
            let (route, configuration) = b.labels[key]!
            let base = b.cells[key]!
            for g in Self.gated {
                let bv = base.value(g.metric)
                guard !bv.isNaN else { continue }
                var check = Check(
                    route: route, configuration: configuration, metric: g.metric, baseline: bv, current: nil, pValue: .nan, adjustedP: .nan)
                if let now = c.cells[key] {
                    let cv = now.value(g.metric)
                    check.current = cv
                    if !cv.isNaN {
                        check.pValue = Self.pWorse(g.metric, baseline: base, current: now) ?? 1
                    }
                }
                out.append(check)
            }
        }
        let adjusted = holmAdjusted(out.map(\.pValue))
        for i in out.indices {
            out[i].adjustedP = adjusted[i]
            let structural = out[i].current.map(\.isNaN) ?? true
            out[i].regressed = structural || adjusted[i] < alpha
        }
        checks = out
        cells = b.order.count
        self.alpha = alpha
    }

    /// Walkers of one pooled cell beyond which a `closed-loop.csv` is not a run's (a spec allows
    /// 100,000 per cell and seed): no test, so the exact test's O(walkers) loop stays bounded.
    static let maximumWalkers = 100_000_000

    /// One-sided p of "current worse than baseline" for `metric`; nil when there is no test
    /// (no walkers, or two error samples without spread and equal means: no difference).
    static func pWorse(_ metric: String, baseline b: Pooled, current c: Pooled) -> Double? {
        if metric == "success_rate" {
            // Whole walker counts from the stored rates (a rate × runs off a whole number by rounding only).
            guard let k1 = Int(exactly: c.successes.rounded()), let n1 = Int(exactly: c.runs.rounded()),
                let k0 = Int(exactly: b.successes.rounded()), let n0 = Int(exactly: b.runs.rounded()),
                n1 >= k1, n0 >= k0, n1 > 0, n0 > 0, n1 <= maximumWalkers, n0 <= maximumWalkers
            else { return nil }
            return fisherExactOneSided(k1, n1 - k1, k0, n0 - k0, firstRowLower: true)
        }
        guard let n1 = Int(exactly: c.errorRuns.rounded()), let n0 = Int(exactly: b.errorRuns.rounded()),
            let w = WelchTTest(mean1: c.errorMean, sd1: c.errorSD, n1: n1, mean2: b.errorMean, sd2: b.errorSD, n2: n0)
        else { return nil }
        return w.pGreater
    }

    /// The Markdown section of `navbench compare`.
    public var markdown: String {
        var md =
            "\n## Closed loop (`closed-loop.csv`)\n\n\(cells) cells compared on success rate and mean end-of-route error (seeds pooled), "
            + "\(checks.count) gated values: \(regressions.count) regressed. A value regresses when the current cell is worse with a "
            + "Holm-adjusted one-sided p below \(gateNumber(alpha)) over the \(checks.count) values (success rate: Fisher's exact test on "
            + "the walkers; mean end-of-route error: Welch's t test), or when it is missing or turned NaN.\n"
        guard !regressions.isEmpty else { return md }
        md += "\n| route | cell | metric | baseline | current | p | Holm p |\n|---|---|---|---:|---:|---:|---:|\n"
        for r in regressions {
            md +=
                "| \(markdownInline(r.route)) | \(markdownInline(r.configuration)) | \(r.metric) | \(String(format: "%.3f", r.baseline)) | "
                + "\(r.current.map { String(format: "%.3f", $0) } ?? "missing") | \(gateNumber(r.pValue)) | \(gateNumber(r.adjustedP)) |\n"
        }
        return md
    }
}
