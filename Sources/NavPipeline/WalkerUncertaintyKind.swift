import Foundation
import NavCore
import NavIO
import NavReport
import NavSim
import NavStatistics

/// Robustness of the closed loop's conclusions to walker parameters (issue 30, item 1) as a
/// result kind: the `closed_loop.uncertainty` design's sampled walkers (`WalkerUncertaintySpec`)
/// walk every guidance configuration of the closed loop on its recordings. A unit is (recording,
/// walls, sampled walker, configuration): `runs` walkers per VIO error level, walker r drawing
/// the same random streams in every unit (common random numbers), so configurations are compared
/// walker by walker at each sampled point. The section (`WalkerRobustness`) states each
/// parameter's influence and, per guidance level, the share of sampled walkers for which the
/// closed loop's effect keeps its sign; the Findings' closed-loop lines carry that share.
public struct WalkerUncertaintyKind: ExperimentKind {
    public init() {}
    public var name: String { "walker_uncertainty" }
    public var csvFile: String { "walker-uncertainty.csv" }
    /// `walker`: the sampled walker as a walker text (`cane:speed=0.71,…`), usable as
    /// `navbench simulate --walker`.
    public var parameterColumns: [String] { ["walls", "point", "walker"] }
    public func isAsked(by spec: ExperimentSpec) -> Bool { spec.closedLoop?.uncertainty != nil }
    /// Not gated: its rows describe the walker-parameter box around a conclusion (a few walkers
    /// per sampled walker), not a performance of the aid; the closed loop's own cells are gated.
    public var gatedCSV: String? { nil }

    public func plan(_ plan: ExperimentPlan) -> PlannedKind {
        .perUnit(
            name, asked: isAsked(by: plan.spec), units: { units(of: plan) }, parameterColumns: parameterColumns,
            run: {
                try run($0, plan: plan)
            }, section: { section($0, plan: plan) })
    }

    /// Recording (name order) × walls × sampled walker × configuration.
    ///
    /// Complexity: O(recordings × walls × points × configurations).
    public func units(of plan: ExperimentPlan) -> [WorkUnit] {
        guard let cl = plan.spec.closedLoop, let u = cl.uncertainty else { return [] }
        let design = walkerUncertaintyDesign(u)
        let configurations = closedLoopConfigurations(plan.spec.sweep, simulatesRegistration: cl.simulatesRegistration)
        let chosen = u.recordings.isEmpty ? nil : Set(expandGlobs(u.recordings))
        let recordings = planClosedLoopCells(plan).recordings.filter { chosen?.contains($0) ?? true }
        var units: [WorkUnit] = []
        for file in recordings {
            guard let metadata = plan.inputs.metadata(file) else { continue }
            let route = metadata.routeID.isEmpty ? metadata.sessionID : metadata.routeID
            let planSHA: String
            do { planSHA = try venueFloorPlanFile(recordingPath: file, metadata: metadata)?.sha256 ?? "" } catch { planSHA = "unreadable" }
            for walls in cl.wallsLevels {
                for (p, walker) in design.walkers.enumerated() {
                    for c in configurations {
                        let parts = closedLoopKeyParts(
                            recordingSHA256: plan.checksums[file] ?? "", floorPlanSHA256: planSHA, walls: walls.text, options: c.options,
                            walker: walker, vioError: cl.vioErrors.joined(separator: "\u{1}"), seed: u.seed, runs: u.runs,
                            simulatesRegistration: cl.simulatesRegistration)
                        units.append(
                            WorkUnit(
                                key: workUnitKey(kind: name, parts), index: units.count, input: file, route: route,
                                session: fileName(of: file), configuration: c.label, parameters: [walls.text, String(p), walker.text],
                                title: "\(escapedForMessage(file)) [walker_uncertainty \(escapedForMessage(walker.text)) \(c.label)]"))
                    }
                }
            }
        }
        return units
    }

    /// Walks the unit's configuration with its sampled walker: `runs` walkers per VIO error level.
    /// Metrics: success rate, mean end-of-route error (walks with a finite one), mean SPL, walks.
    public func run(_ unit: WorkUnit, plan: ExperimentPlan) throws -> UnitOutcome {
        guard let cl = plan.spec.closedLoop, let u = cl.uncertainty,
            let walls = cl.wallsLevels.first(where: { $0.text == unit.parameters.first }),
            let p = Int(unit.parameters[1]),
            let config = closedLoopConfigurations(plan.spec.sweep, simulatesRegistration: cl.simulatesRegistration).first(where: {
                $0.label == unit.configuration
            })
        else { throw WalkerUncertaintyError("not a unit of this spec's closed_loop.uncertainty") }
        let design = walkerUncertaintyDesign(u)
        guard design.walkers.indices.contains(p) else { throw WalkerUncertaintyError("sampled walker \(p) is not in the design") }
        let session = try plan.inputs.session(unit.input)
        let venue = try venueFloorPlan(recordingPath: unit.input, session: session)
        let scenario = try closedLoopScenario(recording: session, options: config.options, walls: walls.value, venuePlan: venue)
        var outcomes: [WalkOutcome] = []
        for v in cl.vioErrorLevels {
            let settings = config.settings(walker: design.walkers[p].value, vioError: v.value)
            outcomes += simulateWalks(scenario, settings: settings, seed: u.seed, runs: u.runs).outcomes
        }
        let n = Double(outcomes.count)
        let errors = outcomes.map(\.end_of_route_error).filter(\.isFinite)
        return UnitOutcome(metrics: [
            Metric("success_rate", Double(outcomes.filter(\.success).count) / n, "fraction"),
            Metric("end_of_route_error", errors.isEmpty ? .nan : errors.reduce(0, +) / Double(errors.count), "m"),
            Metric("spl", outcomes.map(\.spl).reduce(0, +) / n, "fraction"),
            Metric("walks", n, "count"),
        ])
    }

    public func section(_ results: [(unit: WorkUnit, outcome: UnitOutcome?)], plan: ExperimentPlan) -> ReportSection {
        let table = outcomeTable(results, parameterColumns: parameterColumns)
        guard let r = WalkerRobustness(results, plan: plan) else {
            return ReportSection(markdown: "", files: [(csvFile, table.csv)])
        }
        return ReportSection(markdown: r.markdown, files: [(csvFile, table.csv)])
    }
}

/// A unit that does not belong to the spec it is run with.
public struct WalkerUncertaintyError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ d: String) { description = d }
}
