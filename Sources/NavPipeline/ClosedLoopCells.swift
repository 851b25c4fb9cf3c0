import Foundation
import NavCore
import NavIO
import NavSim
import NavSynth

// The closed loop's cells: planned here, walked, stored and reported as the result kind
// `closed_loop` (`ClosedLoopKind`); the report reads them from the store and never walks a cell
// again (only the few sample paths its SVGs draw). Table, key and queries: docs/experiments.md
// ("Results store").

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
    /// Identity in the store: `workUnitKey` of `closedLoopKeyParts`.
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
                            let key = workUnitKey(
                                kind: closedLoopResultKind,
                                closedLoopKeyParts(
                                    recordingSHA256: plan.checksums[file] ?? "", floorPlanSHA256: planSHA, walls: walls.text, options: c.options,
                                    walker: w, vioError: v.text, seed: seed, runs: cl.runs, simulatesRegistration: cl.simulatesRegistration))
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

/// What a closed-loop walk's unit key covers besides its kind (`workUnitKey`): the recording's
/// checksum, its venue floor plan file's (empty when none, `unreadable`), the walls, the guidance
/// options' canonical JSON, the walker (with its profile file's checksum when it has one), the VIO
/// error level(s), the seed, the walkers per cell and whether registration is simulated. Shared by
/// the cells and the walker-uncertainty units.
func closedLoopKeyParts(
    recordingSHA256: String, floorPlanSHA256: String, walls: String, options: GuidanceOptions, walker: ClosedLoopLevel<NavigatorProfile>,
    vioError: String, seed: UInt64, runs: Int, simulatesRegistration: Bool
) -> [String] {
    [
        recordingSHA256, floorPlanSHA256, walls, options.canonicalJSON,
        walker.text + (walker.value.sourceSHA256.isEmpty ? "" : " sha256:" + walker.value.sourceSHA256), vioError, String(seed), String(runs),
    ] + (simulatesRegistration ? ["registration simulated"] : [])
}

/// The scenario a cell walks, as a key: cells of one (recording, walls, configuration) share it.
func closedLoopScenarioID(_ c: ClosedLoopCell) -> String { "\(c.recording)\u{1}\(c.walls)\u{1}\(c.configuration)" }

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
    ("route_deviation_mean_ci_high", "m"), ("route_deviation_p95", "m"), ("ndtw", "fraction"), ("ndtw_ci_low", "fraction"),
    ("ndtw_ci_high", "fraction"), ("sdtw", "fraction"), ("sdtw_ci_low", "fraction"), ("sdtw_ci_high", "fraction"), ("keypoints", "count"),
    ("runs", "count"),
]

/// The `kind` of a closed-loop cell's row in the results store.
let closedLoopResultKind = "closed_loop"

extension StoreReader {
    /// The metrics (`closedLoopMetrics` order, names and units) and walkers of the closed-loop
    /// cell `key` if its row is present, of kind `closed_loop`, its checksum verifies and its
    /// walkers artifact decodes to `runs` walkers; nil otherwise (the cell is walked again: a
    /// store from before the artifacts table too).
    ///
    /// Complexity: O(m log n + w) for m metrics of n stored results and w walkers.
    public func closedLoopCell(key: String) throws -> (metrics: [Metric], walkers: ClosedLoopWalkers)? {
        guard let r = try result(key: key), r.kind == closedLoopResultKind else { return nil }
        return closedLoopCellContents(r.metrics, r.artifacts)
    }
}

/// A stored closed-loop cell's metrics (`closedLoopMetricColumns` order) and walkers, or nil
/// when the metrics are not those columns or the walkers do not decode to `runs` walkers.
func closedLoopCellContents(_ metrics: [Metric], _ artifacts: [String: [UInt8]]) -> (metrics: [Metric], walkers: ClosedLoopWalkers)? {
    guard metrics.map(\.name) == closedLoopMetricColumns.map(\.name),
        let bytes = artifacts[ClosedLoopWalkers.artifactName], let walkers = ClosedLoopWalkers(bytes: bytes),
        let runs = metrics.last?.value, Double(walkers.success.count) == runs
    else { return nil }
    return (metrics, walkers)
}
