import Foundation
import NavCore
import NavStatistics
import Testing

@testable import NavReport

/// Statistics revision 3 (shared resamples, docs/statistics.md) changed which resamples each
/// interval is drawn from, not the interval's definition: every end of every bootstrap interval
/// of the default experiment (its committed metrics table) must lie within Monte-Carlo error of
/// the same end computed from B_ref = 200,000 independent resamples — and so must revision 2's
/// end, so the move between them is Monte-Carlo error too.
///
/// The check is made on the probability scale of the reference distribution F_ref: an end e
/// estimates the p-quantile (percentile: Φ(−z), 1 − Φ(−z); BCa: α₁, α₂ of the reference's z₀ and
/// â) by the order statistics at position p·(B−1), whose expected probability is
/// p_B = (p·(B−1) + 1)/(B + 1), and F_ref(e) (the range [F_ref(e⁻), F_ref(e)] where means tie)
/// must be within 4.5·(σ_B + σ_Bref) of p_B, σ_B = √(p_B(1−p_B)/B) plus, for BCa,
/// |∂α/∂z₀|·√(F₀(1−F₀)/B)/φ(z₀) (the bias correction is estimated from the same B resamples). 4.5σ leaves a chance below 10⁻⁵
/// per end of a false alarm. By default every 100th interval is checked;
/// NAVBENCH_RESAMPLING_CHECK=all checks all of them (the figures in docs/statistics.md).
@Suite struct ResamplingRevisionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let referenceResamples = 200_000
    static let bound = 4.5

    /// One interval's sample and its ends under both revisions.
    struct Interval {
        var label: String
        var sample: [Double]
        var new: BootstrapLimits
        var old: BootstrapLimits
        var bcaOnly: Bool
    }

    static func intervals(options: StatisticsOptions) throws -> [Interval] {
        let table = try MetricsTable.read(root + "/Reports/baseline/metrics.csv")
        let keyMetrics = [
            "clock_agreement_within_1h", "bearing_error_mean_abs", "on_track_precision", "false_arrivals", "completed",
            "cross_track_rmse", "registration_yaw_error", "position_error_rmse", "end_point_drift",
        ]
        let view = RowView(table)
        var out: [Interval] = []
        func resampled(_ x: [Double]) -> Bool { x.count >= 2 && x.count < options.largeSample && !x.allSatisfy { $0 == x[0] } }
        let values = StatisticsValues(table, view: view)
        for ti in values.tables.indices {
            var samples: [[Double]] = [], labels: [String] = []
            for c in values.configurations.indices {
                for m in values.metrics.indices {
                    guard let column = values.grid.column(table: ti, metric: m, configuration: c) else { continue }
                    let x = column.presentValues.filter(\.isFinite)
                    guard resampled(x) else { continue }
                    samples.append(x)
                    labels.append("cell\u{1}\(values.tables[ti])\u{1}\(values.configurations[c])\u{1}\(values.metrics[m])")
                }
            }
            let new = sharedBootstraps(
                samples, stream: "cells\u{1}\(values.tables[ti])", resamples: options.resamples, confidence: options.confidence, seed: options.seed,
                memo: nil)
            for (k, x) in samples.enumerated() {
                out.append(Interval(label: labels[k], sample: x, new: new[k], old: Self.revision2(x, labels[k], options), bcaOnly: false))
            }
        }
        let (effects, indices, samples) = ExperimentStatistics.effectSamples(table, view: view, keyMetrics: keyMetrics, options: options)
        let new = sharedBootstraps(
            samples, stream: "effects", resamples: options.resamples, confidence: options.confidence, seed: options.seed, memo: nil)
        for (k, i) in indices.enumerated() where resampled(samples[k]) {
            let e = effects[i]
            let label = "effect\u{1}\(e.dimension)\u{1}\(e.level)\u{1}\(e.metric)"
            out.append(Interval(label: label, sample: samples[k], new: new[k], old: Self.revision2(samples[k], label, options), bcaOnly: true))
        }
        return out
    }

    /// Revision 2: each interval from its own labelled stream.
    static func revision2(_ x: [Double], _ label: String, _ options: StatisticsOptions) -> BootstrapLimits {
        let b = BootstrapInterval.mean(x, confidence: options.confidence, resamples: options.resamples, seed: streamSeed(options.seed, label))
        return (b.bca.interval, b.percentile.interval)
    }

    /// The number of leading values of sorted `x` for which `beyond` is false (binary search).
    static func count(_ x: [Double], _ beyond: (Double) -> Bool) -> Int {
        var lo = 0, hi = x.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if beyond(x[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// Each end's distance from its target probability in units of its bound's σ (≤ 4.5 passes).
    static func deviations(_ interval: Interval, options: StatisticsOptions, seed: UInt64) -> (new: [Double], old: [Double]) {
        let x = interval.sample, n = x.count
        let b = Double(options.resamples), bRef = Double(referenceResamples)
        var reference = BootstrapInterval.resampledMeans(x, resamples: referenceResamples, seed: seed)
        reference.sort()
        let theta = Statistics.mean(x)
        let below = Self.count(reference) { $0 >= theta }, atOrBelow = Self.count(reference) { $0 > theta }
        let f0 = (Double(below) + 0.5 * Double(atOrBelow - below)) / bRef
        let z0 = StandardNormal.quantile(f0)
        let total = x.reduce(0, +)
        let jack = x.map { (total - $0) / Double(n - 1) }
        let jackMean = Statistics.mean(jack)
        var num = 0.0, den = 0.0
        for t in jack { let d = jackMean - t; num += d * d * d; den += d * d }
        let a = den > 0 ? num / (6 * den * den.squareRoot()) : 0
        let z = BootstrapInterval.expandedQuantile(n: n, confidence: options.confidence)
        let tail = StandardNormal.cdf(-z)
        // σ of ẑ₀ from B draws: √(F₀(1−F₀)/B)/φ(z₀).
        let phi0 = exp(-z0 * z0 / 2) / (2 * Double.pi).squareRoot()
        func sigmaZ0(_ draws: Double) -> Double { (f0 * (1 - f0) / draws).squareRoot() / phi0 }
        func bca(_ zAlpha: Double) -> (p: Double, slope: Double) {
            let s = z0 + zAlpha, q = 1 - a * s
            let arg = z0 + s / q
            return (StandardNormal.cdf(arg), exp(-arg * arg / 2) / (2 * Double.pi).squareRoot() * (1 + 1 / (q * q)))
        }
        func deviation(_ e: Double, p: Double, slope: Double) -> Double {
            let lo = Double(Self.count(reference) { $0 >= e }) / bRef, hi = Double(Self.count(reference) { $0 > e }) / bRef
            // The estimate at p interpolates order statistics at position p·(B−1) (numpy's rule), whose
            // expected probability is (p·(B−1) + 1)/(B + 1): p itself except at the extremes (a BCa
            // α below 1/B is estimated by the smallest resampled means).
            let target = (p * (b - 1) + 1) / (b + 1)
            let distance = max(0, lo - target, target - hi)
            let spread = target * (1 - target)
            let sigma = (spread / b).squareRoot() + (spread / bRef).squareRoot() + slope * (sigmaZ0(b) + sigmaZ0(bRef))
            return distance / sigma
        }
        let (p1, s1) = bca(-z), (p2, s2) = bca(z)
        func all(_ l: BootstrapLimits) -> [Double] {
            var d = [deviation(l.bca.low, p: p1, slope: s1), deviation(l.bca.high, p: p2, slope: s2)]
            if !interval.bcaOnly { d += [deviation(l.percentile.low, p: tail, slope: 0), deviation(l.percentile.high, p: 1 - tail, slope: 0)] }
            return d
        }
        return (all(interval.new), all(interval.old))
    }

    @Test func everyIntervalMovedByLessThanItsMonteCarloError() throws {
        let options = StatisticsOptions()
        let all = try Self.intervals(options: options)
        let every = ProcessInfo.processInfo.environment["NAVBENCH_RESAMPLING_CHECK"] == "all" ? 1 : 100
        let chosen = Array(all.enumerated().filter { $0.offset % every == 0 }.map(\.element))
        let results = mapConcurrently(chosen.count, workers: ProcessInfo.processInfo.activeProcessorCount) { i in
            Self.deviations(chosen[i], options: options, seed: streamSeed(0x5eed_0f_7e5, "reference\u{1}" + chosen[i].label))
        }
        var worstNew = 0.0, worstOld = 0.0, ends = 0, moved = 0, largestMove = 0.0
        for (interval, r) in zip(chosen, results) {
            ends += r.new.count
            worstNew = max(worstNew, r.new.max() ?? 0); worstOld = max(worstOld, r.old.max() ?? 0)
            let failed = zip(r.new, r.old).contains { $0 > Self.bound || $1 > Self.bound }
            #expect(
                !failed,
                "\(interval.label.replacingOccurrences(of: "\u{1}", with: " | ")) n \(interval.sample.count): revision 3 \(r.new), revision 2 \(r.old) σ"
            )
            let newEnds =
                [interval.new.bca.low, interval.new.bca.high] + (interval.bcaOnly ? [] : [interval.new.percentile.low, interval.new.percentile.high])
            let oldEnds =
                [interval.old.bca.low, interval.old.bca.high] + (interval.bcaOnly ? [] : [interval.old.percentile.low, interval.old.percentile.high])
            let width = interval.old.bca.high - interval.old.bca.low
            if zip(newEnds, oldEnds).contains(where: { $0 != $1 }) { moved += 1 }
            if width > 0 { largestMove = max(largestMove, zip(newEnds, oldEnds).map { abs($0 - $1) / width }.max() ?? 0) }
        }
        #expect(chosen.count > 30)
        print(
            "resampling revision check: \(chosen.count) of \(all.count) intervals, \(ends) ends; worst |F_ref(end) − p_B|/σ: revision 3 \(worstNew), revision 2 \(worstOld) (bound \(Self.bound)); \(moved) moved, largest move \(largestMove) of revision 2's BCa width"
        )
    }
}
