import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import NavReport

/// Trajectory evaluation (APE, translation, metres; evo's conventions, association within
/// 0.01 s) as a result kind: one unit per pair of the spec's `ape:` list (reference, estimate,
/// alignment), keyed by both files' SHA-256.
public struct TrajectoryAPEKind: ExperimentKind {
    public init() {}
    public var name: String { "ape" }
    public var csvFile: String { "ape.csv" }
    public var parameterColumns: [String] { ["reference"] }
    public func isAsked(by spec: ExperimentSpec) -> Bool { !spec.ape.isEmpty }
    public var gatedCSV: String? { csvFile }
    /// `ape: [{reference: FILE, estimate: FILE, align: ALIGNMENT}, …]`.
    public var specSections: [KindSpecSection] {
        let key = Self.specKey
        return [
            KindSpecSection(
                key: key, summary: "a list of {reference: FILE, estimate: FILE, align: se3|sim3|yaw|origin|none}",
                read: { (v: Any, context: SpecSectionContext) throws(SpecError) -> [[String]] in
                    guard let l = v as? [[String: Any]], !l.isEmpty else {
                        throw SpecError(
                            file: context.file, key: key,
                            problem: "expected a list of {reference: FILE, estimate: FILE, align: se3|sim3|yaw|origin|none}")
                    }
                    return try l.enumerated().map { (i, e) throws(SpecError) -> [String] in
                        guard let r = e["reference"] as? String, let est = e["estimate"] as? String else {
                            throw SpecError(file: context.file, key: "\(key)[\(i)]", problem: "expected reference and estimate file paths")
                        }
                        let align = (e["align"] as? String) ?? "se3"
                        guard AlignmentMethod(rawValue: align) != nil else {
                            throw SpecError(
                                file: context.file, key: "\(key)[\(i)].align", problem: "'\(align)' is not one of se3, sim3, yaw, origin, none")
                        }
                        return [r, est, align]
                    }
                },
                yaml: { pairs in
                    "\(key):\n"
                        + pairs.map { "  - {reference: \(jsonQuoted($0[0])), estimate: \(jsonQuoted($0[1])), align: \(jsonQuoted($0[2]))}\n" }
                        .joined()
                })
        ]
    }
    static let specKey = "ape"

    public func plan(_ plan: ExperimentPlan) -> PlannedKind {
        .perUnit(
            name, asked: isAsked(by: plan.spec), units: { units(of: plan) }, parameterColumns: parameterColumns,
            run: {
                try run($0, plan: plan)
            }, section: { section($0, plan: plan) })
    }

    /// The spec's pairs in order. A file that cannot be read has an empty checksum in the key
    /// (its unit fails when run, and is never found in the store).
    ///
    /// Complexity: O(pairs × file sizes) (both files hashed).
    public func units(of plan: ExperimentPlan) -> [WorkUnit] {
        plan.spec.ape.enumerated().map { i, pair in
            let sums = pair.prefix(2).map { (try? sha256Hex(ofFile: $0)) ?? "" }
            return WorkUnit(
                key: workUnitKey(kind: name, sums + [pair[2]]), index: i, input: pair[1], route: "-", session: fileName(of: pair[1]),
                configuration: "align=\(pair[2])", parameters: [pair[0]], title: "ape \(pair[1]) vs \(pair[0])")
        }
    }

    public func run(_ unit: WorkUnit, plan: ExperimentPlan) throws -> UnitOutcome {
        let pair = plan.spec.ape[unit.index]
        var settings = EvaluationSettings()
        guard let alignment = AlignmentMethod(rawValue: pair[2]) else { throw GuidanceJobError("unknown alignment '\(escapedForMessage(pair[2]))'") }
        settings.alignment = alignment
        let r = try evaluateAPE(
            reference: TrajectorySource(path: pair[0], readPolicy: plan.readPolicy),
            estimate: TrajectorySource(path: pair[1], readPolicy: plan.readPolicy), settings: settings)
        let s = r.statistics
        return UnitOutcome(
            metrics: [("rmse", s.rmse), ("mean", s.mean), ("median", s.median), ("std", s.std), ("max", s.max)].map { Metric("ape_\($0)", $1, "m") }
                + [Metric("pairs", Double(r.pairs), "count")])
    }

    public func section(_ results: [(unit: WorkUnit, outcome: UnitOutcome?)], plan: ExperimentPlan) -> ReportSection {
        let table = outcomeTable(results, parameterColumns: parameterColumns)
        var md =
            "\n## Trajectory evaluation (APE)\n\nTranslation APE with evo's conventions (association within 0.01 s). All rows: `ape.csv`.\n\n"
            + "| estimate | reference | alignment | pairs | rmse (m) | mean (m) | median (m) | max (m) |\n|---|---|---|---:|---:|---:|---:|---:|\n"
        let byKey = Dictionary(grouping: table.rows) { "\($0.session)|\($0.parameters[0])|\($0.configuration)" }
        for k in byKey.keys.sorted() {
            let r = byKey[k]!
            func v(_ m: String) -> String {
                r.first { $0.metric == m }.map { m == "pairs" ? (Int(exactly: $0.value).map(String.init) ?? "–") : String(format: "%.6f", $0.value) }
                    ?? "–"
            }
            md +=
                "| \(r[0].session) | \(r[0].parameters[0]) | \(r[0].configuration) | \(v("pairs")) | \(v("ape_rmse")) | \(v("ape_mean")) | \(v("ape_median")) | \(v("ape_max")) |\n"
        }
        return ReportSection(markdown: md, files: [(csvFile, table.csv)])
    }
}

extension ExperimentSpec {
    /// Trajectory pairs evaluated with APE (evo's conventions): reference, estimate, alignment (`ape:`).
    public var ape: [[String]] { kindSection(TrajectoryAPEKind.specKey, as: [[String]].self) ?? [] }
}
