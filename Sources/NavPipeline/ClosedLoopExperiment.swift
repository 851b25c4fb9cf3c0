import Foundation
import NavCore
import NavGuidance
import NavIO
import NavReport
import NavSim
import NavStatistics
import NavSynth

/// The closed-loop section's results: one row per (route, walker, VIO error, configuration,
/// seed, metric), the Markdown section, one SVG per route, failures.
public struct ClosedLoopSection: Sendable {
    public var table: MetricsTable
    public var markdown: String
    public var svgs: [(name: String, text: String)]
    public var failures: [String]
    /// Each swept guidance level's effect on the success rate (`closedLoopEffects`).
    public var effects: [ClosedLoopEffect] = []
    /// Its lines of the summary's Findings section.
    public var findings: [String] = []
}

/// The figures of a stored cell the section uses.
private struct CellFigures {
    var runs: Double, success_rate: Double, end_of_route_error: Double, corrections: Double, keypoints: Int?

    init(_ m: [Metric]) {
        func v(_ name: String) -> Double { m.first { $0.name == name }?.value ?? .nan }
        runs = v("runs"); success_rate = v("success_rate"); end_of_route_error = v("end_of_route_error"); corrections = v("corrections")
        keypoints = storedCount(v("keypoints"))
    }
}

/// The stored cells by route: the `closed-loop.csv` rows (the closed-loop dimensions' columns,
/// then the guidance configuration and the seed), each route's cells with their figures in route
/// order of first appearance, and the indices of the cells with a result.
private struct ClosedLoopRows {
    var table: MetricsTable
    var byRoute: [String: [(cell: ClosedLoopCell, figures: CellFigures)]] = [:]
    var routeOrder: [String] = []
    var present = Set<Int>()

    init(_ cp: ClosedLoopPlan, metrics: (ClosedLoopCell) -> [Metric]?) {
        let cl = cp.spec, dims = SweepDimension.closedLoop
        func dimsLabel(_ c: ClosedLoopCell) -> String {
            zip(dims, [c.walker, c.vioError, c.walls]).filter { cl.values(of: $0.0).count > 1 }.map { "\($0.0.label)=\($0.1)" }.joined(
                separator: " ")
        }
        var rows: [MetricRow] = []
        for c in cp.cells {
            guard let m = metrics(c) else { continue }
            present.insert(c.index)
            let config = cp.configurations[c.configuration].label
            let label = [dimsLabel(c), config == "default" ? "" : config].filter { !$0.isEmpty }.joined(separator: " ")
            let params = [c.walker, c.vioError, c.walls, config, String(c.seed)]
            for x in m {
                rows.append(
                    MetricRow(
                        route: c.routeID, session: c.session, configuration: label.isEmpty ? "default" : label, parameters: params,
                        metric: x.name, value: x.value, unit: x.unit))
            }
            if byRoute[c.routeID] == nil { routeOrder.append(c.routeID) }
            byRoute[c.routeID, default: []].append((c, CellFigures(m)))
        }
        table = MetricsTable(parameterColumns: dims.map(\.column) + ["guidance", "seed"], rows: rows)
    }
}

/// Builds the closed-loop section from each cell's metrics (`closedLoopMetrics` order; nil: the
/// cell has no result and is left out): one row per (route, walker, VIO error, walls,
/// configuration, seed, metric), the Markdown per route, one SVG per route whose sample paths
/// are walked again here (`samplePaths` walkers of one cell per route), and the lines of
/// unreadable floor plans.
func closedLoopSection(
    _ plan: ExperimentPlan, _ cp: ClosedLoopPlan, metrics: (ClosedLoopCell) -> [Metric]?, walkers: (ClosedLoopCell) -> ClosedLoopWalkers?
) -> ClosedLoopSection {
    let cl = cp.spec
    let configs = cp.configurations
    let dims = SweepDimension.closedLoop
    let rows = ClosedLoopRows(cp, metrics: metrics)
    // Markdown: per route, configurations × (walker, VIO error, walls) success rate and end error.
    var md = "\n## Closed loop: virtual blind walkers guided by Clew\n\n"
    md +=
        dims.map { d in "\(d.key) " + cl.values(of: d).map { markdownCode($0) }.joined(separator: ", ") }.joined(separator: " × ")
        + " × \(configs.count) guidance configurations × seeds \(cl.seeds.map(String.init).joined(separator: ", ")), \(cl.runs) walkers per cell "
        + "(walker profiles: docs/navigator.md; walls `venue` is open space for a recording without ground truth; `corridor` follows its recorded path). "
        + "Cells: success rate (arrived within 2 m of the true destination) with its Wilson 95 % interval (n = \(cl.runs) walkers × "
        + "\(cl.seeds.count) seed(s)), then the mean end-of-route error in metres (docs/guidance.md). All rows: `closed-loop.csv`.\n"
    md += walkerProvenanceMarkdown(cl.walkerLevels.map { (text: $0.text, profile: $0.value) })
    var svgs: [(String, String)] = []
    var collapsed = 0, configsTotal = 0
    let comparisons = closedLoopComparisons(cp.walkedCells(walkers), labels: configs.map(\.label))
    let tests = comparisons.filter { !$0.successP.isNaN }.count + comparisons.filter { !$0.errorP.isNaN }.count
    for route in rows.routeOrder {
        let table = closedLoopRouteTable(cp, route: route, entries: rows.byRoute[route]!)
        md += table.markdown
        md += closedLoopComparisonMarkdown(comparisons.filter { $0.route == route }, tests: tests)
        collapsed += table.shared; configsTotal += table.configurations
        if let figure = closedLoopFloorPlanFigure(plan, cp, route: route, present: rows.present) {
            svgs.append((figure.name, figure.svg))
            md += "\n" + ReportFigure(path: figure.name, alt: figure.alt).markdown + "\n"
        }
    }
    // Pooled over routes: each configuration's walkers of every route, then the paired comparisons.
    if rows.routeOrder.count > 1, !comparisons.isEmpty {
        md += closedLoopPooledTable(cp, walkers: walkers)
        md += closedLoopComparisonMarkdown(comparisons.filter { $0.route == allRoutesLabel }, tests: tests)
        // Against each swept guidance dimension: pooled over routes and the other dimensions, with CIs.
        for plot in closedLoopDimensionPlots(cp, sweep: plan.spec.sweep, walkers: walkers) {
            svgs.append((plot.name, plot.svg))
            md += "\n" + ReportFigure(path: plot.name, alt: plot.alt).markdown + "\n"
        }
    }
    if configsTotal > 0 {
        md += String(
            format:
                "\nGuidance configurations sharing an identical result vector (success rate, end error, corrections over every walker × VIO × walls cell) with another on the same route: %d of %d (%.0f %%).\n",
            collapsed, configsTotal, 100 * Double(collapsed) / Double(configsTotal))
    }
    let effects = closedLoopEffects(cp, sweep: plan.spec.sweep, options: plan.spec.statistics, walkers: walkers)
    return ClosedLoopSection(
        table: rows.table, markdown: md, svgs: svgs, failures: cp.recordings.compactMap { cp.floorPlanFailures[$0] }, effects: effects,
        findings: closedLoopFindings(effects, runs: cl.runs))
}

/// One route's table: per guidance configuration, each (walker, VIO error, walls) column's success
/// rate [Wilson 95 %] and mean end-of-route error over its seeds; with how many configurations
/// share their whole result vector with another (`shared` of `configurations`).
private func closedLoopRouteTable(
    _ cp: ClosedLoopPlan, route: String, entries: [(cell: ClosedLoopCell, figures: CellFigures)]
) -> (markdown: String, shared: Int, configurations: Int) {
    let cl = cp.spec
    let columns = cl.walkers.flatMap { w in cl.vioErrors.flatMap { v in cl.walls.map { (w, v, $0) } } }
    var md =
        "\n### \(markdownInline(route))\n\n| guidance | keypoints | "
        + columns.map { [$0.0, $0.1] + (cl.walls.count > 1 ? [$0.2] : []) }.map { markdownInline($0.joined(separator: " · ")) }.joined(
            separator: " | ") + " |\n"
    md += "|---|---:|" + String(repeating: "---|", count: columns.count) + "\n"
    var vectors: [String: [Int]] = [:]
    for (ci, c) in cp.configurations.enumerated() {
        guard let first = entries.first(where: { $0.0.configuration == ci }) else { continue }
        var cellsText: [String] = []
        for (w, v, wl) in columns {
            let agg = entries.filter { $0.0.configuration == ci && $0.0.walker == w && $0.0.vioError == v && $0.0.walls == wl }.map(\.1)
            guard !agg.isEmpty else { cellsText.append("–"); continue }
            let runs = agg.map(\.runs).reduce(0, +)
            let successes = agg.map { $0.success_rate * $0.runs }.reduce(0, +)
            // Counts back from the stored rates: whole numbers unless the store row is odd (NaN, huge),
            // which gives no interval rather than a trapping conversion.
            guard let k = Int(exactly: successes.rounded()), let n = Int(exactly: runs.rounded()), n > 0 else {
                cellsText.append("–"); continue
            }
            let ci95 = WilsonInterval(successes: k, trials: n)
            let err = agg.map { $0.end_of_route_error * $0.runs }.reduce(0, +) / runs
            cellsText.append(String(format: "%.2f [%.2f, %.2f] · %.2f m", successes / runs, ci95.low, ci95.high, err))
        }
        md += "| \(c.label) | \(first.1.keypoints.map(String.init) ?? "–") | " + cellsText.joined(separator: " | ") + " |\n"
        let key = entries.filter { $0.0.configuration == ci }.map { "\($0.1.success_rate)|\($0.1.end_of_route_error)|\($0.1.corrections)" }
            .joined(separator: ";")
        vectors[key, default: []].append(ci)
    }
    let shared = vectors.values.filter { $0.count > 1 }.reduce(0) { $0 + $1.count }
    return (md, shared, vectors.values.reduce(0) { $0 + $1.count })
}

/// A route's floor plan from above: the walls of the floors it visits (lower floors drawn
/// thicker), the route, its keypoints and the sample paths of the first walker at the last VIO
/// level, first walls and first configuration, walked again here (the store keeps aggregates,
/// never paths); nil when that cell has no result or its scenario cannot be built (listed with
/// the cells).
private func closedLoopFloorPlanFigure(
    _ plan: ExperimentPlan, _ cp: ClosedLoopPlan, route: String, present: Set<Int>
) -> (name: String, svg: String, alt: String)? {
    let cl = cp.spec
    guard
        let c = cp.cells.first(where: {
            $0.routeID == route && $0.configuration == 0 && $0.walker == cl.walkers.first && $0.vioError == cl.vioErrors.last
                && $0.walls == cl.walls.first && present.contains($0.index)
        }),
        let s = try? cp.scenario(c, inputs: plan.inputs)
    else { return nil }
    let r = simulateWalks(s, settings: cp.settings(c), seed: c.seed, runs: min(cl.samplePaths, cl.runs), samplePaths: cl.samplePaths)
    let routeFloors = Set(s.trueRoute.keypoints.map { s.floorPlan.floor(phoneAt: $0.position.y) })
    let title = "\(route): \(c.walker), vio \(c.vioError), walls \(c.walls), \(cp.configurations[0].label)"
    // The walkers drawn are the runs with a sample path (every run of this simulation).
    let drawn = r.outcomes.prefix(r.samplePaths.count).map { (success: $0.success, endOfRouteError: $0.end_of_route_error) }
    let alt = closedLoopFloorPlanFinding(title: title, keypoints: s.trueRoute.keypoints.count, walkers: Array(drawn))
    let svg = closedLoopSVG(
        title: title,
        walls: s.floorPlan.walls.filter { w in routeFloors.contains(w.floor) }.map { ($0.x0, $0.z0, $0.x1, $0.z1, $0.floor) },
        keypoints: s.trueRoute.keypoints.map(\.position),
        paths: r.samplePaths.enumerated().map { (label: "walker \($0.offset)", points: $0.element) }, description: alt)
    return ("plots/\(safeFileComponent(route))-closed-loop.svg", svg, alt)
}

/// The pooled table: every walker of a configuration on every route, its success rate [Wilson
/// 95 %] and the means [Student t 95 %] of its path measures.
private func closedLoopPooledTable(_ cp: ClosedLoopPlan, walkers: (ClosedLoopCell) -> ClosedLoopWalkers?) -> String {
    var md =
        "\n### All routes (pooled)\n\nEvery walker of a configuration on every route: success rate [Wilson 95 %], then means "
        + "[Student t 95 %] of the end-of-route error, SPL (success weighted by path length), PPWS (percent of the profile's "
        + "preferred speed), the mean deviation from the route, and nDTW and SDTW (how closely the walk follows the route, "
        + "Ilharco et al. 2019; docs/guidance.md).\n\n"
        + "| guidance | walkers | success rate | end-of-route error (m) | SPL (fraction) | PPWS (percent) | route deviation (m) | nDTW | SDTW |\n"
        + "|---|---:|---|---|---|---|---|---|---|\n"
    for (ci, c) in cp.configurations.enumerated() {
        let mine = cp.cells.filter { $0.configuration == ci }.compactMap { walkers($0) }
        let n = mine.map(\.success.count).reduce(0, +)
        guard n > 0 else { continue }
        let k = mine.map { $0.success.filter { $0 }.count }.reduce(0, +)
        let w = WilsonInterval(successes: k, trials: n)
        func interval(_ values: [Double], _ digits: Int) -> String {
            let finite = values.filter(\.isFinite)
            guard !finite.isEmpty else { return "–" }
            let t = StudentTInterval(finite)
            let f = "%.\(digits)f"
            return String(format: f, t.mean) + (t.low.isFinite ? " [" + String(format: f, t.low) + ", " + String(format: f, t.high) + "]" : "")
        }
        md +=
            "| \(markdownInline(c.label)) | \(n) | " + String(format: "%.2f [%.2f, %.2f]", w.proportion, w.low, w.high) + " | "
            + [
                interval(mine.flatMap(\.endOfRouteError), 2), interval(mine.flatMap(\.spl), 2), interval(mine.flatMap(\.ppws), 1),
                interval(mine.flatMap(\.routeDeviation), 2), interval(mine.flatMap(\.ndtw), 2), interval(mine.flatMap(\.sdtw), 2),
            ].joined(separator: " | ") + " |\n"
    }
    return md
}

/// The `closed-loop.csv` metrics of one cell: the aggregate of docs/guidance.md, named and
/// united by `closedLoopMetricColumns` (the store's columns), in that order.
func closedLoopMetrics(_ a: ClosedLoopAggregate, keypoints: Int) -> [Metric] {
    let values = [
        a.success_rate, a.success_rate_ci95[0], a.success_rate_ci95[1], a.success_rate_1m, a.arrived_rate, a.lost_rate,
        a.end_of_route_error, a.end_of_route_error_ci95[0], a.end_of_route_error_ci95[1], a.end_of_route_error_median,
        a.completion, a.path_length_ratio, a.time_to_complete ?? .nan, a.corrections, a.pulses, a.wall_contacts,
        a.false_arrivals, a.missed_arrivals, a.spl, a.spl_ci95[0], a.spl_ci95[1], a.ppws, a.ppws_ci95[0], a.ppws_ci95[1],
        a.route_deviation_mean, a.route_deviation_mean_ci95[0], a.route_deviation_mean_ci95[1], a.route_deviation_p95,
        a.ndtw, a.ndtw_ci95[0], a.ndtw_ci95[1], a.sdtw, a.sdtw_ci95[0], a.sdtw_ci95[1], Double(keypoints), Double(a.runs),
    ]
    return zip(closedLoopMetricColumns, values).map { Metric($0.name, $1, $0.unit) }
}

/// A count read from a results store: a whole number from 0 to 10^9, else nil. A stored number is
/// untrusted — checksums detect damage, anyone can recompute them — and `Int(_:)` traps on a
/// forged 1e300 or NaN.
func storedCount(_ x: Double) -> Int? { x >= 0 && x <= 1e9 ? Int(exactly: x) : nil }

// MARK: - Findings

/// The level text of every swept guidance dimension of each closed-loop configuration, by
/// `metrics.csv` column (`closedLoopConfigurations` order).
func closedLoopConfigurationLevels(_ sweep: Sweep, simulatesRegistration: Bool = false) -> [[String: String]] {
    let dims = closedLoopDimensions(simulatesRegistration: simulatesRegistration)
    var combos: [[String: String]] = [[:]]
    for d in dims {
        combos = combos.flatMap { c in
            sweep.values(of: d).map { v in
                var x = c
                x[d.column] = v
                return x
            }
        }
    }
    return combos
}

/// Per swept guidance dimension and level, its effect on the success rate against the
/// dimension's first level, paired within walkers (the unit: walker `run` of a recording × walls
/// × walker profile × VIO error × seed cell walks every configuration with the same random
/// streams), the other guidance dimensions averaged within a walker, with a 95 % BCa bootstrap
/// CI over the walkers.
///
/// Complexity: O(dimensions × cells × walkers + B · walkers) for B resamples.
func closedLoopEffects(
    _ cp: ClosedLoopPlan, sweep: Sweep, options: StatisticsOptions, walkers: (ClosedLoopCell) -> ClosedLoopWalkers?
) -> [ClosedLoopEffect] {
    let simulated = cp.spec.simulatesRegistration
    let levels = closedLoopConfigurationLevels(sweep, simulatesRegistration: simulated)
    var out: [ClosedLoopEffect] = []
    for d in closedLoopDimensions(simulatesRegistration: simulated) where sweep.values(of: d).count > 1 {
        let values = sweep.values(of: d)
        let reference = values[0]
        // Walkers by (cell, the other dimensions' levels) and level.
        var byKey: [String: [String: ClosedLoopWalkers]] = [:], cellOf: [String: String] = [:], cellOrder: [String] = []
        for c in cp.cells {
            guard let w = walkers(c), let l = levels[c.configuration][d.column] else { continue }
            let cell = [c.recording, c.walls, c.walker, c.vioError, String(c.seed)].joined(separator: "\u{1}")
            let others = levels[c.configuration].filter { $0.key != d.column }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let key = cell + "\u{2}" + others.joined(separator: "\u{1}")
            if cellOf[key] == nil { cellOf[key] = cell }
            if !cellOrder.contains(cell) { cellOrder.append(cell) }
            byKey[key, default: [:]][l] = w
        }
        for level in values.dropFirst() {
            // Per walker (cell, run): the sum and count of its paired differences over the other levels.
            var sums: [String: [(Double, Int)]] = [:]
            for key in byKey.keys.sorted() {
                guard let s = byKey[key], let a = s[level], let b = s[reference], let cell = cellOf[key] else { continue }
                let n = min(a.success.count, b.success.count)
                var mine = sums[cell] ?? []
                if mine.count < n { mine += [(Double, Int)](repeating: (0, 0), count: n - mine.count) }
                for i in 0..<n {
                    mine[i].0 += (a.success[i] ? 1 : 0) - (b.success[i] ? 1 : 0)
                    mine[i].1 += 1
                }
                sums[cell] = mine
            }
            let diffs = cellOrder.flatMap { cell in (sums[cell] ?? []).filter { $0.1 > 0 }.map { $0.0 / Double($0.1) } }
            guard !diffs.isEmpty else { continue }
            let ci = BootstrapInterval.mean(
                diffs, resamples: options.resamples, seed: streamSeed(options.seed, "closed-loop effect \(d.column) \(level)")
            ).bca
            out.append(
                ClosedLoopEffect(
                    dimension: d.column, level: level, reference: reference, n: diffs.count, meanDifference: ci.estimate, ciLow: ci.low,
                    ciHigh: ci.high))
        }
    }
    return out
}

/// How robust a closed-loop Findings line is to walker parameters (`WalkerRobustness`): what
/// the shares rest on, and the clause of a level (dimension column, level, the effect's sign when
/// significant) or nil.
struct FindingRobustness {
    var basis: String
    var clause: (_ dimension: String, _ level: String, _ sign: Double?) -> String?
}

/// The closed loop's Findings lines, one per swept guidance dimension; with a walker-uncertainty
/// analysis (`robustness`), each line ends with the share of sampled walkers for which each of
/// its levels' verdicts holds and where it flips.
func closedLoopFindings(_ effects: [ClosedLoopEffect], runs: Int, robustness: FindingRobustness? = nil) -> [String] {
    var dims: [String] = []
    for e in effects where !dims.contains(e.dimension) { dims.append(e.dimension) }
    return dims.map { d in
        let mine = effects.filter { $0.dimension == d }
        let parts = mine.map { e in
            "\(markdownInline(e.level)) vs \(markdownInline(e.reference)): "
                + (e.significant
                    ? "success rate \(e.meanDifference > 0 ? "higher" : "lower") (\(String(format: "%+.3g [%+.3g, %+.3g]", e.meanDifference, e.ciLow, e.ciHigh)))"
                    : "no difference in success rate")
        }
        let n = mine.map(\.n).max() ?? 0
        var clauses = ""
        if let r = robustness {
            let parts = mine.compactMap { e in r.clause(d, e.level, e.significant ? (e.meanDifference < 0 ? -1 : 1) : nil) }
            if !parts.isEmpty { clauses = " Walker parameters (" + r.basis + "): " + parts.joined(separator: "; ") + "." }
        }
        return "Closed loop, \(markdownInline(d)): " + parts.joined(separator: "; ")
            + " (95 % CIs over n = \(n) walkers: \(runs) per recording × walls × walker × VIO error × seed, paired across guidance)."
            + clauses
    }
}

/// Per swept guidance dimension, two SVGs against its levels (x: the level's value when every
/// level is a number, else its position, named in the axis label): the success rate of every
/// walker at that level (pooled over routes and the other dimensions) with its Wilson 95 %
/// interval, and the mean end-of-route error with its Student t 95 % interval (dashed: the
/// interval's ends); each with its text alternative (`closedLoopLevelFinding`).
func closedLoopDimensionPlots(
    _ cp: ClosedLoopPlan, sweep: Sweep, walkers: (ClosedLoopCell) -> ClosedLoopWalkers?
) -> [(name: String, svg: String, alt: String)] {
    let simulated = cp.spec.simulatesRegistration
    let levels = closedLoopConfigurationLevels(sweep, simulatesRegistration: simulated)
    var out: [(String, String, String)] = []
    for d in closedLoopDimensions(simulatesRegistration: simulated) where sweep.values(of: d).count > 1 {
        let values = sweep.values(of: d)
        let numeric = values.compactMap(Double.init)
        let xs = numeric.count == values.count && numeric.allSatisfy(\.isFinite) ? numeric : values.indices.map(Double.init)
        let axis =
            numeric.count == values.count
            ? d.label : d.label + " (" + values.enumerated().map { "\($0.offset) = \($0.element)" }.joined(separator: ", ") + ")"
        var success: [(Double, Double, Double)] = [], error: [(Double, Double, Double)] = []
        var walkersAt: [Int] = [], errorsAt: [Int] = []
        for level in values {
            let mine = cp.cells.filter { levels[$0.configuration][d.column] == level }.compactMap(walkers)
            let n = mine.map(\.success.count).reduce(0, +), k = mine.map { $0.success.filter { $0 }.count }.reduce(0, +)
            let w = WilsonInterval(successes: k, trials: n)
            success.append((w.proportion, w.low, w.high))
            let finite = mine.flatMap(\.endOfRouteError).filter(\.isFinite)
            let t = StudentTInterval(finite)
            error.append((t.mean, t.low, t.high))
            walkersAt.append(n)
            errorsAt.append(finite.count)
        }
        for (metric, unit, points, counts) in [("success_rate", "fraction", success, walkersAt), ("end_of_route_error", "m", error, errorsAt)] {
            func series(_ label: String, _ y: (Double, Double, Double) -> Double, dashed: Bool) -> SVGPlot.Series {
                SVGPlot.Series(label: label, points: zip(xs, points).map { (x: $0, y: y($1.0, $1.1, $1.2)) }, dashed: dashed, style: 0)
            }
            var plot = SVGPlot(
                title: "Closed loop: \(metric) vs \(d.label) (all routes, 95 % CI)", xLabel: axis, yLabel: "\(metric) (\(unit))",
                series: [
                    series(metric, { m, _, _ in m }, dashed: false), series("95 % CI, low", { _, l, _ in l }, dashed: true),
                    series("95 % CI, high", { _, _, h in h }, dashed: true),
                ])
            let levelsDrawn = zip(values, zip(points, counts)).map { LevelEstimate(level: $0, value: $1.0.0, low: $1.0.1, high: $1.0.2, n: $1.1) }
            let alt = closedLoopLevelFinding(measure: "\(metric) (\(unit))", dimension: d.label, levels: levelsDrawn)
            plot.description = alt
            out.append(("plots/closed-loop-\(metric)-vs-\(safeFileComponent(d.column)).svg", plot.svg, alt))
        }
    }
    return out
}

/// One level of a swept dimension as a closed-loop plot draws it: the estimate, its 95 % interval
/// and the walkers it rests on.
struct LevelEstimate {
    var level: String
    var value: Double
    var low: Double
    var high: Double
    var n: Int
}

/// The finding of a closed-loop plot against a swept dimension (its text alternative): each
/// level's estimate with its 95 % CI (at most `figureListLimit` levels, then "and N more"), the
/// walkers per level, and the levels with the highest and the lowest estimate.
///
/// - Complexity: O(levels).
func closedLoopLevelFinding(measure: String, dimension: String, levels: [LevelEstimate]) -> String {
    let head = "Closed loop, \(markdownInline(measure)) vs \(markdownInline(dimension)), all routes"
    let drawn = levels.map { l in
        "\(markdownInline(l.level)): \(figureNumber(l.value))" + (l.low.isFinite ? " [\(figureNumber(l.low)), \(figureNumber(l.high))]" : "")
    }
    let ns = levels.map(\.n)
    let walkers =
        Set(ns).count == 1 ? "n = \(ns[0]) walkers per level" : "n = \(ns.map(String.init).joined(separator: ", ")) walkers"
    let finite = levels.filter(\.value.isFinite)
    guard let high = finite.max(by: { $0.value < $1.value }), let low = finite.min(by: { $0.value < $1.value }) else {
        return head + ": no finite value."
    }
    let extremes =
        high.value == low.value
        ? "the same at every level" : "highest at \(markdownInline(high.level)), lowest at \(markdownInline(low.level))"
    return head + ": " + cappedList(drawn, limit: figureListLimit) + " (95 % CIs, \(walkers)); " + extremes + "."
}

/// The walkers' parameters with their values and sources (issue 30, item 7): what the closed
/// loop's conclusions rest on — published, assumed, a modelling choice, or set in the spec.
func walkerProvenanceMarkdown(_ walkers: [(text: String, profile: NavigatorProfile)]) -> String {
    guard let first = walkers.first else { return "" }
    let columns = walkers.map { $0.profile.parameters }
    var md =
        "\nWhat the walkers are (values and where each comes from; reasoning and citations: docs/navigator.md). "
        + "A conclusion that rests on an assumed value holds for that value only.\n\n"
        + "| parameter | unit | " + walkers.map { markdownInline($0.text) }.joined(separator: " | ") + " | source |\n"
        + "|---|---|" + String(repeating: "---:|", count: walkers.count) + "---|\n"
    for (i, p) in first.profile.parameters.enumerated() {
        let values = columns.map { c in String(format: "%g", c[i].value) }
        var sources: [(String, [String])] = []
        for (w, c) in zip(walkers, columns) {
            if let k = sources.firstIndex(where: { $0.0 == c[i].source.text }) {
                sources[k].1.append(w.text)
            } else {
                sources.append((c[i].source.text, [w.text]))
            }
        }
        let source =
            sources.count == 1
            ? sources[0].0 : sources.map { "\($0.1.map(markdownInline).joined(separator: ", ")): \($0.0)" }.joined(separator: "; ")
        md += "| `\(p.key)` | \(p.unit) | " + values.joined(separator: " | ") + " | \(markdownInline(source)) |\n"
    }
    return md
}
