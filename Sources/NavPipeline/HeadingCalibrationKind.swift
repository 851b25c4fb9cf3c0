import Foundation
import NavAids
import NavCore
import NavIO
import NavReport
import NavSignal

/// Heading calibration (docs/aids.md) as a result kind: the pocket calibration replayed on every
/// input session with a compass (or a magnetometer and true orientation, emulating one), once per
/// estimator of the spec's `calibration:` list. A unit is (input, estimator); the section compares
/// the estimators (mean [CI] over sessions, paired: `pairedConfigurationReport`) and lists the sessions whose
/// calibration stopped.
public struct HeadingCalibrationKind: ExperimentKind {
    public init() {}
    public var name: String { "calibration" }
    public var csvFile: String { "calibration.csv" }
    public var parameterColumns: [String] { ["estimator"] }
    public func isAsked(by spec: ExperimentSpec) -> Bool { !spec.calibration.isEmpty }
    public var gatedCSV: String? { csvFile }
    /// `calibration: [ESTIMATOR, …]`.
    public var specSections: [KindSpecSection] {
        [
            .filterList(key: Self.specKey, summary: "a list of heading-calibration estimators (filter specs)") {
                (f: String) throws(FilterSpecError) in _ = try FilterSpec(parsing: f)
            }
        ]
    }
    static let specKey = "calibration"

    public func plan(_ plan: ExperimentPlan) -> PlannedKind {
        .perUnit(
            name, asked: isAsked(by: plan.spec), units: { units(of: plan) }, parameterColumns: parameterColumns,
            run: {
                try run($0, plan: plan)
            }, section: { section($0, plan: plan) })
    }

    /// Every input × estimator, inputs in name order.
    ///
    /// Complexity: O(inputs × estimators).
    public func units(of plan: ExperimentPlan) -> [WorkUnit] {
        perInputUnits(kind: name, plan: plan, configurations: plan.spec.calibration) { "\($0) [calibration \($1)]" }
    }

    /// Applies to a session with a compass stream, or with a magnetometer and ground truth.
    public func run(_ unit: WorkUnit, plan: ExperimentPlan) throws -> UnitOutcome {
        if let streams = plan.inputs.entries[unit.input]?.streams, streams.isDisjoint(with: [.compass, .imu]) {
            return .notApplicable("no compass or IMU stream")
        }
        let s = try plan.session(unit.input)
        guard s.compass != nil || (s.imu?.magnetometer != nil && s.groundTruth != nil) else {
            return .notApplicable("no compass stream, and no magnetometer with ground truth")
        }
        var p = CalibrationParameters()
        p.estimator = unit.configuration
        let (result, metrics) = try runCalibration(s, parameters: p)
        return UnitOutcome(metrics: metrics, note: result.abortReason ?? "")
    }

    public func section(_ results: [(unit: WorkUnit, outcome: UnitOutcome?)], plan: ExperimentPlan) -> ReportSection {
        var notes: [String] = []
        for (u, outcome) in results {
            guard let outcome, !outcome.metrics.isEmpty, !outcome.note.isEmpty else { continue }
            // The session id comes from the file, the note from the store (a shard's): both escaped.
            let line = "\(markdownInline(u.session)): \(markdownInline(outcome.note))"
            if !notes.contains(line) { notes.append(line) }
        }
        let table = outcomeTable(results, parameterColumns: parameterColumns)
        let compared = pairedConfigurationReport(
            table, options: plan.spec.statistics, keyMetrics: ["offset_error", "aborted", "time_to_calibrate"], title: "Heading calibration",
            units: "sessions")
        let markdown =
            "\n## Heading calibration\n\nThe pocket calibration (docs/aids.md) replayed on every session with a compass (or a magnetometer and true orientation, emulating one); "
            + "estimators compared over sessions (the units; each estimator runs on the same sessions, so they are paired within a session). "
            + "All rows: `calibration.csv`.\n\n"
            + compared.markdown
            + (notes.isEmpty ? "" : "\nStopped calibrations:\n\n" + notes.map { "- \($0)\n" }.joined())
        return ReportSection(markdown: markdown, files: [(csvFile, table.csv)], findings: [compared.finding])
    }
}

extension ExperimentSpec {
    /// The heading-calibration estimators run on every session with a compass (`calibration:`; none when empty).
    public var calibration: [String] { kindSection(HeadingCalibrationKind.specKey, as: [String].self) ?? [] }
}
