import Foundation
import NavCore
import NavIO

/// Guidance replay runs as a kind: one unit per job of the plan (route × navigation session ×
/// configuration, `planJobs`), keyed by the job's key, run by `runJob`, stored with kind
/// `guidance` by the one engine like every other kind. A run of the plot sample of the whole plan
/// (`PlotSample.ofWholePlan`) is stored with the paths its plots draw (`ReplayPlotPaths`,
/// artifact `plot_paths`), so no report, rerun or merge runs it again.
///
/// Its section is not a function of outcomes in memory: a sweep's runs do not fit, so it streams
/// them from the store route by route (GuidanceReplayReport.swift).
public struct GuidanceReplayKind: ExperimentKind {
    public init() {}
    public var name: String { guidanceResultKind }
    /// Gated by its own noise-aware gate (`compareRuns`), not as a kind's CSV.
    public var gatedCSV: String? { nil }

    /// Asked when the spec sweeps a dimension or the inputs hold navigation sessions (jobs);
    /// otherwise (e.g. Experiments/real.yaml: aids and APE only) the section is left out. No
    /// parameters are stored: a run's are its configuration's (the store's `configurations`
    /// table, `Configuration.columns` in `metrics.csv`). Replay runs are many and short:
    /// `ResultsStore.batchSize` a transaction.
    public func plan(_ plan: ExperimentPlan) -> PlannedKind {
        PlannedKind(
            name: name, isAsked: !plan.jobs.isEmpty || !plan.spec.sweep.levels.isEmpty, units: units(of: plan), parameterColumns: [],
            phase: "guidance runs", commitBatch: ResultsStore.batchSize, shardUnits: { self.shardUnits($0, plan: plan, shard: $1, shards: $2) },
            runner: { self.runner(for: $0, plan: plan) }, report: { try self.report($0) })
    }

    /// One unit a job, in job order (`WorkUnit.index` is the job's index).
    ///
    /// Complexity: O(jobs).
    public func units(of plan: ExperimentPlan) -> [WorkUnit] { plan.jobs.map { replayUnit($0, plan: plan) } }

    /// The block of the shard's plan (`ExperimentPlan.shardJobs`, job indices) when the plan is
    /// of one shard, else `shardRange` of the job order (the same rule: an unsharded plan's
    /// indices are its positions).
    public func shardUnits(_ units: [WorkUnit], plan: ExperimentPlan, shard: Int, shards: Int) -> [WorkUnit] {
        guard let block = plan.shardJobs else { return Array(units[shardRange(count: units.count, shard: shard, shards: shards)]) }
        return units.filter { block.contains($0.index) }
    }

    /// Runs a unit's job; for a run of the whole plan's plot sample keeps its paths as the
    /// `plot_paths` artifact (within `StoreLimits.artifactBytes`, else none: a report runs it again).
    public func runner(for units: [WorkUnit], plan: ExperimentPlan) -> UnitRunner {
        let sample = Set(PlotSample.ofWholePlan(plan).indices)
        var positions: [Int: Int] = [:]
        for (p, job) in plan.jobs.enumerated() { positions[job.index] = p }
        let jobAt = positions
        return { unit in
            guard let p = jobAt[unit.index], plan.jobs[p].key == unit.key else { throw UnplannedRunError(title: unit.title) }
            let drawn = sample.contains(unit.index)
            let r = try runJob(plan.jobs[p], plan: plan, paths: drawn)
            let paths = drawn ? ReplayPlotPaths(r).bytes(limit: StoreLimits.artifactBytes) : nil
            return UnitOutcome(metrics: r.metrics, artifacts: paths.map { [ReplayPlotPaths.artifactName: $0] } ?? [:])
        }
    }
}

/// The unit of replay job `job`.
func replayUnit(_ job: ExperimentJob, plan: ExperimentPlan) -> WorkUnit {
    WorkUnit(
        key: job.key, index: job.index, input: job.navigation, route: job.routeID,
        session: job.session ?? plan.inputs.metadata(job.navigation)?.sessionID ?? "", configuration: job.configuration.label,
        parameters: [], title: "\(job.navigation) [\(job.configuration.label)]", pairedRecording: job.recording)
}

/// A replay unit whose job is not in the plan it runs with (a unit list of another plan).
public struct UnplannedRunError: Error, CustomStringConvertible, Sendable, Equatable {
    public var title: String
    public var description: String { "\(escapedForMessage(title)): no such job in this experiment's plan" }
}
