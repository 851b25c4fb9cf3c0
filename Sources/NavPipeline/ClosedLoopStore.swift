import Foundation
import GRDB
import NavCore
import NavIO
import NavSim
import NavSynth
import Synchronization

// The closed-loop section as run-phase work: its cells are planned like jobs, split across
// shards like jobs, run on the `--jobs` workers right after them (`executeClosedLoopCells`) and
// committed to the results store as results of kind `closed_loop`; the report reads them from there
// (`closedLoopSection(_:store:)`) and never walks a cell again (only the few sample paths its
// SVGs draw). Table, key and queries: docs/experiments.md ("Results store").

/// One closed-loop cell: `runs` virtual walkers of one profile, on one recording's route with
/// one walls mode and one guidance configuration, under one VIO error level and one seed.
public struct ClosedLoopCell: Sendable {
    /// Position in the plan's cell order (also the shard split: `shardRange`, as for jobs).
    public var index: Int
    /// The recording walked (a path among the experiment's inputs).
    public var recording: String
    public var routeID: String
    public var walls: String
    /// Index into the closed-loop configurations (`closedLoopConfigurations`).
    public var configuration: Int
    public var walker: String
    public var vioError: String
    public var seed: UInt64
    /// The parsed values of `walls`, `walker` and `vioError` (from the spec's levels: never parsed again).
    public var wallsMode: WallsMode
    public var walkerProfile: NavigatorProfile
    public var vioErrorSpec: VIOErrorSpec
    /// Identity in the store: SHA-256 of the navbench version, the recording's checksum, its
    /// venue floor plan file's checksum (empty when there is none) and the cell's canonical
    /// parameters (walls, guidance options' canonical JSON, walker, VIO error, seed, runs).
    public var key: String
    /// The session label of its rows (the recording's file name).
    public var session: String { (recording as NSString).lastPathComponent }
}

/// The closed-loop cells of an experiment, in a fixed order (recording, walls, configuration,
/// walker, VIO error, seed), and what they need besides the loaded sessions.
public struct ClosedLoopPlan: Sendable {
    public var spec: ClosedLoopSpec
    var configurations: [ClosedLoopConfiguration]
    public var cells: [ClosedLoopCell]
    /// The recordings walked, sorted.
    public var recordings: [String]
    /// Venue floor plans by recording (absent: none, or unreadable).
    var floorPlans: [String: FloorPlan]
    /// The error line of an unreadable floor plan, by recording (its walks fall back to a corridor).
    var floorPlanFailures: [String: String]

    /// The label of a cell's guidance configuration (`default` when the sweep has one).
    func label(_ c: ClosedLoopCell) -> String { configurations[c.configuration].label }

    /// The walk settings of a cell.
    func settings(_ c: ClosedLoopCell) -> ClosedLoopSettings {
        configurations[c.configuration].settings(walker: c.walkerProfile, vioError: c.vioErrorSpec)
    }

    /// The scenario a cell walks (the route Clew records from the recording with the cell's
    /// guidance options, its walls).
    func scenario(_ c: ClosedLoopCell, inputs: SessionCatalog) throws -> ClosedLoopScenario {
        try closedLoopScenario(
            recording: try inputs.session(c.recording), options: configurations[c.configuration].options,
            walls: c.wallsMode, venuePlan: floorPlans[c.recording])
    }

    /// The cells with walkers (`walkers` nil: no result), as the paired comparisons take them.
    func walkedCells(_ walkers: (ClosedLoopCell) -> ClosedLoopWalkers?) -> [WalkedCell] {
        cells.compactMap { c in
            walkers(c).map {
                WalkedCell(
                    route: c.routeID, cell: [c.recording, c.walls, c.walker, c.vioError, String(c.seed)].joined(separator: "\u{1}"),
                    configuration: c.configuration, walkers: $0)
            }
        }
    }

    /// The failure line of a scenario that cannot be built (as the section lists it).
    func scenarioFailure(_ c: ClosedLoopCell, _ error: Error) -> String {
        "\(escapedForMessage(c.recording)) [closed_loop \(label(c))]: \(error)"
    }
}

/// Lists the closed-loop cells of `plan` (none without a `closed_loop` section). Reads each
/// walked recording's venue floor plan (checked as `venueFloorPlan` does) and hashes it.
///
/// - Complexity: O(cells) plus one floor-plan read per recording.
public func planClosedLoopCells(_ plan: ExperimentPlan) -> ClosedLoopPlan {
    let cl = plan.spec.closedLoop ?? ClosedLoopSpec()
    let configs = closedLoopConfigurations(plan.spec.sweep, simulatesRegistration: cl.simulatesRegistration)
    guard plan.spec.closedLoop != nil else {
        return ClosedLoopPlan(spec: cl, configurations: configs, cells: [], recordings: [], floorPlans: [:], floorPlanFailures: [:])
    }
    let chosen = cl.recordings.isEmpty ? nil : Set(expandGlobs(cl.recordings))
    let recordings = plan.inputs.names.filter { file in
        let e = plan.inputs.entries[file]!
        return e.metadata.kind == .recording && e.streams?.contains(.vio) == true && (chosen?.contains(file) ?? true)
    }
    var cells: [ClosedLoopCell] = [], floorPlans: [String: FloorPlan] = [:], floorPlanFailures: [String: String] = [:]
    for file in recordings {
        let rec = plan.inputs.metadata(file)!
        var planSHA = ""
        do {
            if let fp = try venueFloorPlanFile(recordingPath: file, metadata: rec) {
                floorPlans[file] = fp.plan
                planSHA = fp.sha256
            }
        } catch {
            floorPlanFailures[file] = "\(error)"
            planSHA = "unreadable"
        }
        let route = rec.routeID.isEmpty ? rec.sessionID : rec.routeID
        for walls in cl.wallsLevels {
            for (ci, c) in configs.enumerated() {
                for w in cl.walkerLevels {
                    for v in cl.vioErrorLevels {
                        for seed in cl.seeds {
                            // Fields length-prefixed: no value can be mistaken for another's continuation.
                            let fields =
                                [
                                    "navbench \(NavbenchVersion.current)", "closed-loop", plan.checksums[file] ?? "", planSHA, walls.text,
                                    c.options.canonicalJSON, w.text + (w.value.sourceSHA256.isEmpty ? "" : " sha256:" + w.value.sourceSHA256), v.text,
                                    String(seed), String(cl.runs),
                                ] + (cl.simulatesRegistration ? ["registration simulated"] : [])
                            let key = sha256Hex(of: Data(fields.map { "\($0.utf8.count):\($0)" }.joined().utf8))
                            cells.append(
                                ClosedLoopCell(
                                    index: cells.count, recording: file, routeID: route, walls: walls.text, configuration: ci,
                                    walker: w.text, vioError: v.text, seed: seed, wallsMode: walls.value, walkerProfile: w.value,
                                    vioErrorSpec: v.value, key: key))
                        }
                    }
                }
            }
        }
    }
    return ClosedLoopPlan(
        spec: cl, configurations: configs, cells: cells, recordings: recordings, floorPlans: floorPlans,
        floorPlanFailures: floorPlanFailures)
}

/// The scenario a cell walks, as a key: cells of one (recording, walls, configuration) share it.
func closedLoopScenarioID(_ c: ClosedLoopCell) -> String { "\(c.recording)\u{1}\(c.walls)\u{1}\(c.configuration)" }

/// What `executeClosedLoopCells` did for its shard.
public struct ClosedLoopRunCounts: Sendable, Equatable {
    /// Cells of this shard with a verified row in the store afterwards.
    public var done = 0
    /// Cells walked in this call (the others were present and verified in the store).
    public var computed = 0
    /// Cells that could not be walked (their scenario failed), one line per scenario.
    public var failures: [String] = []
}

/// Walks the closed-loop cells of shard `shard` of `shards` (`shardRange` of the cell order, the jobs' rule) that
/// are not present and verified in the store at `storePath`, on `workers` threads, committing
/// each finished cell's aggregate metrics (`closedLoopMetrics`) to the store (kind `closed_loop`)
/// in batches of `closedLoopBatchSize`. A `kill -9` loses at most the cells in flight
/// and the pending batch; a rerun walks only those. Call it after `executeJobs` (same store).
///
/// - Throws: `ResultsStoreError` when the store cannot be opened or written.
/// - Complexity: O(cells · runs · ticks per walk) time; memory O(workers + batch + scenarios).
public func executeClosedLoopCells(
    _ plan: ExperimentPlan, storePath: String, workers: Int, shard: Int = 1, shards: Int = 1,
    progress: ProgressHandler? = nil
) throws -> ClosedLoopRunCounts {
    guard plan.spec.closedLoop != nil else { return ClosedLoopRunCounts() }
    let cp = planClosedLoopCells(plan)
    let mine = cp.cells[shardRange(count: cp.cells.count, shard: shard, shards: shards)]
    try? FileManager.default.createDirectory(atPath: (storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let store = try ResultsStore(path: storePath)
    let todo = try store.read { reader in try mine.filter { try reader.closedLoopCell(key: $0.key) == nil } }
    // Scenarios of the cells to walk, built once per (recording, walls, configuration).
    var scenarios: [String: ClosedLoopScenario] = [:], failures: [String] = []
    var failed = Set<String>()
    for c in todo where scenarios[closedLoopScenarioID(c)] == nil && !failed.contains(closedLoopScenarioID(c)) {
        do { scenarios[closedLoopScenarioID(c)] = try cp.scenario(c, inputs: plan.inputs) } catch {
            failed.insert(closedLoopScenarioID(c))
            failures.append(cp.scenarioFailure(c, error))
        }
    }
    let runnable = todo.filter { scenarios[closedLoopScenarioID($0)] != nil }
    let writer = store.writer(batchSize: closedLoopBatchSize)
    let state = Mutex((computed: 0, storeError: String?.none))
    let allScenarios = scenarios
    let runs = cp.spec.runs
    forEachConcurrently(runnable.count, workers: workers, phase: "closed-loop cells", progress: progress) { i in
        let c = runnable[i]
        let settings = cp.settings(c)
        guard let scenario = allScenarios[closedLoopScenarioID(c)] else { return .next }
        let started = Date()
        let r = simulateWalks(scenario, settings: settings, seed: c.seed, runs: runs)
        let metrics = closedLoopMetrics(r.aggregate, keypoints: scenario.route.keypoints.count)
        var storeError: String?
        do {
            try writer.add(
                storedClosedLoopCell(
                    c, guidance: cp.label(c), metrics: metrics, walkers: ClosedLoopWalkers(r.outcomes),
                    recordingSHA256: plan.checksums[c.recording] ?? "",
                    seconds: Date().timeIntervalSince(started)))
        } catch { storeError = "\(error)" }
        return state.withLock { s in
            s.computed += 1
            if let storeError, s.storeError == nil { s.storeError = storeError }
            return s.storeError == nil ? .next : .stop
        }
    }
    try writer.flush()
    if let e = state.withLock({ $0.storeError }) { throw ResultsStoreError.unreadable(path: storePath, reason: e) }
    let done = try store.read { reader in try mine.filter { try reader.closedLoopCell(key: $0.key) != nil }.count }
    return ClosedLoopRunCounts(done: done, computed: state.withLock { $0.computed }, failures: failures)
}

/// The closed-loop section of the report from the cells in `store` (never walked again: only
/// the SVGs' sample paths are re-run). A cell without a verified row is listed as a failure:
/// its scenario's error when it cannot be built, else "no result".
public func closedLoopSection(_ plan: ExperimentPlan, store: ResultsStore) throws -> ClosedLoopSection {
    let cp = planClosedLoopCells(plan)
    let stored = try store.read { reader in try cp.cells.map { try reader.closedLoopCell(key: $0.key) } }
    var section = closedLoopSection(plan, cp, metrics: { stored[$0.index]?.metrics }, walkers: { stored[$0.index]?.walkers })
    // Missing cells: grouped by scenario, in cell order.
    var seen = Set<String>()
    for c in cp.cells where stored[c.index] == nil {
        let id = closedLoopScenarioID(c)
        if seen.contains(id) { continue }
        do { _ = try cp.scenario(c, inputs: plan.inputs) } catch {
            seen.insert(id)
            section.failures.append(cp.scenarioFailure(c, error))
            continue
        }
        section.failures.append(
            "\(escapedForMessage(c.recording)) [closed_loop \(cp.label(c)) walker=\(escapedForMessage(c.walker)) vio=\(escapedForMessage(c.vioError)) walls=\(c.walls) seed=\(c.seed)]: no result (its shard did not run, or the run was stopped)"
        )
    }
    return section
}

// MARK: - Store table

/// The metrics of a closed-loop cell with their units, in the order `closedLoopMetrics` fills
/// them (its metric rows in the store, the columns of `closed-loop.csv`).
let closedLoopMetricColumns: [(name: String, unit: String)] = [
    ("success_rate", "fraction"), ("success_rate_ci_low", "fraction"), ("success_rate_ci_high", "fraction"), ("success_rate_1m", "fraction"),
    ("arrived_rate", "fraction"), ("lost_rate", "fraction"), ("end_of_route_error", "m"), ("end_of_route_error_ci_low", "m"),
    ("end_of_route_error_ci_high", "m"), ("end_of_route_error_median", "m"), ("completion", "fraction"), ("path_length_ratio", "ratio"),
    ("time_to_complete", "s"), ("corrections", "count"), ("pulses", "count"), ("wall_contacts", "count"), ("false_arrivals", "count"),
    ("missed_arrivals", "count"), ("spl", "fraction"), ("spl_ci_low", "fraction"), ("spl_ci_high", "fraction"), ("ppws", "percent"),
    ("ppws_ci_low", "percent"), ("ppws_ci_high", "percent"), ("route_deviation_mean", "m"), ("route_deviation_mean_ci_low", "m"),
    ("route_deviation_mean_ci_high", "m"), ("route_deviation_p95", "m"), ("keypoints", "count"), ("runs", "count"),
]

/// The `kind` of a closed-loop cell's row in the results store.
let closedLoopResultKind = "closed_loop"

/// A cell's parameters besides its guidance configuration, as the store's `parameters` column
/// (one `name=value` per line; the row checksum covers them).
func closedLoopCellParameters(_ c: ClosedLoopCell) -> String {
    "walker=\(c.walker)\nvio_error=\(c.vioError)\nwalls=\(c.walls)\nseed=\(c.seed)"
}

/// A walked cell as it goes into the store (a result of kind `closed_loop`).
func storedClosedLoopCell(
    _ c: ClosedLoopCell, guidance: String, metrics: [Metric], walkers: ClosedLoopWalkers, recordingSHA256: String, seconds: Double
) -> StoredResult {
    StoredResult(
        key: c.key, kind: closedLoopResultKind, index: c.index, route: c.routeID, session: c.session, configuration: guidance,
        parameters: closedLoopCellParameters(c), recordingSHA256: recordingSHA256, seconds: seconds, metrics: metrics,
        artifacts: [ClosedLoopWalkers.artifactName: walkers.bytes])
}

/// Cells committed per transaction (a cell is `runs` walks: batches stay small so a `kill -9`
/// loses little).
let closedLoopBatchSize = 8

extension StoreReader {
    /// The metrics (`closedLoopMetrics` order, names and units) and walkers of the closed-loop
    /// cell `key` if its row is present, of kind `closed_loop`, its checksum verifies and its
    /// walkers artifact decodes to `runs` walkers; nil otherwise (the cell is walked again: a
    /// store from before the artifacts table too).
    ///
    /// Complexity: O(m log n + w) for m metrics of n stored results and w walkers.
    public func closedLoopCell(key: String) throws -> (metrics: [Metric], walkers: ClosedLoopWalkers)? {
        guard let r = try result(key: key), r.kind == closedLoopResultKind,
            r.metrics.map(\.name) == closedLoopMetricColumns.map(\.name),
            let bytes = r.artifacts[ClosedLoopWalkers.artifactName], let walkers = ClosedLoopWalkers(bytes: bytes),
            let runs = r.metrics.last?.value, Double(walkers.success.count) == runs
        else { return nil }
        return (r.metrics, walkers)
    }
}
