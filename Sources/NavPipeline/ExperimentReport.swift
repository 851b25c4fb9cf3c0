import Foundation
import NavCore
import NavGuidance
import NavIO
import NavReport
import NavStatistics

/// The tidy table of the stored runs, in job order (route, session, configuration), metrics in
/// their computed order; runs whose row does not verify are left out. Read a run at a time
/// (`MetricRows` keeps 16 bytes a metric, not the runs).
public func metricsTable(_ plan: ExperimentPlan, store: ResultsStore) throws -> MetricsTable {
    var sample = PlotSample(plan)
    return try metricsTable(plan, store: store, sample: &sample)
}

func metricsTable(_ plan: ExperimentPlan, store: ResultsStore, sample: inout PlotSample) throws -> MetricsTable {
    var table = MetricsTable(parameterColumns: Configuration.columns, rows: [])
    try store.read { reader in
        for job in plan.jobs {
            guard let run = try reader.metrics(key: job.key) else { continue }
            if table.rows.isEmpty { table.rows.reserveCapacity(rows: plan.jobs.count * run.metrics.count, runs: plan.jobs.count) }
            sample.offer(job)
            let session = job.session ?? run.session
            for m in run.metrics {
                table.rows.append(
                    MetricRow(
                        route: job.routeID, session: session, configuration: job.configuration.label,
                        parameters: job.configuration.parameters, metric: m.name, value: m.value, unit: m.unit))
            }
        }
    }
    return table
}

/// Writes `summary.md`, `metrics.csv`, `routes/<route>.csv`, `plots/*.svg` and `manifest.json`
/// into the output folder, each atomically, from the runs in `store`. Everything but the
/// manifest's timings and git commit is a function of the inputs and the spec, so a rerun gives
/// identical files. A new section of the report goes into `writeSections` (or a step beside it).
public func writeExperimentReport(
    _ plan: ExperimentPlan, store: ResultsStore, failures: [String], command: String,
    facts: [String: String], resultKinds: [any ResultKind] = ResultKinds.standard
) throws -> ExperimentOutputs {
    try writeExperimentReport(
        plan, store: store, failures: failures, command: command, facts: facts, progress: nil, resultKinds: resultKinds)
}

/// `writeExperimentReport`, showing its phases on `progress`.
func writeExperimentReport(
    _ plan: ExperimentPlan, store: ResultsStore, failures: [String], command: String,
    facts: [String: String], progress: ProgressHandler?, resultKinds: [any ResultKind] = ResultKinds.standard
) throws -> ExperimentOutputs {
    var out = ExperimentOutputs(folder: plan.spec.output)
    var sample = PlotSample(plan)
    traceMemory(plan, "report: start")
    let table = try metricsTable(plan, store: store, sample: &sample)
    traceMemory(plan, "report: metrics table read")
    try table.writeCSV(to: out.metrics)
    // Routes in first-appearance order (a set beside the list: O(rows), not O(rows × routes)).
    var routes: [String] = [], seenRoutes = Set<String>()
    for r in table.rows where seenRoutes.insert(r.route).inserted { routes.append(r.route) }
    // Route by route: the sample's runs of one route are read from the store with their paths,
    // drawn and released before the next, so memory is flat in the number of routes.
    let plots = try writeRouteFiles(plan, sample: sample, store: store, table: table, routes: routes, out: out, progress: progress)
    try writeToleranceTrends(plan, table: table, routes: routes, out: out)
    traceMemory(plan, "report: route files and plots")
    let inputs = plan.checksums.keys.sorted().map { [$0, plan.checksums[$0]!] }
    let stamp = ReportStamp(
        experiment: plan.spec.name, navbenchVersion: NavbenchVersion.current, specSHA256: plan.specSHA256,
        inputs: inputs, command: command)
    let (sectionsMarkdown, extraFailures, sectionFindings, closedLoopEffects) = try writeSections(
        plan, kinds: resultKinds, store: store, out: out)
    out.failures = extraFailures
    traceMemory(plan, "report: sections")
    // Resampling results of the folder's last report: a cached rerun or a merge draws only what changed.
    let memo = try StoredResamplingMemo(store: store)
    let (statistics, routeSections) = try writeStatistics(plan, table: table, plots: plots, out: out, progress: progress, memo: memo)
    try memo.save(to: store)
    traceMemory(plan, "report: statistics")
    // The guidance replay was asked for when the spec sweeps or the inputs hold navigation sessions;
    // otherwise (e.g. Experiments/real.yaml: aids and APE only) its sections are left out.
    let guidance = !plan.jobs.isEmpty || !plan.spec.sweep.levels.isEmpty
    let allFailures = plan.failures + failures + extraFailures
    let trends =
        guidance && plan.spec.sweep.rdpTolerance.count > 1
        ? "\n## Metrics vs RDP tolerance\n\n![](plots/clock_agreement_within_1h-vs-tolerance.svg)\n\n![](plots/end_of_route_error-vs-tolerance.svg)\n"
        : ""
    // Findings: the replay's (when it was asked for), each result kind's, the closed loop's, and
    // where the replay and the closed loop disagree on a guidance level.
    let findings =
        (guidance ? statistics.findings : []) + sectionFindings
        + replayClosedLoopDisagreements(statistics.mainEffects, closedLoopEffects, units: statistics.units)
    let pieces = experimentSummaryPieces(
        table: table, stamp: stamp, keyMetrics: plan.spec.keyMetrics, failures: allFailures,
        plots: plots, statistics: statistics, guidance: guidance, sections: trends + sectionsMarkdown, findings: findings,
        routeSections: routeSections)
    let summary = try AtomicTextWriter(path: out.summary), latex = try AtomicTextWriter(path: out.latexTables)
    var tables = MarkdownTablesToLaTeX()
    latex.write(MarkdownTablesToLaTeX.header(source: "summary.md"))
    for piece in pieces {
        summary.write(piece)
        latex.write(tables.feed(piece))
    }
    latex.write(tables.finish())
    try summary.commit()
    try latex.commit()
    traceMemory(plan, "report: summary")
    try writeManifest(plan, failures: failures + extraFailures, command: command, inputs: inputs, facts: facts, out: out)
    return out
}

/// Per route: `routes/<route>.csv`, the walked paths (first configuration) and the position-error
/// CDF per configuration, drawn from the `PlotSample`'s runs of that route with the paths the store
/// keeps of them (`ReplayPlotPaths`; a run stored without them, by a navbench before them or
/// for paths over the artifact limit, is run again), released before the next route. Returns
/// the plots by route for the summary.
///
/// - Complexity: memory O(sample runs of one route + rows), time O(rows + sample runs).
private func writeRouteFiles(
    _ plan: ExperimentPlan, sample: PlotSample, store: ResultsStore, table: MetricsTable, routes: [String],
    out: ExperimentOutputs, progress: ProgressHandler?
) throws -> [String: [String]] {
    func path(_ p: String) -> String { (out.folder as NSString).appendingPathComponent(p) }
    var plots: [String: [String]] = [:]
    let firstConfig = plan.jobs.first?.configuration.label
    let chosenByRoute = Dictionary(grouping: sample.indices) { plan.jobs[$0].routeID }
    var rowsByRoute: [String: [Int]] = [:]
    for (i, r) in zip(table.rows.indices, table.rows) { rowsByRoute[r.route, default: []].append(i) }
    // The sample's runs stored with their paths (a pass over the sample's keys, no paths kept).
    let withPaths = try store.read { reader in
        try Set(sample.indices.filter { try reader.artifactNames(key: plan.jobs[$0].key).contains(ReplayPlotPaths.artifactName) })
    }
    let reruns = sample.indices.count - withPaths.count
    var rerunsDone = 0
    for route in routes {
        try table.writeCSV(to: path("routes/\(safeFileComponent(route)).csv"), rowIndices: rowsByRoute[route] ?? [])
        let chosen = chosenByRoute[route] ?? []
        let offset = rerunsDone
        var routeProgress: ProgressHandler? = nil
        if let progress {
            routeProgress = { p in progress(WorkProgress(phase: p.phase, done: offset + p.done, total: reruns)) }
        }
        let stored = try storedPlotRuns(plan, chosen: chosen.filter(withPaths.contains), store: store)
        let mine: [JobResult] = sample.results(plan, chosen: chosen, reusing: stored, progress: routeProgress)
        rerunsDone += chosen.filter { stored[$0] == nil }.count
        // Walked paths over the route (first configuration).
        var series = [SVGPlot.Series(label: "route (true)", points: mine.first?.route2D.map { (x: $0[0], y: $0[1]) } ?? [])]
        for r in mine where r.configuration == firstConfig {
            series.append(SVGPlot.Series(label: "\(r.session) true", points: r.truePath.map { (x: $0[0], y: $0[1]) }))
            series.append(SVGPlot.Series(label: "\(r.session) estimated", points: r.estimatedPath.map { (x: $0[0], y: $0[1]) }, dashed: true))
        }
        let paths = SVGPlot(
            title: "\(route): walked paths (\(firstConfig ?? ""))", xLabel: "east (m)", yLabel: "north (m)",
            series: series, equalAspect: true)
        try writeTextAtomically(paths.svg, to: path("plots/\(safeFileComponent(route))-paths.svg"))
        // Position-error CDF per configuration.
        var labels: [String] = []
        for r in mine where !labels.contains(r.configuration) { labels.append(r.configuration) }
        let cdf = SVGPlot(
            title: "\(route): position error CDF", xLabel: "|estimated − true| (m)", yLabel: "fraction (of samples)",
            series: distinctSeries(labels, values: { c in mine.filter { $0.configuration == c }.flatMap(\.positionErrors) }))
        try writeTextAtomically(cdf.svg, to: path("plots/\(safeFileComponent(route))-error-cdf.svg"))
        plots[route] = ["plots/\(safeFileComponent(route))-paths.svg", "plots/\(safeFileComponent(route))-error-cdf.svg"]
    }
    return plots
}

/// The runs `chosen` (job indices) as stored, with the paths of their `plot_paths` artifact; a
/// run whose row or artifact does not verify is left out (run again by the caller).
private func storedPlotRuns(_ plan: ExperimentPlan, chosen: [Int], store: ResultsStore) throws -> [Int: JobResult] {
    try store.read { reader in
        var runs: [Int: JobResult] = [:]
        for i in chosen {
            let job = plan.jobs[i]
            guard let row = try reader.result(key: job.key), row.kind == guidanceResultKind,
                let bytes = row.artifacts[ReplayPlotPaths.artifactName], let paths = ReplayPlotPaths(bytes: bytes)
            else { continue }
            runs[i] = JobResult(
                route: job.routeID, session: job.session ?? row.session, configuration: job.configuration.label,
                parameters: job.configuration.parameters, metrics: [], truePath: paths.truePath, estimatedPath: paths.estimatedPath,
                route2D: paths.route2D, positionErrors: paths.positionErrors)
        }
        return runs
    }
}

/// `plots/<metric>-vs-tolerance.svg` when the sweep has several RDP tolerances.
private func writeToleranceTrends(_ plan: ExperimentPlan, table: MetricsTable, routes: [String], out: ExperimentOutputs) throws {
    func path(_ p: String) -> String { (out.folder as NSString).appendingPathComponent(p) }
    if plan.spec.sweep.rdpTolerance.count > 1 {
        // One pass: sums by (metric, route, tolerance) of the two plotted metrics, in dense arrays
        // (memory O(routes × tolerances), not a dictionary entry per metric and route).
        let metrics = ["clock_agreement_within_1h", "end_of_route_error"]
        let tolerances = plan.spec.sweep.rdpTolerance
        // Rows carry each level's canonical text in the tolerance column: joined on it, not on a re-formatted number.
        let levels = plan.spec.sweep.levels(of: .rdpTolerance).map(\.text)
        let toleranceIndex = Dictionary(levels.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        guard let column = table.parameterColumns.firstIndex(of: SweepDimension.rdpTolerance.column) else { return }
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
            let plot = SVGPlot(
                title: "\(metric) vs RDP tolerance", xLabel: "RDP tolerance (m)", yLabel: unit.isEmpty ? metric : "\(metric) (\(unit))",
                series: series)
            try writeTextAtomically(plot.svg, to: path("plots/\(safeFileComponent(metric))-vs-tolerance.svg"))
        }
    }
}

/// The sections of the result kinds the spec asks for (calibration, proximity, gyroscope
/// filters, APE, the closed loop, walker uncertainty: `resultKindSections`), all read from
/// `store`, in the kinds' order: their files, and their Markdown, failure lines, Findings lines
/// and closed-loop effects for the summary.
private func writeSections(
    _ plan: ExperimentPlan, kinds: [any ResultKind], store: ResultsStore, out: ExperimentOutputs
) throws -> (markdown: String, failures: [String], findings: [String], closedLoopEffects: [ClosedLoopEffect]) {
    func path(_ p: String) -> String { (out.folder as NSString).appendingPathComponent(p) }
    let (sections, failures) = try resultKindSections(plan, kinds: kinds, store: store)
    var md = "", findings: [String] = [], effects: [ClosedLoopEffect] = []
    for section in sections {
        for file in section.files { try writeTextAtomically(file.contents, to: path(file.name)) }
        md += section.markdown
        findings += section.findings
        effects += section.levelEffects
    }
    return (md, failures, findings, effects)
}

/// The Findings lines where the replay and the closed loop disagree on a guidance level against
/// its dimension's first level: the closed-loop success rate significantly higher (lower) while
/// the replay's main effect is significantly worse (better) on some key metric; both effects
/// with their 95 % CIs.
func replayClosedLoopDisagreements(
    _ replay: [ExperimentStatistics.MainEffect], _ closedLoop: [ClosedLoopEffect], units: [String: String]
) -> [String] {
    closedLoop.filter(\.significant).compactMap { c in
        let walkersBetter = c.meanDifference > 0
        let opposite = replay.filter { e in
            guard e.dimension == c.dimension, e.level == c.level, e.reference == c.reference,
                intervalExcludesZero(low: e.ciLow, high: e.ciHigh), MetricPolarity.of(e.metric) != .neutral
            else { return false }
            let replayBetter = (MetricPolarity.of(e.metric) == .lowerIsBetter) == (e.meanDifference < 0)
            return replayBetter != walkersBetter
        }
        guard !opposite.isEmpty else { return nil }
        let said = opposite.map { e in
            let unit = units[e.metric].map { $0.isEmpty ? "" : " \($0)" } ?? ""
            return "\(e.metric) \(String(format: "%+.3g", e.meanDifference))\(unit) [\(String(format: "%+.3g, %+.3g", e.ciLow, e.ciHigh))]"
        }
        return "**Replay and closed loop disagree** on \(markdownInline(c.dimension)) \(markdownInline(c.level)) vs \(markdownInline(c.reference)): "
            + "the replay finds it \(walkersBetter ? "worse" : "better") (\(said.joined(separator: "; ")), n = \(opposite.map(\.n).max() ?? 0) units), "
            + "the closed-loop walkers succeed \(walkersBetter ? "more" : "less") often "
            + "(\(String(format: "%+.3g [%+.3g, %+.3g]", c.meanDifference, c.ciLow, c.ciHigh)), n = \(c.n) walkers)."
    }
}

/// `manifest.json`: the stamp, inputs with checksums, seeds, jobs, failures and machine facts.
private func writeManifest(
    _ plan: ExperimentPlan, failures: [String], command: String, inputs: [[String]], facts: [String: String],
    out: ExperimentOutputs
) throws {
    func path(_ p: String) -> String { (out.folder as NSString).appendingPathComponent(p) }
    struct Manifest: Encodable {
        var experiment: String, navbench_version: String, spec_sha256: String, command: String
        var inputs: [[String]], seeds: [UInt64], jobs: Int, failures: [String], facts: [String: String]
    }
    let enc = JSONEncoder()
    enc.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    let manifest = Manifest(
        experiment: plan.spec.name, navbench_version: NavbenchVersion.current, spec_sha256: plan.specSHA256,
        command: command, inputs: inputs, seeds: plan.spec.sweep.seeds, jobs: plan.jobs.count,
        failures: plan.failures + failures, facts: facts)
    try writeTextAtomically(String(decoding: try enc.encode(manifest), as: UTF8.self) + "\n", to: path("manifest.json"))
}
