import Foundation
import NavCore
import NavIO
import NavMetrics
import NavReport
import NavSignal

/// Step and turn detection on annotated walks (WeAllWalk's protocol, docs/pdr.md) as a result
/// kind, asked by the spec key `pdr: standard` (the sweep: 45 step × 12 turn detectors) or
/// `pdr: default` (the detectors chosen on the shared subset). A unit is one input walk: every
/// detector scored on it, stored as the `scores` artifact (JSON) with the walk's subject and
/// community; a session without `imu` and the hand-annotated `steps` and `straight_segments`
/// does not apply. The section is `navbench pdr`'s report built from the stored scores (the
/// subject is the unit of analysis; choices leave one subject out), so `run`, a rerun and a
/// merge write the same bytes.
public struct WalkDetectionKind: ExperimentKind {
    public init() {}
    public var name: String { "pdr" }
    public var csvFile: String { "pdr-steps.csv" }
    public var parameterColumns: [String] { ["walk"] }
    public func isAsked(by spec: ExperimentSpec) -> Bool { Self.choice(spec) != nil }
    /// `pdr: standard` (the sweep of docs/pdr.md) or `pdr: default` (the detectors chosen on WeAllWalk).
    public var specSections: [KindSpecSection] {
        [
            KindSpecSection(
                key: "pdr", summary: "expected standard (the sweep of docs/pdr.md) or default (the detectors chosen on WeAllWalk)", as: String.self
            ) { v in
                guard ["standard", "default"].contains(v) else { throw SpecSectionProblem("'\(v)' is neither standard nor default") }
            }
        ]
    }
    /// The spec's `pdr:` value, nil when it has none.
    static func choice(_ spec: ExperimentSpec) -> String? { spec.kindSection("pdr", as: String.self) }
    /// A comparison of detectors on fixed walks, not a performance to gate.
    public var gatedCSV: String? { nil }

    public func plan(_ plan: ExperimentPlan) -> PlannedKind {
        .perUnit(
            name, asked: isAsked(by: plan.spec), units: { units(of: plan) }, parameterColumns: parameterColumns, accepts: { accepts($0, of: $1) },
            run: {
                try run($0, plan: plan)
            }, section: { section($0, plan: plan) })
    }

    /// The detectors a spec asks for.
    public static func detectors(_ spec: ExperimentSpec) -> (steps: [StepDetector], turns: [TurnDetector]) {
        choice(spec) == "default"
            ? ([StepDetector.chosenOnWeAllWalk], [TurnDetector.chosenOnWeAllWalk]) : (StepDetectorSweep.standard(), TurnDetectorSweep.standard())
    }

    /// One unit per input, keyed by its checksum and the detectors' descriptions.
    public func units(of plan: ExperimentPlan) -> [WorkUnit] {
        guard let pdr = Self.choice(plan.spec) else { return [] }  // the engine plans every kind: none unless asked
        let (steps, turns) = Self.detectors(plan.spec)
        let grid = (steps.map(\.description) + turns.map(\.description)).joined(separator: "\n")
        return perInputUnits(kind: name, plan: plan, configurations: [pdr], routes: false, keyParts: { [$0, grid] }) {
            file, _ in "\(file) [step and turn detection]"
        }
    }

    struct Scores: Codable, Equatable {
        var subject: String
        var community: String
        var steps: [StepCountScore?]
        var turns: [TurnDetectionScore?]
        var failures: [String]
    }

    public func run(_ unit: WorkUnit, plan: ExperimentPlan) throws -> UnitOutcome {
        if let streams = plan.inputs.entries[unit.input]?.streams, !streams.contains(.imu) { return .notApplicable("no IMU stream") }
        let session = try plan.session(unit.input)
        guard session.annotation(AnnotationStream.WalkStream.heelStrikes) != nil,
            session.annotation(AnnotationStream.WalkStream.straightSegments) != nil
        else {
            return .notApplicable("no hand-annotated steps and straight segments")
        }
        let walk = try annotatedWalk(session, file: fileName(of: unit.input))
        let (stepDetectors, turnDetectors) = Self.detectors(plan.spec)
        let steps = evaluateStepDetectors([walk], detectors: stepDetectors, workers: 1)
        let turns = evaluateTurnDetectors([walk], detectors: turnDetectors, workers: 1)
        let scores = Scores(
            subject: walk.subject, community: walk.community, steps: steps.scores[0], turns: turns.scores[0],
            failures: steps.failures + turns.failures)
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        let first = steps.scores[0].first ?? nil
        return UnitOutcome(
            metrics: [
                Metric("true_steps", Double(first?.trueSteps ?? 0), "1"), Metric("step_error_metric1", first?.metric1Error ?? .nan, "1"),
                Metric("step_error_metric3", first?.metric3Error ?? .nan, "1"),
            ], artifacts: ["scores": Array(try enc.encode(scores))])
    }

    /// A stored outcome is complete when its scores decode with one entry per detector asked.
    public func accepts(_ outcome: UnitOutcome, of unit: WorkUnit) -> Bool {
        outcome.note.hasPrefix("not applicable") || (try? JSONDecoder().decode(Scores.self, from: Data(outcome.artifacts["scores"] ?? []))) != nil
    }

    public func section(_ results: KindResults, plan: ExperimentPlan) -> ReportSection {
        let (stepDetectors, turnDetectors) = Self.detectors(plan.spec)
        var walks: [StepEvaluation.Walk] = [], stepRows: [[StepCountScore?]] = [], turnRows: [[TurnDetectionScore?]] = [], failures: [String] = []
        for (u, outcome) in results {
            guard let bytes = outcome?.artifacts["scores"], let s = try? JSONDecoder().decode(Scores.self, from: Data(bytes)),
                s.steps.count == stepDetectors.count, s.turns.count == turnDetectors.count
            else { continue }
            walks.append(.init(file: fileName(of: u.input), subject: s.subject, community: s.community))
            stepRows.append(s.steps)
            turnRows.append(s.turns)
            failures += s.failures
        }
        guard !walks.isEmpty else {
            return ReportSection(
                markdown:
                    "\n## Step and turn detection on annotated walks\n\nNo input is an annotated walk (imu with hand-annotated steps and straight segments).\n",
                files: [])
        }
        let e = StepEvaluation(detectors: stepDetectors, walks: walks, scores: stepRows, failures: failures)
        let t = TurnEvaluation(detectors: turnDetectors, tolerance: 2, scores: turnRows, failures: [])
        let report = walkDetectionReport(e, turns: t)
        // One level down inside the experiment's summary: its title becomes the section's heading,
        // its Findings go to the experiment's Findings (the caveats first).
        var lines = report.summary.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeFirst()
        if let f = lines.firstIndex(of: "## Findings"), let next = lines[(f + 1)...].firstIndex(where: { $0.hasPrefix("## ") }) {
            lines.removeSubrange(f..<next)
        }
        let body = lines.map { $0.hasPrefix("#") ? "#" + $0 : $0 }.joined(separator: "\n")
        return ReportSection(
            markdown: "\n## Step and turn detection on annotated walks\n" + body,
            files: [
                ("pdr-steps.csv", report.stepsCSV), ("pdr-subjects.csv", report.subjectsCSV), ("pdr-loso.csv", report.losoCSV),
                ("pdr-turns.csv", report.turnsCSV),
            ], findings: report.findings.enumerated().map { $0.offset == 0 ? "Step and turn detection — " + $0.element : $0.element })
    }
}
