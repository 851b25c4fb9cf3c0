import Foundation
import NavCore
import NavIO

/// Guidance replay runs as units of work: one per job of the plan (route × navigation session ×
/// configuration, `planJobs`), keyed by the job's key, run by `runJob`, stored with kind
/// `guidance` by the one engine (`executeResultKinds`) like every other kind. A run of the plot
/// sample of the whole plan (`PlotSample.ofWholePlan`) is stored with the paths its plots draw
/// (`ReplayPlotPaths`, artifact `plot_paths`), so no report, rerun or merge runs it again.
///
/// Its report is not a `ResultKind` section: a sweep's runs do not fit in memory, so
/// `writeExperimentReport` streams them from the store route by route (`metricsTable`, the
/// route files, the statistics).
public struct GuidanceReplayKind: UnitKind {
    public init() {}
    public var name: String { guidanceResultKind }
    public var phase: String { "guidance runs" }
    /// None stored: a run's parameters are its configuration's (the store's `configurations`
    /// table, `Configuration.columns` in `metrics.csv`).
    public var parameterColumns: [String] { [] }
    /// Replay runs are many and short: 32 a transaction.
    public var commitBatch: Int { ResultsStore.batchSize }

    /// One unit a job, in job order (`WorkUnit.index` is the job's index).
    ///
    /// Complexity: O(jobs).
    public func units(of plan: ExperimentPlan) -> [WorkUnit] {
        plan.jobs.map { job in
            WorkUnit(
                key: job.key, index: job.index, input: job.navigation, route: job.routeID,
                session: job.session ?? plan.inputs.metadata(job.navigation)?.sessionID ?? "", configuration: job.configuration.label,
                parameters: [], title: "\(job.navigation) [\(job.configuration.label)]", pairedRecording: job.recording)
        }
    }

    /// The block of the shard's plan (`ExperimentPlan.shardJobs`, job indices) when the plan is
    /// of one shard, else `shardRange` of the job order (the same rule: an unsharded plan's
    /// indices are its positions).
    public func shardUnits(_ units: [WorkUnit], plan: ExperimentPlan, shard: Int, shards: Int) -> [WorkUnit] {
        guard let block = plan.shardJobs else { return Array(units[shardRange(count: units.count, shard: shard, shards: shards)]) }
        return units.filter { block.contains($0.index) }
    }

    public func run(_ unit: WorkUnit, plan: ExperimentPlan) throws -> UnitOutcome {
        try runner(for: [unit], plan: plan)(unit)
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

/// A replay unit whose job is not in the plan it runs with (a unit list of another plan).
public struct UnplannedRunError: Error, CustomStringConvertible, Sendable, Equatable {
    public var title: String
    public var description: String { "\(escapedForMessage(title)): no such job in this experiment's plan" }
}
