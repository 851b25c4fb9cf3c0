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
    /// Seed of every bootstrap stream (each cell draws its own labelled sub-stream).
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

/// Row accessors by parameter column.
struct RowView {
    let seedColumn: Int?
    init(_ t: MetricsTable) { seedColumn = t.parameterColumns.firstIndex(of: "seed") }
    /// The configuration without the seed token (the seed is a replicate).
    func configuration(_ r: MetricRow) -> String {
        guard let i = seedColumn else { return r.configuration }
        let seedToken = "seed=" + r.parameters[i]
        let kept = r.configuration.split(separator: " ").filter { $0 != seedToken }.joined(separator: " ")
        return kept.isEmpty ? "default" : kept
    }
    func unit(_ r: MetricRow) -> String { r.route + "\u{1}" + r.session + "\u{1}" + (seedColumn.map { r.parameters[$0] } ?? "") }
}

extension ExperimentStatistics {
    /// Computes cells, comparisons, collapsed groups, best configurations and main effects.
    /// Deterministic for given options (labelled seeds per cell; parallel work written by index).
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
        var routes: [String] = [], configs: [String] = [], metrics: [String] = [], units: [String: String] = [:]
        // Values by (table, metric, configuration) in dense columns over the table's units
        // (first-appearance order): 9 bytes a value and table, not a dictionary entry. A unit
        // (route, session, seed) belongs to one route table and to the pooled table.
        var grid = ValueGrid()
        // Pre-pass over the runs (rows of a run are consecutive): units per route, so each column
        // is allocated once at its final size (no doubling slack: issue 16's memory per run).
        do {
            var seen = Set<String>(), perRoute: [String: Int] = [:]
            var last = ("", "", "")
            for r in table.rows where (r.route, r.session, r.configuration) != last {
                last = (r.route, r.session, r.configuration)
                if seen.insert(view.unit(r)).inserted { perRoute[r.route, default: 0] += 1 }
            }
            grid.expectedUnits = perRoute
        }
        var unitNumber: [String: Int] = [:]
        var lastConfiguration = ("", "")  // (label, without seed) of the previous row: rows of one run share it
        var lastUnit = ("", -1)
        var configIndex: [String: Int] = [:], metricIndex: [String: Int] = [:], routeIndex: [String: Int] = [:]
        for r in table.rows {
            let ri: Int
            if let i = routeIndex[r.route] { ri = i } else { ri = routes.count; routeIndex[r.route] = ri; routes.append(r.route) }
            let c: String
            if r.configuration == lastConfiguration.0 {
                c = lastConfiguration.1
            } else {
                c = view.configuration(r); lastConfiguration = (r.configuration, c)
            }
            let ci: Int
            if let i = configIndex[c] { ci = i } else { ci = configs.count; configIndex[c] = ci; configs.append(c) }
            let mi: Int
            if let i = metricIndex[r.metric] {
                mi = i
            } else {
                mi = metrics.count; metricIndex[r.metric] = mi; metrics.append(r.metric); units[r.metric] = r.unit
            }
            let unitName = view.unit(r)
            let u: Int
            if unitName == lastUnit.0 {
                u = lastUnit.1
            } else {
                if let n = unitNumber[unitName] { u = n } else { u = unitNumber.count; unitNumber[unitName] = u; grid.addUnit(route: ri) }
                lastUnit = (unitName, u)
            }
            grid.set(route: ri, metric: mi, configuration: ci, unit: u, value: r.value, routeName: r.route)
        }
        unitNumber = [:]
        self.routes = routes
        let keys = keyMetrics.filter { units[$0] != nil }
        self.keyMetrics = keys
        let tables = routes + [allRoutesLabel]
        // Tables by position, not name: a route may itself be called "all" (names come from files).
        func column(_ ti: Int, _ m: String, _ c: String) -> ValueGrid.Column? {
            guard let mi = metricIndex[m], let ci = configIndex[c] else { return nil }
            return grid.column(table: ti, metric: mi, configuration: ci)
        }
        self.units = units
        cells = []; comparisons = []; groups = [:]; best = [:]
        // Paired differences of two configurations on the units both have finite values for.
        func differences(_ ti: Int, _ m: String, _ a: String, _ b: String) -> [Double] {
            guard let va = column(ti, m, a), let vb = column(ti, m, b) else { return [] }
            return va.pairedDifferences(vb)
        }
        func identicalValues(_ ti: Int, _ a: String, _ b: String) -> Bool {
            metrics.allSatisfy { m in (column(ti, m, a) ?? .empty).sameValues(column(ti, m, b) ?? .empty) }
        }
        let baselineName = options.baseline.flatMap { configs.contains($0) ? $0 : nil } ?? configs.first ?? ""
        // Table by table (each route, then the pooled one): its cells (every metric, in parallel
        // by index), groups, comparisons and best; with `routeSink` a route's table is handed over
        // and dropped, so at most one route table is held beside the pooled one.
        struct CellJob { var table: Int, configuration: Int, metric: Int }
        let snapshot = grid, tableNames = tables, configNames = configs, metricNames = metrics
        let unitOf = units
        let keySet = Set(keys)
        for ti in tables.indices {
            let t = tables[ti]
            var jobs: [CellJob] = []
            for c in configs.indices {
                for m in metrics.indices where grid.column(table: ti, metric: m, configuration: c) != nil {
                    jobs.append(CellJob(table: ti, configuration: c, metric: m))
                }
            }
            let cellJobs = jobs
            let computedCells = mapConcurrently(jobs.count, workers: ProcessInfo.processInfo.activeProcessorCount) { i in
                let j0 = cellJobs[i]
                let v = snapshot.column(table: j0.table, metric: j0.metric, configuration: j0.configuration)!.presentValues
                let j = (table: tableNames[j0.table], configuration: configNames[j0.configuration], metric: metricNames[j0.metric])
                return Self.cell(
                    v, route: j.table, configuration: j.configuration, metric: j.metric, unit: unitOf[j.metric]!, options: options,
                    memo: memo)
            }
            var tableCells: [Cell] = []
            for cell in computedCells {
                cellSink?(cell)
                if cellSink == nil || keySet.contains(cell.metric) { tableCells.append(cell) }
            }
            var gs: [Group] = []
            for c in configs where metrics.contains(where: { column(ti, $0, c) != nil }) {
                if let i = gs.firstIndex(where: { identicalValues(ti, $0.representative, c) }) {
                    gs[i].members.append(c)
                } else {
                    gs.append(Group(members: [c]))
                }
            }
            // The baseline's group leads.
            if let i = gs.firstIndex(where: { $0.members.contains(baselineName) }), i > 0 { gs.insert(gs.remove(at: i), at: 0) }
            var family: [Comparison] = []
            var bestHere: [String: String] = [:]
            if let base = gs.first {
                for g in gs.dropFirst() {
                    for m in keys {
                        let seed = streamSeed(options.seed, "compare\u{1}\(t)\u{1}\(m)\u{1}\(g.representative)")
                        family.append(
                            Self.compare(
                                differences(ti, m, g.representative, base.representative), route: t, metric: m,
                                configuration: g.representative, baseline: base.representative, identical: Array(g.members.dropFirst()),
                                seed: seed, resamples: options.resamples, largeSample: options.largeSample, memo: memo))
                    }
                }
                let adjusted = holmAdjusted(family.map(\.pValue))
                for i in family.indices {
                    family[i].pHolm = adjusted[i]
                    family[i].significant = adjusted[i] < options.alpha
                }
                // Best: the group with the best mean, better than every other group after Holm.
                for m in keys {
                    let polarity = MetricPolarity.of(m)
                    guard polarity != .neutral, gs.count > 1 else { continue }
                    let means = gs.map { g in Statistics.mean((column(ti, m, g.representative)?.presentValues ?? []).filter(\.isFinite)) }
                    guard
                        let candidate = means.indices.filter({ means[$0].isFinite })
                            .min(by: { polarity == .lowerIsBetter ? means[$0] < means[$1] : means[$0] > means[$1] })
                    else { continue }
                    var ps: [Double] = [], directionOK = true
                    for other in gs.indices where other != candidate {
                        let d = differences(ti, m, gs[candidate].representative, gs[other].representative)
                        let hl = HodgesLehmann(differences: d)
                        let p = WilcoxonSignedRank(differences: d)?.pValue ?? 1
                        ps.append(d.isEmpty ? 1 : p)
                        if let hl, polarity == .lowerIsBetter ? hl.estimate >= 0 : hl.estimate <= 0 { directionOK = false }
                    }
                    if directionOK, holmAdjusted(ps).allSatisfy({ $0 < options.alpha }) { bestHere[m] = gs[candidate].representative }
                }
            }
            if let routeSink, ti < routes.count {
                var part = self
                part.routes = [t]
                part.cells = tableCells
                part.cellIndex = Self.index(tableCells, metrics: keys)
                part.groups = [t: gs]
                part.comparisons = family
                part.best = gs.isEmpty ? [:] : [t: bestHere]
                routeSink(part)
            } else {
                cells += tableCells
                groups[t] = gs
                comparisons += family
                if !gs.isEmpty { best[t] = bestHere }
            }
            progress?(WorkProgress(phase: "statistics tables", done: ti + 1, total: tables.count))
        }
        cellIndex = Self.index(cells, metrics: keys)
    }

    /// One cell of `values` (every unit's value, NaN included): n, NaN count, mean, median, std
    /// and the 95 % CI: Wilson for a 0/1 metric (unit "bool"), Student t from `largeSample`
    /// finite values, else the BCa bootstrap of the mean (seeded by the cell's label), whose
    /// percentile interval is kept beside.
    static func cell(
        _ values: [Double], route: String, configuration: String, metric: String, unit: String, options: StatisticsOptions,
        memo: (any ResamplingMemo)? = nil
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
        } else {
            let label = "cell\u{1}\(route)\u{1}\(configuration)\u{1}\(metric)"
            let b = memoisedBootstrapMean(
                finite, confidence: options.confidence, resamples: options.resamples, seed: streamSeed(options.seed, label), memo: memo)
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
        var out: [MainEffect] = []
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
        for (dim, name) in columns.enumerated() where name != "seed" && levels[dim].count > 1 {
            // Each run's key without this dimension.
            let keys = runs.map { run -> String in
                var p = run.parameters
                p[dim] = ""
                return ([run.route, run.session] + p).joined(separator: "\u{1}")
            }
            for m in keyMetrics {
                // key without this dimension → value at each level (the first row's, as the table lists them).
                var byKey: [String: [String: Double]] = [:], keyOrder: [String] = [], unitOf: [String: String] = [:]
                let ms = slot[m]!
                for (run, k) in zip(runs, keys) {
                    guard let value = run.values[ms] else { continue }
                    if byKey[k] == nil { keyOrder.append(k); unitOf[k] = run.unit }
                    if byKey[k]?[run.parameters[dim]] == nil { byKey[k, default: [:]][run.parameters[dim]] = value }
                }
                let reference = levels[dim][0]
                for level in levels[dim].dropFirst() {
                    // The differences of one unit (route, session, seed) over the other dimensions are
                    // averaged first: the unit, not the configuration, is the independent replicate.
                    var sums: [String: (Double, Int)] = [:], unitOrder: [String] = []
                    for k in keyOrder {
                        guard let a = byKey[k]?[level], let b = byKey[k]?[reference], a.isFinite, b.isFinite else { continue }
                        let u = unitOf[k]!
                        if sums[u] == nil { unitOrder.append(u) }
                        let (s, c) = sums[u] ?? (0, 0)
                        sums[u] = (s + (a - b), c + 1)
                    }
                    let d = unitOrder.map { sums[$0]!.0 / Double(sums[$0]!.1) }
                    let ci =
                        d.count >= options.largeSample
                        ? StudentTInterval(d, confidence: options.confidence).interval
                        : memoisedBootstrapMean(
                            d, confidence: options.confidence, resamples: options.resamples,
                            seed: streamSeed(options.seed, "effect\u{1}\(name)\u{1}\(level)\u{1}\(m)"), memo: memo
                        ).bca
                    out.append(
                        MainEffect(
                            dimension: name, level: level, reference: reference, metric: m, n: d.count,
                            meanDifference: Statistics.mean(d), ciLow: ci.low, ciHigh: ci.high))
                }
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

/// Metric values by (table, metric, configuration) as dense columns over each table's units.
/// Table `r` < routes is a route; table `routes` is every route pooled (`allRoutesLabel`), kept
/// once (in the route tables) and assembled when asked for.
struct ValueGrid: Sendable {
    /// A column: a value per unit slot of its table, and whether the slot was filled (a NaN
    /// value is present; a unit the configuration has no run for is absent).
    struct Column: Sendable {
        var values: [Double] = []
        var present: [Bool] = []
        static let empty = Column()
        init(capacity: Int = 0) { values.reserveCapacity(capacity); present.reserveCapacity(capacity) }
        mutating func set(_ slot: Int, _ x: Double) {
            if slot >= values.count {
                values.append(contentsOf: repeatElement(.nan, count: slot + 1 - values.count))
                present.append(contentsOf: repeatElement(false, count: slot + 1 - present.count))
            }
            if !present[slot] { values[slot] = x; present[slot] = true }  // a repeated unit keeps the first value
        }
        /// The present values in unit order.
        var presentValues: [Double] { zip(values, present).compactMap { $1 ? $0 : nil } }
        /// self − other on the units both have finite values for, in unit order.
        func pairedDifferences(_ other: Column) -> [Double] {
            var d: [Double] = []
            for i in 0..<min(values.count, other.values.count) where present[i] && other.present[i] {
                let x = values[i], y = other.values[i]
                if x.isFinite && y.isFinite { d.append(x - y) }
            }
            return d
        }
        /// The same units present, with equal values (NaN equal to NaN).
        func sameValues(_ other: Column) -> Bool {
            for i in 0..<max(values.count, other.values.count) {
                let p = i < present.count && present[i], q = i < other.present.count && other.present[i]
                guard p == q else { return false }
                if p { let x = values[i], y = other.values[i]; guard x == y || (x.isNaN && y.isNaN) else { return false } }
            }
            return true
        }
    }
    /// Every route column's slots in one pair of flat arrays (a column is a block of its route's
    /// unit count): no allocation per column, so a route with few units costs its values, not
    /// two arrays per (metric, configuration) (docs/scaling.md: memory flat in routes).
    private var slotValues: [Double] = [], slotPresent: [Bool] = []
    /// blocks[route][metric][configuration]: (start, size) of the column's block in the flat
    /// arrays, size 0 when the column is absent. The pooled table is assembled on demand.
    private var blocks: [[[Block]]] = []
    private struct Block: Sendable { var start: Int32 = 0, size: Int32 = 0, used: Int32 = 0 }
    /// Per unit: its route table and its slot in it (its slot in the pooled table is its number).
    private var unitRoute: [Int32] = [], unitSlot: [Int32] = []
    private var routeUnits: [Int] = []

    mutating func addUnit(route: Int) {
        while routeUnits.count <= route { routeUnits.append(0) }
        unitRoute.append(Int32(route)); unitSlot.append(Int32(routeUnits[route])); routeUnits[route] += 1
    }

    /// Units per route name, if known in advance: blocks are then allocated at that size.
    var expectedUnits: [String: Int] = [:]

    mutating func set(route: Int, metric: Int, configuration: Int, unit: Int, value: Double, routeName: String = "") {
        while blocks.count <= route { blocks.append([]) }
        while blocks[route].count <= metric { blocks[route].append([]) }
        while blocks[route][metric].count <= configuration { blocks[route][metric].append(Block()) }
        let slot = Int(unitSlot[unit])
        var b = blocks[route][metric][configuration]
        if slot >= Int(b.size) {
            // New block (or a larger one: the old slots are copied, the old block left unused).
            let size = max(slot + 1, expectedUnits[routeName] ?? 0, 2 * Int(b.size))
            let start = slotValues.count
            slotValues.append(contentsOf: repeatElement(.nan, count: size))
            slotPresent.append(contentsOf: repeatElement(false, count: size))
            for i in 0..<Int(b.used) {
                slotValues[start + i] = slotValues[Int(b.start) + i]
                slotPresent[start + i] = slotPresent[Int(b.start) + i]
            }
            b.start = Int32(start); b.size = Int32(size)
        }
        let i = Int(b.start) + slot
        if !slotPresent[i] { slotValues[i] = value; slotPresent[i] = true }  // a repeated unit keeps the first value
        b.used = max(b.used, Int32(slot + 1))
        blocks[route][metric][configuration] = b
    }

    /// The column of a route table (`table` < routes) or of the pooled table (`table` == routes,
    /// assembled in unit order: O(units)).
    func column(table: Int, metric: Int, configuration: Int) -> Column? {
        if table < routeUnits.count { return routeColumn(table, metric, configuration) }
        guard table == routeUnits.count else { return nil }
        let parts = blocks.indices.map { r in routeColumn(r, metric, configuration) }
        guard parts.contains(where: { $0 != nil }) else { return nil }
        var pooled = Column(capacity: unitRoute.count)
        for u in unitRoute.indices {
            guard let part = parts[Int(unitRoute[u])] else { continue }
            let slot = Int(unitSlot[u])
            if slot < part.present.count && part.present[slot] { pooled.set(u, part.values[slot]) }
        }
        return pooled
    }

    /// A route table's column: its block's slots up to the last one set (as if set one by one).
    private func routeColumn(_ route: Int, _ metric: Int, _ configuration: Int) -> Column? {
        guard route < blocks.count, metric < blocks[route].count, configuration < blocks[route][metric].count else { return nil }
        let b = blocks[route][metric][configuration]
        guard b.used > 0 else { return nil }
        let range = Int(b.start)..<(Int(b.start) + Int(b.used))
        var c = Column()
        c.values = Array(slotValues[range])
        c.present = Array(slotPresent[range])
        return c
    }
}
