import Foundation
import NavCore
import NavIO
import NavPipeline
import NavReport

// The worked examples of docs/result-kinds.md, compiled and run by ResultKindTests: every
// ```swift block of that page must appear verbatim in this file
// (`ResultKindTests.docBlocksAreTheExampleFilesCode`). Only the library's public API is imported
// here (no @testable), as in a researcher's package.

// doc: a result kind
/// How long each input session's IMU stream lasts (last − first stamp, seconds): one unit per
/// input, not applicable to a session without an IMU.
struct IMUDurationKind: ExperimentKind {
    var name: String { "imu_duration" }
    var gatedCSV: String? { "imu-duration.csv" }

    func plan(_ plan: ExperimentPlan) -> PlannedKind {
        PlannedKind(
            name: name, isAsked: true, units: units(of: plan), parameterColumns: [], run: { try run($0, plan: plan) },
            section: { results, _ in section(results) })
    }

    func units(of plan: ExperimentPlan) -> [WorkUnit] {
        plan.inputs.names.enumerated().map { i, file in
            WorkUnit(
                key: workUnitKey(kind: name, [plan.checksums[file] ?? ""]), index: i, input: file, route: "-",
                session: fileName(of: file), configuration: "-", parameters: [], title: "\(file) [imu duration]")
        }
    }

    func run(_ unit: WorkUnit, plan: ExperimentPlan) throws -> UnitOutcome {
        guard let t = try plan.session(unit.input).imu?.timestamps, let first = t.first, let last = t.last else {
            return .notApplicable("no IMU stream")
        }
        return UnitOutcome(metrics: [Metric("imu_duration", last - first, "s")])
    }

    func section(_ results: KindResults) -> ReportSection {
        let table = outcomeTable(results, parameterColumns: [])
        let lines = table.rows.map { "| \($0.session) | \(formatNumber($0.value)) |\n" }.joined()
        return ReportSection(
            markdown: "\n## IMU duration\n\n| session | seconds |\n|---|---:|\n" + lines,
            files: [("imu-duration.csv", table.csv)])
    }
}
// end

// doc: a configured kind
/// The sessions whose IMU stream lasts at least the spec's `long_imu: {at_least: SECONDS}`: the
/// kind owns that section (read when the spec is read, refused there when it is not a number of
/// seconds ≥ 0), and is asked only when the spec has it.
struct LongIMUKind: ExperimentKind {
    struct Options: Decodable {
        var at_least: Double
    }
    var name: String { "long_imu" }
    var gatedCSV: String? { nil }
    var specSections: [KindSpecSection] {
        [
            KindSpecSection(key: "long_imu", summary: "expected {at_least: SECONDS}", as: Options.self) { o in
                guard o.at_least >= 0 else { throw SpecSectionProblem("at_least is \(formatNumber(o.at_least)) s, expected 0 or more") }
            }
        ]
    }

    func plan(_ plan: ExperimentPlan) -> PlannedKind {
        guard let options = plan.spec.kindSection("long_imu", as: Options.self) else { return .notAsked(name) }
        let units = plan.inputs.names.enumerated().map { i, file in
            WorkUnit(
                key: workUnitKey(kind: name, [plan.checksums[file] ?? ""]), index: i, input: file, route: "-",
                session: fileName(of: file), configuration: "-", parameters: [], title: "\(file) [long imu]")
        }
        return PlannedKind(
            name: name, isAsked: true, units: units, parameterColumns: [], run: { try IMUDurationKind().run($0, plan: plan) },
            section: { results, _ in
                let long = outcomeTable(results, parameterColumns: []).rows.filter { $0.value >= options.at_least }
                let lines = long.map { "- \($0.session): \(formatNumber($0.value)) s\n" }.joined()
                return ReportSection(markdown: "\n## IMU streams of at least \(formatNumber(options.at_least)) s\n\n" + lines, files: [])
            })
    }
}
// end

// doc: registration
/// Runs `spec` with the IMU duration section beside the standard kinds, then merges it (a sharded
/// run's shards and its merge are given the same list).
func runWithIMUDuration(_ spec: ExperimentSpec) throws -> (run: ExperimentOutcome, merged: ExperimentOutcome) {
    let kinds = ExperimentKinds.standard + [IMUDurationKind()]
    let run = try runExperiment(spec, workers: 2, command: "notebook", kinds: kinds)
    let merged = try mergeExperiment(spec, command: "notebook", kinds: kinds)
    return (run, merged)
}
// end
