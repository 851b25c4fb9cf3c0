import Foundation
import NavCore
import NavGuidance
import NavIO
import NavReport
import Synchronization

/// One (route, navigation session, configuration) to run.
public struct ExperimentJob: Sendable {
    public var index: Int
    public var routeID: String
    public var recording: String
    public var navigation: String
    public var configuration: Configuration
    /// Identity in the results store: inputs' checksums, configuration and navbench version.
    public var key: String
    /// Session label in the results (`<dataset>/<session id>` when datasets are kept apart;
    /// nil: the navigation's session id). See `SessionGrouping`.
    public var session: String? = nil
    /// The estimate file replacing the navigation's VIO (`estimators:` file patterns), if any.
    public var estimate: String? = nil
}

/// What one job produced, as kept in the results store (`runs.result`, JSON).
public struct JobResult: Sendable, Codable {
    public var route: String
    public var session: String
    public var configuration: String
    public var parameters: [String]
    public var metrics: [RunMetric]
    /// Horizontal paths (x, −z) for plots, at most 300 points each, and the route.
    public var truePath: [[Double]]
    public var estimatedPath: [[Double]]
    public var route2D: [[Double]]
    /// ‖estimated − true‖ along the run, metres (for error CDFs).
    public var positionErrors: [Double]
}

/// The planned experiment: loaded inputs, jobs, and the inputs that failed.
public struct ExperimentPlan: Sendable {
    public var spec: ExperimentSpec
    public var sessions: [String: Session]
    public var checksums: [String: String]
    public var jobs: [ExperimentJob]
    public var failures: [String]
    public var specSHA256: String
}

/// Expands glob patterns (sorted, deduplicated).
public func expandGlobs(_ patterns: [String]) -> [String] {
    var out = Set<String>()
    for p in patterns {
        var g = glob_t()
        defer { globfree(&g) }
        if glob(p, 0, nil, &g) == 0 {
            for i in 0..<Int(g.gl_pathc) { if let c = g.gl_pathv[i] { out.insert(String(cString: c)) } }
        }
    }
    return out.sorted()
}

/// Loads the inputs once and lists the jobs: every navigation session of a route × every
/// configuration, paired with the route's recording, in a fixed order.
public func planExperiment(_ spec: ExperimentSpec) -> ExperimentPlan {
    let files = expandGlobs(spec.inputs)
    var sessions: [String: Session] = [:], checksums: [String: String] = [:], failures: [String] = []
    if files.isEmpty && spec.dataSeeds.isEmpty { failures.append("inputs \(spec.inputs.joined(separator: ", ")): no files match") }
    for f in files {
        do {
            let s = try readTrace(at: f)
            sessions[f] = s
            checksums[f] = try sha256Hex(ofFile: f)
        } catch { failures.append(String(describing: error)) }
    }
    addSyntheticVenues(spec, sessions: &sessions, checksums: &checksums)
    return planJobs(spec, sessions: sessions, checksums: checksums, failures: failures)
}

/// Pairs loaded sessions by route and lists the jobs (also for sessions made in memory, as
/// the sweep benchmark does; `checksums` then identify them in the cache).
public func planJobs(_ spec: ExperimentSpec, sessions: [String: Session], checksums inputChecksums: [String: String], failures: [String]) -> ExperimentPlan {
    var checksums = inputChecksums  // + plugin and estimate files (ExperimentEstimators.swift)
    let grouping = SessionGrouping(sessions: sessions)
    var failures = failures + grouping.failures
    let configurations = spec.sweep.configurations
    var jobs: [ExperimentJob] = []
    for group in grouping.routes where !group.navigations.isEmpty {
        let route = group.route
        guard let rec = group.recording else {
            failures.append("route \(route)\(group.dataset.isEmpty ? "" : " in \(group.dataset)"): no recording session among the inputs; its \(group.navigations.count) navigation sessions were skipped")
            continue
        }
        for nav in group.navigations {
            for c in configurations {
                let extra: JobInputs
                do { extra = try jobInputs(spec, c, navigation: sessions[nav]!) } catch {
                    if !failures.contains("\(error)") { failures.append("\(error)") }  // a missing estimate or plugin: listed, the rest runs
                    continue
                }
                checksums.merge(extra.files) { a, _ in a }
                let key = sha256Hex(of: Data("navbench \(NavbenchVersion.current)|\(checksums[rec]!)|\(checksums[nav]!)|\(c.options.canonicalJSON)\(extra.key)".utf8))
                jobs.append(ExperimentJob(index: jobs.count, routeID: route, recording: rec, navigation: nav, configuration: c, key: key,
                                          session: grouping.labels[nav], estimate: extra.estimate))
            }
        }
    }
    return ExperimentPlan(spec: spec, sessions: sessions, checksums: checksums, jobs: jobs, failures: failures,
                          specSHA256: sha256Hex(of: Data(spec.text.utf8)))
}

/// Runs one job (no cache).
public func runJob(_ job: ExperimentJob, plan: ExperimentPlan) throws -> JobResult {
    let run = try runGuidance(recording: plan.sessions[job.recording]!, navigation: plan.sessions[job.navigation]!,
                              options: job.configuration.options, estimate: try jobEstimate(job, plan: plan), pluginTimeout: plan.spec.pluginTimeout)
    func thin(_ p: [Vector3]) -> [[Double]] {
        let step = max(1, p.count / 300)
        return stride(from: 0, to: p.count, by: step).map { [p[$0].x, -p[$0].z] }
    }
    return JobResult(route: job.routeID, session: job.session ?? run.navigationID, configuration: job.configuration.label,
                     parameters: job.configuration.parameters, metrics: run.metrics, truePath: thin(run.truePath),
                     estimatedPath: thin(run.estimatedPath), route2D: run.trueRoute.keypoints.map { [$0.position.x, -$0.position.z] },
                     positionErrors: zip(run.estimatedPath, run.truePath).map { ($0 - $1).norm })
}

/// Progress of a run: jobs done (computed or from cache) of the total.
public typealias ProgressHandler = @Sendable (_ done: Int, _ total: Int) -> Void

/// Runs the plan's jobs (those of shard `shard` of `shards`) on `workers` threads. A job whose
/// result is in the results store at `storePath` (`ResultsStore`) is read, not recomputed; a new
/// result is committed to the store in batches as jobs finish. A failing job is listed (and
/// recorded in the store's `failures`) and the rest completes.
///
/// - Returns: results by job index, failure lines, and how many jobs were computed.
/// - Throws: `ResultsStoreError` when the store cannot be opened or written.
public func executeJobs(_ plan: ExperimentPlan, storePath: String, workers: Int, shard: Int = 1, shards: Int = 1,
                        progress: ProgressHandler? = nil) throws -> (results: [Int: JobResult], failures: [String], computed: Int) {
    let mine = plan.jobs.filter { $0.index % shards == shard - 1 }
    try? FileManager.default.createDirectory(atPath: (storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let store = try ResultsStore(path: storePath)
    try store.describe(plan, shard: shard, shards: shards)
    let present = try store.presentKeys()
    let state = Mutex((next: 0, done: 0, computed: 0, results: [Int: JobResult](), failures: [String](), storeError: String?.none))
    let count = max(1, min(workers, mine.count))
    DispatchQueue.concurrentPerform(iterations: count) { _ in
        while true {
            let i: Int? = state.withLock { s in s.next < mine.count && s.storeError == nil ? { s.next += 1; return s.next - 1 }() : nil }
            guard let i else { return }
            let job = mine[i]
            var result: JobResult?, failure: String?, computed = false, storeError: String?
            if present.contains(job.key), let cached = try? store.result(key: job.key) {
                result = cached.labelled(job)
            } else {
                let started = Date()
                do {
                    let r = try runJob(job, plan: plan)
                    result = r
                    computed = true
                    do {
                        try store.add(StoredRun(job: job, recordingSHA256: plan.checksums[job.recording] ?? "",
                                                navigationSHA256: plan.checksums[job.navigation] ?? "",
                                                seconds: Date().timeIntervalSince(started), result: r))
                    } catch { storeError = "\(error)" }
                } catch {
                    failure = "\(job.navigation) [\(job.configuration.label)]: \(error)"
                    do { try store.fail(job, message: failure!) } catch { storeError = "\(error)" }
                }
            }
            let (done, total) = state.withLock { s in
                if let result { s.results[job.index] = result }
                if let failure { s.failures.append(failure) }
                if computed { s.computed += 1 }
                if let storeError, s.storeError == nil { s.storeError = storeError }
                s.done += 1
                return (s.done, mine.count)
            }
            progress?(done, total)
        }
    }
    try store.flush()
    if let e = state.withLock({ $0.storeError }) { throw ResultsStoreError.unreadable(path: storePath, reason: e) }
    return state.withLock { s in (s.results, s.failures.sorted(), s.computed) }
}

/// Loads every job's stored result (for `merge` after sharded runs): the shard stores of the
/// report folder are first copied into `OUTPUT/results.sqlite`.
///
/// - Throws: `ResultsStoreError.foreignShard` (one line naming the shard) for a shard store of
///   another spec or navbench version.
public func storedResults(_ plan: ExperimentPlan) throws -> (results: [Int: JobResult], missing: [ExperimentJob]) {
    let spec = plan.spec
    try? FileManager.default.createDirectory(atPath: spec.output, withIntermediateDirectories: true)
    let store = try ResultsStore(path: experimentStorePath(spec))
    for shardPath in shardStorePaths(spec) { _ = try store.absorb(shard: shardPath, specSHA256: plan.specSHA256) }
    var results: [Int: JobResult] = [:], missing: [ExperimentJob] = []
    for job in plan.jobs {
        if let r = try? store.result(key: job.key) { results[job.index] = r.labelled(job) } else { missing.append(job) }
    }
    return (results, missing)
}

/// Stored results: sorted keys, non-finite numbers as strings.
func jobResultEncoder() -> JSONEncoder {
    let enc = JSONEncoder()
    enc.outputFormatting = [.sortedKeys]
    enc.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return enc
}

func jobResultDecoder() -> JSONDecoder {
    let dec = JSONDecoder()
    dec.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return dec
}
