import Foundation
import NavCore
import NavIO
import NavReport
import Synchronization

// Kinds of units of work (`UnitKind`): guidance replay runs (`GuidanceReplayKind`) and the
// result kinds (`ResultKind`: heading calibration, beacon proximity, gyroscope filters, APE,
// closed-loop cells, the walker-uncertainty analysis — `ResultKinds.standard` — and any kind a
// caller registers).
// Each kind plans its units of work from the experiment plan and computes one unit; a result
// kind also renders its report section from the stored results. The engine below splits the
// units by the shard rule (`shardRange`), runs them on the one executor (`forEachConcurrently`),
// commits them to the one store schema (`ResultsStore`, their `kind` column) and reads them
// back, so a shard computes its block, `merge` copies every kind and recomputes nothing. Adding
// a kind: docs/result-kinds.md.

/// One unit of work of a result kind: what it reads, how it is labelled, its identity.
public struct WorkUnit: Sendable, Equatable {
    /// Identity in the results store (`workUnitKey`): a rerun skips a unit whose result is
    /// present and verified under this key.
    public var key: String
    /// Position in its kind's unit order (the order the shard rule splits).
    public var index: Int
    /// What the unit reads: an input of the plan (`ExperimentPlan.inputs`) or a file the spec names.
    public var input: String
    public var route: String
    public var session: String
    /// The configuration the section compares (an estimator, a filter, an alignment).
    public var configuration: String
    /// Values of the kind's `parameterColumns`, in order.
    public var parameters: [String]
    /// What the unit is, for its failure line (`"<title>: <error>"`).
    public var title: String
    /// The recording a replay run pairs with its navigation session `input` (stored as the
    /// result's `recording_sha256`, the input's as `navigation_sha256`); empty for other kinds.
    public var pairedRecording: String

    public init(
        key: String, index: Int, input: String, route: String, session: String, configuration: String, parameters: [String],
        title: String, pairedRecording: String = ""
    ) {
        self.key = key; self.index = index; self.input = input; self.route = route; self.session = session
        self.configuration = configuration; self.parameters = parameters; self.title = title
        self.pairedRecording = pairedRecording
    }
}

/// What one unit produced: its metrics (none when the unit does not apply to its input), a
/// note (why a calibration stopped, why a unit does not apply; empty when none) and artifacts
/// (bytes its section needs besides the metrics, by name: a closed-loop cell's walkers).
public struct UnitOutcome: Sendable, Equatable {
    public var metrics: [Metric]
    public var note: String
    /// Stored with the result (the store's `artifacts` table, in its checksum) and read back with it.
    public var artifacts: [String: [UInt8]]
    public init(metrics: [Metric], note: String = "", artifacts: [String: [UInt8]] = [:]) {
        self.metrics = metrics; self.note = note; self.artifacts = artifacts
    }

    /// A unit whose input lacks what the kind needs: stored like any result (a rerun or a merge
    /// does not compute it again), no rows in the report; its note is "not applicable: `why`".
    public static func notApplicable(_ why: String) -> UnitOutcome { UnitOutcome(metrics: [], note: "not applicable: " + why) }
}

/// A section of the report: its Markdown in `summary.md` and the files it writes beside it.
public struct ReportSection: Sendable {
    /// Its Markdown, in pieces written one after another (a section of many routes is written
    /// without being joined): the first piece opens with its `## ` heading.
    public var pieces: [String]
    /// Its Markdown whole (the pieces joined); setting it makes it one piece.
    public var markdown: String {
        get { pieces.joined() }
        set { pieces = [newValue] }
    }
    /// (file name inside the report folder, contents), written atomically in this order (a
    /// section that streams its files writes them itself and lists none).
    public var files: [(name: String, contents: String)]
    /// Figures and pages the section wrote itself (streamed) that `report.html` shows: (file name
    /// inside the report folder, contents). Never written again.
    public var written: [(name: String, contents: String)] = []
    /// Its answers for the summary's Findings section, one line each (none: the section has no verdict).
    public var findings: [String]
    /// Lines for the report's failure list (a venue floor plan that could not be read, so its
    /// walks used a corridor); the engine appends one for every unit without an accepted result.
    public var failures: [String]
    /// Each swept guidance level's effect on the closed-loop walkers' success (the Findings'
    /// lines where the replay and the closed loop disagree read them; empty for other kinds).
    public var levelEffects: [ClosedLoopEffect]
    /// Each swept level's main effect on the replay's metrics, with the metrics' units: what the
    /// disagreement lines compare `levelEffects` with (empty for other kinds).
    public var metricEffects: [ExperimentStatistics.MainEffect]
    public var metricUnits: [String: String]
    public init(
        markdown: String, files: [(name: String, contents: String)], findings: [String] = [], failures: [String] = [],
        levelEffects: [ClosedLoopEffect] = []
    ) {
        self.init(pieces: [markdown], files: files, findings: findings, failures: failures, levelEffects: levelEffects)
    }
    public init(
        pieces: [String], files: [(name: String, contents: String)], findings: [String] = [], failures: [String] = [],
        levelEffects: [ClosedLoopEffect] = [], metricEffects: [ExperimentStatistics.MainEffect] = [], metricUnits: [String: String] = [:]
    ) {
        self.pieces = pieces; self.files = files; self.findings = findings; self.failures = failures
        self.levelEffects = levelEffects; self.metricEffects = metricEffects; self.metricUnits = metricUnits
    }
}

/// What a section reads and where it writes: the plan, the store it renders (nothing is
/// computed), the report folder, the progress display, and the resampling memo its statistics
/// may read and add to.
public struct SectionContext: Sendable {
    public var plan: ExperimentPlan
    public var store: ResultsStore
    public var out: ExperimentOutputs
    public var progress: ProgressHandler?
    public var memo: (any ResamplingMemo)?
}

/// An error that several units share (the closed loop's scenario that cannot be built fails
/// every cell walking it): its `line` is the failure line of each of them, in place of
/// `"<title>: <error>"`, so the report lists it once (`distinctLines`).
public protocol SharedUnitFailure: Error {
    var line: String { get }
}

/// The failure line of `unit` that threw `error`.
func failureLine(_ unit: WorkUnit, _ error: Error) -> String {
    (error as? SharedUnitFailure)?.line ?? "\(unit.title): \(error)"
}

/// Computes units of one kind: `UnitKind.run`, or what `UnitKind.runner(for:plan:)` prepared.
public typealias UnitRunner = @Sendable (WorkUnit) throws -> UnitOutcome

/// The stored outcomes of one kind's units, in unit order (nil: failed or missing).
public typealias KindResults = [(unit: WorkUnit, outcome: UnitOutcome?)]

/// A kind of unit of work: planned, keyed, computed and stored the same way by the one engine
/// (`executeResultKinds`): guidance replay runs (`GuidanceReplayKind`, whose report streams from
/// the store route by route) and every `ResultKind`.
///
/// Contract: `units(of:)` is a function of the plan's input names, their metadata and checksums
/// and the spec (never of stream lists, which a shard's plan lacks), so every shard and `merge`
/// plan the same units with the same keys; `run` is deterministic.
public protocol UnitKind: Sendable {
    /// The store's `kind` of its results (unique among the kinds of one run).
    var name: String { get }
    /// What its units are, for the progress display (default: `"<name> units"`).
    var phase: String { get }
    /// The names of `WorkUnit.parameters`, stored with each result (`name=value` per line) and,
    /// for a result kind, its CSV's parameter columns.
    var parameterColumns: [String] { get }
    /// The units, in a fixed order (see the contract above).
    func units(of plan: ExperimentPlan) -> [WorkUnit]
    /// Computes one unit; throws when it fails (listed, the batch goes on).
    func run(_ unit: WorkUnit, plan: ExperimentPlan) throws -> UnitOutcome
    /// What computes the units one run computes (`units`, in unit order), with the work they
    /// share done once (the closed loop builds each scenario once for its cells). Default: `run`.
    /// The runner must give what `run` gives, unit by unit.
    func runner(for units: [WorkUnit], plan: ExperimentPlan) -> UnitRunner
    /// Whether a stored outcome is a complete result of `unit` (default: any outcome). One that
    /// is not counts as missing: computed again by a run, "no result" in a report.
    func accepts(_ outcome: UnitOutcome, of unit: WorkUnit) -> Bool
    /// The units of shard `shard` of `shards`: by default the block `shardRange` gives of the
    /// unit order. (The replay's block is the plan's `shardJobs` when the plan is of one shard:
    /// the same rule over the job indices, which a shard's plan keeps when it drops the jobs of
    /// an unreadable input.)
    func shardUnits(_ units: [WorkUnit], plan: ExperimentPlan, shard: Int, shards: Int) -> [WorkUnit]
    /// Results committed per transaction: at most this many finished units are lost on
    /// `kill -9` (default `resultKindBatchSize`).
    var commitBatch: Int { get }
}

extension UnitKind {
    public var phase: String { "\(name) units" }
    public var commitBatch: Int { resultKindBatchSize }
    public func runner(for units: [WorkUnit], plan: ExperimentPlan) -> UnitRunner {
        let kind = self
        return { try kind.run($0, plan: plan) }
    }
    public func accepts(_ outcome: UnitOutcome, of unit: WorkUnit) -> Bool { true }
    public func shardUnits(_ units: [WorkUnit], plan: ExperimentPlan, shard: Int, shards: Int) -> [WorkUnit] {
        Array(units[shardRange(count: units.count, shard: shard, shards: shards)])
    }
}

/// A kind of unit with its own section of the report, rendered from the store by `report`:
/// guidance replay runs (`GuidanceReplayKind`, whose section streams route by route) and every
/// `ResultKind` (whose section receives its outcomes in memory).
///
/// Contract (besides `UnitKind`'s): `report` reads only the store and the plan, so a report
/// written by `run` and one written by `merge` are the same bytes.
public protocol SectionKind: UnitKind {
    /// Its rows' CSV in the report folder (`route, session, configuration, <parameters>, metric,
    /// value, unit`): what `navbench compare` gates for this kind.
    var csvFile: String { get }
    /// Whether `navbench compare` gates its CSV (default: yes).
    var isGated: Bool { get }
    /// Whether the plan asks for this kind: its section appears (even empty) only then.
    func isAsked(in plan: ExperimentPlan) -> Bool
    /// Its section from the stored results; its `failures` end with one line for every unit
    /// without an accepted result (its stored failure, or "no result").
    func report(_ context: SectionContext) throws -> ReportSection
}

extension SectionKind {
    public var isGated: Bool { true }
}

/// A kind of result whose section is a function of its units' stored outcomes, given in
/// memory, in unit order (`storedOutcomes`): calibration, proximity, gyroscope filters, APE,
/// closed-loop cells, walker uncertainty, and any kind a caller registers.
public protocol ResultKind: SectionKind {
    /// Whether the spec asks for this kind: its section appears (even empty) only then.
    func isAsked(by spec: ExperimentSpec) -> Bool
    /// The section from every unit with its stored outcome (nil: failed or missing), in unit order.
    func section(_ results: KindResults, plan: ExperimentPlan) -> ReportSection
    /// Kinds whose stored outcomes the section reads besides its own (default: none).
    var sectionReads: [any ResultKind] { get }
    /// The section, given also the stored outcomes of `sectionReads` by kind name. Default:
    /// `section(_:plan:)`.
    func section(_ results: KindResults, plan: ExperimentPlan, reading others: [String: KindResults]) -> ReportSection
}

extension ResultKind {
    public var sectionReads: [any ResultKind] { [] }
    public func section(_ results: KindResults, plan: ExperimentPlan, reading others: [String: KindResults]) -> ReportSection {
        section(results, plan: plan)
    }
    public func isAsked(in plan: ExperimentPlan) -> Bool { isAsked(by: plan.spec) }

    /// Reads every unit's outcome (and those of `sectionReads`) and renders `section`; the
    /// section's failure lines, then one per unit without an accepted result.
    ///
    /// - Complexity: O(units) store lookups; memory O(units of this kind and of what it reads + their metrics).
    public func report(_ context: SectionContext) throws -> ReportSection {
        let plan = context.plan
        let (results, missing) = try storedOutcomes(of: self, plan, store: context.store)
        var others: [String: KindResults] = [:]
        for other in sectionReads where other.isAsked(by: plan.spec) {
            others[other.name] = try storedOutcomes(of: other, plan, store: context.store).results
        }
        var section = self.section(results, plan: plan, reading: others)
        section.failures += missing
        return section
    }
}

/// The key of a unit of kind `kind`: SHA-256 (hex) of the navbench version, the kind and `parts`
/// (the checksums of what it reads and its canonical parameters), each length-prefixed.
public func workUnitKey(kind: String, _ parts: [String]) -> String {
    var d = FieldDigest()
    for p in ["navbench \(NavbenchVersion.current)", kind] + parts { d.add(p) }
    return d.sha256
}

/// Counts of the units of one run.
public struct ResultKindCounts: Sendable, Equatable {
    /// Units of this shard present afterwards (computed or found in the store).
    public var done = 0
    /// Units computed in this run (0 on a cached rerun).
    public var computed = 0
    /// Failure lines of this run, in unit order per kind (a line repeated within a kind once).
    public var failures: [String] = []
    /// The counts of each kind that had units, by kind name (empty within a kind's own counts).
    public var byKind: [String: ResultKindCounts] = [:]
    public init(done: Int = 0, computed: Int = 0, failures: [String] = []) {
        self.done = done; self.computed = computed; self.failures = failures
    }
}

/// Results committed per transaction (at most this many finished units are lost on `kill -9`).
let resultKindBatchSize = 8

/// Computes the units of `kinds` in shard `shard` of `shards` (`UnitKind.shardUnits`: the
/// `shardRange` block of each kind's unit order) that are not present and verified in the store
/// at `storePath` (`UnitKind.accepts`), on `workers` threads (one progress phase per kind,
/// through its `runner`), committing each result, or its failure line, as it finishes (results
/// in batches of the kind's `commitBatch`). The store is created if needed and describes the plan (spec,
/// inputs, configurations: what `merge` checks a shard store against) even when no kind has
/// units. Counts are per kind too (`ResultKindCounts.byKind`).
///
/// - Throws: `ResultsStoreError` when the store cannot be opened or written.
/// - Complexity: O(units) keys, the presence checks on `workers` threads; memory O(units of one
///   kind + workers + batch + failures).
public func executeResultKinds(
    _ plan: ExperimentPlan, kinds: [any UnitKind], storePath: String, workers: Int, shard: Int = 1, shards: Int = 1,
    progress: ProgressHandler? = nil, stop: StopRequest? = nil
) throws -> ResultKindCounts {
    try? FileManager.default.createDirectory(atPath: (storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let store = try ResultsStore(path: storePath)
    try store.describe(plan, shard: shard, shards: shards)
    plan.inputs.reserve(workers: workers)
    var counts = ResultKindCounts()
    for kind in kinds where stop?.isRequested != true {
        // The shard's units only (the whole list is released here); the ones to compute by position.
        var mine: [WorkUnit]? = nil
        do {
            let all = kind.units(of: plan)
            if !all.isEmpty { mine = kind.shardUnits(all, plan: plan, shard: shard, shards: shards) }
        }
        guard let mine else { continue }
        let present = try presentUnits(mine, of: kind, store: store, workers: workers)
        let todo = mine.indices.filter { !present[$0] }
        let run = kind.runner(for: todo.map { mine[$0] }, plan: plan)
        let writer = store.writer(batchSize: kind.commitBatch)
        let state = Mutex((computed: 0, failures: [Int: String](), storeError: String?.none))
        let kindName = kind.name
        forEachConcurrently(todo.count, workers: workers, phase: kind.phase, progress: progress, stop: stop) { i in
            let unit = mine[todo[i]]
            var failure: String?, computed = false, storeError: String?
            let started = Date()
            do {
                let outcome = try run(unit)
                computed = true
                let seconds = Date().timeIntervalSince(started)
                do { try writer.add(storedResult(unit, of: kind, outcome: outcome, plan: plan, seconds: seconds)) } catch {
                    storeError = "\(error)"
                }
            } catch {
                failure = failureLine(unit, error)
                do {
                    try store.fail(
                        key: unit.key, kind: kindName, index: unit.index, input: unit.input, configuration: unit.configuration, message: failure!)
                } catch { storeError = "\(error)" }
            }
            return state.withLock { s in
                if let failure { s.failures[unit.index] = failure }
                if computed { s.computed += 1 }
                if let storeError, s.storeError == nil { s.storeError = storeError }
                return s.storeError == nil ? .next : .stop
            }
        }
        try writer.flush()
        let s = state.withLock { $0 }
        if let e = s.storeError { throw ResultsStoreError.unreadable(path: storePath, reason: e) }
        // Present before, and every unit computed now (each committed, or the flush above threw).
        let mineCounts = ResultKindCounts(
            done: mine.count - todo.count + s.computed, computed: s.computed,
            failures: distinctLines(s.failures.keys.sorted().map { s.failures[$0]! }))
        counts.done += mineCounts.done
        counts.computed += mineCounts.computed
        counts.failures += mineCounts.failures
        counts.byKind[kindName] = mineCounts
    }
    return counts
}

/// Whether each of `units` has a result of `kind` in the store that the kind accepts, checked in
/// `workers` contiguous blocks, each in its own read transaction (the store's pool reads
/// concurrently): a cached rerun's checks (a row, its metrics and artifacts, its checksum) run
/// on every core.
private func presentUnits(_ units: [WorkUnit], of kind: any UnitKind, store: ResultsStore, workers: Int) throws -> [Bool] {
    try store.readInBlocks(units.count, blocks: min(workers, units.count / 256)) { reader, range in
        try units[range].map { try isPresent($0, of: kind, reader: reader) }
    }
}

/// Whether `unit` has a result of `kind` in the store that the kind accepts.
private func isPresent(_ unit: WorkUnit, of kind: any UnitKind, reader: StoreReader) throws -> Bool {
    guard let r = try reader.result(key: unit.key), r.kind == kind.name else { return false }
    return kind.accepts(UnitOutcome(metrics: r.metrics, note: r.note, artifacts: r.artifacts), of: unit)
}

/// `lines` with each line's repetitions left out, in first-appearance order (the cells of one
/// closed-loop scenario that cannot be built fail with one line).
func distinctLines(_ lines: [String]) -> [String] {
    var seen = Set<String>()
    return lines.filter { seen.insert($0).inserted }
}

/// A finished unit as it goes into the store.
func storedResult(_ unit: WorkUnit, of kind: any UnitKind, outcome: UnitOutcome, plan: ExperimentPlan, seconds: Double) -> StoredResult {
    let paired = !unit.pairedRecording.isEmpty
    return StoredResult(
        key: unit.key, kind: kind.name, index: unit.index, route: unit.route, session: unit.session, configuration: unit.configuration,
        parameters: storedParameters(unit.parameters, columns: kind.parameterColumns),
        recordingSHA256: plan.checksums[paired ? unit.pairedRecording : unit.input] ?? "",
        navigationSHA256: paired ? plan.checksums[unit.input] ?? "" : "", seconds: seconds, note: outcome.note, metrics: outcome.metrics,
        artifacts: outcome.artifacts)
}

/// A unit's parameters as the store's `parameters` column: one `name=value` per line.
func storedParameters(_ values: [String], columns: [String]) -> String {
    zip(columns, values).map { "\($0)=\($1)" }.joined(separator: "\n")
}

/// The sections of the kinds the plan asks for (`SectionKind.isAsked`), in `kinds` order, from
/// the results in `context.store` (nothing is computed), and their failure lines in that order.
///
/// - Complexity: the kinds' `report`s.
public func resultKindSections(_ kinds: [any SectionKind], context: SectionContext) throws -> (sections: [ReportSection], failures: [String]) {
    var sections: [ReportSection] = [], failures: [String] = []
    for kind in kinds where kind.isAsked(in: context.plan) {
        let section = try kind.report(context)
        failures += section.failures
        sections.append(section)
    }
    return (sections, failures)
}

/// Every unit of `kind` with its stored outcome (nil: failed, missing or not accepted), in unit
/// order, and the distinct failure lines of the units without one (its stored failure, or "no result").
///
/// - Complexity: O(units) store lookups.
public func storedOutcomes(
    of kind: any UnitKind, _ plan: ExperimentPlan, store: ResultsStore
) throws -> (results: KindResults, failures: [String]) {
    var failures: [String] = []
    let units = kind.units(of: plan)
    let results: KindResults = try store.read { reader in
        try units.map { u in
            if let r = try reader.result(key: u.key), r.kind == kind.name {
                let outcome = UnitOutcome(metrics: r.metrics, note: r.note, artifacts: r.artifacts)
                if kind.accepts(outcome, of: u) { return (u, outcome) }
            }
            failures.append(try missingResultLine(u, reader: reader))
            return (u, nil)
        }
    }
    return (results, distinctLines(failures))
}

/// The failure line of `unit`, which has no accepted result: its stored failure, or "no result"
/// when its shard did not run or was stopped.
func missingResultLine(_ unit: WorkUnit, reader: StoreReader) throws -> String {
    try reader.failure(key: unit.key) ?? "\(unit.title): no result (its shard did not run, or the run was stopped)"
}

/// The units of a kind that runs each configuration on every input of the plan, in input-name
/// order then configuration order (calibration, proximity, gyroscope filters). Labels: the
/// session id (the file name when it has none); the route id, or `-` (`routes: false`, or none).
///
/// - Parameters:
///   - keyParts: what the key covers besides the kind and the input's checksum, per configuration
///     (default: the configuration's text).
///   - title: what a unit is, for its failure line, from the input and the configuration.
/// - Complexity: O(inputs × configurations).
public func perInputUnits(
    kind: String, plan: ExperimentPlan, configurations: [String], routes: Bool = true, keyParts: (String) -> [String] = { [$0] },
    title: (_ input: String, _ configuration: String) -> String
) -> [WorkUnit] {
    let parts = configurations.map(keyParts)
    var units: [WorkUnit] = []
    for file in plan.inputs.names {
        guard let metadata = plan.inputs.metadata(file) else { continue }
        let route = routes && !metadata.routeID.isEmpty ? metadata.routeID : "-"
        let session = metadata.sessionID.isEmpty ? fileName(of: file) : metadata.sessionID
        for (c, extra) in zip(configurations, parts) {
            units.append(
                WorkUnit(
                    key: workUnitKey(kind: kind, [plan.checksums[file] ?? ""] + extra), index: units.count, input: file, route: route,
                    session: session, configuration: c, parameters: [c], title: title(file, c)))
        }
    }
    return units
}

/// The metric rows of stored outcomes, in unit order (a failed or missing unit, or one that does
/// not apply, has none), labelled by each unit.
public func outcomeTable(_ results: [(unit: WorkUnit, outcome: UnitOutcome?)], parameterColumns: [String]) -> MetricsTable {
    var rows: [MetricRow] = []
    for (u, outcome) in results {
        for m in outcome?.metrics ?? [] {
            rows.append(
                MetricRow(
                    route: u.route, session: u.session, configuration: u.configuration, parameters: u.parameters, metric: m.name, value: m.value,
                    unit: m.unit))
        }
    }
    return MetricsTable(parameterColumns: parameterColumns, rows: rows)
}
