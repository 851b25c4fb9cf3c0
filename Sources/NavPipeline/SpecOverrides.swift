import Foundation
import NavCore
import NavIO
import NavImport
import Yams

// Command-line overrides of an experiment spec, as Hydra users write them:
// `navbench run SPEC rdp_tolerance=0.6 wording=clock,six-sector output=Reports/try`.

extension ExperimentSpec {
    /// Top-level keys of the spec itself whose value is a list (a comma-separated override gives
    /// several entries); a kind's section says so itself (`KindSpecSection.takesList`).
    static let listKeys: Set<String> = ["inputs", "metrics"]

    /// Loads a spec and applies `overrides` (`KEY=VALUE`, see `parse(_:file:overrides:)`).
    public static func load(
        _ path: String, overrides: [String], limits: SpecLimits = .standard, kinds: [any ExperimentKind] = ExperimentKinds.standard
    ) throws(SpecError) -> ExperimentSpec {
        let spec = try load(path, limits: limits, sections: kinds.flatMap(\.specSections))
        return overrides.isEmpty ? spec : try parse(spec.text, file: path, overrides: overrides, limits: limits, kinds: kinds)
    }

    /// Parses a spec and applies overrides in order. Each is `KEY=VALUE`:
    /// - KEY is a top-level key (`name`, `output`, `inputs`, `metrics`, `calibration`, …), a sweep
    ///   dimension (`rdp_tolerance` or `sweep.rdp_tolerance`), a closed-loop dimension (`walker`
    ///   or `closed_loop.walker`, `vio_error`, `walls`), or a dotted path into a mapping
    ///   (`compare.end_point_drift`);
    /// - VALUE `a,b` is a list (a sweep over a and b); a value in YAML flow syntax (`[…]`, `{…}`)
    ///   is read as YAML, which is how a filter spec containing a comma is given
    ///   (`calibration=[mean, "ema:tau=0.5,angle"]`).
    /// The overrides are validated like the file, and appended to the spec's text as a comment
    /// (so the spec hash in reports tells an overridden run apart).
    ///
    /// - Throws: `SpecError` naming the override, or the key, and what is wrong.
    public static func parse(
        _ text: String, file: String, overrides: [String], limits: SpecLimits = .standard, kinds: [any ExperimentKind] = ExperimentKinds.standard
    ) throws(SpecError) -> ExperimentSpec {
        let sections = kinds.flatMap(\.specSections)
        guard !overrides.isEmpty else { return try parse(text, file: file, limits: limits, sections: sections) }
        var top = (try yamlTree(text, file: file) as? [String: Any]) ?? [:]
        for o in overrides {
            let kv = o.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2, !kv[0].isEmpty else {
                throw SpecError(file: file, key: o, problem: "expected KEY=VALUE (for example rdp_tolerance=0.3,0.6)")
            }
            var path = kv[0].split(separator: ".").map(String.init)
            if path.count == 1, SweepDimension.named(path[0]) != nil { path = ["sweep", path[0]] }
            if path.count == 1, !topKeys.contains(path[0]), !sections.contains(where: { $0.key == path[0] }) {
                path = try shortKeyPath(path[0], sections: sections, file: file, override: o)
            }
            let sectionList = sections.first { $0.key == path[0] }?.takesList(Array(path.dropFirst())) ?? false
            let value = try overrideValue(
                kv[1], list: path.first == "sweep" || sectionList || (path.count == 1 && listKeys.contains(path[0])), file: file, key: kv[0])
            top = setting(top, path[...], value)
        }
        let resolved = text + (text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + "# overrides: " + overrides.joined(separator: " ") + "\n"
        return try parse(tree: top, text: resolved, file: file, limits: limits, sections: sections)
    }

    /// Parses and validates a YAML spec with the spec sections of `kinds`.
    public static func load(
        _ path: String, limits: SpecLimits = .standard, kinds: [any ExperimentKind] = ExperimentKinds.standard
    ) throws(SpecError) -> ExperimentSpec {
        try load(path, limits: limits, sections: kinds.flatMap(\.specSections))
    }

    /// Parses and validates YAML spec text with the spec sections of `kinds`.
    public static func parse(
        _ text: String, file: String, limits: SpecLimits = .standard, kinds: [any ExperimentKind] = ExperimentKinds.standard
    ) throws(SpecError) -> ExperimentSpec {
        try parse(text, file: file, limits: limits, sections: kinds.flatMap(\.specSections))
    }

    /// Keys of the spec's sections an override may name alone, as (section, key): the kinds'
    /// (`KindSpecSection.overrideKeys`: the closed loop's) and the statistics' keys, and a sweep
    /// dimension by its `metrics.csv` column.
    static func sectionKeys(_ sections: [KindSpecSection]) -> [(section: String, key: String, name: String)] {
        sections.flatMap { s in s.overrideKeys.map { (s.key, $0, $0) } } + statisticsKeys.map { ("statistics", $0, $0) }
            + SweepDimension.all.filter { $0.column != $0.key }.map { ("sweep", $0.key, $0.column) }
    }

    /// The path of an override key that is not a top-level key, a sweep or a closed-loop
    /// dimension: the one section key of that name (`runs` → `closed_loop.runs`).
    ///
    /// - Throws: `SpecError` when two sections have the key (naming both), or none has it (naming
    ///   the closest keys by edit distance).
    static func shortKeyPath(_ name: String, sections: [KindSpecSection], file: String, override o: String) throws(SpecError) -> [String] {
        let sectionKeys = sectionKeys(sections)
        let matches = sectionKeys.filter { $0.name == name }
        if matches.count == 1 { return [matches[0].section, matches[0].key] }
        if matches.count > 1 {
            throw SpecError(
                file: file, key: o,
                problem: "'\(name)' is ambiguous: " + matches.map { "\($0.section).\($0.key)" }.joined(separator: " or ") + "; write one")
        }
        let known = topKeys + sections.map(\.key) + sweepKeys + sectionKeys.map(\.name)
        var seen = Set<String>()
        // A key longer than any known one by far gets no suggestion (edit distance is O(|name|·|key|)).
        let closest = name.count > 64 ? [] : closestWords(to: name, among: known.filter { seen.insert($0).inserted })
        throw SpecError(
            file: file, key: o,
            problem: "unknown key '\(escapedForMessage(name))'"
                + (closest.isEmpty ? "" : "; did you mean \(closest.joined(separator: ", "))?")
                + " (keys: top-level, sweep and closed_loop dimensions, closed_loop and statistics keys; docs/experiments.md)")
    }

    /// A value from override text: YAML flow syntax, a comma list, or one scalar.
    static func overrideValue(_ text: String, list: Bool, file: String, key: String) throws(SpecError) -> Any {
        // The spec file's alias check, for override text too (a 283-byte override held 6.7 GB).
        if let problem = yamlExpansionProblem(text) { throw SpecError(file: file, key: key, problem: "override value: " + problem) }
        func scalar(_ s: String) -> Any {
            let t = s.trimmingCharacters(in: .whitespaces)
            return (try? Yams.load(yaml: t)).flatMap { $0 as? Double ?? ($0 as? Int).map { $0 as Any } } ?? t
        }
        if text.hasPrefix("[") || text.hasPrefix("{") {
            do { return try Yams.load(yaml: text) ?? text } catch {
                throw SpecError(file: file, key: key, problem: "override value '\(text)' is not valid YAML")
            }
        }
        if list { return text.split(separator: ",", omittingEmptySubsequences: false).map { scalar(String($0)) } }
        return scalar(text)
    }

    /// `tree` with `value` set at `path`, creating mappings on the way.
    static func setting(_ tree: [String: Any], _ path: ArraySlice<String>, _ value: Any) -> [String: Any] {
        var t = tree
        guard let k = path.first else { return t }
        if path.count == 1 { t[k] = value } else { t[k] = setting((t[k] as? [String: Any]) ?? [:], path.dropFirst(), value) }
        return t
    }

    /// The resolved spec as YAML: every key, defaults filled in, in a fixed order
    /// (`navbench run SPEC --print-config`). Parsing it gives the same spec.
    public var resolvedYAML: String {
        let q = jsonQuoted
        func list(_ l: [String]) -> String { "[" + l.map(q).joined(separator: ", ") + "]" }
        var y = "name: \(q(name))\ninputs: \(list(inputs))\noutput: \(q(output))\nmetrics: \(list(keyMetrics))\nsweep:\n"
        for d in SweepDimension.all {
            let v = sweep.values(of: d)
            y += "  \(d.key): " + (d.key == SweepDimension.rdpTolerance.key ? "[" + v.joined(separator: ", ") + "]" : list(v)) + "\n"
        }
        for section in kindSections { y += section.yaml }
        if !estimators.isEmpty { y += "estimators:\n" + estimators.keys.sorted().map { "  \(q($0)): \(q(estimators[$0]!))\n" }.joined() }
        if pluginTimeout != ExecPlugin.defaultTimeout { y += "plugin_timeout: \(formatNumber(pluginTimeout))\n" }
        if !tolerances.isEmpty {
            y +=
                "compare:\n"
                + tolerances.keys.sorted().map { k in
                    "  \(q(k)): {absolute: \(formatNumber(tolerances[k]!.absolute)), relative: \(formatNumber(tolerances[k]!.relative))}\n"
                }.joined()
        }
        return y
    }
}
