import Foundation
import NavGeometry
import NavGuidance
import NavIO
import NavImport
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
    /// Scans and path-loss fit of the proximity experiment (`proximity_options:`).
    public var proximityOptions = ProximityFitOptions()
    /// Gyroscope filters scored against the angular rate of the optical ground truth.
    public var gyroFilters: [String] = []
    /// Trajectory pairs evaluated with APE (evo's conventions): reference, estimate, alignment.
    public var ape: [[String]] = []
    /// The sections of the spec that kinds own (`KindSpecSection`), by key: each value as
    /// canonical JSON, checked when the spec was read, decoded by its kind (`kindSection`).
    public var kindSections: [String: String] = [:]
    /// Closed-loop walkers (docs/navigator.md); none when nil.
    public var closedLoop: ClosedLoopSpec?
    /// The spec file's text, hashed into reports.
    public var text: String
    /// Report statistics: baseline configuration, bootstrap resamples and seed (`statistics:`).
    public var statistics = StatisticsOptions()
    /// Seeds of synthetic venues generated inside the experiment (`data_seeds:`), each a dataset.
    public var dataSeeds: [UInt64] = []
    /// Estimators by name (`estimators:`): a file pattern with {session}/{route} relative to
    /// `folder`, `arkit`, or `exec:PROGRAM ARG…` (ExperimentEstimators.swift).
    public var estimators: [String: String] = [:]
    /// The spec file's folder: estimate file patterns are relative to it and stay inside it.
    public var folder = "."
    /// Seconds one `exec:` plugin call may take (`plugin_timeout:`).
    public var pluginTimeout = ExecPlugin.defaultTimeout

    public static let defaultKeyMetrics = [
        "clock_agreement_within_1h", "bearing_error_mean_abs", "on_track_precision", "false_arrivals",
        "end_of_route_error", "cross_track_rmse", "registration_yaw_error", "end_point_drift",
    ]
}

/// A section of the spec that a kind owns (`ExperimentKind.specSection`): its key, its line of
/// documentation, and its type — the section's YAML value is read as JSON into `Section` when the
/// spec is read (one line naming the key when it does not decode or `check` refuses it), and
/// decoded again by the kind when it plans (`ExperimentSpec.kindSection`).
public struct KindSpecSection: Sendable {
    public var key: String
    /// What the section configures, one line (docs, `--help`).
    public var summary: String
    let read: @Sendable (_ json: Data) throws -> Void

    /// The section `key` decoded as `Section` and, when given, checked by `check` (which throws
    /// an error whose description is the problem).
    public init<Section: Decodable & Sendable>(
        key: String, summary: String, as: Section.Type, check: (@Sendable (Section) throws -> Void)? = nil
    ) {
        self.key = key; self.summary = summary
        read = { json in
            let value = try JSONDecoder().decode(Section.self, from: json)
            try check?(value)
        }
    }

    /// The section's canonical JSON (sorted keys), once it reads as the kind's type.
    func checked(_ value: Any, file: String) throws(SpecError) -> String {
        guard JSONSerialization.isValidJSONObject([value]),
            let json = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { throw SpecError(file: file, key: key, problem: "expected plain YAML values (\(summary))") }
        do { try read(json) } catch let e as DecodingError {
            throw SpecError(file: file, key: key, problem: "\(decodingProblem(e)); \(summary)")
        } catch { throw SpecError(file: file, key: key, problem: "\(error); \(summary)") }
        return String(decoding: json, as: UTF8.self)
    }
}

/// A decoding error as one line: where (the coding path) and what was expected.
private func decodingProblem(_ e: DecodingError) -> String {
    func path(_ c: [CodingKey]) -> String {
        c.isEmpty ? "" : " at " + c.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
    switch e {
    case .typeMismatch(let t, let c): return "expected \(t)\(path(c.codingPath))"
    case .valueNotFound(let t, let c): return "expected \(t)\(path(c.codingPath))"
    case .keyNotFound(let k, let c): return "missing key \(k.stringValue)\(path(c.codingPath))"
    case .dataCorrupted(let c): return "\(c.debugDescription)\(path(c.codingPath))"
    @unknown default: return "\(e)"
    }
}

extension ExperimentSpec {
    /// The section `key` a kind owns, decoded as `Section` (nil when the spec has none). It was
    /// checked when the spec was read, so it decodes.
    public func kindSection<Section: Decodable>(_ key: String, as: Section.Type) -> Section? {
        kindSections[key].flatMap { try? JSONDecoder().decode(Section.self, from: Data($0.utf8)) }
    }
}

/// Limits on what an experiment spec may ask for, checked when the spec is read, before
/// anything is built: a value passed to `ExperimentSpec.load`/`parse` (the CLI's
/// `--max-configurations`), never a global.
public struct SpecLimits: Sendable, Equatable {
    /// Most configurations a sweep grid may have (`--max-configurations` raises it). The grid is
    /// counted, with overflow checked, before it is built; 10,000 configurations × a few
    /// navigation sessions is already hours of replay.
    public var maxConfigurations: Int

    public init(maxConfigurations: Int = 10_000) { self.maxConfigurations = maxConfigurations }

    /// 10,000 configurations.
    public static var standard: SpecLimits { SpecLimits() }
}

/// The sweep grid: every combination of these lists is one configuration. Values are the
/// levels of each `SweepDimension` (parsed once, where the spec is read), by key; a dimension
/// not swept has its default level.
public struct Sweep: Sendable, Equatable {
    public var levels: [String: [SweepLevel]] = [:]
    public init() {}

    /// The levels of a dimension (its default alone when not swept).
    public func levels(of d: SweepDimension) -> [SweepLevel] { levels[d.key] ?? [d.defaultLevel] }
    /// The canonical texts of a dimension's levels (labels, `metrics.csv`, YAML).
    public func values(of d: SweepDimension) -> [String] { levels(of: d).map(\.text) }

    /// The options a level of the sweep sets, from the default options.
    private func options(_ level: SweepLevel) -> GuidanceOptions {
        var o = GuidanceOptions()
        level.apply(to: &o)
        return o
    }
    /// The RDP tolerances swept, metres.
    public var rdpTolerance: [Double] { levels(of: .rdpTolerance).map { options($0).rdpTolerance } }
    /// The seeds swept.
    public var seeds: [UInt64] { levels(of: .seeds).map { options($0).seed } }

    /// Equal when they give the same grid (a dimension left out equals its default given).
    public static func == (a: Sweep, b: Sweep) -> Bool {
        SweepDimension.all.allSatisfy { a.levels(of: $0) == b.levels(of: $0) }
    }
}

extension ExperimentSpec {
    static let topKeys = [
        "name", "inputs", "output", "metrics", "sweep", "compare", "calibration", "proximity", "proximity_options", "gyro_filters", "ape",
        "statistics", "data_seeds",
        "closed_loop", "estimators", "plugin_timeout",
    ]
    static var sweepKeys: [String] { SweepDimension.all.map(\.key) }

    /// Parses and validates a YAML spec; `sections`: the spec sections kinds own (SpecLoading.swift
    /// gives the standard kinds').
    static func load(_ path: String, limits: SpecLimits, sections: [KindSpecSection]) throws(SpecError) -> ExperimentSpec {
        if let kind = nonRegularFileKind(path) { throw SpecError(file: path, key: "", problem: "is \(kind), expected a YAML experiment spec") }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw SpecError(
                file: path, key: "",
                problem: FileManager.default.fileExists(atPath: path)
                    ? "cannot read it as UTF-8 text, expected a YAML experiment spec" : "no such file, expected a YAML experiment spec")
        }
        return try parse(text, file: path, limits: limits, sections: sections)
    }

    static func parse(_ text: String, file: String, limits: SpecLimits, sections: [KindSpecSection]) throws(SpecError) -> ExperimentSpec {
        try parse(tree: try yamlTree(text, file: file), text: text, file: file, limits: limits, sections: sections)
    }

    /// The YAML document of a spec as Foundation values.
    static func yamlTree(_ text: String, file: String) throws(SpecError) -> Any? {
        if let problem = yamlExpansionProblem(text) { throw SpecError(file: file, key: "", problem: problem) }
        do { return try Yams.load(yaml: text) } catch {
            throw SpecError(file: file, key: "", problem: "not valid YAML (\(String(describing: error).split(separator: "\n").first ?? ""))")
        }
    }

    /// Validates a parsed YAML document; `text` is what reports hash as the spec.
    static func parse(tree node: Any?, text: String, file: String, limits: SpecLimits, sections: [KindSpecSection]) throws(SpecError)
        -> ExperimentSpec
    {
        let valid = topKeys + sections.map(\.key)
        guard let top = node as? [String: Any] else {
            throw SpecError(file: file, key: "", problem: "expected a YAML mapping with keys \(valid.joined(separator: ", "))")
        }
        for k in top.keys.sorted() where !valid.contains(k) {
            throw SpecError(file: file, key: k, problem: "unknown key; valid: \(valid.joined(separator: ", "))")
        }
        func fail(_ key: String, _ problem: String) -> SpecError { SpecError(file: file, key: key, problem: problem) }
        guard let name = top["name"] as? String, !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw fail("name", "expected a name of letters, digits, - and _")
        }
        let inputs: [String]
        if let s = top["inputs"] as? String {
            inputs = [s]
        } else if let l = top["inputs"] as? [String], !l.isEmpty {
            inputs = l
        } else if top["inputs"] == nil && top["data_seeds"] != nil {
            inputs = []
        } else {
            throw fail("inputs", "expected a glob or a list of globs of trace files")
        }
        var spec = ExperimentSpec(
            name: name, inputs: inputs, output: (top["output"] as? String) ?? "Reports/\(name)",
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
            for d in SweepDimension.all {
                guard let l = try list(d.key) else { continue }
                spec.sweep.levels[d.key] = try l.map { (v: Any) throws(SpecError) -> SweepLevel in
                    guard let text = v as? String ?? (v as? CustomStringConvertible).map({ "\($0)" }), let level = d.level(parsing: text) else {
                        throw fail("sweep.\(d.key)", d.problem("\(v)"))
                    }
                    return level
                }
            }
            try spec.sweep.checkLimits(file: file, limits: limits)  // SpecLimits.swift: repeated values, grid size
        }
        for (key, assign) in [
            ("calibration", { (l: [String]) in spec.calibration = l }), ("proximity", { (l: [String]) in spec.proximity = l }),
            ("gyro_filters", { (l: [String]) in spec.gyroFilters = l }),
        ] {
            guard let v = top[key] else { continue }
            guard let l = v as? [String], !l.isEmpty else { throw fail(key, "expected a list of filter specs") }
            for f in l where f != "none" {
                // exec: plugins and registered filters for gyro_filters (NavPipeline); the aids take built-ins.
                do { if key == "gyro_filters" { try FilterRegistry.validate(f) } else { _ = try FilterSpec(parsing: f) } } catch {
                    throw fail(key, "'\(f)': \(error.problem)")
                }
            }
            assign(l)
        }
        if let o = top["proximity_options"] { spec.proximityOptions = try ProximityFitOptions.parse(o, file: file) }
        for section in sections {
            guard let value = top[section.key] else { continue }
            spec.kindSections[section.key] = try section.checked(value, file: file)
        }
        if let a = top["ape"] {
            guard let l = a as? [[String: Any]], !l.isEmpty else {
                throw fail("ape", "expected a list of {reference: FILE, estimate: FILE, align: se3|sim3|yaw|origin|none}")
            }
            for (i, e) in l.enumerated() {
                guard let r = e["reference"] as? String, let est = e["estimate"] as? String else {
                    throw fail("ape[\(i)]", "expected reference and estimate file paths")
                }
                let align = (e["align"] as? String) ?? "se3"
                guard AlignmentMethod(rawValue: align) != nil else {
                    throw fail("ape[\(i)].align", "'\(align)' is not one of se3, sim3, yaw, origin, none")
                }
                spec.ape.append([r, est, align])
            }
        }
        try parseEstimators(top, into: &spec, file: file, limits: limits)
        if let c = top["closed_loop"] { spec.closedLoop = try ClosedLoopSpec.parse(c, file: file) }
        if let cl = spec.closedLoop {
            // The closed loop's grid is counted before anything is built, as sweep: is (SpecLimits.swift).
            let guidance = closedLoopDimensions(simulatesRegistration: cl.simulatesRegistration).map { spec.sweep.levels(of: $0).count }
            var cells = 1, overflow = false
            for n in [cl.walkerLevels.count, cl.vioErrorLevels.count, cl.wallsLevels.count, cl.seeds.count] + guidance where !overflow {
                (cells, overflow) = cells.multipliedReportingOverflow(by: n)
            }
            guard !overflow, cells <= limits.maxConfigurations else {
                throw fail(
                    "closed_loop",
                    "\(overflow ? "more than 2^63" : String(cells)) cells (walker × vio_error × walls × seeds × guidance configurations), more than the limit of \(limits.maxConfigurations) (--max-configurations raises it)"
                )
            }
        }
        if let cl = spec.closedLoop, let u = cl.uncertainty {
            // A walker-uncertainty unit per sampled walker and closed-loop configuration (per recording and walls).
            let configurations = closedLoopDimensions(simulatesRegistration: cl.simulatesRegistration).map { spec.sweep.levels(of: $0).count }
                .reduce(1) { $0.multipliedReportingOverflow(by: $1).partialValue }
            let (units, overflow) = u.points.multipliedReportingOverflow(by: configurations)
            guard !overflow, units <= WalkerUncertaintySpec.maxUnitsPerRecording else {
                throw fail(
                    "closed_loop.uncertainty",
                    "\(u.points) sampled walkers × \(configurations) guidance configurations is more than \(WalkerUncertaintySpec.maxUnitsPerRecording) units per recording"
                )
            }
        }
        spec.statistics = try parseStatistics(top["statistics"], file: file, configurations: spec.sweep.configurations.map(\.label))
        spec.dataSeeds = try parseDataSeeds(top["data_seeds"], file: file)
        if let c = top["compare"] {
            guard let m = c as? [String: Any] else { throw fail("compare", "expected a mapping metric: {absolute: …, relative: …}") }
            for (metric, v) in m {
                guard let t = v as? [String: Any], let a = (t["absolute"] as? Double) ?? (t["absolute"] as? Int).map(Double.init),
                    let r = (t["relative"] as? Double) ?? (t["relative"] as? Int).map(Double.init),
                    let checked = CompareTolerance(checkedAbsolute: a, relative: r)
                else {
                    throw fail("compare.\(metric)", "expected \(CompareTolerance.expected)")
                }
                spec.tolerances[metric] = checked
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

    /// The `metrics.csv` parameter columns, one per sweep dimension.
    public static var columns: [String] { SweepDimension.all.map(\.column) }
}

extension Sweep {
    /// Every combination, in a fixed order (the first dimension varies slowest); labels name
    /// only the dimensions that vary.
    public var configurations: [Configuration] {
        let dims = SweepDimension.all
        let lists = dims.map { levels(of: $0) }
        var combos: [[SweepLevel]] = [[]]
        for l in lists { combos = combos.flatMap { c in l.map { c + [$0] } } }
        return combos.map { levels in
            var o = GuidanceOptions()
            for level in levels { level.apply(to: &o) }
            let label = zip(dims, zip(levels, lists)).filter { $0.1.1.count > 1 }.map { "\($0.0.label)=\($0.1.0.text)" }.joined(separator: " ")
            return Configuration(label: label.isEmpty ? "default" : label, options: o, parameters: levels.map(\.text))
        }
    }
}
