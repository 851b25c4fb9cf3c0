import Foundation
import NavCore
import NavGuidance
import NavIO
import NavReport
import NavStatistics
import Synchronization

// The guidance replay's section of the report (`GuidanceReplayKind`): read from the store run
// by run and route by route, so memory is flat in the number of runs and routes.

extension GuidanceReplayKind {
    /// `metrics.csv`, `routes/<route>.csv|md|tex`, the paths and error-CDF plots per route, the
    /// trends over RDP tolerance, `cells.csv`, `comparisons.csv`, the box plots and the
    /// configuration × metric heat map (`ExperimentStatistics.heatMap`), each written
    /// atomically as it is done; its Markdown (`guidanceReplayPieces`, then the trends), its
    /// Findings and main effects; a failure line per job without a stored run (its stored
    /// failure, or "no result").
    ///
    /// - Complexity: O(runs) store reads, memory O(rows of the metrics table + one route's plot sample).
    func report(_ context: SectionContext) throws -> ReportSection {
        let plan = context.plan, store = context.store, out = context.out
        var sample = PlotSample(plan)
        var missing: [String] = []
        let table = try metricsTable(plan, store: store, sample: &sample, missing: &missing)
        // A key metric (the spec's `metrics:`) that no run emitted is a failure, not an empty column.
        let emitted = table.rows.metrics
        if !emitted.isEmpty {
            for m in plan.spec.keyMetrics where !emitted.contains(m) {
                missing.append(
                    "metrics: \(escapedForMessage(m)): no run emitted it; the runs emitted \(emitted.map { escapedForMessage($0) }.joined(separator: ", "))"
                )
            }
        }
        traceMemory(plan, "report: metrics table read")
        // metrics.csv is written beside the route files (its failure first, as when it came first).
        let metricsFile = DispatchGroup(), metricsFailure = Mutex<TraceError?>(nil)
        DispatchQueue.global().async(group: metricsFile) {
            do throws(TraceError) { try table.writeCSV(to: out.metrics) } catch { metricsFailure.withLock { $0 = error } }
        }
        // Routes in first-appearance order (a set beside the list: O(rows), not O(rows × routes)).
        var routes: [String] = [], seenRoutes = Set<String>()
        for r in table.rows where seenRoutes.insert(r.route).inserted { routes.append(r.route) }
        // Route by route: the sample's runs of one route are read from the store with their paths,
        // drawn and released before the next, so memory is flat in the number of routes. The
        // statistics are computed meanwhile (each route's page waits for that route's figures);
        // when sampled runs must be run again (a store without their paths) the route files come
        // first, so that the two phases' progress does not interleave.
        let storedPaths = sample.storedPaths
        let figures = RouteFigures()
        let drawing = DispatchGroup(), drawn = Mutex<Result<[String: [ReportFigure]], any Error>?>(nil)
        let trendFigures = Mutex<Result<[ReportFigure], any Error>?>(nil)
        let sampled = sample, routeOrder = routes
        let draw: @Sendable () -> Void = {
            let result = Result {
                try writeRouteFiles(
                    plan, sample: sampled, stored: storedPaths, store: store, table: table, routes: routeOrder, out: out,
                    progress: context.progress, finished: figures.finish)
            }
            figures.end()
            drawn.withLock { $0 = result }
            // The trends over RDP tolerance next, beside the statistics (only after route files that were written).
            if case .success = result {
                let trendResult = Result { try writeToleranceTrends(plan, table: table, routes: routeOrder, out: out) }
                trendFigures.withLock { $0 = trendResult }
            }
        }
        if storedPaths.count == sampled.indices.count {
            // A thread of its own: its workers and the statistics' share the cores, and it never
            // waits for a pool thread that a waiting route page holds.
            drawing.enter()
            Thread {
                draw()
                drawing.leave()
            }.start()
        } else {
            draw()
        }
        let statisticsResult = Result {
            try writeStatistics(plan, table: table, figures: figures.figures, out: out, progress: context.progress, memo: context.memo)
        }
        drawing.wait()
        metricsFile.wait()
        if let failure = metricsFailure.withLock({ $0 }) { throw failure }
        let routePlots = try drawn.withLock({ $0! }).get()
        let plots = routePlots
        let trendPlots = try trendFigures.withLock({ $0! }).get()
        traceMemory(plan, "report: route files, plots and statistics computed")
        var (statistics, routeSections, statisticsFiles) = try statisticsResult.get()
        if let map = statistics.heatMap() {
            let file = "plots/heatmap-configuration-metric.svg"
            try writeTextAtomically(map.svg, to: (out.folder as NSString).appendingPathComponent(file))
            statistics.heatMapFigure = ReportFigure(path: file, alt: map.description ?? "")
            statisticsFiles.append(file)
        }
        traceMemory(plan, "report: statistics")
        let trends =
            trendPlots.isEmpty ? "" : "\n## Metrics vs RDP tolerance\n\n" + trendPlots.map(\.markdown).joined(separator: "\n\n") + "\n"
        var section = ReportSection(
            pieces: guidanceReplayPieces(table: table, plots: plots, statistics: statistics, routeSections: routeSections) + [trends],
            files: [], findings: statistics.findings, failures: missing)
        section.offered = [ReplayMainEffects(effects: statistics.mainEffects, units: statistics.units), ReplayCompletion(table.rows)]
        section.written = routes.flatMap { (routePlots[$0] ?? []).map(\.path) } + trendPlots.map(\.path) + statisticsFiles
        return section
    }
}

/// The tidy table of the stored runs, in job order (route, session, configuration), metrics in
/// their computed order; runs whose row does not verify are left out. Read a run at a time
/// (`MetricRows` keeps 16 bytes a metric, not the runs).
public func metricsTable(_ plan: ExperimentPlan, store: ResultsStore) throws -> MetricsTable {
    var sample = PlotSample(plan)
    var missing: [String] = []
    return try metricsTable(plan, store: store, sample: &sample, missing: &missing)
}

/// The table, and the failure line of every job without a verified run (its stored failure, or
/// "no result"), read in the same pass: jobs in blocks of `metricsReadBlock`, each block's runs
/// read (and verified) on `workers` threads in their own read transactions, then appended in job
/// order, so the table is the same whatever the workers.
///
/// - Complexity: O(runs) store reads; memory O(rows) for the table + one block's runs.
func metricsTable(
    _ plan: ExperimentPlan, store: ResultsStore, sample: inout PlotSample, missing: inout [String],
    workers: Int = ProcessInfo.processInfo.activeProcessorCount
) throws -> MetricsTable {
    var table = MetricsTable(parameterColumns: Configuration.columns, rows: [])
    var unmatched: [Int] = []
    let jobs = plan.jobs
    for start in stride(from: 0, to: jobs.count, by: metricsReadBlock) {
        let block = start..<min(jobs.count, start + metricsReadBlock)
        let runs = try store.readInBlocks(block.count, blocks: min(workers, block.count / 64)) { reader, range in
            try range.map { try reader.metrics(key: jobs[start + $0].key, kind: guidanceResultKind) }
        }
        for offset in runs.indices {
            let position = start + offset, job = jobs[position]
            guard let run = runs[offset] else {
                unmatched.append(position)
                continue
            }
            if table.rows.isEmpty { table.rows.reserveCapacity(rows: jobs.count * run.metrics.count, runs: jobs.count) }
            let session = job.session ?? run.session
            sample.offer(job, stored: run.artifactDigests[ReplayPlotPaths.artifactName].map { .init(session: session, digest: $0) })
            for m in run.metrics {
                table.rows.append(
                    MetricRow(
                        route: job.routeID, session: session, configuration: job.configuration.label,
                        parameters: job.configuration.parameters, metric: m.name, value: m.value, unit: m.unit))
            }
        }
    }
    if !unmatched.isEmpty {
        missing = try store.read { reader in
            distinctLines(try unmatched.map { try missingResultLine(replayUnit(jobs[$0], plan: plan), reader: reader) })
        }
    }
    return table
}

/// Jobs whose stored runs the metrics table reads at a time (in parallel within a block).
let metricsReadBlock = 2048

/// Per route: `routes/<route>.csv`, the walked paths (first configuration) and the position-error
/// CDF per configuration, drawn from the `PlotSample`'s runs of that route with the paths the store
/// keeps of them (`ReplayPlotPaths`; a run stored without them, by a navbench before them or
/// for paths over the artifact limit, is run again), released before the next route. Returns
/// the plots by route with their text alternatives (`walkedPathsFinding`, `errorCDFFinding`) for the
/// summary and the report page (which reads them back one at a time: no SVG is held past its route).
///
/// - Complexity: memory O(sample runs of one route + rows), time O(rows + sample runs).
private func writeRouteFiles(
    _ plan: ExperimentPlan, sample: PlotSample, stored: [Int: PlotSample.StoredPaths], store: ResultsStore, table: MetricsTable, routes: [String],
    out: ExperimentOutputs, progress: ProgressHandler?, finished: @escaping @Sendable (String, [ReportFigure]) -> Void
) throws -> [String: [ReportFigure]] {
    let folder = out.folder
    @Sendable func path(_ p: String) -> String { (folder as NSString).appendingPathComponent(p) }
    let firstConfig = plan.jobs.first?.configuration.label
    let chosenByRoute = Dictionary(grouping: sample.indices) { plan.jobs[$0].routeID }
    let rowsByRoute = Dictionary(grouping: table.rows.indices) { table.rows[$0].route }
    let reruns = sample.indices.count - stored.count
    // Routes on the cores (`mapConcurrently`: each route's files are its own; at most one
    // route per worker is held, so memory stays flat in routes; the first failure in route
    // order), and one count of re-runs for the progress (told under its lock, in order).
    let rerunsDone = Mutex(0)
    var progressOfReruns: ProgressHandler?
    if let progress {
        progressOfReruns = { p in
            rerunsDone.withLock { done in
                done += 1
                // A row whose stored paths fail their digest is run again too: counted beyond `reruns`.
                progress(WorkProgress(phase: p.phase, done: done, total: max(reruns, done)))
            }
        }
    }
    let routeProgress = progressOfReruns
    let files = try mapConcurrently(routes.count, workers: ProcessInfo.processInfo.activeProcessorCount) { k in
        let route = routes[k]
        try table.writeCSV(to: path("routes/\(safeFileComponent(route)).csv"), rowIndices: rowsByRoute[route] ?? [])
        let chosen = chosenByRoute[route] ?? []
        // Walked paths are drawn for the first configuration only: the other runs' are not decoded.
        let read = try storedPlotRuns(
            plan, chosen: chosen, stored: stored, walked: { plan.jobs[$0].configuration.label == firstConfig }, store: store)
        let mine: [JobResult] = sample.results(plan, chosen: chosen, reusing: read, progress: routeProgress)
        // Walked paths over the route (first configuration).
        var series = [SVGPlot.Series(label: "route (true)", points: mine.first?.route2D.map { (x: $0[0], y: $0[1]) } ?? [])]
        var walks: [WalkedPaths.Walk] = []
        for r in mine where r.configuration == firstConfig {
            let walk = WalkedPaths.Walk(
                session: r.session, truePath: r.truePath.map { (x: $0[0], y: $0[1]) }, estimatedPath: r.estimatedPath.map { (x: $0[0], y: $0[1]) })
            walks.append(walk)
            series.append(SVGPlot.Series(label: "\(r.session) true", points: walk.truePath))
            series.append(SVGPlot.Series(label: "\(r.session) estimated", points: walk.estimatedPath, dashed: true))
        }
        var paths = SVGPlot(
            title: "\(route): walked paths (\(firstConfig ?? ""))", xLabel: "east (m)", yLabel: "north (m)",
            series: series, equalAspect: true)
        paths.description = walkedPathsFinding(WalkedPaths(route: route, configuration: firstConfig ?? "", walks: walks))
        let pathsFile = "plots/\(safeFileComponent(route))-paths.svg", cdfFile = "plots/\(safeFileComponent(route))-error-cdf.svg"
        try writeTextAtomically(paths.svg, to: path(pathsFile))
        // Position-error CDF per configuration.
        var labels: [String] = []
        for r in mine where !labels.contains(r.configuration) { labels.append(r.configuration) }
        let curves = distinctSeries(labels, values: { c in mine.filter { $0.configuration == c }.flatMap(\.positionErrors) })
        var cdf = SVGPlot(
            title: "\(route): position error CDF", xLabel: "|estimated − true| (m)", yLabel: "fraction (of samples)",
            series: curves.map(\.series))
        cdf.description = errorCDFFinding(
            route: route, configurations: labels.count, curves: curves.map { (label: $0.series.label, values: $0.values) })
        try writeTextAtomically(cdf.svg, to: path(cdfFile))
        let figures = [
            ReportFigure(path: pathsFile, alt: paths.description ?? ""), ReportFigure(path: cdfFile, alt: cdf.description ?? ""),
        ]
        finished(route, figures)
        return figures
    }
    return Dictionary(zip(routes, files), uniquingKeysWith: { a, _ in a })
}

/// Each route's figures as `writeRouteFiles` finishes them, for the route pages `writeStatistics`
/// writes meanwhile: `figures(of:)` waits until that route's are done, or the route files are
/// over (none then: the caller throws the route files' failure).
final class RouteFigures: @unchecked Sendable {  // `done` and `over` only under `condition`
    private let condition = NSCondition()
    private var done: [String: [ReportFigure]] = [:]
    private var over = false

    func finish(_ route: String, _ figures: [ReportFigure]) {
        condition.lock()
        done[route] = figures
        condition.broadcast()
        condition.unlock()
    }

    func end() {
        condition.lock()
        over = true
        condition.broadcast()
        condition.unlock()
    }

    func figures(of route: String) -> [ReportFigure] {
        condition.lock()
        defer { condition.unlock() }
        while done[route] == nil && !over { condition.wait() }
        return done[route] ?? []
    }
}

/// The runs `chosen` (job indices) whose paths are `stored` (their digests from the metrics
/// table's verified rows), with the paths of their `plot_paths` artifact (the true and estimated
/// paths only of those `walked` selects); a run whose bytes do not verify against that digest
/// is left out (run again by the caller).
private func storedPlotRuns(
    _ plan: ExperimentPlan, chosen: [Int], stored: [Int: PlotSample.StoredPaths], walked: (Int) -> Bool, store: ResultsStore
) throws -> [Int: JobResult] {
    try store.read { reader in
        var runs: [Int: JobResult] = [:]
        for i in chosen {
            let job = plan.jobs[i]
            guard let s = stored[i], let bytes = try reader.artifact(key: job.key, name: ReplayPlotPaths.artifactName, digest: s.digest),
                let paths = ReplayPlotPaths(bytes: bytes, walkedPaths: walked(i))
            else { continue }
            runs[i] = JobResult(
                route: job.routeID, session: s.session, configuration: job.configuration.label,
                parameters: job.configuration.parameters, metrics: [], truePath: paths.truePath, estimatedPath: paths.estimatedPath,
                route2D: paths.route2D, positionErrors: paths.positionErrors)
        }
        return runs
    }
}

/// `plots/<metric>-vs-tolerance.svg` when the sweep has several RDP tolerances; returns them with
/// their text alternatives (`toleranceTrendFinding`).
private func writeToleranceTrends(
    _ plan: ExperimentPlan, table: MetricsTable, routes: [String], out: ExperimentOutputs
) throws -> [ReportFigure] {
    func path(_ p: String) -> String { (out.folder as NSString).appendingPathComponent(p) }
    var written: [ReportFigure] = []
    if plan.spec.sweep.rdpTolerance.count > 1 {
        // One pass: sums by (metric, route, tolerance) of the two plotted metrics, in dense arrays
        // (memory O(routes × tolerances), not a dictionary entry per metric and route).
        let metrics = ["clock_agreement_within_1h", "end_of_route_error"]
        let tolerances = plan.spec.sweep.rdpTolerance
        // Rows carry each level's canonical text in the tolerance column: joined on it, not on a re-formatted number.
        let levels = plan.spec.sweep.levels(of: .rdpTolerance).map(\.text)
        let toleranceIndex = Dictionary(levels.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        guard let column = table.parameterColumns.firstIndex(of: SweepDimension.rdpTolerance.column) else { return [] }
        let routeIndex = Dictionary(routes.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var sums = [[(Double, Int)]](repeating: [(Double, Int)](repeating: (0, 0), count: routes.count * tolerances.count), count: metrics.count)
        for r in table.rows where r.value.isFinite {
            guard let m = metrics.firstIndex(of: r.metric), let ri = routeIndex[r.route], let ti = toleranceIndex[r.parameters[column]] else {
                continue
            }
            sums[m][ri * tolerances.count + ti].0 += r.value
            sums[m][ri * tolerances.count + ti].1 += 1
        }
        for (m, metric) in metrics.enumerated() {
            let series = routes.enumerated().map { ri, route in
                SVGPlot.Series(
                    label: route,
                    points: tolerances.enumerated().map { ti, tol in
                        let (s, n) = sums[m][ri * tolerances.count + ti]
                        return (x: tol, y: n == 0 ? .nan : s / Double(n))
                    })
            }
            let unit = table.rows.first { $0.metric == metric }?.unit ?? ""
            var plot = SVGPlot(
                title: "\(metric) vs RDP tolerance", xLabel: "RDP tolerance (m)", yLabel: unit.isEmpty ? metric : "\(metric) (\(unit))",
                series: series)
            let alt = toleranceTrendFinding(plot)
            plot.description = alt
            let file = "plots/\(safeFileComponent(metric))-vs-tolerance.svg"
            try writeTextAtomically(plot.svg, to: path(file))
            written.append(ReportFigure(path: file, alt: alt))
        }
    }
    return written
}

// MARK: - Text alternatives of the replay's figures

/// The finding of a metric-vs-RDP-tolerance plot (its text alternative): the tolerance range, on
/// how many routes (series) the mean rises, falls or stays (the same to 3 significant digits) from
/// the first tolerance with a value to the last, and the routes' first → last values (at most `figureListLimit`, then "and N more").
///
/// - Complexity: O(points).
func toleranceTrendFinding(_ plot: SVGPlot) -> String {
    let xs = plot.series.flatMap { $0.points.map(\.x) }.filter(\.isFinite)
    let range = xs.isEmpty ? "" : " \(figureNumber(xs.min()!)) → \(figureNumber(xs.max()!)) m"
    var rises = 0, falls = 0, flat = 0, none = 0
    var changes: [String] = []
    for s in plot.series {
        let finite = s.points.filter { $0.x.isFinite && $0.y.isFinite }
        guard let first = finite.first, let last = finite.last else {
            none += 1
            continue
        }
        // Unchanged when the printed values agree (a change below 3 significant digits is not told as a rise).
        let (from, to) = (figureNumber(first.y), figureNumber(last.y))
        if from == to { flat += 1 } else if last.y > first.y { rises += 1 } else { falls += 1 }
        changes.append("\(markdownInline(s.label)) \(from) → \(to)")
    }
    let n = plot.series.count
    let counts = [(rises, "rises"), (falls, "falls"), (flat, "unchanged"), (none, "no value")].filter { $0.0 > 0 }
        .enumerated().map { i, c in i == 0 ? "\(c.1) on \(c.0) of \(n) route\(n == 1 ? "" : "s")" : "\(c.1) on \(c.0)" }
    return "\(markdownInline(plot.yLabel)) vs RDP tolerance\(range), mean per route: " + counts.joined(separator: ", ")
        + (changes.isEmpty ? "" : " (" + cappedList(changes, limit: figureListLimit) + ")") + "."
}

/// Names a figure's text alternative lists before "and N more".
let figureListLimit = 4

/// What a route's walked-paths plot draws: the first configuration's walks, true and estimated.
struct WalkedPaths {
    struct Walk {
        var session: String
        var truePath: [(x: Double, y: Double)]
        var estimatedPath: [(x: Double, y: Double)]
    }
    var route: String
    var configuration: String
    var walks: [Walk]
}

/// The finding of a route's walked-paths plot (its text alternative): how many walks are drawn and,
/// per walk, how far the estimated path's end is from the true path's end (at most
/// `figureListLimit` walks named).
///
/// - Complexity: O(walks).
func walkedPathsFinding(_ p: WalkedPaths) -> String {
    let ends = p.walks.map { w -> String in
        guard let t = w.truePath.last, let e = w.estimatedPath.last else { return "\(markdownInline(w.session)) no path" }
        return "\(markdownInline(w.session)) \(figureNumber(((e.x - t.x) * (e.x - t.x) + (e.y - t.y) * (e.y - t.y)).squareRoot())) m"
    }
    let head =
        "\(markdownInline(p.route)): walked paths of \(markdownInline(p.configuration)), \(p.walks.count) walk\(p.walks.count == 1 ? "" : "s") drawn"
    guard !ends.isEmpty else { return head + "." }
    return head + "; distance from the estimated path's end to the true end: " + cappedList(ends, limit: figureListLimit) + "."
}

/// The finding of a route's position-error CDF (its text alternative): per curve (configurations
/// with identical errors share one), the median error (numpy's linear quantile) of the values the
/// curve draws; the curves with the lowest and the highest median are named.
///
/// - Complexity: O(n log n) for n errors.
func errorCDFFinding(route: String, configurations: Int, curves: [(label: String, values: [Double])]) -> String {
    let medians = curves.compactMap { c -> (label: String, median: Double, n: Int)? in
        let s = c.values.filter(\.isFinite).sorted()
        guard !s.isEmpty else { return nil }
        return (label: c.label, median: quantile(sorted: s, 0.5, method: .linear), n: s.count)
    }
    let head =
        "\(markdownInline(route)): position error CDF of \(configurations) configuration\(configurations == 1 ? "" : "s") "
        + "(\(curves.count) distinct curve\(curves.count == 1 ? "" : "s"))"
    guard let low = medians.min(by: { $0.median < $1.median }), let high = medians.max(by: { $0.median < $1.median }) else {
        return head + ": no finite error."
    }
    func curve(_ c: (label: String, median: Double, n: Int)) -> String {
        "\(figureNumber(c.median)) m (\(markdownInline(c.label)), \(c.n) samples)"
    }
    if medians.count == 1 || low.median == high.median { return head + ": median error \(curve(low))." }
    return head + ": lowest median error \(curve(low)), highest \(curve(high))."
}
