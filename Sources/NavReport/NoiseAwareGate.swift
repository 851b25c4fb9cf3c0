import Foundation
import NavCore
import NavStatistics

/// One gated (route, metric) of `navbench compare`: the paired difference current − baseline
/// over the runs both tables have, with its bootstrap confidence interval, and the verdict.
public struct GatedMetric: Sendable, Equatable {
    /// The result kind of its table: empty for the guidance replay (`metrics.csv`), else the
    /// kind's name (`calibration`, `proximity`, `gyro_filter`, `ape`: its CSV file in the run folder).
    public var kind = ""
    public var route: String
    public var metric: String
    public var unit: String
    public var polarity: MetricPolarity
    /// Independent units (route × session × seed: the `seed` parameter column when the table has
    /// one) with a finite value in both tables. The configurations of a unit are paired within it
    /// and averaged, never counted as replicates (a cluster bootstrap over the units).
    public var n: Int
    public var baselineMean: Double
    public var currentMean: Double
    /// Mean of the paired differences current − baseline (NaN when not paired).
    public var meanDifference: Double
    public var ciLow: Double
    public var ciHigh: Double
    public var tolerance: CompareTolerance
    /// false: too few units to pair; the per-row tolerance rule decided.
    public var paired: Bool
    /// Rows of this (route, metric) that regressed structurally (missing, turned NaN) or, when
    /// not paired, beyond tolerance.
    public var rowRegressions: [MetricChange]
    public var regressed: Bool
    /// One line saying why (for the tables and the JUnit failure message).
    public var reason: String
    /// Per-row rule only: rows that moved beyond tolerance in the better direction.
    public var rowImprovements: [MetricChange] = []
    /// A clear improvement (never with `regressed`): paired, the whole CI lies beyond the
    /// tolerance on the better side; by the per-row rule, no run moved the worse way beyond its
    /// tolerance and the mean moved the better way beyond the tolerance.
    public var improved = false

    /// The label of the change tables and JUnit (docs/ci.md, "Labels").
    public var label: GateLabel {
        if regressed { return worseSign(polarity) * meanDifference < 0 ? .mixed : .worse }
        return improved ? .better : .ok
    }
}

/// The label of a gated metric. `worse` and `mixed` are regressions (they fail the gate);
/// `mixed`: runs regressed while the mean moved the better way; `better`: a clear improvement
/// (`GatedMetric.improved`); `ok`: anything else.
public enum GateLabel: String, Sendable {
    case worse, mixed, better, ok
}

/// +1 when a larger value is worse, −1 when smaller is worse, 0 for a neutral metric.
func worseSign(_ polarity: MetricPolarity) -> Double {
    polarity == .lowerIsBetter ? 1 : polarity == .higherIsBetter ? -1 : 0
}

/// The result of the noise-aware gate: one `GatedMetric` per (route, metric) with a polarity.
public struct GateResult: Sendable {
    public var gated: [GatedMetric]
    public var comparedRows: Int
    public var regressions: [GatedMetric] { gated.filter(\.regressed) }
    public init(gated: [GatedMetric], comparedRows: Int) { self.gated = gated; self.comparedRows = comparedRows }
}

/// Per-metric default tolerances, robust to last-digit floating-point differences between
/// machines (libm, FMA contraction): 1e-6 relative everywhere, plus an absolute floor by unit.
///
/// | unit | absolute | relative |
/// |---|---:|---:|
/// | m, s, m/s, rad, deg, dB, dBm | 1e-6 | 1e-6 |
/// | fraction, ratio, /min, (none) | 1e-9 | 1e-6 |
/// | count | 0.5 | 0 |
public func defaultTolerance(unit: String) -> CompareTolerance {
    switch unit {
    case "count": return CompareTolerance(absolute: 0.5, relative: 0)
    case "m", "s", "m/s", "rad", "deg", "dB", "dBm", "rad/s": return CompareTolerance(absolute: 1e-6, relative: 1e-6)
    default: return CompareTolerance(absolute: 1e-9, relative: 1e-6)
    }
}

/// The decision of the noise-aware gate on a paired mean difference (current − baseline) with
/// its CI [low, high], for a metric of `polarity` and a tolerance of `allowance` (≥ 0):
///
/// - "no worse": the estimate is 0 or in the better direction;
/// - "within tolerance": worse by at most `allowance`;
/// - "within noise (CI includes 0)": worse beyond the tolerance, but not significant;
/// - "possibly worse (CI reaches into the tolerance)": worse beyond the tolerance and the CI
///   excludes 0, but the CI's near end lies within the tolerance — the data do not show the
///   change exceeds what the tolerance allows; reported, not failed;
/// - regression: the whole CI lies beyond the tolerance on the worse side (so it excludes 0, and
///   the change is significantly larger than the tolerance — a one-sided minimum-effect test at
///   2.5 %). With a near-zero tolerance (the defaults) this is "the CI excludes 0".
///
/// A two-step rule (estimate beyond tolerance, CI excludes 0) would flag a true change just under
/// the tolerance up to half of the time; this one flags it at most 2.5 % of the time
/// (NoiseAwareGateTests.smallShiftInNoiseIsNotFlaggedLargeOneIs measures both rates).
public func gateVerdict(
    estimate: Double, low: Double, high: Double, polarity: MetricPolarity,
    allowance: Double
) -> (regressed: Bool, reason: String) {
    let sign = worseSign(polarity)
    let worseBy = sign * estimate
    // The CI end nearest to "no change", in the worse direction.
    let nearEnd = sign > 0 ? low : -high
    guard sign != 0, worseBy > 0, estimate.isFinite else { return (false, "no worse") }
    if worseBy <= allowance { return (false, "within tolerance") }
    guard nearEnd.isFinite, nearEnd > 0 else { return (false, "within noise (CI includes 0)") }
    if nearEnd <= allowance { return (false, "possibly worse (CI reaches into the tolerance)") }
    return (true, "worse beyond tolerance (whole CI beyond it)")
}

/// A clear improvement, the mirror of a regression in `gateVerdict`: the estimate is better by
/// more than `allowance` and the whole CI lies beyond it on the better side.
public func gateImprovement(estimate: Double, low: Double, high: Double, polarity: MetricPolarity, allowance: Double) -> Bool {
    let sign = worseSign(polarity)
    // The CI end nearest to "no change", in the better direction.
    let nearEnd = sign > 0 ? -high : low
    return sign != 0 && estimate.isFinite && -sign * estimate > allowance && nearEnd.isFinite && nearEnd > allowance
}

/// The noise-aware regression gate. For every (route, metric) with a polarity, pairs the runs
/// both tables have (same session and configuration; repeated keys paired in order of
/// appearance), averages them per independent unit (route × session × seed: configurations are
/// nested in a unit, never replicates) and flags a regression only when the mean over units of
/// the paired differences is worse beyond
/// `absolute + relative·|baseline mean|` **and** significant: its whole 95 % BCa bootstrap CI
/// over the units (a cluster bootstrap, seeded by route and metric) lies beyond that tolerance, so
/// it excludes zero (`gateVerdict`).
///
/// With fewer than `minimumPairs` paired units the per-row rule decides (`rowRuleDecision`),
/// and `reason` says so. A row missing from `current`, or a finite value turned NaN, is always
/// a regression. A table compared with itself never regresses.
///
/// When the tables' seeds differ (another draw), such routes are decided in one pooled row per
/// metric over every route's units instead: worse beyond the tolerance by a one-sided sign-flip
/// test, rows turned NaN by a one-sided McNemar test, Holm over the pooled rows' tests at
/// `pooledAlpha` (its share of the gate's false-alarm budget; docs/ci.md, "False alarms").
///
/// Complexity: O(R·B) for R rows and B resamples.
public func noiseAwareGate(
    baseline: MetricsTable, current: MetricsTable, tolerances: [String: CompareTolerance] = [:],
    resamples: Int = BootstrapInterval.defaultResamples, minimumPairs: Int = minimumUnitsForInterval,
    confidence: Double = 0.95, kind: String = "", pooledAlpha: Double = 0.05
) -> GateResult {
    let now = Dictionary(keyedByOccurrence(current).map { ($0.key, $0.row.value) }, uniquingKeysWith: { a, _ in a })
    var order: [String] = []
    var groups: [String: [(key: String, row: MetricRow)]] = [:]
    for e in keyedByOccurrence(baseline) {
        let g = e.row.route + "\u{1}" + e.row.metric
        if groups[g] == nil { order.append(g) }
        groups[g, default: []].append(e)
    }
    let seedColumn = baseline.parameterColumns.firstIndex(of: "seed")
    // Another draw: the tables' seeds differ (a rerun with other seeds). Rows still pair by
    // session and configuration, but a difference may be the seeds' noise, so a route with too few
    // units for a CI is not decided row by row: its units join the metric's pooled row.
    let otherSeeds = seedColumn != nil && tableSeeds(baseline) != tableSeeds(current)
    var pool = PooledRows()
    var gated: [GatedMetric] = []
    for g in order {
        let entries = groups[g]!
        let first = entries[0].row
        let polarity = MetricPolarity.of(first.metric)
        guard polarity != .neutral else { continue }
        let tol = tolerances[first.metric] ?? defaultTolerance(unit: first.unit)
        let pairs = PairedRows(entries, now: now, polarity: polarity, seedColumn: seedColumn, otherSeeds: otherSeeds)
        if pairs.turnedNaN + pairs.turnedFinite > 0 {
            pool.turned[first.metric, default: (0, 0)].nan += pairs.turnedNaN
            pool.turned[first.metric, default: (0, 0)].finite += pairs.turnedFinite
        }
        let n = pairs.unitSums.count
        let bm = Statistics.mean(pairs.b), cm = Statistics.mean(pairs.c)
        var item = GatedMetric(
            kind: kind, route: first.route, metric: first.metric, unit: first.unit, polarity: polarity, n: n,
            baselineMean: bm, currentMean: cm, meanDifference: .nan, ciLow: .nan, ciHigh: .nan,
            tolerance: tol, paired: n >= minimumPairs, rowRegressions: pairs.structural, regressed: false, reason: "")
        if n >= minimumPairs {
            let d = pairs.unitSums.map { $0.sum / Double($0.count) }  // one mean paired difference per unit
            let ci = BootstrapInterval.mean(
                d, confidence: confidence, resamples: resamples,
                seed: streamSeed(0x6761_7465, kind.isEmpty ? g : kind + "\u{1}" + g)
            ).bca
            (item.meanDifference, item.ciLow, item.ciHigh) = (ci.estimate, ci.low, ci.high)
            let allowance = tol.absolute + tol.relative * abs(bm)
            let verdict = gateVerdict(estimate: ci.estimate, low: ci.low, high: ci.high, polarity: polarity, allowance: allowance)
            (item.regressed, item.reason) = verdict
            item.improved = gateImprovement(estimate: ci.estimate, low: ci.low, high: ci.high, polarity: polarity, allowance: allowance)
            if item.improved { item.reason = "better beyond tolerance (whole CI beyond it)" }
        } else if otherSeeds && n > 0 {
            // Other seeds: decided over all routes (the pooled row below).
            pool.add(first, units: zip(pairs.unitKeys, pairs.unitSums).map { (first.route + "\u{1}" + $0, $1.sum, $1.count) }, b: pairs.b, c: pairs.c)
            item.meanDifference = cm - bm
            item.reason = "seeds differ, \(n) unit\(n == 1 ? "" : "s") < \(minimumPairs): decided over all routes"
        } else {
            rowRuleDecision(&item, rows: pairs.rows, seedColumn: seedColumn, minimumPairs: minimumPairs)
        }
        if otherSeeds { pool.add(first, units: [], b: [], c: []) }
        if !pairs.structural.isEmpty {
            let k = pairs.structural.count
            item.reason = "\(k) row\(k == 1 ? "" : "s") missing or turned NaN; " + item.reason
        }
        if !item.rowRegressions.isEmpty { item.regressed = true }
        if item.regressed { item.improved = false }
        gated.append(item)
    }
    gated += pool.decide(
        tolerances: tolerances, resamples: resamples, minimumPairs: minimumPairs, confidence: confidence, kind: kind, pooledAlpha: pooledAlpha)
    return GateResult(gated: gated, comparedRows: baseline.rows.count)
}

/// A table's rows keyed by (route, session, configuration, metric) and the key's occurrence index.
private func keyedByOccurrence(_ t: MetricsTable) -> [(key: String, row: MetricRow)] {
    var seen: [String: Int] = [:]
    return t.rows.map { r in
        let k = r.key
        let i = seen[k, default: 0]
        seen[k] = i + 1
        return (k + "\u{1}\(i)", r)
    }
}

/// The values of a table's `seed` column (empty without one).
private func tableSeeds(_ t: MetricsTable) -> Set<String> {
    guard let i = t.parameterColumns.firstIndex(of: "seed") else { return [] }
    return Set(t.rows.map { i < $0.parameters.count ? $0.parameters[i] : "" })
}

/// A row's value in `seedColumn` ("" without one).
private func seedOf(_ r: MetricRow, _ seedColumn: Int?) -> String {
    seedColumn.map { $0 < r.parameters.count ? r.parameters[$0] : "" } ?? ""
}

/// The change of one run, named by session, configuration and seed.
private func runChange(_ r: MetricRow, current: Double?, polarity: MetricPolarity, seedColumn: Int?, regressed: Bool) -> MetricChange {
    MetricChange(
        route: r.route, session: r.session, configuration: r.configuration, metric: r.metric,
        baseline: r.value, current: current, polarity: polarity, regressed: regressed, seed: seedOf(r, seedColumn))
}

/// One (route, metric)'s baseline rows paired with the current table's values: the finite pairs,
/// their differences summed per unit (first-appearance order), the structural regressions, and
/// (other seeds) the rows that turned NaN or finite.
private struct PairedRows {
    var b: [Double] = [], c: [Double] = []
    var rows: [(row: MetricRow, current: Double)] = []
    var structural: [MetricChange] = []
    var unitKeys: [String] = []
    var unitSums: [(sum: Double, count: Int)] = []
    var turnedNaN = 0, turnedFinite = 0

    init(_ entries: [(key: String, row: MetricRow)], now: [String: Double], polarity: MetricPolarity, seedColumn: Int?, otherSeeds: Bool) {
        var unitIndex: [String: Int] = [:]
        for (key, r) in entries {
            guard let v = now[key] else {
                structural.append(runChange(r, current: nil, polarity: polarity, seedColumn: seedColumn, regressed: true))
                continue
            }
            if otherSeeds && r.value.isNaN != v.isNaN {
                // Another draw may end a run elsewhere (no end, a NaN): counted, decided over all routes.
                if r.value.isNaN { turnedFinite += 1 } else { turnedNaN += 1 }
                continue
            }
            if r.value.isFinite && v.isNaN {
                structural.append(runChange(r, current: v, polarity: polarity, seedColumn: seedColumn, regressed: true))
                continue
            }
            guard r.value.isFinite && v.isFinite else { continue }
            b.append(r.value); c.append(v); rows.append((r, v))
            let unit = r.session + "\u{1}" + seedOf(r, seedColumn)
            if unitIndex[unit] == nil {
                unitIndex[unit] = unitSums.count
                unitKeys.append(unit)
                unitSums.append((0, 0))
            }
            unitSums[unitIndex[unit]!].sum += v - r.value
            unitSums[unitIndex[unit]!].count += 1
        }
    }
}

/// The per-row rule (too few units to pair): every run that moved beyond its tolerance
/// `absolute + relative·|baseline|` is recorded, the worse ones as regressions, the better ones
/// as `rowImprovements`. `improved` (a clear improvement, "better") when no run moved the worse
/// way and the mean moved the better way beyond `absolute + relative·|baseline mean|`.
private func rowRuleDecision(_ item: inout GatedMetric, rows: [(row: MetricRow, current: Double)], seedColumn: Int?, minimumPairs: Int) {
    let tol = item.tolerance, n = item.n
    for (r, v) in rows {
        let delta = v - r.value
        guard abs(delta) > tol.absolute + tol.relative * abs(r.value) else { continue }
        let worse = item.polarity == .lowerIsBetter ? delta > 0 : delta < 0
        let change = runChange(r, current: v, polarity: item.polarity, seedColumn: seedColumn, regressed: worse)
        if worse { item.rowRegressions.append(change) } else { item.rowImprovements.append(change) }
    }
    if n > 0 { item.meanDifference = item.currentMean - item.baselineMean }
    item.reason = "not paired (\(n) unit\(n == 1 ? "" : "s") < \(minimumPairs)): per-row tolerance rule"
    let betterBy = -worseSign(item.polarity) * item.meanDifference
    item.improved =
        item.rowRegressions.isEmpty && !item.rowImprovements.isEmpty
        && betterBy > tol.absolute + tol.relative * abs(item.baselineMean)
}

/// The pooled rows of a comparison with other seeds: per metric, the units of the routes with
/// too few units, and the rows turned NaN or finite.
private struct PooledRows {
    var order: [String] = []
    var rows: [String: (differences: [(unit: String, sum: Double, count: Int)], b: [Double], c: [Double], first: MetricRow)] = [:]
    var turned: [String: (nan: Int, finite: Int)] = [:]

    mutating func add(_ first: MetricRow, units: [(String, Double, Int)], b: [Double], c: [Double]) {
        if rows[first.metric] == nil {
            order.append(first.metric)
            rows[first.metric] = ([], [], [], first)
        }
        rows[first.metric]!.differences += units.map { ($0.0, $0.1, $0.2) }
        rows[first.metric]!.b += b
        rows[first.metric]!.c += c
    }

    /// One pooled row per metric over every route's units. A regression needs the mean worse
    /// beyond the tolerance with a one-sided sign-flip permutation p (exact up to 20 units) of
    /// "worse by more than the tolerance", Holm-adjusted over the pooled metrics, below
    /// `pooledAlpha`: a rerun with other seeds fails here with at most that probability
    /// (docs/ci.md, "False alarms"). The CI shown is the plain 95 % BCa one.
    func decide(
        tolerances: [String: CompareTolerance], resamples: Int, minimumPairs: Int, confidence: Double, kind: String, pooledAlpha: Double
    ) -> [GatedMetric] {
        var items: [(item: GatedMetric, p: Double, q: Double)] = []
        for metric in order {
            let pool = rows[metric]!
            let tol = tolerances[metric] ?? defaultTolerance(unit: pool.first.unit)
            var (item, p) = pooledMean(
                metric: metric, pool: pool, tol: tol, resamples: resamples, minimumPairs: minimumPairs, confidence: confidence, kind: kind)
            // Rows that lost their value (turned NaN) against rows that gained one: one-sided McNemar.
            let t = turned[metric] ?? (0, 0)
            let q =
                t.nan + t.finite == 0
                ? Double.nan : t.nan > t.finite ? (McNemarExact(firstOnly: t.nan, secondOnly: t.finite)?.pValue ?? 1) / 2 : 1
            if !q.isNaN { item.reason += "; \(t.nan) rows turned NaN, \(t.finite) turned finite: one-sided McNemar p = \(gateNumber(q))" }
            items.append((item, p, q))
        }
        let adjusted = holmAdjusted(items.map(\.p) + items.map(\.q))
        let family = adjusted.filter { !$0.isNaN }.count
        var out: [GatedMetric] = []
        for (i, var e) in items.enumerated() {
            let (mean, nan) = (adjusted[i], adjusted[items.count + i])
            let worse = !mean.isNaN && mean < pooledAlpha, lost = !nan.isNaN && nan < pooledAlpha
            e.item.regressed = worse || lost
            if e.item.regressed { e.item.improved = false }
            if !mean.isNaN || !nan.isNaN {
                e.item.reason +=
                    "; Holm over \(family) tests: "
                    + (worse ? "worse beyond tolerance" : lost ? "significantly more rows turned NaN" : "not significant")
            }
            if !(e.item.n == 0 && mean.isNaN && nan.isNaN) { out.append(e.item) }
        }
        return out
    }

    /// The pooled row of `metric` before Holm: its means, CI, one-sided sign-flip p (NaN with
    /// too few units) and whether the whole CI lies beyond the tolerance on the better side.
    private func pooledMean(
        metric: String, pool: (differences: [(unit: String, sum: Double, count: Int)], b: [Double], c: [Double], first: MetricRow),
        tol: CompareTolerance, resamples: Int, minimumPairs: Int, confidence: Double, kind: String
    ) -> (GatedMetric, Double) {
        let polarity = MetricPolarity.of(metric)
        let bm = Statistics.mean(pool.b), cm = Statistics.mean(pool.c)
        let n = pool.differences.count
        var item = GatedMetric(
            kind: kind, route: allRoutesLabel, metric: metric, unit: pool.first.unit, polarity: polarity, n: n, baselineMean: bm,
            currentMean: cm, meanDifference: cm - bm, ciLow: .nan, ciHigh: .nan, tolerance: tol, paired: n >= minimumPairs,
            rowRegressions: [], regressed: false, reason: "")
        guard n >= minimumPairs else {
            item.reason = "seeds differ, \(n) unit\(n == 1 ? "" : "s") < \(minimumPairs) over all routes: too few to decide"
            return (item, .nan)
        }
        let d = pool.differences.map { $0.sum / Double($0.count) }
        let stream = streamSeed(0x6761_7465, (kind.isEmpty ? "" : kind + "\u{1}") + allRoutesLabel + "\u{1}" + metric)
        let ci = BootstrapInterval.mean(d, confidence: confidence, resamples: resamples, seed: stream).bca
        (item.meanDifference, item.ciLow, item.ciHigh) = (ci.estimate, ci.low, ci.high)
        // Worsening beyond the tolerance, per unit; its sum's sign-flip test, one-sided.
        let sign: Double = polarity == .lowerIsBetter ? 1 : -1
        let allowance = tol.absolute + tol.relative * abs(bm)
        let beyond = d.map { sign * $0 - allowance }
        let p = beyond.reduce(0, +) > 0 ? SignFlipPermutationTest(differences: beyond, resamples: resamples, seed: stream).pValue / 2 : 1
        item.reason = "seeds differ: all routes' units, one-sided sign-flip p = \(gateNumber(p))"
        item.improved = gateImprovement(estimate: ci.estimate, low: ci.low, high: ci.high, polarity: polarity, allowance: allowance)
        return (item, p)
    }
}

/// The change table for a CI job summary (GitHub `$GITHUB_STEP_SUMMARY`, GitLab MR notes):
/// regressions first, then the metrics that moved, then a count of unchanged ones.
///
/// With `closedLoop`, its gated cells count in the headline (one bold total of regressions,
/// replay and closed loop, the same number `gateRegressionCount` gives the exit status and the
/// JUnit report its failures) and its section follows the replay table.
public func gateMarkdown(_ r: GateResult, closedLoop: ClosedLoopGate? = nil, baselineName: String, currentName: String) -> String {
    var md = "# navbench compare: \(markdownInline(currentName)) against \(markdownInline(baselineName))\n\n"
    let moved = r.gated.filter {
        !$0.regressed && ($0.meanDifference != 0 && !$0.meanDifference.isNaN || !$0.rowRegressions.isEmpty || !$0.rowImprovements.isEmpty)
    }
    let better = moved.filter { $0.label == .better }.count, mixed = r.regressions.filter { $0.label == .mixed }.count
    let total = gateRegressionCount(r, closedLoop: closedLoop)
    // Regressions by result kind (replay first, then the kinds in order of appearance, then the closed loop).
    var kinds: [String] = [""]
    for g in r.gated where !kinds.contains(g.kind) { kinds.append(g.kind) }
    var byKind = kinds.map { k in "\(r.regressions.filter { $0.kind == k }.count) \(k.isEmpty ? "replay" : k)" }
    if let closedLoop { byKind.append("\(closedLoop.regressions.count) closed loop") }
    let breakdown = byKind.count > 1 ? " (" + byKind.joined(separator: ", ") + ")" : ""
    if let closedLoop {
        md +=
            "\(r.gated.count) gated metrics (route × metric) over \(r.comparedRows) rows and \(closedLoop.checks.count) closed-loop values "
            + "(\(closedLoop.cells) cells × success rate, end-of-route error): **\(total) regressed**\(breakdown), "
    } else {
        md += "\(r.gated.count) gated metrics (route × metric) over \(r.comparedRows) rows: **\(total) regressed**\(breakdown), "
    }
    md += "\(moved.count) moved without regressing (\(better) better), \(r.gated.count - r.regressions.count - moved.count) unchanged"
    md += mixed > 0 ? "; \(mixed) of the regressions **mixed** (runs worse, the mean better).\n\n" : ".\n\n"
    md +=
        "A metric regresses when the mean paired difference (current − baseline) is worse beyond its tolerance and its whole "
        + "95 % BCa bootstrap CI lies beyond the tolerance (so it excludes zero). n counts independent units (route × session × seed): "
        + "the configurations of a unit are paired within it and averaged, never counted as replicates, and the bootstrap resamples units. "
        + "With fewer than 5 paired units the per-row tolerance rule decides (said in the last column, with the runs beyond "
        + "their tolerance: session [configuration, seed]: baseline → current). Labels: **worse** and **mixed** (runs worse "
        + "while the mean moved the better way) fail the gate; better: a clear improvement (the whole CI beyond the tolerance "
        + "on the better side, or by the per-row rule no run worse and the mean better beyond the tolerance); ok: moved, "
        + "neither.\n\n"
    let shown = r.regressions + moved
    guard !shown.isEmpty else { return md + "No metric moved.\n" + (closedLoop?.markdown ?? "") }
    md += "| | route | metric | n | baseline mean | current mean | difference | 95 % CI | tolerance | why |\n"
    md += "|---|---|---|---:|---:|---:|---:|---|---|---|\n"
    for g in shown {
        let unit = g.unit.isEmpty ? "" : " \(g.unit)"
        let runs = gateRunsText(g, name: markdownInline)
        md +=
            "| \(gateLabelMarkdown(g.label)) | \(markdownInline(g.kind.isEmpty ? g.route : g.kind + " · " + g.route)) | \(markdownInline(g.metric)) | \(g.n) | \(gateNumber(g.baselineMean)) | "
            + "\(gateNumber(g.currentMean)) | \(gateNumber(g.meanDifference))\(unit) | [\(gateNumber(g.ciLow)), \(gateNumber(g.ciHigh))] | "
            + "\(gateNumber(g.tolerance.absolute)) + \(gateNumber(g.tolerance.relative))·\\|b\\| | \(g.reason)\(runs.isEmpty ? "" : "; " + runs) |\n"
    }
    return md + (closedLoop?.markdown ?? "")
}

private func gateLabelMarkdown(_ l: GateLabel) -> String {
    l == .worse || l == .mixed ? "**\(l.rawValue)**" : l.rawValue
}

/// The runs of `g` that moved beyond tolerance (per-row rule) or lost their value, worse first:
/// at most `limit` of each, then "and N more"; each `session [configuration, seed S]: baseline →
/// current`, the names passed through `name` (e.g. `markdownInline`).
public func gateRunsText(_ g: GatedMetric, limit: Int = 5, name: (String) -> String) -> String {
    func list(_ label: String, _ changes: [MetricChange]) -> String? {
        guard !changes.isEmpty else { return nil }
        var parts = changes.prefix(limit).map { ch in
            let seed = ch.seed.isEmpty ? "" : ", seed " + name(ch.seed)
            let now = ch.current.map { $0.isNaN ? "NaN" : gateNumber($0) } ?? "missing"
            return "\(name(ch.session)) [\(name(ch.configuration))\(seed)]: \(gateNumber(ch.baseline)) → \(now)"
        }
        if changes.count > limit { parts.append("and \(changes.count - limit) more") }
        return "\(label) in \(changes.count) run\(changes.count == 1 ? "" : "s"): " + parts.joined(separator: "; ")
    }
    return [list("worse", g.rowRegressions), list("better", g.rowImprovements)].compactMap { $0 }.joined(separator: ". ")
}

/// Regressions of the whole gate: the replay metrics' and the closed-loop values'. `navbench
/// compare` exits 1 exactly when this is above 0; the Markdown headline prints it and the JUnit
/// report counts it as failures, so the three cannot disagree.
public func gateRegressionCount(_ r: GateResult, closedLoop: ClosedLoopGate?) -> Int {
    r.regressions.count + (closedLoop?.regressions.count ?? 0)
}
