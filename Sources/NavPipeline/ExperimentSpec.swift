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
    /// The sections of the spec that kinds own (`KindSpecSection`), in the order of the kinds the
    /// spec was read with: each read and checked when the spec was read, read back by its kind
    /// (`kindSection(_:as:)`).
    public var kindSections: [SpecSectionValue] = []
    /// The spec file's text, hashed into reports.
    public var text: String
    /// Report statistics: baseline configuration, bootstrap resamples and seed (`statistics:`).
    public var statistics = StatisticsOptions()
    /// Seeds of synthetic venues generated inside the experiment (`data_seeds:`), each a dataset.
    public var dataSeeds: [UInt64] = []
    /// Estimators by name (`estimators:`): a file pattern with {session}/{route} relative to
    /// `folder`, `arkit`, or `exec:PROGRAM ARG…` (ExperimentEstimators.swift).
    public var estimators: [String: String] = [:]
    /// The folder estimate file patterns are relative to and stay inside: the current directory
    /// (`.`), as for every path of a spec (docs/experiments.md, "Paths"); a library caller may
    /// set another.
    public var folder = "."
    /// Seconds one `exec:` plugin call may take (`plugin_timeout:`).
    public var pluginTimeout = ExecPlugin.defaultTimeout

    public static let defaultKeyMetrics = [
        "clock_agreement_within_1h", "bearing_error_mean_abs", "on_track_precision", "false_arrivals",
        "end_of_route_error", "cross_track_rmse", "registration_yaw_error", "end_point_drift",
    ]
}

extension ExperimentSpec {
    static let topKeys = [
        "name", "inputs", "output", "metrics", "sweep", "compare", "statistics", "data_seeds", "estimators", "plugin_timeout",
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
        try parseEstimators(top, into: &spec, file: file, limits: limits)
        let context = SpecSectionContext(file: file, sweep: spec.sweep, limits: limits)
        for section in sections {
            guard let value = top[section.key] else { continue }
            spec.kindSections.append(try section.read(value, context))
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

extension ExperimentSpec {
    /// The section `key` a kind owns, as the type its reader made (nil when the spec has none).
    public func kindSection<Section>(_ key: String, as: Section.Type) -> Section? {
        kindSections.first { $0.key == key }?.value as? Section
    }
}
