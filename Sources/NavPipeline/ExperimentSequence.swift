import Foundation
import NavCore
import NavIO

// The experiment sequence as one call (plan → jobs → report), shared by `navbench run` and
// `navbench merge`, tests and notebooks.

/// What a run of an experiment produced.
public struct ExperimentOutcome: Sendable {
    public var plan: ExperimentPlan
    /// Jobs with a run in the store (of this shard when sharded); the runs themselves are read
    /// from the store (`storedMetrics`, `metricsTable(_:store:)`), never held here.
    public var done: Int
    /// Input failures of the plan, then job failures (sorted).
    public var failures: [String]
    /// Jobs computed in this run (the others came from the cache).
    public var computed: Int
    /// The report written, or nil for one shard of a sharded run (combine with `mergeExperiment`).
    public var report: ExperimentOutputs?
    /// `mergeExperiment`: summary.md was already there with the same bytes (these shard stores
    /// were merged before; merging again rewrote the same report).
    public var reportUnchanged = false
    /// Units of the result kinds (calibration, proximity, gyroscope filters, APE, closed-loop
    /// cells, …) of this shard: present afterwards, computed in this run (0 on a cached rerun and
    /// always 0 for `mergeExperiment`, which only reads the store), failures; per kind in `byKind`.
    public var resultKinds = ResultKindCounts()
    /// The closed-loop cells' counts (`resultKinds.byKind["closed_loop"]`; zero without one).
    public var closedLoop: ResultKindCounts { resultKinds.byKind[ClosedLoopKind().name] ?? ResultKindCounts() }
}

/// Why a run ended before its report: `stop` was requested (the CLI's SIGTERM or SIGUSR1, a
/// preempted cluster task). Every unit finished before is committed; the same command again
/// computes only the others (docs/experiments.md, "Stopping and resuming").
public struct ExperimentStopped: Error, CustomStringConvertible, Sendable {
    /// Units with a result in this run's store (of its shard), and of those computed by this run.
    public var stored: Int
    public var computed: Int
    public var description: String {
        "stopped on request with \(stored) results stored (\(computed) computed now); the same command finishes the rest, computing none of these again"
    }
}

/// Runs an experiment: loads the inputs, runs the jobs of shard `shard` of `shards` on `workers`
/// threads (cached results are reused) and, unsharded, writes the report into `spec.output`.
/// When `stop` is requested the loops start no further unit, and the run throws
/// `ExperimentStopped` after committing what finished.
/// `command` is the line the report names to regenerate it.
public func runExperiment(
    _ spec: ExperimentSpec, workers: Int, shard: Int = 1, shards: Int = 1, command: String,
    progress: ProgressHandler? = nil, readPolicy: HDF5ReadPolicy = .standard,
    tracingMemory: Bool = false, resultKinds: [any ResultKind] = ResultKinds.standard, stop: StopRequest? = nil
) throws -> ExperimentOutcome {
    try checkReportFolder(spec)  // SpecLimits.swift
    let lock = try ReportFolderLock(spec.output, shard: shards == 1 ? nil : shard)
    defer { withExtendedLifetime(lock) {} }
    removeStaleTemporaries(in: spec.output)  // what a killed run left (AtomicTextWriter.swift)
    let started = Date()
    var plan = planExperiment(spec, shard: shard, shards: shards, readPolicy: readPolicy)
    plan.tracesMemory = tracingMemory
    traceMemory(plan, "planned \(plan.jobs.count) jobs")
    let storePath = experimentStorePath(spec, shard: shard, shards: shards)
    // Replay runs, then the result kinds' units: one engine, one call per part (counts apart).
    let replay = try executeResultKinds(
        plan, kinds: [GuidanceReplayKind()], storePath: storePath, workers: workers, shard: shard, shards: shards, progress: progress,
        stop: stop)
    let units = try executeResultKinds(
        plan, kinds: resultKinds, storePath: storePath, workers: workers, shard: shard, shards: shards,
        progress: progress, stop: stop)  // ResultKind.swift
    // Stopped (a preempted task): what finished is committed; no report from a partial store.
    if stop?.isRequested == true {
        throw ExperimentStopped(stored: replay.done + units.done, computed: replay.computed + units.computed)
    }
    traceMemory(plan, "jobs run")
    var outcome = ExperimentOutcome(plan: plan, done: replay.done, failures: plan.failures, computed: replay.computed)
    outcome.resultKinds = units
    // Sharded, the failures are this shard's; unsharded, the report lists every unit's (read from the store).
    guard shards == 1 else { outcome.failures += replay.failures + units.failures; return outcome }
    outcome.report = try writeExperimentReport(
        plan, store: try ResultsStore(path: storePath), failures: [], command: command,
        facts: runFacts(started: started, jobs: workers, computed: replay.computed, total: plan.jobs.count),
        progress: progress, resultKinds: resultKinds)
    outcome.failures += outcome.report?.failures ?? []  // replay runs, calibration, proximity, filters, APE, cells: exit 1 too
    return outcome
}

/// Writes the report of a sharded run from the shards' stores (merged into `OUTPUT/results.sqlite`);
/// a job without a result
/// is listed as a failure.
///
/// Refuses (`IncompleteMergeError`, nothing written) while a unit has neither a result nor a
/// recorded failure in the shards — its shard did not run or was stopped — unless `allowMissing`,
/// which writes a partial report listing each such unit as a failure.
public func mergeExperiment(
    _ spec: ExperimentSpec, command: String, readPolicy: HDF5ReadPolicy = .standard,
    tracingMemory: Bool = false, resultKinds: [any ResultKind] = ResultKinds.standard, allowMissing: Bool = false
) throws -> ExperimentOutcome {
    try checkReportFolder(spec)  // SpecLimits.swift
    let lock = try ReportFolderLock(spec.output)
    defer { withExtendedLifetime(lock) {} }
    removeStaleTemporaries(in: spec.output)
    let started = Date()
    var plan = planExperiment(spec, readPolicy: readPolicy)
    plan.tracesMemory = tracingMemory
    traceMemory(plan, "planned \(plan.jobs.count) jobs")
    let (store, missing) = try mergeShardStores(plan)
    if !allowMissing { try checkMergeComplete(plan, store: store, resultKinds: resultKinds) }
    let summaryPath = ExperimentOutputs(folder: spec.output).summary
    let before = existingReportBytes(summaryPath)
    // A run without a result is listed by the replay's section, as in an unsharded report:
    // its stored failure, or "no result".
    let report = try writeExperimentReport(
        plan, store: store, failures: [], command: command,
        facts: runFacts(started: started, jobs: 0, computed: 0, total: plan.jobs.count), resultKinds: resultKinds)
    var outcome = ExperimentOutcome(
        plan: plan, done: plan.jobs.count - missing.count, failures: plan.failures + report.failures,
        computed: 0, report: report)
    outcome.reportUnchanged = before != nil && before == existingReportBytes(summaryPath)
    return outcome
}

/// The bytes of a report file already in the output folder when it is a regular file (not a
/// link) of at most 64 MiB, else nil: read only to say whether a merge changed it, never trusted.
private func existingReportBytes(_ path: String) -> Data? {
    guard let a = try? FileManager.default.attributesOfItem(atPath: path), a[.type] as? FileAttributeType == .typeRegular,
        let size = (a[.size] as? NSNumber)?.intValue, size <= 64 << 20
    else { return nil }
    return FileManager.default.contents(atPath: path)
}

/// Machine facts for the manifest (never in summary.md or metrics.csv).
func runFacts(started: Date, jobs: Int, computed: Int, total: Int) -> [String: String] {
    var facts = [
        "wall_seconds": String(format: "%.3f", Date().timeIntervalSince(started)), "workers": String(jobs),
        "jobs_computed": String(computed), "jobs_total": String(total),
    ]
    let git = Process()
    git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    git.arguments = ["git", "rev-parse", "HEAD"]
    let pipe = Pipe()
    git.standardOutput = pipe
    git.standardError = FileHandle.nullDevice
    if (try? git.run()) != nil {
        git.waitUntilExit()
        let sha = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if git.terminationStatus == 0 { facts["git_commit"] = sha }
    }
    return facts
}
