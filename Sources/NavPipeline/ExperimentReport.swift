import Foundation
import NavCore
import NavGuidance
import NavIO
import NavReport
import NavStatistics

/// Writes `summary.md` (`experimentSummaryPieces`), its tables as LaTeX, each asked kind's
/// section — the guidance replay's first (`GuidanceReplayKind`: `metrics.csv`, `routes/`,
/// `plots/`, the statistics), then `resultKinds`' (calibration, proximity, gyroscope filters,
/// APE, the closed loop, walker uncertainty) — and `manifest.json` into the output folder, each
/// atomically, from the results in `store` (nothing is computed). Everything but the manifest's
/// timings and git commit is a function of the inputs and the spec, so a rerun gives identical
/// files. `failures`: lines besides the plan's and the sections' (none from `runExperiment`).
public func writeExperimentReport(
    _ plan: ExperimentPlan, store: ResultsStore, failures: [String], command: String,
    facts: [String: String], resultKinds: [any ResultKind] = ResultKinds.standard
) throws -> ExperimentOutputs {
    try writeExperimentReport(
        plan, store: store, failures: failures, command: command, facts: facts, progress: nil, resultKinds: resultKinds)
}

/// `writeExperimentReport`, showing its phases on `progress`.
func writeExperimentReport(
    _ plan: ExperimentPlan, store: ResultsStore, failures: [String], command: String,
    facts: [String: String], progress: ProgressHandler?, resultKinds: [any ResultKind] = ResultKinds.standard
) throws -> ExperimentOutputs {
    var out = ExperimentOutputs(folder: plan.spec.output)
    traceMemory(plan, "report: start")
    // Resampling results of the folder's last report: a cached rerun or a merge draws only what changed.
    let memo = try StoredResamplingMemo(store: store)
    let context = SectionContext(plan: plan, store: store, out: out, progress: progress, memo: memo)
    let kinds: [any SectionKind] = [GuidanceReplayKind()] + resultKinds
    let (sections, sectionFailures) = try resultKindSections(kinds, context: context)
    try memo.save()
    for section in sections {
        for file in section.files { try writeTextAtomically(file.contents, to: (out.folder as NSString).appendingPathComponent(file.name)) }
    }
    out.failures = sectionFailures
    traceMemory(plan, "report: sections")
    let inputs = plan.checksums.keys.sorted().map { [$0, plan.checksums[$0]!] }
    let stamp = ReportStamp(
        experiment: plan.spec.name, navbenchVersion: NavbenchVersion.current, specSHA256: plan.specSHA256,
        inputs: inputs, command: command)
    // Findings: each section's in order (the replay's first), then where the replay and the
    // closed loop disagree on a guidance level.
    let findings =
        sections.flatMap(\.findings)
        + replayClosedLoopDisagreements(
            sections.flatMap(\.metricEffects), sections.flatMap(\.levelEffects),
            units: sections.reduce(into: [:]) { u, s in u.merge(s.metricUnits) { a, _ in a } })
    let pieces = experimentSummaryPieces(
        stamp: stamp, failures: plan.failures + failures + sectionFailures, findings: findings, sections: sections.map(\.pieces))
    let summary = try AtomicTextWriter(path: out.summary), latex = try AtomicTextWriter(path: out.latexTables)
    var tables = MarkdownTablesToLaTeX()
    latex.write(MarkdownTablesToLaTeX.header(source: "summary.md"))
    for piece in pieces {
        summary.write(piece)
        latex.write(tables.feed(piece))
    }
    latex.write(tables.finish())
    try summary.commit()
    try latex.commit()
    traceMemory(plan, "report: summary")
    try writeManifest(plan, failures: failures + sectionFailures, command: command, inputs: inputs, facts: facts, out: out)
    return out
}

/// The Findings lines where the replay and the closed loop disagree on a guidance level against
/// its dimension's first level: the closed-loop success rate significantly higher (lower) while
/// the replay's main effect is significantly worse (better) on some key metric; both effects
/// with their 95 % CIs.
func replayClosedLoopDisagreements(
    _ replay: [ExperimentStatistics.MainEffect], _ closedLoop: [ClosedLoopEffect], units: [String: String]
) -> [String] {
    closedLoop.filter(\.significant).compactMap { c in
        let walkersBetter = c.meanDifference > 0
        let opposite = replay.filter { e in
            guard e.dimension == c.dimension, e.level == c.level, e.reference == c.reference,
                intervalExcludesZero(low: e.ciLow, high: e.ciHigh), MetricPolarity.of(e.metric) != .neutral
            else { return false }
            let replayBetter = (MetricPolarity.of(e.metric) == .lowerIsBetter) == (e.meanDifference < 0)
            return replayBetter != walkersBetter
        }
        guard !opposite.isEmpty else { return nil }
        let said = opposite.map { e in
            let unit = units[e.metric].map { $0.isEmpty ? "" : " \($0)" } ?? ""
            return "\(e.metric) \(String(format: "%+.3g", e.meanDifference))\(unit) [\(String(format: "%+.3g, %+.3g", e.ciLow, e.ciHigh))]"
        }
        return "**Replay and closed loop disagree** on \(markdownInline(c.dimension)) \(markdownInline(c.level)) vs \(markdownInline(c.reference)): "
            + "the replay finds it \(walkersBetter ? "worse" : "better") (\(said.joined(separator: "; ")), n = \(opposite.map(\.n).max() ?? 0) units), "
            + "the closed-loop walkers succeed \(walkersBetter ? "more" : "less") often "
            + "(\(String(format: "%+.3g [%+.3g, %+.3g]", c.meanDifference, c.ciLow, c.ciHigh)), n = \(c.n) walkers)."
    }
}

/// `manifest.json`: the stamp, inputs with checksums, seeds, jobs, failures and machine facts.
private func writeManifest(
    _ plan: ExperimentPlan, failures: [String], command: String, inputs: [[String]], facts: [String: String],
    out: ExperimentOutputs
) throws {
    func path(_ p: String) -> String { (out.folder as NSString).appendingPathComponent(p) }
    struct Manifest: Encodable {
        var experiment: String, navbench_version: String, spec_sha256: String, command: String
        var inputs: [[String]], seeds: [UInt64], jobs: Int, failures: [String], facts: [String: String]
    }
    let enc = JSONEncoder()
    enc.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    let manifest = Manifest(
        experiment: plan.spec.name, navbench_version: NavbenchVersion.current, spec_sha256: plan.specSHA256,
        command: command, inputs: inputs, seeds: plan.spec.sweep.seeds, jobs: plan.jobs.count,
        failures: plan.failures + failures, facts: facts)
    try writeTextAtomically(String(decoding: try enc.encode(manifest), as: UTF8.self) + "\n", to: path("manifest.json"))
}
