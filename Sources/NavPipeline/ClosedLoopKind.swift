import Foundation
import NavCore
import NavIO
import NavSim

/// The closed loop (docs/experiments.md, `closed_loop`) as a result kind: a unit is one cell
/// (`ClosedLoopCell`: `runs` virtual walkers of one profile on one recording's route, with one
/// walls mode, guidance configuration, VIO error level and seed), planned by
/// `planClosedLoopCells`, walked on the one executor, stored with its aggregate metrics
/// (`closedLoopMetrics`) and its walkers as an artifact (`ClosedLoopWalkers`), so the section's
/// paired comparisons and effects walk no cell again (only the few sample paths its SVGs draw).
/// `navbench compare` gates `closed-loop.csv` with its own walker tests (`ClosedLoopGate`).
public struct ClosedLoopKind: ExperimentKind {
    public init() {}
    public var name: String { closedLoopResultKind }
    public var csvFile: String { "closed-loop.csv" }
    /// The cell's parameters besides its guidance configuration (the unit's `configuration`).
    public var parameterColumns: [String] { ["walker", "vio_error", "walls", "seed"] }
    /// Gated by `ClosedLoopGate` (pooled seeds, Fisher and Welch per cell), not row by row.
    public var gatedCSV: String? { nil }
    public func isAsked(by spec: ExperimentSpec) -> Bool { spec.closedLoop != nil }
    /// `closed_loop: {…}` (ClosedLoopSpec.swift); its cells are counted against the spec's limit
    /// when it is read, before anything is built.
    public var specSections: [KindSpecSection] {
        [
            KindSpecSection(
                key: ClosedLoopSpec.specKey, summary: "closed-loop walkers (docs/navigator.md)", overrideKeys: ClosedLoopSpec.keys,
                takesList: { $0.count == 1 && ClosedLoopSpec.listKeys.contains($0[0]) },
                read: { v, context throws(SpecError) in
                    let cl = try ClosedLoopSpec.parse(v, file: context.file)
                    try cl.checkLimits(sweep: context.sweep, limits: context.limits, file: context.file)
                    return cl
                }, yaml: \.resolvedYAML)
        ]
    }

    /// The cells planned once (`planClosedLoopCells` reads and hashes the floor plans), shared by
    /// the units, the runner and the section. The section reads the walker-uncertainty analysis
    /// of the run, when it has one: the Findings' closed-loop lines say how robust they are to
    /// walker parameters.
    public func plan(_ plan: ExperimentPlan) -> PlannedKind {
        guard isAsked(by: plan.spec) else { return .notAsked(name) }
        let cp = planClosedLoopCells(plan)
        return PlannedKind(
            name: name, isAsked: true, units: units(cp), parameterColumns: parameterColumns, accepts: { self.accepts($0, of: $1) },
            runner: { self.runner(for: $0, cp, plan: plan) },
            section: { results, context in
                var s = self.section(results, cp, plan: plan, walkerUncertainty: try context.storedResults(of: WalkerUncertaintyKind().name))
                // The Findings' lines where the replay (rendered before) and the walkers disagree.
                if let replay = context.offered(by: guidanceResultKind, as: ReplayMainEffects.self) {
                    s.section.closingFindings = replayClosedLoopDisagreements(replay.effects, s.levelEffects, units: replay.units)
                }
                s.section.offered = [SimulatedWalkers()]
                return s.section
            })
    }

    /// One unit per cell, in the plan's cell order (recording, walls, configuration, walker, VIO
    /// error, seed).
    ///
    /// Complexity: O(cells) plus one floor-plan read per recording.
    public func units(of plan: ExperimentPlan) -> [WorkUnit] { units(planClosedLoopCells(plan)) }

    func units(_ cp: ClosedLoopPlan) -> [WorkUnit] {
        cp.cells.map { c in
            WorkUnit(
                key: c.key, index: c.index, input: c.recording, route: c.routeID, session: c.session, configuration: cp.label(c),
                parameters: [c.walker, c.vioError, c.walls, String(c.seed)],
                title:
                    "\(escapedForMessage(c.recording)) [closed_loop \(cp.label(c)) walker=\(escapedForMessage(c.walker)) "
                    + "vio=\(escapedForMessage(c.vioError)) walls=\(c.walls) seed=\(c.seed)]")
        }
    }

    /// Walks one cell (its scenario built for it alone: a run builds each scenario once, `runner`).
    public func run(_ unit: WorkUnit, plan: ExperimentPlan) throws -> UnitOutcome {
        try runner(for: [unit], planClosedLoopCells(plan), plan: plan)(unit)
    }

    /// Builds the scenario of every (recording, walls, configuration) of `units` once; a cell
    /// whose scenario cannot be built throws that error, one line for all its cells
    /// (`ScenarioFailure`: recording and configuration).
    ///
    /// Complexity: O(scenarios) builds, then O(runs · ticks per walk) per cell.
    func runner(for units: [WorkUnit], _ cp: ClosedLoopPlan, plan: ExperimentPlan) -> UnitRunner {
        var built: [String: Result<ClosedLoopScenario, ScenarioFailure>] = [:]
        for u in units {
            guard cp.cells.indices.contains(u.index) else { continue }
            let c = cp.cells[u.index], id = closedLoopScenarioID(c)
            guard built[id] == nil else { continue }
            do { built[id] = .success(try cp.scenario(c, inputs: plan.inputs)) } catch {
                built[id] = .failure(ScenarioFailure(line: cp.scenarioFailure(c, error)))
            }
        }
        let runs = cp.spec.runs, scenarios = built
        return { unit in
            guard cp.cells.indices.contains(unit.index), cp.cells[unit.index].key == unit.key else {
                throw ClosedLoopUnitError.notACell
            }
            let c = cp.cells[unit.index]
            guard let scenario = try scenarios[closedLoopScenarioID(c)]?.get() else { throw ClosedLoopUnitError.notACell }
            let r = simulateWalks(scenario, settings: cp.settings(c), seed: c.seed, runs: runs)
            return UnitOutcome(
                metrics: closedLoopMetrics(r.aggregate, keypoints: scenario.route.keypoints.count),
                artifacts: [ClosedLoopWalkers.artifactName: ClosedLoopWalkers(r.outcomes).bytes])
        }
    }

    /// A stored cell is complete when its metrics are `closedLoopMetricColumns` and its walkers
    /// decode to `runs` walkers (a store from before the artifacts table walks its cells again).
    public func accepts(_ outcome: UnitOutcome, of unit: WorkUnit) -> Bool { outcome.cellContents != nil }

    /// The section of `closedLoopSection` with its CSV and SVGs as files; with the results of a
    /// walker-uncertainty analysis, each Findings line ends with how robust it is (`WalkerRobustness`).
    func section(
        _ results: KindResults, _ cp: ClosedLoopPlan, plan: ExperimentPlan, walkerUncertainty: KindResults?
    ) -> (section: ReportSection, levelEffects: [ClosedLoopEffect]) {
        var cells = [(metrics: [Metric], walkers: ClosedLoopWalkers)?](repeating: nil, count: cp.cells.count)
        for (u, outcome) in results where cells.indices.contains(u.index) { cells[u.index] = outcome?.cellContents }
        let s = closedLoopSection(plan, cp, metrics: { cells[$0.index]?.metrics }, walkers: { cells[$0.index]?.walkers })
        var findings = s.findings
        if cp.spec.uncertainty != nil, let sampled = walkerUncertainty, let r = WalkerRobustness(sampled, plan: plan) {
            findings = closedLoopFindings(
                s.effects, runs: cp.spec.runs,
                robustness: FindingRobustness(basis: r.basis, clause: { r.clause(dimension: $0, level: $1, sign: $2) }))
        }
        let section = ReportSection(
            markdown: s.markdown, files: [(csvFile, s.table.csv)] + s.svgs.map { ($0.name, $0.text) }, findings: findings,
            failures: s.failures)
        return (section, s.effects)
    }
}

/// Why the cells of one scenario could not be walked: its one failure line (recording,
/// configuration, the scenario's error: `ClosedLoopPlan.scenarioFailure`).
struct ScenarioFailure: SharedUnitFailure, CustomStringConvertible {
    var line: String
    var description: String { line }
}

/// A unit that is not a cell of the spec's closed loop (a key or index from another plan).
enum ClosedLoopUnitError: Error, CustomStringConvertible {
    case notACell
    var description: String { "not a cell of this spec's closed_loop" }
}

/// Walks every closed-loop cell of `plan` in memory (on `workers` threads, through
/// `ClosedLoopKind`'s runner; results in cell order whatever the scheduling) and builds the
/// section from them, without a store. An experiment run stores its cells instead and its report
/// reads them; both give the same section. Failures: unreadable floor plans, then the distinct
/// lines of cells that could not be walked.
///
/// - Complexity: O(recordings · walkers · VIO levels · configurations · seeds · runs · ticks per walk).
public func runClosedLoopSection(_ plan: ExperimentPlan, workers: Int = 2) -> ClosedLoopSection {
    let kind = ClosedLoopKind()
    let cp = planClosedLoopCells(plan)
    let units = kind.units(cp)
    let run = kind.runner(for: units, cp, plan: plan)
    let cells = mapConcurrently(units.count, workers: workers, phase: "closed_loop units") { i in
        do { return Result<(metrics: [Metric], walkers: ClosedLoopWalkers)?, ScenarioFailure>.success(try run(units[i]).cellContents) } catch {
            return .failure(ScenarioFailure(line: failureLine(units[i], error)))
        }
    }
    func walked(_ c: ClosedLoopCell) -> (metrics: [Metric], walkers: ClosedLoopWalkers)? {
        if case .success(let contents) = cells[c.index] { return contents }
        return nil
    }
    var section = closedLoopSection(plan, cp, metrics: { walked($0)?.metrics }, walkers: { walked($0)?.walkers })
    section.failures += distinctLines(cells.compactMap { if case .failure(let f) = $0 { return f.line } else { return nil } })
    return section
}

extension UnitOutcome {
    /// Its metrics and walkers when it is a complete closed-loop cell (`closedLoopCellContents`).
    var cellContents: (metrics: [Metric], walkers: ClosedLoopWalkers)? { closedLoopCellContents(metrics, artifacts) }
}

extension ExperimentSpec {
    /// Closed-loop walkers (docs/navigator.md, `closed_loop:`); none when nil. Read by the closed
    /// loop and by the walker-uncertainty kind (`closed_loop.uncertainty`).
    public var closedLoop: ClosedLoopSpec? { kindSection(ClosedLoopSpec.specKey, as: ClosedLoopSpec.self) }
}
