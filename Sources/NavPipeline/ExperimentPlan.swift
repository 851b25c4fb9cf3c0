import Foundation
import NavCore
import NavGuidance
import NavIO

// The planned experiment and its replay jobs (values only: planning is `planExperiment` in
// ExperimentPlanning.swift; the jobs run as units of `GuidanceReplayKind` on the one engine,
// `executePlannedKinds`).

/// One (route, navigation session, configuration) to run.
public struct ExperimentJob: Sendable {
    public var index: Int
    public var routeID: String
    public var recording: String
    public var navigation: String
    /// The configuration, shared by reference among the jobs of one configuration: a sweep's job
    /// list costs a pointer per job for it, not a 256-byte copy (issue 16: memory per run).
    public var configuration: Configuration {
        get { configurationBox.value }
        set { configurationBox = ConfigurationBox(newValue) }
    }
    private var configurationBox: ConfigurationBox
    /// Identity in the results store: inputs' checksums, configuration and navbench version
    /// (a SHA-256 in hex, held as 32 bytes: no heap string per job).
    public var key: String {
        get { storedKey.text }
        set { storedKey = JobKey(newValue) }
    }
    private var storedKey: JobKey
    /// Session label in the results (`<dataset>/<session id>` when datasets are kept apart;
    /// nil: the navigation's session id). See `SessionGrouping`.
    public var session: String? = nil
    /// The estimate file replacing the navigation's VIO (`estimators:` file patterns), if any.
    public var estimate: String? = nil

    public init(
        index: Int, routeID: String, recording: String, navigation: String, configuration: Configuration, key: String,
        session: String? = nil, estimate: String? = nil
    ) {
        self.init(
            index: index, routeID: routeID, recording: recording, navigation: navigation, shared: ConfigurationBox(configuration),
            key: key, session: session, estimate: estimate)
    }

    init(
        index: Int, routeID: String, recording: String, navigation: String, shared box: ConfigurationBox, key: String,
        session: String?, estimate: String?
    ) {
        self.index = index; self.routeID = routeID; self.recording = recording; self.navigation = navigation
        configurationBox = box; storedKey = JobKey(key); self.session = session; self.estimate = estimate
    }
}

/// A job key: 64 lowercase hex digits kept as 4 words, any other text as it is.
enum JobKey: Sendable {
    case sha256(UInt64, UInt64, UInt64, UInt64)
    case other(String)

    init(_ text: String) {
        let u = Array(text.utf8)
        func word(_ i: Int) -> UInt64? {
            var w: UInt64 = 0
            for c in u[(16 * i)..<(16 * i + 16)] {
                let v: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
                default: return nil
                }
                w = w << 4 | UInt64(v)
            }
            return w
        }
        if u.count == 64, let a = word(0), let b = word(1), let c = word(2), let d = word(3) {
            self = .sha256(a, b, c, d)
        } else {
            self = .other(text)
        }
    }

    var text: String {
        switch self {
        case .other(let s): return s
        case .sha256(let a, let b, let c, let d):
            let digits = Array("0123456789abcdef".utf8)
            var out = [UInt8](repeating: 0, count: 64)
            for (i, w) in [a, b, c, d].enumerated() {
                for j in 0..<16 { out[16 * i + j] = digits[Int((w >> (60 - 4 * UInt64(j))) & 0xf)] }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}

/// An immutable configuration shared among jobs.
final class ConfigurationBox: Sendable {
    let value: Configuration
    init(_ value: Configuration) { self.value = value }
}

/// What one job produced. The results store keeps only its metrics (`StoredResult`); the paths
/// are for the plots, which re-run the few runs they draw (`PlotSample`).
public struct JobResult: Sendable {
    public var route: String
    public var session: String
    public var configuration: String
    public var parameters: [String]
    public var metrics: [Metric]
    /// Horizontal paths (x, −z) for plots, at most 300 points each, and the route.
    public var truePath: [[Double]]
    public var estimatedPath: [[Double]]
    public var route2D: [[Double]]
    /// ‖estimated − true‖ along the run, metres (for error CDFs).
    public var positionErrors: [Double]
}

/// The planned experiment: its inputs (metadata held, streams loaded per route: `SessionCatalog`),
/// jobs, and the inputs that failed.
public struct ExperimentPlan: Sendable {
    public var spec: ExperimentSpec
    public var inputs: SessionCatalog
    public var checksums: [String: String]
    public var jobs: [ExperimentJob]
    public var failures: [String]
    public var specSHA256: String
    /// Job indices of the shard this plan was loaded for (`planExperiment(_:shard:shards:)`);
    /// nil when the plan is not of one shard.
    public var shardJobs: Range<Int>? = nil
    /// How the inputs and estimate files are read (external links, memory budget).
    public var readPolicy: HDF5ReadPolicy = .standard
    /// Print the resident set size at each phase on standard error (`traceMemory`).
    public var tracesMemory = false

    /// The session of input `name` with its streams (`SessionCatalog.session`).
    public func session(_ name: String) throws -> Session { try inputs.session(name) }
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

/// When the plan traces memory (`runExperiment(…, tracingMemory: true)`; the CLI with
/// `NAVBENCH_TRACE_MEMORY=1`): one line on standard error with the resident and peak resident
/// set sizes at `label` (Linux /proc/self/status), for profiling a large report.
func traceMemory(_ plan: ExperimentPlan, _ label: String) {
    guard plan.tracesMemory,
        let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    else { return }
    // By name: /proc lists VmHWM (the peak) before VmRSS.
    func field(_ name: String) -> String {
        status.split(separator: "\n").first { $0.hasPrefix(name) }
            .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().joined(separator: " ") } ?? "?"
    }
    // The monotonic clock beside it: the difference of two lines is the phase's wall time.
    let seconds = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    // And the process's CPU time (user + system, every thread): two lines' difference is the phase's.
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
    FileHandle.standardError.write(
        Data(
            ("memory: \(label): rss \(field("VmRSS:")), peak \(field("VmHWM:")), clock \(String(format: "%.3f", seconds)) s, "
                + "cpu \(String(format: "%.3f", cpu)) s\n").utf8))
}
