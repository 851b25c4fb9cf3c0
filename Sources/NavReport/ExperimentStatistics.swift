import Foundation
import NavCore
import NavStatistics

/// Settings of the report statistics (docs/statistics.md).
public struct StatisticsOptions: Sendable, Equatable {
    /// Bootstrap resamples per interval.
    public var resamples = BootstrapInterval.defaultResamples
    /// The resamples a spec (`statistics.resamples`) or a flag (`compare --resamples`) may ask for:
    /// fewer than 100 give no usable interval, more than 10⁶ only cost memory and time.
    public static let resamplesRange = 100...1_000_000
    /// Seed of every bootstrap stream (labelled sub-streams: a table's cells of one size share one, `sharedResamplingSeed`; each comparison its own).
    public var seed: UInt64 = 20_261_123
    public var confidence = 0.95
    /// Family-wise error rate of the Holm-adjusted decisions.
    public var alpha = 0.05
    /// Units from which a cell's CI, a main effect's CI and the permutation p use their
    /// large-sample closed forms (Student t interval of the mean; normal approximation of the
    /// sign-flip distribution) instead of B resamples: O(n) instead of O(B·n) (docs/statistics.md).
    public var largeSample = 2_000
    /// Configuration the comparisons are made against (nil: the first).
    public var baseline: String?
    public init() {}
}

/// The statistical view of a metrics table. Units of analysis are (route, session, seed):
/// the sweep's `seed` column is a replicate, not a configuration, so configurations are
/// the parameter combinations without it.
public struct ExperimentStatistics: Sendable {
    /// One row of cells.csv.
    public struct Cell: Sendable, Equatable {
        public var route: String, configuration: String, metric: String, unit: String
        public var n: Int, nanCount: Int
        public var mean: Double, median: Double, std: Double
        public var ciLow: Double, ciHigh: Double
        /// "bca" (bootstrap of the mean) or "wilson" (0/1 metrics: a rate).
        public var ciMethod: String
        public var percentileLow: Double, percentileHigh: Double
    }

    /// One row of comparisons.csv: a configuration group against the baseline, paired over units.
    public struct Comparison: Sendable, Equatable {
        public var route: String, metric: String, configuration: String, baseline: String
        public var n: Int
        /// Hodges–Lehmann median of the differences configuration − baseline, with its CI.
        public var medianDifference: Double, ciLow: Double, ciHigh: Double
        public var meanDifference: Double
        /// Wilcoxon signed-rank p (two-sided) and its Holm adjustment over the route's table.
        public var pValue: Double, pHolm: Double
        public var test: String
        /// Paired sign-flip permutation p of the mean difference.
        public var pPermutation: Double
        public var significant: Bool
        /// Configurations identical to `configuration` on every unit (collapsed into it).
        public var identical: [String]
    }

    /// Identical configurations of one table, collapsed.
    public struct Group: Sendable, Equatable {
        public var members: [String]
        public var representative: String { members[0] }
    }

    /// A level of a sweep dimension against the dimension's first level, paired over every other
    /// dimension and every unit, all routes pooled.
    public struct MainEffect: Sendable, Equatable {
        public var dimension: String, level: String, reference: String, metric: String
        public var n: Int
        public var meanDifference: Double, ciLow: Double, ciHigh: Double
        public init(
            dimension: String, level: String, reference: String, metric: String, n: Int, meanDifference: Double, ciLow: Double, ciHigh: Double
        ) {
            self.dimension = dimension; self.level = level; self.reference = reference; self.metric = metric; self.n = n
            self.meanDifference = meanDifference; self.ciLow = ciLow; self.ciHigh = ciHigh
        }
    }

    public var options: StatisticsOptions
    public var cells: [Cell]
    public var comparisons: [Comparison]
    /// Per table (route or `allRoutesLabel`): groups of identical configurations, in first-appearance order.
    public var groups: [String: [Group]]
    /// Per table and metric: the group better than every other after Holm, if any.
    public var best: [String: [String: String]]
    public var mainEffects: [MainEffect]
    public var routes: [String]
    public var keyMetrics: [String]
    /// Cell position by "table␁configuration␁metric", and each metric's unit.
    var cellIndex: [String: Int] = [:]
    /// Plots the summary shows under Overall with their text alternatives (set by the report writer).
    public var plots: [ReportFigure] = []
    /// The configuration × metric heat map (`heatMap`) the summary shows after the comparisons with
    /// the baseline (set by the report writer once it is written); nil: none.
    public var heatMapFigure: ReportFigure?
    /// Each metric's unit.
    public internal(set) var units: [String: String] = [:]
}

extension ExperimentStatistics {
    /// Computes cells, comparisons, collapsed groups, best configurations and main effects.
    /// Deterministic for given options (labelled seeds per table and size, per comparison; parallel work written by index).
    ///
    /// Complexity: O(B·R) for R rows and B resamples, plus the pairwise tests.
    /// - Parameter cellSink: when given, receives every cell in `cellsCSV` order as it is
    ///   computed (the report streams cells.csv through it), and `cells` keeps only the cells of
    ///   the key metrics (what the summary shows): memory O(key-metric cells), not O(all cells).
    /// - Parameter routeSink: when given, receives each route's table as it is done (the same
    ///   statistics holding that route's cells, groups, comparisons and best only), which this
    ///   value then leaves out: it keeps the pooled table and the main effects, so its memory is
    ///   flat in the number of routes (the report writes a route's CSV lines and Markdown from it).
    /// - Parameter progress: told after each table (phase "statistics tables": the routes, then the pooled one).
    /// - Parameter memo: resampling results of an earlier report of the same folder (read, and
    ///   what is computed here recorded): the same values, B, seed and confidence give the same
    ///   bits without drawing again, so a cached rerun's statistics cost O(R) digests, not O(B·R).
    public init(
        table: MetricsTable, keyMetrics: [String], options: StatisticsOptions = StatisticsOptions(),
        cellSink: ((Cell) -> Void)? = nil, routeSink: ((ExperimentStatistics) -> Void)? = nil, progress: ProgressHandler? = nil,
        memo: (any ResamplingMemo)? = nil
    ) {
        self.options = options
        let view = RowView(table)
        // Main effects first: their per-run working set is freed before the value grid is built,
        // so the report's peak holds one of them, not both (issue 16: memory per run).
        do {
            var present = Set<String>()
            for r in table.rows { present.insert(r.metric) }
            mainEffects = Self.mainEffects(
                table, view: view, keyMetrics: keyMetrics.filter { present.contains($0) }, options: options, memo: memo)
        }
        let values = StatisticsValues(table, view: view)
        routes = values.routes
        let keys = keyMetrics.filter { values.units[$0] != nil }
        self.keyMetrics = keys
        units = values.units
        cells = []; comparisons = []; groups = [:]; best = [:]
        let baselineName = options.baseline.flatMap { values.configurations.contains($0) ? $0 : nil } ?? values.configurations.first ?? ""
        // Table by table (each route, then the pooled one): its cells, groups, comparisons and
        // best; with `routeSink` a route's table is handed over and dropped, so at most one window
        // of route tables is held beside the pooled one. Route tables are computed a window at a
        // time, one table per worker (each on its own: its work is too small to share), then
        // handed over in table order; the pooled table shares the workers. Every table's results
        // depend on its own values and labelled seeds only, so they are the same whatever the window.
        let keySet = Set(keys)
        let workers = ProcessInfo.processInfo.activeProcessorCount, window = 2 * workers
        var ti = 0
        while ti < values.tables.count {
            let parts: [TableStatistics]
            if ti < routes.count, workers > 1, min(routes.count, ti + window) - ti > 1 {
                let first = ti, count = min(routes.count, ti + window) - ti
                parts = mapConcurrently(count, workers: workers) { k in
                    Self.tableStatistics(first + k, values, baseline: baselineName, keyMetrics: keys, options: options, memo: memo, workers: 1)
                }
            } else {
                parts = [Self.tableStatistics(ti, values, baseline: baselineName, keyMetrics: keys, options: options, memo: memo, workers: workers)]
            }
            for part in parts {
                let t = values.tables[ti]
                var tableCells: [Cell] = []
                for cell in part.cells {
                    cellSink?(cell)
                    if cellSink == nil || keySet.contains(cell.metric) { tableCells.append(cell) }
                }
                if let routeSink, ti < routes.count {
                    var route = self
                    route.routes = [t]
                    route.cells = tableCells
                    route.cellIndex = Self.index(tableCells, metrics: keys)
                    route.groups = [t: part.groups]
                    route.comparisons = part.comparisons
                    route.best = part.groups.isEmpty ? [:] : [t: part.best]
                    routeSink(route)
                } else {
                    cells += tableCells
                    groups[t] = part.groups
                    comparisons += part.comparisons
                    if !part.groups.isEmpty { best[t] = part.best }
                }
                progress?(WorkProgress(phase: "statistics tables", done: ti + 1, total: values.tables.count))
                ti += 1
            }
        }
        cellIndex = Self.index(cells, metrics: keys)
    }

    /// One table's cells (every metric), groups of identical configurations, comparison family and best.
    struct TableStatistics: Sendable {
        var cells: [Cell], groups: [Group], comparisons: [Comparison], best: [String: String]
    }

    /// Table `ti`'s statistics on `workers` threads.
    ///
    /// Complexity: O(B·R) for R values in the table, plus its pairwise tests.
    static func tableStatistics(
        _ ti: Int, _ values: StatisticsValues, baseline: String, keyMetrics keys: [String], options: StatisticsOptions,
        memo: (any ResamplingMemo)?, workers: Int
    ) -> TableStatistics {
        let cells = Self.cells(of: ti, values, options: options, memo: memo, workers: workers)
        let gs = values.groups(of: ti, baseline: baseline).map { Group(members: $0) }
        let family = Self.comparisons(of: ti, values, groups: gs, keyMetrics: keys, options: options, memo: memo, workers: workers)
        return TableStatistics(
            cells: cells, groups: gs, comparisons: family, best: Self.best(of: ti, values, groups: gs, keyMetrics: keys, options: options))
    }

    /// Table `ti`'s cells, every metric of every configuration it has (on `workers` threads, in that
    /// order).
    ///
    /// Complexity: O(B·R) for R values in the table.
    static func cells(
        of ti: Int, _ values: StatisticsValues, options: StatisticsOptions, memo: (any ResamplingMemo)?, workers: Int
    ) -> [Cell] {
        var jobs: [(configuration: Int, metric: Int)] = []
        for c in values.configurations.indices {
            for m in values.metrics.indices where values.grid.column(table: ti, metric: m, configuration: c) != nil {
                jobs.append((c, m))
            }
        }
        let cellJobs = jobs
        // The bootstrap samples first (finite values below the large-sample size), resampled together.
        let present = jobs.map { values.grid.column(table: ti, metric: $0.metric, configuration: $0.configuration)!.presentValues }
        var resampled: [Int] = [], samples: [[Double]] = []
        for (i, v) in present.enumerated() {
            let finite = v.filter(\.isFinite)
            if finite.count < options.largeSample { resampled.append(i); samples.append(finite) }
        }
        var bootstrap = [BootstrapLimits?](repeating: nil, count: jobs.count)
        for (i, r) in zip(
            resampled, sharedBootstraps(samples, stream: "cells\u{1}\(values.tables[ti])", options: options, memo: memo, workers: workers))
        {
            bootstrap[i] = r
        }
        let limits = bootstrap
        return mapConcurrently(jobs.count, workers: workers) { i in
            let (c, m) = cellJobs[i]
            let metric = values.metrics[m]
            return Self.cell(
                present[i], route: values.tables[ti], configuration: values.configurations[c], metric: metric, unit: values.units[metric]!,
                options: options, bootstrap: limits[i])
        }
    }

    /// Table `ti`'s comparison family: each group against the first (the baseline's) on each key
    /// metric, paired over units, Holm-adjusted together.
    static func comparisons(
        of ti: Int, _ values: StatisticsValues, groups gs: [Group], keyMetrics keys: [String], options: StatisticsOptions,
        memo: (any ResamplingMemo)?, workers: Int
    ) -> [Comparison] {
        guard let base = gs.first else { return [] }
        let t = values.tables[ti]
        let pairs = gs.dropFirst().flatMap { g in keys.map { (g, $0) } }
        var family = mapConcurrently(pairs.count, workers: workers) { i in
            let (g, m) = pairs[i]
            let seed = streamSeed(options.seed, "compare\u{1}\(t)\u{1}\(m)\u{1}\(g.representative)")
            return Self.compare(
                values.differences(ti, m, g.representative, base.representative), route: t, metric: m,
                configuration: g.representative, baseline: base.representative, identical: Array(g.members.dropFirst()),
                seed: seed, resamples: options.resamples, largeSample: options.largeSample, memo: memo)
        }
        let adjusted = holmAdjusted(family.map(\.pValue))
        for i in family.indices {
            family[i].pHolm = adjusted[i]
            family[i].significant = adjusted[i] < options.alpha
        }
        return family
    }

    /// Table `ti`'s best group per key metric with a better direction: the group with the best
    /// mean, better than every other group (Hodges–Lehmann direction, Wilcoxon signed-rank,
    /// Holm-adjusted); absent when none is.
    static func best(
        of ti: Int, _ values: StatisticsValues, groups gs: [Group], keyMetrics keys: [String], options: StatisticsOptions
    ) -> [String: String] {
        var best: [String: String] = [:]
        for m in keys {
            let polarity = MetricPolarity.of(m)
            guard polarity != .neutral, gs.count > 1 else { continue }
            let means = gs.map { g in Statistics.mean((values.column(ti, m, g.representative)?.presentValues ?? []).filter(\.isFinite)) }
            guard
                let candidate = means.indices.filter({ means[$0].isFinite })
                    .min(by: { polarity == .lowerIsBetter ? means[$0] < means[$1] : means[$0] > means[$1] })
            else { continue }
            var ps: [Double] = [], directionOK = true
            for other in gs.indices where other != candidate {
                let d = values.differences(ti, m, gs[candidate].representative, gs[other].representative)
                let hl = HodgesLehmann(differences: d)
                let p = WilcoxonSignedRank(differences: d)?.pValue ?? 1
                ps.append(d.isEmpty ? 1 : p)
                if let hl, polarity == .lowerIsBetter ? hl.estimate >= 0 : hl.estimate <= 0 { directionOK = false }
            }
            if directionOK, holmAdjusted(ps).allSatisfy({ $0 < options.alpha }) { best[m] = gs[candidate].representative }
        }
        return best
    }

    /// One cell of `values` (every unit's value, NaN included): n, NaN count, mean, median, std
    /// and the 95 % CI: Wilson for a 0/1 metric (unit "bool"), Student t from `largeSample`
    /// finite values, else the BCa bootstrap of the mean (`bootstrap`: the limits from the table's
    /// shared resamples, `sharedBootstraps`, which `cells(of:)` gives exactly for those samples),
    /// whose percentile interval is kept beside.
    static func cell(
        _ values: [Double], route: String, configuration: String, metric: String, unit: String, options: StatisticsOptions,
        bootstrap: BootstrapLimits?
    ) -> Cell {
        let s = SampleSummary(values)
        let finite = values.filter(\.isFinite)
        var cell = Cell(
            route: route, configuration: configuration, metric: metric, unit: unit, n: s.n, nanCount: s.nonFinite,
            mean: s.mean, median: s.median, std: s.std, ciLow: .nan, ciHigh: .nan, ciMethod: "bca",
            percentileLow: .nan, percentileHigh: .nan)
        if unit == "bool" && finite.allSatisfy({ $0 == 0 || $0 == 1 }) {
            let w = WilsonInterval(successes: finite.filter { $0 == 1 }.count, trials: finite.count, confidence: options.confidence)
            cell.ciLow = w.low; cell.ciHigh = w.high; cell.ciMethod = "wilson"
        }
        if finite.count >= options.largeSample {
            // Large sample: Student t interval (no percentile bootstrap columns).
            if cell.ciMethod == "bca" {
                let t = StudentTInterval(finite, confidence: options.confidence)
                cell.ciLow = t.low; cell.ciHigh = t.high; cell.ciMethod = "t"
            }
        } else if let b = bootstrap {
            if cell.ciMethod == "bca" { cell.ciLow = b.bca.low; cell.ciHigh = b.bca.high }
            cell.percentileLow = b.percentile.low; cell.percentileHigh = b.percentile.high
        }
        return cell
    }

    static func compare(
        _ d: [Double], route: String, metric: String, configuration: String, baseline: String, identical: [String],
        seed: UInt64, resamples: Int, largeSample: Int = .max, memo: (any ResamplingMemo)? = nil
    ) -> Comparison {
        var c = Comparison(
            route: route, metric: metric, configuration: configuration, baseline: baseline, n: d.count,
            medianDifference: .nan, ciLow: .nan, ciHigh: .nan, meanDifference: Statistics.mean(d),
            pValue: .nan, pHolm: .nan, test: "none", pPermutation: .nan, significant: false, identical: identical)
        guard !d.isEmpty else { return c }
        if let hl = HodgesLehmann(differences: d) { c.medianDifference = hl.estimate; c.ciLow = hl.low; c.ciHigh = hl.high }
        if let w = WilcoxonSignedRank(differences: d) {
            c.pValue = w.pValue
            c.test = "wilcoxon-" + w.method.rawValue
        } else {
            c.pValue = 1
            c.test = "all-differences-zero"
        }
        c.pPermutation =
            d.count >= largeSample ? signFlipNormalP(d) : memoisedSignFlipP(d, resamples: resamples, seed: seed, memo: memo)
        return c
    }

    /// Main effects: per varying dimension (seed excluded), each level minus the first level,
    /// matched on route, session, metric and every other parameter, averaged per unit (route,
    /// session, seed) so that n counts independent units, not configurations; BCa CI of the mean
    /// of the unit differences.
    static func mainEffects(
        _ table: MetricsTable, view: RowView, keyMetrics: [String], options: StatisticsOptions, memo: (any ResamplingMemo)? = nil
    ) -> [MainEffect] {
        var (out, resampled, samples) = effectSamples(table, view: view, keyMetrics: keyMetrics, options: options)
        // Every effect's unit differences resampled together (one stream: "effects").
        for (i, r) in zip(resampled, sharedBootstraps(samples, stream: "effects", options: options, memo: memo)) {
            (out[i].ciLow, out[i].ciHigh) = r.bca
        }
        return out
    }

    /// The main effects without their bootstrap CIs (those from `largeSample` units have their t
    /// interval), the indices of those to resample and their unit differences.
    static func effectSamples(
        _ table: MetricsTable, view: RowView, keyMetrics: [String], options: StatisticsOptions
    ) -> (effects: [MainEffect], resampled: [Int], samples: [[Double]]) {
        var out: [MainEffect] = []
        var resampled: [Int] = [], samples: [[Double]] = []
        let columns = table.parameterColumns
        var levels: [[String]] = Array(repeating: [], count: columns.count)
        var seenLevels: [Set<String>] = Array(repeating: [], count: columns.count)
        // One pass over the rows: the runs (consecutive rows sharing route, session and parameters)
        // with each key metric's first value, so each (dimension, metric) below walks runs, not rows.
        let distinctMetrics = Array(Set(keyMetrics))
        let slot = Dictionary(uniqueKeysWithValues: distinctMetrics.enumerated().map { ($1, $0) })
        var runs: [(route: String, session: String, parameters: [String], unit: String, values: [Double?])] = []
        for r in table.rows {
            if runs.last.map({ $0.route != r.route || $0.session != r.session || $0.parameters != r.parameters }) ?? true {
                runs.append((r.route, r.session, r.parameters, view.unit(r), Array(repeating: nil, count: distinctMetrics.count)))
                for (i, v) in r.parameters.enumerated() where !seenLevels[i].contains(v) { seenLevels[i].insert(v); levels[i].append(v) }
            }
            if let k = slot[r.metric], runs[runs.count - 1].values[k] == nil { runs[runs.count - 1].values[k] = r.value }
        }
        // Each (dimension, key metric) on the workers, gathered in that order.
        let dimensions = columns.indices.filter { columns[$0] != "seed" && levels[$0].count > 1 }
        let pairs = dimensions.flatMap { dim in keyMetrics.map { (dim, $0) } }
        let everyRun = runs, levelsOf = levels, workers = ProcessInfo.processInfo.activeProcessorCount
        // Each run's key without the dimension, as an id (in order of first appearance), and its
        // level's index, per dimension; each run's unit as an id. The effects below index arrays.
        let keysOf = mapConcurrently(dimensions.count, workers: workers) { i -> EffectKeys in
            var ids: [String: Int] = [:]
            let levelIndex = Dictionary(uniqueKeysWithValues: levelsOf[dimensions[i]].enumerated().map { ($1, $0) })
            var keys = EffectKeys(key: [], level: [], count: 0)
            for run in everyRun {
                var p = run.parameters
                p[dimensions[i]] = ""
                let text = ([run.route, run.session] + p).joined(separator: "\u{1}")
                let id = ids[text] ?? ids.count
                if id == ids.count { ids[text] = id }
                keys.key.append(id)
                keys.level.append(levelIndex[run.parameters[dimensions[i]]]!)
            }
            keys.count = ids.count
            return keys
        }
        var unitIds: [String: Int] = [:]
        let unitOfRun = everyRun.map { run -> Int in
            let id = unitIds[run.unit] ?? unitIds.count
            if id == unitIds.count { unitIds[run.unit] = id }
            return id
        }
        let units = (unitOf: unitOfRun, count: unitIds.count)
        let keyIndex = Dictionary(uniqueKeysWithValues: dimensions.enumerated().map { ($1, $0) })
        let parts = mapConcurrently(pairs.count, workers: workers) { i in
            let (dim, m) = pairs[i]
            return Self.effects(
                of: dim, name: columns[dim], levels: levelsOf[dim], metric: m, slot: slot[m]!, runs: everyRun, keys: keysOf[keyIndex[dim]!],
                units: units, options: options)
        }
        for part in parts {
            for (effect, d) in part {
                if let d { resampled.append(out.count); samples.append(d) }
                out.append(effect)
            }
        }
        return (out, resampled, samples)
    }

    /// Each run's key without one dimension (an id in order of first appearance, `count` ids)
    /// and its level's index in that dimension.
    struct EffectKeys: Sendable {
        var key: [Int], level: [Int], count: Int
    }

    /// The main effects of dimension `dim` (column `name`, its `levels` in table order) on metric
    /// `m` (the runs' value in `slot`; `keys`: each run's key without the dimension and its level;
    /// `units`: each run's unit id): each level against the first, with the unit differences to
    /// resample (nil for those from `largeSample` units, which have their t interval).
    ///
    /// Complexity: O(runs) per level; memory O(keys × levels).
    private static func effects(
        of dim: Int, name: String, levels: [String], metric m: String, slot ms: Int,
        runs: [(route: String, session: String, parameters: [String], unit: String, values: [Double?])], keys: EffectKeys,
        units: (unitOf: [Int], count: Int), options: StatisticsOptions
    ) -> [(MainEffect, [Double]?)] {
        // (key, level) → value (the first row's, as the table lists them); keys in order of their
        // first run with a value, each with that run's unit.
        let width = levels.count
        var value = [Double](repeating: .nan, count: keys.count * width), held = [Bool](repeating: false, count: keys.count * width)
        var keyOrder: [Int] = [], unitOfKey = [Int](repeating: -1, count: keys.count)
        for r in runs.indices {
            guard let v = runs[r].values[ms] else { continue }
            let k = keys.key[r], cell = k * width + keys.level[r]
            if unitOfKey[k] < 0 { keyOrder.append(k); unitOfKey[k] = units.unitOf[r] }
            if !held[cell] { held[cell] = true; value[cell] = v }
        }
        let reference = levels[0]
        var out: [(MainEffect, [Double]?)] = []
        for (l, level) in levels.enumerated().dropFirst() {
            // The differences of one unit (route, session, seed) over the other dimensions are
            // averaged first: the unit, not the configuration, is the independent replicate.
            var sums = [Double](repeating: 0, count: units.count), counts = [Int](repeating: 0, count: units.count)
            var unitOrder: [Int] = []
            for k in keyOrder {
                guard held[k * width + l], held[k * width] else { continue }
                let a = value[k * width + l], b = value[k * width]
                guard a.isFinite, b.isFinite else { continue }
                let u = unitOfKey[k]
                if counts[u] == 0 { unitOrder.append(u) }
                sums[u] = sums[u] + (a - b)
                counts[u] += 1
            }
            let d = unitOrder.map { sums[$0] / Double(counts[$0]) }
            var effect = MainEffect(
                dimension: name, level: level, reference: reference, metric: m, n: d.count,
                meanDifference: Statistics.mean(d), ciLow: .nan, ciHigh: .nan)
            if d.count >= options.largeSample {
                (effect.ciLow, effect.ciHigh) = StudentTInterval(d, confidence: options.confidence).interval
                out.append((effect, nil))
            } else {
                out.append((effect, d))
            }
        }
        return out
    }
}

/// Two-sided p of the paired sign-flip test of Σdᵢ by the normal approximation of its
/// permutation distribution (mean 0, variance Σdᵢ²; Lindeberg's CLT): 2Φ(−|Σd|/√Σd²). All
/// differences zero give 1.
func signFlipNormalP(_ d: [Double]) -> Double {
    let s = d.reduce(0, +), v = d.reduce(0) { $0 + $1 * $1 }
    guard v > 0 else { return 1 }
    return min(1, 2 * StandardNormal.cdf(-abs(s) / v.squareRoot()))
}

/// `sharedBootstraps` with the report's B, confidence and seed.
private func sharedBootstraps(
    _ samples: [[Double]], stream: String, options: StatisticsOptions, memo: (any ResamplingMemo)?,
    workers: Int = ProcessInfo.processInfo.activeProcessorCount
) -> [BootstrapLimits] {
    sharedBootstraps(
        samples, stream: stream, resamples: options.resamples, confidence: options.confidence, seed: options.seed, memo: memo, workers: workers)
}
