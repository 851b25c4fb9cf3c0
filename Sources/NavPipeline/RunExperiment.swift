import Foundation
import NavCore
import NavIO

// The experiment sequence as one call (plan → jobs → report), shared by `navbench run` and
// `navbench merge`, tests and notebooks.

/// What a run of an experiment produced.
public struct ExperimentOutcome: Sendable {
    public var plan: ExperimentPlan
    /// Units of this shard (every unit, for `mergeExperiment`): present afterwards, computed in
    /// this run (0 on a cached rerun and always 0 for `mergeExperiment`, which only reads the
    /// store), failures; per kind in `byKind` (the replay's runs are kind `guidance`). The results
    /// themselves are read from the store, never held here.
    public var counts = KindCounts()
    /// Input failures of the plan, then unit failures (sorted).
    public var failures: [String]
    /// The report written, or nil for one shard of a sharded run (combine with `mergeExperiment`).
    public var report: ExperimentOutputs?
    /// `mergeExperiment`: summary.md was already there with the same bytes (these shard stores
    /// were merged before; merging again rewrote the same report).
    public var reportUnchanged = false
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
/// `command` is the line the report names to regenerate it; `machineFacts` go into the
/// manifest's facts (the CLI's git commit).
public func runExperiment(
    _ spec: ExperimentSpec, workers: Int, shard: Int = 1, shards: Int = 1, command: String,
    progress: ProgressHandler? = nil, readPolicy: HDF5ReadPolicy = .standard,
    tracingMemory: Bool = false, kinds: [any ExperimentKind] = ExperimentKinds.standard, stop: StopRequest? = nil,
    machineFacts: [String: String] = [:]
) throws -> ExperimentOutcome {
    try checkReportFolder(spec)  // ReportFolder.swift
    let lock = try ReportFolderLock(spec.output, shard: shards == 1 ? nil : shard)
    defer { withExtendedLifetime(lock) {} }
    removeStaleTemporaries(in: spec.output)  // what a killed run left (AtomicOutput.swift)
    let started = Date()
    var plan = planExperiment(spec, shard: shard, shards: shards, readPolicy: readPolicy)
    plan.tracesMemory = tracingMemory
    traceMemory(plan, "planned \(plan.jobs.count) jobs")
    let storePath = experimentStorePath(spec, shard: shard, shards: shards)
    // Every kind planned once; the one engine runs their units (ExperimentEngine.swift).
    let planned = kinds.map { $0.plan(plan) }
    let counts = try executePlannedKinds(
        plan, kinds: planned, storePath: storePath, workers: workers, shard: shard, shards: shards, progress: progress, stop: stop)
    // Stopped (a preempted task): what finished is committed; no report from a partial store.
    if stop?.isRequested == true { throw ExperimentStopped(stored: counts.done, computed: counts.computed) }
    traceMemory(plan, "jobs run")
    var outcome = ExperimentOutcome(plan: plan, counts: counts, failures: plan.failures)
    // Sharded, the failures are this shard's; unsharded, the report lists every unit's (read from the store).
    guard shards == 1 else { outcome.failures += counts.failures; return outcome }
    let replay = counts[kind: guidanceResultKind]
    outcome.report = try writeExperimentReport(
        plan, store: try ResultsStore(path: storePath), kinds: planned, failures: [], command: command,
        facts: runFacts(started: started, jobs: workers, computed: replay.computed, total: plan.jobs.count, extra: machineFacts), progress: progress)
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
    tracingMemory: Bool = false, kinds: [any ExperimentKind] = ExperimentKinds.standard, allowMissing: Bool = false,
    machineFacts: [String: String] = [:]
) throws -> ExperimentOutcome {
    try checkReportFolder(spec)  // ReportFolder.swift
    let lock = try ReportFolderLock(spec.output)
    defer { withExtendedLifetime(lock) {} }
    removeStaleTemporaries(in: spec.output)
    let started = Date()
    var plan = planExperiment(spec, readPolicy: readPolicy)
    plan.tracesMemory = tracingMemory
    traceMemory(plan, "planned \(plan.jobs.count) jobs")
    let store = try mergeShardStores(plan)
    let planned = kinds.map { $0.plan(plan) }
    if !allowMissing { try checkMergeComplete(plan, store: store, kinds: planned) }
    let summaryPath = ExperimentOutputs(folder: spec.output).summary
    let before = existingReportBytes(summaryPath)
    // A run without a result is listed by the replay's section, as in an unsharded report:
    // its stored failure, or "no result".
    let report = try writeExperimentReport(
        plan, store: store, kinds: planned, failures: [], command: command,
        facts: runFacts(started: started, jobs: 0, computed: 0, total: plan.jobs.count, extra: machineFacts), progress: nil)
    var outcome = ExperimentOutcome(
        plan: plan, counts: try storedCounts(planned, store: store), failures: plan.failures + report.failures, report: report)
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

/// Machine facts for the manifest (never in summary.md or metrics.csv): the run's wall time,
/// workers and job counts, and the caller's `extra` (the CLI adds the git commit it runs in).
func runFacts(started: Date, jobs: Int, computed: Int, total: Int, extra: [String: String]) -> [String: String] {
    var facts = [
        "wall_seconds": String(format: "%.3f", Date().timeIntervalSince(started)), "workers": String(jobs),
        "jobs_computed": String(computed), "jobs_total": String(total),
    ]
    facts.merge(extra) { a, _ in a }
    return facts
}

/// Copies the shard stores of the report folder into `OUTPUT/results.sqlite` (streamed in SQL,
/// `ResultsStore.absorb`).
///
/// - Throws: `ResultsStoreError.foreignShard` (one line naming the shard) for a shard store of
///   another spec, store schema or navbench version.
public func mergeShardStores(_ plan: ExperimentPlan) throws -> ResultsStore {
    let spec = plan.spec
    try? FileManager.default.createDirectory(atPath: spec.output, withIntermediateDirectories: true)
    let store = try ResultsStore(path: experimentStorePath(spec))
    for shardPath in shardStorePaths(spec) { _ = try store.absorb(shard: shardPath, specSHA256: plan.specSHA256) }
    return store
}

/// The units of the asked `kinds` with an accepted result in `store`, per kind (nothing computed).
///
/// - Complexity: O(units) store lookups, on every core.
func storedCounts(_ kinds: [PlannedKind], store: ResultsStore) throws -> KindCounts {
    var counts = KindCounts()
    for kind in kinds where kind.isAsked && !kind.units.isEmpty {
        let done = try presentUnits(kind.units, of: kind, store: store, workers: ProcessInfo.processInfo.activeProcessorCount).filter { $0 }.count
        counts.done += done
        counts.byKind[kind.name] = KindCounts(done: done)
    }
    return counts
}
