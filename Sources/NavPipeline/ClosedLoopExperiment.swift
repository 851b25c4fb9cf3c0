import Foundation
import NavCore
import NavGuidance
import NavIO
import NavReport
import NavSim
import NavSynth

/// The `closed_loop` section of an experiment spec (docs/experiments.md): walker profiles ×
/// VIO error levels × the sweep's guidance configurations × seeds, `runs` walkers per cell,
/// on every recording of the inputs.
public struct ClosedLoopSpec: Sendable, Equatable {
    /// Values of the closed-loop dimensions (`SweepDimension.closedLoop`) by key, as given.
    public var values: [String: [String]] = [:]
    /// Walkers per cell.
    public var runs = 30
    public var seeds: [UInt64] = [1]
    /// Walked paths drawn per route (first walker, last VIO level, first configuration).
    public var samplePaths = 8
    /// Globs choosing the recordings walked among the experiment's inputs (all when empty).
    public var recordings: [String] = []
    public init() {}

    /// The values of a dimension (its default alone when not given).
    public func values(of d: SweepDimension) -> [String] { values[d.key] ?? [d.defaultValue] }
    public var walkers: [String] { values(of: .walker) }
    public var vioErrors: [String] { values(of: .vioError) }
    public var walls: [String] { values(of: .walls) }

    static var keys: [String] { SweepDimension.closedLoop.map(\.key) + ["runs", "seeds", "sample_paths", "recordings"] }

    /// Parses the `closed_loop` mapping; errors name `closed_loop.KEY`.
    static func parse(_ node: Any, file: String) throws(SpecError) -> ClosedLoopSpec {
        func fail(_ key: String, _ problem: String) -> SpecError { SpecError(file: file, key: "closed_loop" + (key.isEmpty ? "" : ".\(key)"), problem: problem) }
        guard let m = node as? [String: Any] else { throw fail("", "expected a mapping with keys \(keys.joined(separator: ", "))") }
        for k in m.keys.sorted() where !keys.contains(k) { throw fail(k, "unknown key; valid: \(keys.joined(separator: ", "))") }
        var s = ClosedLoopSpec()
        func strings(_ k: String) throws(SpecError) -> [String]? {
            guard let v = m[k] else { return nil }
            let l = (v as? [Any]) ?? [v]
            let out = l.compactMap { $0 as? String ?? ($0 as? CustomStringConvertible).map { "\($0)" } }
            guard !out.isEmpty, out.count == l.count else { throw fail(k, "expected a non-empty list") }
            var seen = Set<String>()
            for x in out where !seen.insert(x).inserted { throw fail(k, "'\(escapedForMessage(x))' is listed twice; each value once") }
            return out
        }
        for d in SweepDimension.closedLoop {
            guard let l = try strings(d.key) else { continue }
            s.values[d.key] = try l.map { (x: String) throws(SpecError) -> String in
                guard let c = d.validate(x) else { throw fail(d.key, d.problem(escapedForMessage(x))) }
                return c
            }
        }
        if let l = try strings("recordings") { s.recordings = l }
        if let v = m["runs"] {
            guard let n = v as? Int, n >= 1, n <= 100_000 else { throw fail("runs", "expected walkers per cell, an integer 1…100000") }
            s.runs = n
        }
        if let v = m["sample_paths"] {
            guard let n = v as? Int, n >= 0, n <= 100 else { throw fail("sample_paths", "expected an integer 0…100") }
            s.samplePaths = n
        }
        if let l = try strings("seeds") {
            s.seeds = try l.map { (x: String) throws(SpecError) -> UInt64 in
                guard let u = UInt64(x) else { throw fail("seeds", "'\(escapedForMessage(x))' is not a non-negative integer") }
                return u
            }
        }
        return s
    }

    /// The section as YAML lines (`--print-config`).
    var resolvedYAML: String {
        func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        var y = "closed_loop:\n"
        for d in SweepDimension.closedLoop { y += "  \(d.key): [" + values(of: d).map(q).joined(separator: ", ") + "]\n" }
        y += "  runs: \(runs)\n  seeds: [" + seeds.map(String.init).joined(separator: ", ") + "]\n  sample_paths: \(samplePaths)\n"
        if !recordings.isEmpty { y += "  recordings: [" + recordings.map(q).joined(separator: ", ") + "]\n" }
        return y
    }
}

/// A guidance configuration as the closed loop sees it: only what changes the route or the
/// guidance (RDP, crumbs, guidance parameters); registration and anchor choices belong to the
/// recorded navigation sessions and are replaced by the VIO error levels.
struct ClosedLoopConfiguration {
    var label: String
    var options: GuidanceOptions
}

/// The sweep dimensions that belong to recorded navigation sessions (registration, anchor
/// sightings, position filter, their seed): the closed loop replaces them with its VIO error
/// levels and does not cross them.
let navigationSessionDimensions: Set<String> = [SweepDimension.registration.key, SweepDimension.anchorSightings.key,
                                                 SweepDimension.positionFilter.key, SweepDimension.seeds.key]

/// The sweep's configurations deduplicated on the dimensions that change the route or the
/// guidance; labels name those that vary (`tol=0.6 words=clock`).
func closedLoopConfigurations(_ sweep: Sweep) -> [ClosedLoopConfiguration] {
    let dims = SweepDimension.all.filter { !navigationSessionDimensions.contains($0.key) }
    var values: [String: String] = [:]
    for d in SweepDimension.all where navigationSessionDimensions.contains(d.key) { values[d.key] = d.defaultValue }
    var combos: [[String]] = [[]]
    for d in dims { combos = combos.flatMap { c in sweep.values(of: d).map { c + [$0] } } }
    return combos.map { vals in
        var v = values
        for (d, x) in zip(dims, vals) { v[d.key] = x }
        let label = zip(dims, vals).filter { sweep.values(of: $0.0).count > 1 }.map { "\($0.0.label)=\($0.1)" }.joined(separator: " ")
        return ClosedLoopConfiguration(label: label.isEmpty ? "default" : label, options: SweepDimension.options(v))
    }
}

/// The closed-loop section's results: one row per (route, walker, VIO error, configuration,
/// seed, metric), the Markdown section, one SVG per route, failures.
public struct ClosedLoopSection: Sendable {
    public var table: MetricsTable
    public var markdown: String
    public var svgs: [(name: String, text: String)]
    public var failures: [String]
}

/// Runs the closed-loop section of `plan` (cells in parallel on `workers` threads; results in
/// a fixed order whatever the scheduling).
///
/// - Complexity: O(recordings · walkers · VIO levels · configurations · seeds · runs · ticks per walk).
public func runClosedLoopSection(_ plan: ExperimentPlan, workers: Int = 2) -> ClosedLoopSection {
    let cl = plan.spec.closedLoop ?? ClosedLoopSpec()
    var failures: [String] = []
    let configs = closedLoopConfigurations(plan.spec.sweep)
    let dims = SweepDimension.closedLoop
    // Cells: recording × walls × configuration (a scenario) × walker × VIO error × seed.
    let chosen = cl.recordings.isEmpty ? nil : Set(expandGlobs(cl.recordings))
    let recordings = plan.sessions.keys.sorted().filter { file in
        plan.sessions[file]!.metadata.kind == .recording && plan.sessions[file]!.vio != nil && (chosen?.contains(file) ?? true)
    }
    struct Cell: Sendable { var file: String; var scenario: ClosedLoopScenario; var route: String; var walker: String; var vio: String; var walls: String; var config: Int; var seed: UInt64 }
    var cells: [Cell] = []
    for file in recordings {
        let rec = plan.sessions[file]!
        var venuePlan: FloorPlan?
        do { venuePlan = try venueFloorPlan(recordingPath: file, session: rec) } catch { failures.append("\(error)") }
        for wallsText in cl.walls {
            for (ci, c) in configs.enumerated() {
                let s: ClosedLoopScenario
                do { s = try closedLoopScenario(recording: rec, options: c.options, walls: try WallsMode(parsing: wallsText), venuePlan: venuePlan) } catch {
                    failures.append("\(escapedForMessage(file)) [closed_loop \(c.label)]: \(error)")
                    continue
                }
                for w in cl.walkers { for v in cl.vioErrors { for seed in cl.seeds {
                    cells.append(Cell(file: file, scenario: s, route: s.routeID, walker: w, vio: v, walls: wallsText, config: ci, seed: seed))
                } } }
            }
        }
    }
    // Run the cells (parsing cannot fail: the spec validated every value).
    final class Box: @unchecked Sendable { var results: [ClosedLoopResult?]; init(_ n: Int) { results = Array(repeating: nil, count: n) } }
    let box = Box(cells.count)
    let lock = NSLock()
    let next = Counter()
    let sample = cl.samplePaths
    let allCells = cells
    DispatchQueue.concurrentPerform(iterations: max(1, min(workers, cells.count))) { _ in
        while true {
            let i = next.take()
            guard i < allCells.count else { return }
            let c = allCells[i]
            guard let walker = try? NavigatorProfile(parsing: c.walker), let vio = try? VIOErrorSpec(parsing: c.vio) else { continue }
            let settings = ClosedLoopSettings(walker: walker, vioError: vio, guidance: configs[c.config].options.guidance)
            let r = simulateWalks(c.scenario, settings: settings, seed: c.seed, runs: cl.runs, samplePaths: sample)
            lock.lock(); box.results[i] = r; lock.unlock()
        }
    }
    // Rows: the closed-loop dimensions' columns, then the guidance configuration and the seed.
    func dimsLabel(_ c: Cell) -> String {
        zip(dims, [c.walker, c.vio, c.walls]).filter { cl.values(of: $0.0).count > 1 }.map { "\($0.0.label)=\($0.1)" }.joined(separator: " ")
    }
    var rows: [MetricRow] = []
    var byRoute: [String: [(Cell, ClosedLoopAggregate)]] = [:]
    var routeOrder: [String] = []
    for (i, c) in cells.enumerated() {
        guard let r = box.results[i] else { continue }
        let a = r.aggregate
        let config = configs[c.config].label
        let label = [dimsLabel(c), config == "default" ? "" : config].filter { !$0.isEmpty }.joined(separator: " ")
        let params = [c.walker, c.vio, c.walls, config, String(c.seed)]
        let session = (c.file as NSString).lastPathComponent
        for m in closedLoopMetrics(a, keypoints: c.scenario.route.keypoints.count) {
            rows.append(MetricRow(route: c.route, session: session, configuration: label.isEmpty ? "default" : label, parameters: params,
                                  metric: m.name, value: m.value, unit: m.unit))
        }
        if byRoute[c.route] == nil { routeOrder.append(c.route) }
        byRoute[c.route, default: []].append((c, a))
    }
    let table = MetricsTable(parameterColumns: dims.map(\.column) + ["guidance", "seed"], rows: rows)
    // Markdown: per route, configurations × (walker, VIO error, walls) success rate and end error.
    var md = "\n## Closed loop: virtual blind walkers guided by Clew\n\n"
    md += dims.map { d in "\(d.key) " + cl.values(of: d).map { markdownCode($0) }.joined(separator: ", ") }.joined(separator: " × ")
        + " × \(configs.count) guidance configurations × seeds \(cl.seeds.map(String.init).joined(separator: ", ")), \(cl.runs) walkers per cell "
        + "(walker profiles: docs/navigator.md; recordings without ground truth are walked in open space). "
        + "Cells: success rate (arrived within 2 m of the true destination) with its Wilson 95 % interval (n = \(cl.runs) walkers × "
        + "\(cl.seeds.count) seed(s)), then the mean end-of-route error in metres (docs/guidance.md). All rows: `closed-loop.csv`.\n"
    var svgs: [(String, String)] = []
    var collapsed = 0, configsTotal = 0
    for route in routeOrder {
        let entries = byRoute[route]!
        let columns = cl.walkers.flatMap { w in cl.vioErrors.flatMap { v in cl.walls.map { (w, v, $0) } } }
        md += "\n### \(markdownInline(route))\n\n| guidance | keypoints | "
            + columns.map { [$0.0, $0.1] + (cl.walls.count > 1 ? [$0.2] : []) }.map { markdownInline($0.joined(separator: " · ")) }.joined(separator: " | ") + " |\n"
        md += "|---|---:|" + String(repeating: "---|", count: columns.count) + "\n"
        var vectors: [String: [Int]] = [:]
        for (ci, c) in configs.enumerated() {
            guard let first = entries.first(where: { $0.0.config == ci }) else { continue }
            var cellsText: [String] = []
            for (w, v, wl) in columns {
                let agg = entries.filter { $0.0.config == ci && $0.0.walker == w && $0.0.vio == v && $0.0.walls == wl }.map(\.1)
                guard !agg.isEmpty else { cellsText.append("–"); continue }
                let runs = agg.map { Double($0.runs) }.reduce(0, +)
                let successes = agg.map { $0.success_rate * Double($0.runs) }.reduce(0, +)
                let ci95 = wilsonInterval(successes: successes, n: runs)
                let err = agg.map { $0.end_of_route_error * Double($0.runs) }.reduce(0, +) / runs
                cellsText.append(String(format: "%.2f [%.2f, %.2f] · %.2f m", successes / runs, ci95[0], ci95[1], err))
            }
            md += "| \(c.label) | \(first.0.scenario.route.keypoints.count) | " + cellsText.joined(separator: " | ") + " |\n"
            let key = entries.filter { $0.0.config == ci }.map { "\($0.1.success_rate)|\($0.1.end_of_route_error)|\($0.1.corrections)" }.joined(separator: ";")
            vectors[key, default: []].append(ci)
        }
        let shared = vectors.values.filter { $0.count > 1 }.reduce(0) { $0 + $1.count }
        collapsed += shared; configsTotal += vectors.values.reduce(0) { $0 + $1.count }
        // SVG: floor plan, route, keypoints, sample paths of the first walker at the last VIO level, first walls, first configuration.
        if let i = cells.firstIndex(where: { $0.route == route && $0.config == 0 && $0.walker == cl.walkers.first && $0.vio == cl.vioErrors.last && $0.walls == cl.walls.first }),
           let r = box.results[i] {
            let c = cells[i], s = c.scenario
            // The walls of the floors the route visits (lower floors drawn thicker).
            let routeFloors = Set(s.trueRoute.keypoints.map { s.floorPlan.floor(phoneAt: $0.position.y) })
            let svg = closedLoopSVG(title: "\(route): \(c.walker), vio \(c.vio), walls \(c.walls), \(configs[0].label)",
                                    walls: s.floorPlan.walls.filter { w in routeFloors.contains(w.floor) }.map { ($0.x0, $0.z0, $0.x1, $0.z1, $0.floor) },
                                    keypoints: s.trueRoute.keypoints.map(\.position),
                                    paths: r.samplePaths.enumerated().map { (label: "walker \($0.offset)", points: $0.element) })
            let name = "plots/\(safeFileComponent(route))-closed-loop.svg"
            svgs.append((name, svg))
            md += "\n![](\(name))\n"
        }
    }
    if configsTotal > 0 {
        md += String(format: "\nGuidance configurations sharing an identical result vector (success rate, end error, corrections over every walker × VIO × walls cell) with another on the same route: %d of %d (%.0f %%).\n",
                     collapsed, configsTotal, 100 * Double(collapsed) / Double(configsTotal))
    }
    return ClosedLoopSection(table: table, markdown: md, svgs: svgs, failures: failures)
}

/// The `closed-loop.csv` metrics of one cell: the aggregate of docs/guidance.md with units.
func closedLoopMetrics(_ a: ClosedLoopAggregate, keypoints: Int) -> [Metric] {
    [
        Metric("success_rate", a.success_rate, "fraction"), Metric("success_rate_ci_low", a.success_rate_ci95[0], "fraction"),
        Metric("success_rate_ci_high", a.success_rate_ci95[1], "fraction"), Metric("success_rate_1m", a.success_rate_1m, "fraction"),
        Metric("arrived_rate", a.arrived_rate, "fraction"), Metric("lost_rate", a.lost_rate, "fraction"),
        Metric("end_of_route_error", a.end_of_route_error, "m"), Metric("end_of_route_error_ci_low", a.end_of_route_error_ci95[0], "m"),
        Metric("end_of_route_error_ci_high", a.end_of_route_error_ci95[1], "m"), Metric("end_of_route_error_median", a.end_of_route_error_median, "m"),
        Metric("completion", a.completion, "fraction"), Metric("path_length_ratio", a.path_length_ratio, "ratio"),
        Metric("time_to_complete", a.time_to_complete ?? .nan, "s"), Metric("corrections", a.corrections, "count"),
        Metric("pulses", a.pulses, "count"), Metric("wall_contacts", a.wall_contacts, "count"), Metric("false_arrivals", a.false_arrivals, "count"),
        Metric("missed_arrivals", a.missed_arrivals, "count"),
        Metric("keypoints", Double(keypoints), "count"), Metric("runs", Double(a.runs), "count"),
    ]
}

/// A thread-safe counter handing out indices.
final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func take() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value - 1 }
}
