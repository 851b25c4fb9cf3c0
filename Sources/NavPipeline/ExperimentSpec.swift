import Foundation
import NavGeometry
import NavGuidance
import NavIO
import NavReport
import NavSignal
import Yams

/// An experiment: inputs, a sweep grid, the metrics to show, where to write (docs/experiments.md).
public struct ExperimentSpec: Sendable, Equatable {
    public var name: String
    /// Glob patterns of trace files, relative to the current directory.
    public var inputs: [String]
    public var output: String
    public var keyMetrics: [String]
    public var sweep: Sweep
    /// Per-metric tolerances of `navbench compare` (absolute, relative).
    public var tolerances: [String: CompareTolerance]
    /// Heading-calibration estimators run on every session with a compass (none when empty).
    public var calibration: [String] = []
    /// RSSI filters of the proximity experiment, run on every session with beacons (none when empty).
    public var proximity: [String] = []
    /// Gyroscope filters scored against the angular rate of the optical ground truth.
    public var gyroFilters: [String] = []
    /// Trajectory pairs evaluated with APE (evo's conventions): reference, estimate, alignment.
    public var ape: [[String]] = []
    /// Closed-loop walkers (docs/navigator.md); none when nil.
    public var closedLoop: ClosedLoopSpec?
    /// The spec file's text, hashed into reports.
    public var text: String

    public static let defaultKeyMetrics = [
        "clock_agreement_within_1h", "bearing_error_mean_abs", "on_track_precision", "false_arrivals",
        "end_of_route_error", "cross_track_rmse", "registration_yaw_error", "end_point_drift",
    ]
}

/// The sweep grid: every combination of these lists is one configuration.
public struct Sweep: Sendable, Equatable {
    public var rdpTolerance: [Double] = [0.3]
    public var rdpDistance: [RDPDistance] = [.line]
    public var registration: [RegistrationMode] = [.gravityAligned]
    /// nil = all sightings.
    public var anchorSightings: [Int?] = [nil]
    public var positionFilter: [String] = ["none"]
    public var wording: [String] = ["clock"]
    public var arrival: [GuidanceParameters.ArrivalTest] = [.faithful]
    public var haptic: [String] = ["strict"]
    public var seeds: [UInt64] = [1]
    public init() {}
}

/// A bad spec: one line naming the file and the key.
public struct SpecError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String, key: String, problem: String
    public init(file: String, key: String, problem: String) { self.file = file; self.key = key; self.problem = problem }
    /// `FILE: KEY: problem`, or `FILE: problem` for the file as a whole (key empty).
    public var description: String { key.isEmpty ? "\(file): \(problem)" : "\(file): \(key): \(problem)" }
}

extension ExperimentSpec {
    static let topKeys = ["name", "inputs", "output", "metrics", "sweep", "compare", "calibration", "proximity", "gyro_filters", "ape", "closed_loop"]
    static let sweepKeys = ["rdp_tolerance", "rdp_distance", "registration", "anchor_sightings", "position_filter",
                            "wording", "arrival", "haptic", "seeds"]

    /// Parses and validates a YAML spec.
    public static func load(_ path: String) throws(SpecError) -> ExperimentSpec {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw SpecError(file: path, key: "", problem: FileManager.default.fileExists(atPath: path) ? "cannot read it as UTF-8 text, expected a YAML experiment spec" : "no such file, expected a YAML experiment spec")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(SpecError) -> ExperimentSpec {
        let node: Any?
        do { node = try Yams.load(yaml: text) } catch {
            throw SpecError(file: file, key: "", problem: "not valid YAML (\(String(describing: error).split(separator: "\n").first ?? ""))")
        }
        guard let top = node as? [String: Any] else { throw SpecError(file: file, key: "", problem: "expected a YAML mapping with keys \(topKeys.joined(separator: ", "))") }
        for k in top.keys.sorted() where !topKeys.contains(k) {
            throw SpecError(file: file, key: k, problem: "unknown key; valid: \(topKeys.joined(separator: ", "))")
        }
        func fail(_ key: String, _ problem: String) -> SpecError { SpecError(file: file, key: key, problem: problem) }
        guard let name = top["name"] as? String, !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw fail("name", "expected a name of letters, digits, - and _")
        }
        let inputs: [String]
        if let s = top["inputs"] as? String { inputs = [s] } else if let l = top["inputs"] as? [String], !l.isEmpty { inputs = l } else {
            throw fail("inputs", "expected a glob or a list of globs of trace files")
        }
        var spec = ExperimentSpec(name: name, inputs: inputs, output: (top["output"] as? String) ?? "Reports/\(name)",
                                  keyMetrics: defaultKeyMetrics, sweep: Sweep(), tolerances: [:], text: text)
        if let m = top["metrics"] {
            guard let l = m as? [String], !l.isEmpty else { throw fail("metrics", "expected a list of metric names") }
            spec.keyMetrics = l
        }
        if let s = top["sweep"] {
            guard let sweep = s as? [String: Any] else { throw fail("sweep", "expected a mapping of sweep dimensions") }
            for k in sweep.keys.sorted() where !sweepKeys.contains(k) {
                throw fail("sweep.\(k)", "unknown sweep dimension; valid: \(sweepKeys.joined(separator: ", "))")
            }
            func list(_ k: String) throws(SpecError) -> [Any]? {
                guard let v = sweep[k] else { return nil }
                if let l = v as? [Any], !l.isEmpty { return l }
                if !(v is [Any]) { return [v] }
                throw fail("sweep.\(k)", "expected a non-empty list")
            }
            func strings<T>(_ k: String, _ make: (String) -> T?, _ valid: String) throws(SpecError) -> [T]? {
                guard let l = try list(k) else { return nil }
                var out: [T] = []
                for v in l {
                    guard let s = v as? String ?? (v as? CustomStringConvertible).map({ "\($0)" }), let t = make(s) else {
                        throw fail("sweep.\(k)", "'\(v)' is not one of \(valid)")
                    }
                    out.append(t)
                }
                return out
            }
            if let l = try list("rdp_tolerance") {
                spec.sweep.rdpTolerance = try l.map { (v: Any) throws(SpecError) -> Double in
                    guard let d = (v as? Double) ?? (v as? Int).map(Double.init), d.isFinite, d >= 0 else {
                        throw fail("sweep.rdp_tolerance", "'\(v)' is not a tolerance ≥ 0 m")
                    }
                    return d
                }
            }
            if let l = try strings("rdp_distance", { RDPDistance(rawValue: $0) }, "line, segment") { spec.sweep.rdpDistance = l }
            if let l = try strings("registration", { RegistrationMode(rawValue: $0) }, "gravity-aligned, full") { spec.sweep.registration = l }
            if let l = try strings("anchor_sightings", { s -> Int?? in s == "all" ? .some(nil) : Int(s).flatMap { $0 >= 1 ? .some($0) : nil } }, "all or an integer ≥ 1") {
                spec.sweep.anchorSightings = l
            }
            if let l = try strings("position_filter", { s -> String? in s == "none" || (try? FilterSpec(parsing: s)) != nil ? s : nil },
                                   "none or a filter spec (docs/filters.md)") { spec.sweep.positionFilter = l }
            if let l = try strings("wording", { ["clock", "six-sector"].contains($0) ? $0 : nil }, "clock, six-sector") { spec.sweep.wording = l }
            if let l = try strings("arrival", { GuidanceParameters.ArrivalTest(rawValue: $0) }, "faithful, symmetric") { spec.sweep.arrival = l }
            if let l = try strings("haptic", { ["strict", "relaxed"].contains($0) ? $0 : nil }, "strict, relaxed") { spec.sweep.haptic = l }
            if let l = try strings("seeds", { UInt64($0) }, "non-negative integers") { spec.sweep.seeds = l }
        }
        for (key, assign) in [("calibration", { (l: [String]) in spec.calibration = l }), ("proximity", { (l: [String]) in spec.proximity = l }),
                              ("gyro_filters", { (l: [String]) in spec.gyroFilters = l })] {
            guard let v = top[key] else { continue }
            guard let l = v as? [String], !l.isEmpty else { throw fail(key, "expected a list of filter specs") }
            for f in l where f != "none" {
                do { _ = try FilterSpec(parsing: f) } catch { throw fail(key, "'\(f)': \(error.problem)") }
            }
            assign(l)
        }
        if let a = top["ape"] {
            guard let l = a as? [[String: Any]], !l.isEmpty else { throw fail("ape", "expected a list of {reference: FILE, estimate: FILE, align: se3|sim3|yaw|origin|none}") }
            for (i, e) in l.enumerated() {
                guard let r = e["reference"] as? String, let est = e["estimate"] as? String else {
                    throw fail("ape[\(i)]", "expected reference and estimate file paths")
                }
                let align = (e["align"] as? String) ?? "se3"
                guard AlignmentMethod(rawValue: align) != nil else { throw fail("ape[\(i)].align", "'\(align)' is not one of se3, sim3, yaw, origin, none") }
                spec.ape.append([r, est, align])
            }
        }
        if let c = top["closed_loop"] { spec.closedLoop = try ClosedLoopSpec.parse(c, file: file) }
        if let c = top["compare"] {
            guard let m = c as? [String: Any] else { throw fail("compare", "expected a mapping metric: {absolute: …, relative: …}") }
            for (metric, v) in m {
                guard let t = v as? [String: Any], let a = (t["absolute"] as? Double) ?? (t["absolute"] as? Int).map(Double.init),
                      let r = (t["relative"] as? Double) ?? (t["relative"] as? Int).map(Double.init), a >= 0, r >= 0 else {
                    throw fail("compare.\(metric)", "expected {absolute: number ≥ 0, relative: number ≥ 0}")
                }
                spec.tolerances[metric] = CompareTolerance(absolute: a, relative: r)
            }
        }
        return spec
    }
}

/// One point of the sweep grid.
public struct Configuration: Sendable {
    public var label: String
    public var options: GuidanceOptions
    /// Values of `Configuration.columns`.
    public var parameters: [String]

    public static let columns = ["rdp_tolerance", "rdp_distance", "registration", "anchor_sightings", "position_filter",
                                 "wording", "arrival", "haptic", "seed"]
}

extension Sweep {
    /// Every combination, in a fixed order; labels name only the dimensions that vary.
    public var configurations: [Configuration] {
        var out: [Configuration] = []
        for tol in rdpTolerance { for dist in rdpDistance { for reg in registration { for anchors in anchorSightings {
            for filter in positionFilter { for words in wording { for arr in arrival { for hap in haptic { for seed in seeds {
                var o = GuidanceOptions()
                o.rdpTolerance = tol; o.rdpDistance = dist; o.registration = reg; o.anchorSightings = anchors
                o.positionFilter = filter == "none" ? nil : filter; o.seed = seed
                o.guidance.sixSectorWording = words == "six-sector"; o.guidance.arrivalTest = arr; o.guidance.strictHaptic = hap == "strict"
                let values = [formatNumber(tol), dist.rawValue, reg.rawValue, anchors.map(String.init) ?? "all", filter, words, arr.rawValue, hap, String(seed)]
                let short = ["tol", "dist", "reg", "anchors", "filter", "words", "arrival", "haptic", "seed"]
                let varying = [rdpTolerance.count, rdpDistance.count, registration.count, anchorSightings.count, positionFilter.count,
                               wording.count, arrival.count, haptic.count, seeds.count].map { $0 > 1 }
                let label = zip(zip(short, values), varying).filter(\.1).map { "\($0.0.0)=\($0.0.1)" }.joined(separator: " ")
                out.append(Configuration(label: label.isEmpty ? "default" : label, options: o, parameters: values))
            } } } } } } } } }
        return out
    }
}

