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
    /// Identity in the cache: inputs' checksums, configuration and navbench version.
    public var key: String
    /// Session label in the results (`<dataset>/<session id>` when datasets are kept apart;
    /// nil: the navigation's session id). See `SessionGrouping`.
    public var session: String? = nil
}

/// What one job produced, as cached on disk (JSON).
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
public func planJobs(_ spec: ExperimentSpec, sessions: [String: Session], checksums: [String: String], failures: [String]) -> ExperimentPlan {
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
                let key = sha256Hex(of: Data("navbench \(NavbenchVersion.current)|\(checksums[rec]!)|\(checksums[nav]!)|\(c.options.canonicalJSON)".utf8))
                jobs.append(ExperimentJob(index: jobs.count, routeID: route, recording: rec, navigation: nav, configuration: c, key: key,
                                          session: grouping.labels[nav]))
            }
        }
    }
    return ExperimentPlan(spec: spec, sessions: sessions, checksums: checksums, jobs: jobs, failures: failures,
                          specSHA256: sha256Hex(of: Data(spec.text.utf8)))
}

/// Runs one job (no cache).
public func runJob(_ job: ExperimentJob, plan: ExperimentPlan) throws -> JobResult {
    let run = try runGuidance(recording: plan.sessions[job.recording]!, navigation: plan.sessions[job.navigation]!,
                              options: job.configuration.options)
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
/// result is cached in `cacheFolder` is read, not recomputed; a new result is cached atomically.
/// A failing job is listed and the rest completes.
///
/// - Returns: results by job index, and failure lines.
public func executeJobs(_ plan: ExperimentPlan, cacheFolder: String, workers: Int, shard: Int = 1, shards: Int = 1,
                        progress: ProgressHandler? = nil) -> (results: [Int: JobResult], failures: [String], computed: Int) {
    let mine = plan.jobs.filter { $0.index % shards == shard - 1 }
    let state = Mutex((next: 0, done: 0, computed: 0, results: [Int: JobResult](), failures: [String]()))
    try? FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
    let count = max(1, min(workers, mine.count))
    DispatchQueue.concurrentPerform(iterations: count) { _ in
        while true {
            let i: Int? = state.withLock { s in s.next < mine.count ? { s.next += 1; return s.next - 1 }() : nil }
            guard let i else { return }
            let job = mine[i]
            let path = (cacheFolder as NSString).appendingPathComponent(job.key + ".json")
            var result: JobResult?, failure: String?, computed = false
            if let data = FileManager.default.contents(atPath: path), let cached = try? jobResultDecoder().decode(JobResult.self, from: data) {
                result = cached.labelled(job)
            } else {
                do {
                    let r = try runJob(job, plan: plan)
                    if let data = try? jobResultEncoder().encode(r) { try? writeTextAtomically(String(decoding: data, as: UTF8.self), to: path) }
                    result = r
                    computed = true
                } catch {
                    failure = "\(job.navigation) [\(job.configuration.label)]: \(error)"
                }
            }
            let (done, total) = state.withLock { s in
                if let result { s.results[job.index] = result }
                if let failure { s.failures.append(failure) }
                if computed { s.computed += 1 }
                s.done += 1
                return (s.done, mine.count)
            }
            progress?(done, total)
        }
    }
    return state.withLock { s in (s.results, s.failures.sorted(), s.computed) }
}

/// Loads every job's cached result (for `merge` after sharded runs).
public func cachedResults(_ plan: ExperimentPlan, cacheFolder: String) -> (results: [Int: JobResult], missing: [ExperimentJob]) {
    var results: [Int: JobResult] = [:], missing: [ExperimentJob] = []
    let dec = jobResultDecoder()
    for job in plan.jobs {
        let path = (cacheFolder as NSString).appendingPathComponent(job.key + ".json")
        if let data = FileManager.default.contents(atPath: path), let r = try? dec.decode(JobResult.self, from: data) { results[job.index] = r.labelled(job) } else { missing.append(job) }
    }
    return (results, missing)
}

/// Cache files: sorted keys, non-finite numbers as strings.
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
