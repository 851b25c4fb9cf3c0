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
    public var walkers: [String] = ["cane", "guide-dog"]
    public var vioErrors: [String] = ["none", "synth", "synth,yaw_offset=5"]
    public var runs = 30
    public var seeds: [UInt64] = [1]
    /// `corridor[:W]` or `none`; recordings without ground truth are always open space.
    public var walls = "corridor"
    /// Walked paths drawn per route (first walker, last VIO level, first configuration).
    public var samplePaths = 8
    public init() {}

    static let keys = ["walkers", "vio_errors", "runs", "seeds", "walls", "sample_paths"]

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
            return out
        }
        if let l = try strings("walkers") {
            for w in l { do { _ = try NavigatorProfile(parsing: w) } catch { throw fail("walkers", error.description) } }
            s.walkers = l
        }
        if let l = try strings("vio_errors") {
            for v in l { do { _ = try VIOErrorSpec(parsing: v) } catch { throw fail("vio_errors", error.description) } }
            s.vioErrors = l
        }
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
                guard let u = UInt64(x) else { throw fail("seeds", "'\(x)' is not a non-negative integer") }
                return u
            }
        }
        if let v = m["walls"] {
            guard let w = v as? String, (try? WallsMode(parsing: w)) != nil else { throw fail("walls", "expected none, corridor or corridor:HALF_WIDTH") }
            s.walls = w
        }
        return s
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
    // Recordings with a route, by file name.
    let recordings = plan.sessions.keys.sorted().filter { plan.sessions[$0]!.metadata.kind == .recording && plan.sessions[$0]!.vio != nil }
    struct Cell: Sendable { var file: String; var scenario: ClosedLoopScenario; var route: String; var walker: String; var vio: String; var config: Int; var seed: UInt64 }
    var cells: [Cell] = []
    var scenarios: [String: [ClosedLoopScenario?]] = [:]
    for file in recordings {
        let rec = plan.sessions[file]!
        var list: [ClosedLoopScenario?] = []
        for c in configs {
            do {
                let walls: WallsMode = rec.groundTruth == nil ? .none : try WallsMode(parsing: cl.walls)
                list.append(try closedLoopScenario(recording: rec, options: c.options, walls: walls))
            } catch {
                failures.append("\(escapedForMessage(file)) [closed_loop \(c.label)]: \(error)")
                list.append(nil)
            }
        }
        scenarios[file] = list
        for w in cl.walkers { for v in cl.vioErrors { for (ci, _) in configs.enumerated() { for seed in cl.seeds {
            guard let s = list[ci] else { continue }
            cells.append(Cell(file: file, scenario: s, route: s.routeID, walker: w, vio: v, config: ci, seed: seed))
        } } } }
    }
    // Run the cells.
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
            let settings = ClosedLoopSettings(walker: try! NavigatorProfile(parsing: c.walker), vioError: try! VIOErrorSpec(parsing: c.vio),
                                              guidance: configs[c.config].options.guidance)
            let r = simulateWalks(c.scenario, settings: settings, seed: c.seed, runs: cl.runs, samplePaths: sample)
            lock.lock(); box.results[i] = r; lock.unlock()
        }
    }
    // Rows.
    var rows: [MetricRow] = []
    var byRoute: [String: [(Cell, ClosedLoopAggregate)]] = [:]
    var routeOrder: [String] = []
    for (i, c) in cells.enumerated() {
        guard let r = box.results[i] else { continue }
        let a = r.aggregate
        let config = configs[c.config].label
        let label = "\(c.walker) | \(c.vio) | \(config)"
        let params = [c.walker, c.vio, config, String(c.seed)]
        let session = (c.file as NSString).lastPathComponent
        let values: [(String, Double, String)] = [
            ("success_rate", a.success_rate, "fraction"), ("success_rate_ci_low", a.success_rate_ci95[0], "fraction"),
            ("success_rate_ci_high", a.success_rate_ci95[1], "fraction"), ("success_rate_1m", a.success_rate_1m, "fraction"),
            ("end_of_route_error", a.end_of_route_error, "m"), ("end_of_route_error_median", a.end_of_route_error_median, "m"),
            ("completion", a.completion, "fraction"), ("path_length_ratio", a.path_length_ratio, "ratio"),
            ("time_to_complete", a.time_to_complete ?? .nan, "s"), ("corrections", a.corrections, "count"),
            ("pulses", a.pulses, "count"), ("wall_contacts", a.wall_contacts, "count"), ("false_arrivals", a.false_arrivals, "count"),
            ("missed_arrivals", a.missed_arrivals, "count"), ("lost_rate", a.lost_rate, "fraction"),
            ("keypoints", Double(c.scenario.route.keypoints.count), "count"), ("runs", Double(a.runs), "count"),
        ]
        for (m, v, u) in values { rows.append(MetricRow(route: c.route, session: session, configuration: label, parameters: params, metric: m, value: v, unit: u)) }
        if byRoute[c.route] == nil { routeOrder.append(c.route) }
        byRoute[c.route, default: []].append((c, a))
    }
    let table = MetricsTable(parameterColumns: ["walker", "vio_error", "guidance", "seed"], rows: rows)
    // Markdown: per route, configurations × (walker, VIO error) success rate and end error.
    var md = "\n## Closed loop: virtual blind walkers guided by Clew\n\n"
    md += "Walkers (docs/navigator.md) \(cl.walkers.map { "`\($0)`" }.joined(separator: ", ")) × VIO error \(cl.vioErrors.map { "`\($0)`" }.joined(separator: ", ")) × "
        + "\(configs.count) guidance configurations × seeds \(cl.seeds.map(String.init).joined(separator: ", ")), \(cl.runs) walkers per cell; "
        + "walls: \(cl.walls) (open space without ground truth). Cells: success rate (arrived within 2 m of the true destination) "
        + "with its Wilson 95 % interval, then the mean end-of-route error in metres (docs/guidance.md). All rows: `closed-loop.csv`.\n"
    var svgs: [(String, String)] = []
    var collapsed = 0, configsTotal = 0
    for route in routeOrder {
        let entries = byRoute[route]!
        let columns = cl.walkers.flatMap { w in cl.vioErrors.map { (w, $0) } }
        md += "\n### \(markdownInline(route))\n\n| guidance | keypoints | " + columns.map { "\($0.0) · \($0.1)" }.joined(separator: " | ") + " |\n"
        md += "|---|---:|" + String(repeating: "---|", count: columns.count) + "\n"
        var vectors: [String: [Int]] = [:]
        for (ci, c) in configs.enumerated() {
            guard let first = entries.first(where: { $0.0.config == ci }) else { continue }
            var cellsText: [String] = []
            for (w, v) in columns {
                let agg = entries.filter { $0.0.config == ci && $0.0.walker == w && $0.0.vio == v }.map(\.1)
                guard let a = agg.first else { cellsText.append("–"); continue }
                let rate = agg.map(\.success_rate).reduce(0, +) / Double(agg.count)
                let err = agg.map(\.end_of_route_error).reduce(0, +) / Double(agg.count)
                cellsText.append(String(format: "%.2f [%.2f, %.2f] · %.2f m", rate, a.success_rate_ci95[0], a.success_rate_ci95[1], err))
            }
            md += "| \(c.label) | \(first.0.scenario.route.keypoints.count) | " + cellsText.joined(separator: " | ") + " |\n"
            let key = entries.filter { $0.0.config == ci }.map { "\($0.1.success_rate)|\($0.1.end_of_route_error)|\($0.1.corrections)" }.joined(separator: ";")
            vectors[key, default: []].append(ci)
        }
        let shared = vectors.values.filter { $0.count > 1 }.reduce(0) { $0 + $1.count }
        collapsed += shared; configsTotal += configs.count
        // SVG: floor plan, route, keypoints, sample paths of the first walker at the last VIO level, first configuration.
        if let e = entries.first(where: { $0.0.config == 0 && $0.0.walker == cl.walkers.first && $0.0.vio == cl.vioErrors.last }),
           let i = cells.firstIndex(where: { $0.route == route && $0.config == 0 && $0.walker == e.0.walker && $0.vio == e.0.vio && $0.seed == e.0.seed }),
           let r = box.results[i] {
            let s = e.0.scenario
            let svg = closedLoopSVG(title: "\(route): \(e.0.walker), vio \(e.0.vio), \(configs[0].label)", walls: s.floorPlan.walls.map { ($0.x0, $0.z0, $0.x1, $0.z1, $0.floor) },
                                    keypoints: s.trueRoute.keypoints.map(\.position),
                                    paths: r.samplePaths.enumerated().map { (label: "walker \($0.offset)", points: $0.element) })
            let name = "plots/\(safeFileComponent(route))-closed-loop.svg"
            svgs.append((name, svg))
            md += "\n![](\(name))\n"
        }
    }
    if configsTotal > 0 {
        md += String(format: "\nConfigurations sharing an identical result vector (success rate, end error, corrections over every walker × VIO cell) with another on the same route: %d of %d (%.0f %%).\n",
                     collapsed, configsTotal, 100 * Double(collapsed) / Double(configsTotal))
    }
    return ClosedLoopSection(table: table, markdown: md, svgs: svgs, failures: failures)
}

/// A thread-safe counter handing out indices.
final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func take() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value - 1 }
}
