import Foundation
import NavCore
import NavGuidance
import NavIO
import NavReport
import NavStatistics
import Synchronization

/// Writes `summary.md` (`experimentSummaryPieces`), its tables as LaTeX, each asked kind's
/// section in `kinds` order — the guidance replay's first in `ExperimentKinds.standard`
/// (`metrics.csv`, `routes/`, `plots/`, the statistics), then calibration, proximity, gyroscope
/// filters, APE, the closed loop, walker uncertainty, step and turn detection — `report.html`
/// and `manifest.json` into the output folder, each atomically, from the results in `store`
/// (nothing is computed). Everything but the manifest's timings and git commit is a function of
/// the inputs and the spec, so a rerun gives identical files. `failures`: lines besides the plan's
/// and the sections' (none from `runExperiment`).
public func writeExperimentReport(
    _ plan: ExperimentPlan, store: ResultsStore, failures: [String], command: String,
    facts: [String: String], kinds: [any ExperimentKind] = ExperimentKinds.standard
) throws -> ExperimentOutputs {
    try writeExperimentReport(
        plan, store: store, kinds: kinds.map { $0.plan(plan) }, failures: failures, command: command, facts: facts, progress: nil)
}

/// `writeExperimentReport` of kinds planned already, showing its phases on `progress`.
func writeExperimentReport(
    _ plan: ExperimentPlan, store: ResultsStore, kinds: [PlannedKind], failures: [String], command: String,
    facts: [String: String], progress: ProgressHandler?
) throws -> ExperimentOutputs {
    var out = ExperimentOutputs(folder: plan.spec.output)
    traceMemory(plan, "report: start")
    // Resampling results of the folder's last report: a cached rerun or a merge draws only what changed.
    let memo = try StoredResamplingMemo(store: store)
    let context = SectionContext(plan: plan, store: store, out: out, progress: progress, memo: memo)
    let (sections, sectionFailures) = try renderSections(kinds, context: context)
    // The memo is saved on a worker while the summary and the page are written (neither reads
    // it); they are put in place once it is saved, and not when it cannot be.
    let memoSaved = DispatchGroup(), memoFailure = Mutex<(any Error)?>(nil)
    DispatchQueue.global().async(group: memoSaved) {
        do { try memo.save() } catch { memoFailure.withLock { $0 = error } }
    }
    defer { memoSaved.wait() }
    for section in sections {
        for file in section.files { try writeTextAtomically(file.contents, to: (out.folder as NSString).appendingPathComponent(file.name)) }
    }
    out.failures = sectionFailures
    traceMemory(plan, "report: sections")
    let inputs = plan.checksums.keys.sorted().map { [$0, plan.checksums[$0]!] }
    let stamp = ReportStamp(
        experiment: plan.spec.name, navbenchVersion: NavbenchVersion.current, specSHA256: plan.specSHA256,
        inputs: inputs, command: command)
    // Findings: each section's in order (the replay's first), then the lines comparing a section
    // with an earlier one (where the replay and the closed loop disagree on a guidance level).
    // …led by one line of what to read them with (synthetic data, assumed walkers, low completion, small n).
    let caveat = findingsCaveat(plan, completion: sections.lazy.flatMap(\.offered).compactMap { $0 as? ReplayCompletion }.first)
    let findings = (caveat.map { [$0] } ?? []) + sections.flatMap(\.findings) + sections.flatMap(\.closingFindings)
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
    traceMemory(plan, "report: summary")
    // Each finding links to the section it comes from (its first heading).
    var evidence: [String: String] = [:]
    for section in sections {
        guard let heading = firstHeading(section.pieces) else { continue }
        for f in section.findings where evidence[f] == nil { evidence[f] = heading }
    }
    for section in sections {
        guard let heading = firstHeading(section.pieces) else { continue }
        for f in section.closingFindings where evidence[f] == nil { evidence[f] = heading }
    }
    // The caveat's: the section whose completion and n it quotes (the replay's), else the
    // simulated walkers' (the closed loop's), else the inputs.
    if let caveat {
        let offering =
            sections.first { $0.offered.contains { $0 is ReplayCompletion } }
            ?? sections.first { $0.offered.contains { $0 is SimulatedWalkers } }
        evidence[caveat] = offering.flatMap { firstHeading($0.pieces) } ?? "Inputs"
    }
    let page = try writeReportPage(
        plan, pieces: pieces, files: sections.flatMap(\.files), written: sections.flatMap(\.written),
        caveats: reportCaveats(plan, failures: (plan.failures + failures + sectionFailures).count), evidence: evidence, out: out)
    traceMemory(plan, "report: page drawn")
    memoSaved.wait()
    if let failure = memoFailure.withLock({ $0 }) { throw failure }
    try summary.commit()
    try latex.commit()
    try page.commit()
    traceMemory(plan, "report: page")
    try writeManifest(plan, failures: failures + sectionFailures, command: command, inputs: inputs, facts: facts, out: out)
    return out
}

/// The Findings' first line, when there is something to read them with: synthetic recordings,
/// simulated walkers with assumed parameters, replayed runs that did not complete their route
/// (under 90 %), fewer than 10 navigation sessions; nil when none applies.
func findingsCaveat(_ plan: ExperimentPlan, completion: ReplayCompletion?) -> String? {
    var parts: [String] = []
    let names = plan.inputs.names
    let synthetic = names.filter { name in
        guard let m = plan.inputs.metadata(name) else { return false }
        return [m.generator, m.device].contains { $0.contains("navbench synth") || $0.contains("navbench simulate") }
    }.count
    if synthetic > 0 { parts.append("\(synthetic) of the \(names.count) recordings are synthetic") }
    if plan.spec.closedLoop != nil {
        parts.append("the closed-loop walkers are simulated, their reaction to speech, over-rotation and steering assumed")
    }
    if let c = completion, c.runs > 0 {
        let fraction = Double(c.completed) / Double(c.runs)
        if fraction < 0.9 {
            let range = c.range.low < c.range.high ? String(format: " (%.0f–%.0f %% by configuration)", 100 * c.range.low, 100 * c.range.high) : ""
            parts.append(
                String(format: "%.0f %%", 100 * fraction) + " of the \(c.runs) replayed runs completed their route\(range), "
                    + "so the replay's metrics describe partial walks")
        }
        if c.sessions < 10 { parts.append("the replay rests on n = \(c.sessions) navigation session\(c.sessions == 1 ? "" : "s"): wide intervals") }
    }
    guard !parts.isEmpty else { return nil }
    return "**Read with care:** " + parts.joined(separator: "; ") + "."
}

/// `report.html` (`MarkdownReportToHTML`): the summary, then each route page, the figures inlined:
/// `files` from memory, `written` (what the sections streamed into the folder during this report)
/// read back one at a time as the page meets them, so memory stays flat in routes. Returns the
/// page written but not yet in place (the caller commits it).
private func writeReportPage(
    _ plan: ExperimentPlan, pieces: [String], files: [(name: String, contents: String)], written: [String], caveats: [String],
    evidence: [String: String], out: ExperimentOutputs
) throws -> AtomicTextWriter {
    let inMemory = Dictionary(files.map { ($0.name, $0.contents) }, uniquingKeysWith: { a, _ in a })
    let streamed = Set(written)
    func contents(_ name: String) -> String? {
        inMemory[name] ?? (streamed.contains(name) ? reportFileWrittenNow((out.folder as NSString).appendingPathComponent(name)) : nil)
    }
    let pages = (files.map(\.name) + written).filter { $0.hasPrefix("routes/") && $0.hasSuffix(".md") }.sorted()
    let page = try AtomicTextWriter(path: out.page)
    var html = MarkdownReportToHTML(figures: { $0.hasSuffix(".svg") ? contents($0) : nil }, caveats: caveats, pages: pages, evidence: evidence)
    page.write(MarkdownReportToHTML.opening(title: "Experiment \(plan.spec.name) — navbench report"))
    for piece in pieces { page.write(html.feed(piece)) }
    for name in pages {
        page.write(html.startPage(name))
        page.write(html.feed(contents(name) ?? ""))
    }
    page.write(html.finish())
    return page
}

/// A file this report wrote into its folder moments ago, read back for the page: only a regular
/// file (never a link) of at most 64 MiB, as UTF-8 text; nil otherwise (the page then says the
/// figure is not in it).
private func reportFileWrittenNow(_ path: String) -> String? {
    guard nonRegularFileKind(path) == nil, let a = try? FileManager.default.attributesOfItem(atPath: path),
        a[.type] as? FileAttributeType == .typeRegular, let size = (a[.size] as? NSNumber)?.intValue, size <= 64 << 20,
        let data = FileManager.default.contents(atPath: path)
    else { return nil }
    // Validated in Swift: `String(data:encoding:)` goes through NSString's UTF-16 on Linux.
    return String(validating: data, as: UTF8.self)
}

/// The text of the first `## ` heading of a section's Markdown (its first pieces), or nil.
func firstHeading(_ pieces: [String]) -> String? {
    for piece in pieces.prefix(3) {
        for line in piece.split(separator: "\n", omittingEmptySubsequences: true) where line.hasPrefix("## ") {
            return String(line.dropFirst(3))
        }
    }
    return nil
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

/// The "Read this first" lines of `report.html`: how many inputs are synthetic, that closed-loop
/// walkers are simulated (and which of their parameters are measured), how n is counted, and the
/// failures left out — each a Markdown line.
func reportCaveats(_ plan: ExperimentPlan, failures: Int) -> [String] {
    let names = plan.inputs.names
    let synthetic = names.filter { name in
        guard let m = plan.inputs.metadata(name) else { return false }
        return [m.generator, m.device].contains { $0.contains("navbench synth") || $0.contains("navbench simulate") }
    }.count
    var lines: [String] = []
    if synthetic > 0 {
        lines.append(
            "**\(synthetic) of the \(names.count) recordings are synthetic** (made by `navbench synth` or `navbench simulate`): "
                + "what they show is about simulated venues, phones and people, not measured ones (Inputs lists them).")
    } else {
        lines.append("All \(names.count) recordings were recorded or imported; none was generated by navbench (Inputs lists them).")
    }
    if let closedLoop = plan.spec.closedLoop {
        lines.append(
            "The closed-loop walkers (\(closedLoop.walkers.map(markdownInline).joined(separator: ", "))) are simulated people: "
                + "gait and turning fitted from WeAllWalk's blind walkers where a profile says so; reaction to speech, over-rotation "
                + "and steering rate are assumed and varied in the robustness section (docs/navigator.md).")
    }
    lines.append(
        "Every comparison states n, the number of independent units (sessions, walkers), never configurations, "
            + "with a 95 % CI; a level is called better only when its CI or Holm-adjusted paired test says so.")
    if failures > 0 {
        let one = failures == 1
        lines.append("**\(failures) input\(one ? "" : "s") or unit\(one ? "" : "s") failed** and \(one ? "is" : "are") left out (Failed inputs).")
    }
    return lines
}
