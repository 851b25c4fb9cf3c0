import Foundation
import NavCore
import NavIO
import NavReport
import Synchronization

extension ExperimentSpec {
    /// The keys of the `statistics:` block.
    static let statisticsKeys = ["baseline", "resamples", "seed", "alpha", "large_sample"]

    /// Parses the optional `statistics:` block: `{baseline: LABEL, resamples: N ≥ 100, seed: N ≥ 0, alpha: (0, 1), large_sample: N ≥ 2}`.
    ///
    /// `configurations` are the sweep's labels; a baseline must name one of them (seed tokens left
    /// out, as the statistics treat seeds as replicates).
    static func parseStatistics(_ node: Any?, file: String, configurations: [String] = []) throws(SpecError) -> StatisticsOptions {
        var o = StatisticsOptions()
        guard let node else { return o }
        func fail(_ key: String, _ problem: String) -> SpecError { SpecError(file: file, key: key, problem: problem) }
        guard let m = node as? [String: Any] else {
            throw fail("statistics", "expected a mapping with keys baseline, resamples, seed, alpha, large_sample")
        }
        for k in m.keys.sorted() where !statisticsKeys.contains(k) {
            throw fail("statistics.\(k)", "unknown key; valid: baseline, resamples, seed, alpha, large_sample")
        }
        if let b = m["baseline"] {
            guard let s = b as? String, !s.isEmpty else { throw fail("statistics.baseline", "expected a configuration label as summary.md lists it") }
            let known = configurations.map { $0.split(separator: " ").filter { !$0.hasPrefix("seed=") }.joined(separator: " ") }
                .map { $0.isEmpty ? "default" : $0 }
            guard known.isEmpty || known.contains(s) else {
                let list = known.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (known.count > 5 ? ", …" : "")
                throw fail("statistics.baseline", "'\(escapedForMessage(s))' is not a configuration of the sweep; valid: \(list)")
            }
            o.baseline = s
        }
        if let r = m["resamples"] {
            guard let n = r as? Int, StatisticsOptions.resamplesRange.contains(n) else {
                throw fail("statistics.resamples", "'\(r)' is not an integer in 100…1000000")
            }
            o.resamples = n
        }
        if let s = m["seed"] {
            guard let n = s as? Int, n >= 0 else { throw fail("statistics.seed", "'\(s)' is not an integer ≥ 0") }
            o.seed = UInt64(n)
        }
        if let a = m["alpha"] {
            guard let x = (a as? Double) ?? (a as? Int).map(Double.init), x > 0, x < 1 else {
                throw fail("statistics.alpha", "'\(a)' is not in (0, 1)")
            }
            o.alpha = x
        }
        if let l = m["large_sample"] {
            guard let n = l as? Int, n >= 2, n <= 1_000_000_000 else {
                throw fail("statistics.large_sample", "'\(l)' is not an integer in 2…1000000000")
            }
            o.largeSample = n
        }
        return o
    }
}

/// The statistics step of `writeExperimentReport`: `cells.csv` and `comparisons.csv` (streamed),
/// the box plots of the key metrics (atomically), the statistics the summary prints (the pooled
/// table and the main effects) and the routes' sections of the summary, rendered as each route's
/// table is done (with its plots: `figures(route)`, which may wait for them), so memory is flat in
/// the number of routes. Resampling results come from `memo` when an earlier report of the folder
/// computed them. `files`: the names of the route pages and box plots written, for the report page.
func writeStatistics(
    _ plan: ExperimentPlan, table: MetricsTable, figures: @escaping @Sendable (String) -> [ReportFigure], out: ExperimentOutputs,
    progress: ProgressHandler? = nil,
    memo: (any ResamplingMemo)? = nil
) throws -> (statistics: ExperimentStatistics, routeSections: [String], files: [String]) {
    // What the box plots draw is read from the table meanwhile (it needs no statistics).
    let boxRead = DispatchGroup(), boxValues = Mutex<ExperimentStatistics.BoxPlotValues?>(nil), keyMetrics = plan.spec.keyMetrics
    DispatchQueue.global().async(group: boxRead) {
        let read = ExperimentStatistics.boxPlotValues(table, keyMetrics: keyMetrics)
        boxValues.withLock { $0 = read }
    }
    defer { boxRead.wait() }
    let cellsFile = try AtomicTextWriter(path: (out.folder as NSString).appendingPathComponent("cells.csv"))
    let comparisonsFile = try AtomicTextWriter(path: (out.folder as NSString).appendingPathComponent("comparisons.csv"))
    cellsFile.write(ExperimentStatistics.cellsHeader)
    comparisonsFile.write(ExperimentStatistics.comparisonsHeader)
    // Each route's section goes to routes/<route>.md (and its tables to routes/<route>.tex); the
    // summary links them (issue 28: the answers first, per-route detail in per-route files).
    var routeSections: [String] = [
        "## Routes\n\nEach route's tables (every configuration, its paired comparisons) and plots are in its own file "
            + "(`routes/<route>.md`; LaTeX: `routes/<route>.tex`; rows: `routes/<route>.csv`):\n\n"
    ]
    var files: [String] = []
    // A route's page and its LaTeX are rendered and written on a worker while the next tables are
    // computed (at most `pagesInFlight` at a time, so memory stays flat in routes); the first
    // failure in route order is thrown once all are done.
    let pages = DispatchGroup(), pagesInFlight = DispatchSemaphore(value: 2 * ProcessInfo.processInfo.activeProcessorCount)
    let pageFailure = Mutex<(route: Int, error: any Error)?>(nil)
    let folder = out.folder
    var statistics = ExperimentStatistics(
        table: table, keyMetrics: plan.spec.keyMetrics, options: plan.spec.statistics,
        cellSink: { cellsFile.write(ExperimentStatistics.csvLine($0)) },
        routeSink: { route in
            route.writeComparisonLines(to: comparisonsFile)
            for r in route.routes {
                // `files` holds one page a route so far: its count is this route's position.
                let name = "routes/\(safeFileComponent(r))", position = files.count, linked = figures(r).map { $0.linked(from: "../") }
                files.append(name + ".md")
                routeSections.append("- [\(markdownInline(r))](\(name).md)\n")
                pagesInFlight.wait()
                DispatchQueue.global().async(group: pages) {
                    defer { pagesInFlight.signal() }
                    let section = "[← summary](../summary.md)\n\n" + route.routeSectionMarkdown(r, plots: linked)
                    var tables = MarkdownTablesToLaTeX()
                    let latex = MarkdownTablesToLaTeX.header(source: name + ".md") + tables.feed(section) + tables.finish()
                    do {
                        try writeTextAtomically(section, to: (folder as NSString).appendingPathComponent(name + ".md"))
                        try writeTextAtomically(latex, to: (folder as NSString).appendingPathComponent(name + ".tex"))
                    } catch {
                        pageFailure.withLock { if $0 == nil || position < $0!.route { $0 = (position, error) } }
                    }
                }
            }
        }, progress: progress, memo: memo)
    pages.wait()
    if let failure = pageFailure.withLock({ $0 }) { throw failure.error }
    routeSections.append("\n")
    statistics.writeComparisonLines(to: comparisonsFile)
    try cellsFile.commit()
    try comparisonsFile.commit()
    traceMemory(plan, "report: statistics computed")
    // The box plots, drawn and written on the workers (the first failure in plot order thrown).
    boxRead.wait()
    let boxes = statistics.boxPlots(boxValues.withLock { $0! }), plotsFolder = (out.folder as NSString).appendingPathComponent("plots")
    _ = try mapConcurrently(boxes.count, workers: ProcessInfo.processInfo.activeProcessorCount) { i throws(TraceError) in
        try writeTextAtomically(boxes[i].svg, to: (plotsFolder as NSString).appendingPathComponent(boxes[i].file))
    }
    for (file, _, alt) in boxes {
        statistics.plots.append(ReportFigure(path: "plots/" + file, alt: alt))
        files.append("plots/" + file)
    }
    return (statistics, routeSections, files)
}

/// One CDF series per distinct configuration: configurations whose values are identical share a
/// series labelled "first (+k identical)"; each keeps the style of its position in `labels`, so a
/// configuration has the same colour in every plot. Each series comes with the values it draws.
///
/// Complexity: O(c² · n) for c configurations of n values.
func distinctSeries(_ labels: [String], values: (String) -> [Double]) -> [(series: SVGPlot.Series, values: [Double])] {
    var groups: [(label: String, index: Int, values: [Double], count: Int)] = []
    for (i, c) in labels.enumerated() {
        let v = values(c)
        if let g = groups.firstIndex(where: { $0.values.elementsEqual(v) { $0 == $1 || ($0.isNaN && $1.isNaN) } }) {
            groups[g].count += 1
        } else {
            groups.append((c, i, v, 1))
        }
    }
    return groups.map { g in
        let label = g.count > 1 ? "\(g.label) (+\(g.count - 1) identical)" : g.label
        return (SVGPlot.Series(label: label, points: cdfPoints(g.values), style: g.index), g.values)
    }
}
