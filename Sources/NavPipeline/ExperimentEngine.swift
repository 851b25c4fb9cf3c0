import Foundation
import NavCore
import NavIO
import NavReport
import Synchronization

// The one engine: the units of the planned kinds split by the shard rule (`shardRange`), run on
// the one executor (`forEachConcurrently`), committed to the one store schema (`ResultsStore`,
// their `kind` column) and read back, so a shard computes its block, `merge` copies every kind
// and recomputes nothing; each section is rendered from the store.

/// Counts of the units of one run.
public struct KindCounts: Sendable, Equatable {
    /// Units of this shard present afterwards (computed or found in the store).
    public var done = 0
    /// Units computed in this run (0 on a cached rerun).
    public var computed = 0
    /// Failure lines of this run, in unit order per kind (a line repeated within a kind once).
    public var failures: [String] = []
    /// The counts of each kind that had units, by kind name (empty within a kind's own counts).
    public var byKind: [String: KindCounts] = [:]
    public init(done: Int = 0, computed: Int = 0, failures: [String] = []) {
        self.done = done; self.computed = computed; self.failures = failures
    }

    /// The counts of kind `name` (zero when it had no units).
    public subscript(kind name: String) -> KindCounts { byKind[name] ?? KindCounts() }

    /// The counts of every kind but `name`, summed (kinds in name order, failures in that order).
    public func excluding(_ name: String) -> KindCounts {
        var c = KindCounts()
        for (k, v) in byKind.sorted(by: { $0.key < $1.key }) where k != name {
            c.done += v.done; c.computed += v.computed; c.failures += v.failures
        }
        return c
    }
}

/// Plans `kinds` for `plan` and computes their units in shard `shard` of `shards`
/// (`executePlannedKinds`).
///
/// - Throws: `ResultsStoreError` when the store cannot be opened or written.
public func executeKinds(
    _ plan: ExperimentPlan, kinds: [any ExperimentKind], storePath: String, workers: Int, shard: Int = 1,
    shards: Int = 1, progress: ProgressHandler? = nil, stop: StopRequest? = nil
) throws -> KindCounts {
    try executePlannedKinds(
        plan, kinds: kinds.map { $0.plan(plan) }, storePath: storePath, workers: workers, shard: shard, shards: shards, progress: progress,
        stop: stop)
}

/// Computes the units of the asked `kinds` in shard `shard` of `shards` (`PlannedKind.shardUnits`:
/// the `shardRange` block of each kind's unit order) that are not present and verified in the
/// store at `storePath` (`PlannedKind.accepts`), on `workers` threads (one progress phase per
/// kind, through its `runner`), committing each result, or its failure line, as it finishes
/// (results in batches of the kind's `commitBatch`). The store is created if needed and describes
/// the plan (spec, inputs, configurations: what `merge` checks a shard store against) even when no
/// kind has units. Counts are per kind too (`KindCounts.byKind`).
///
/// - Throws: `ResultsStoreError` when the store cannot be opened or written.
/// - Complexity: O(units) keys, the presence checks on `workers` threads; memory O(units + workers
///   + batch + failures).
public func executePlannedKinds(
    _ plan: ExperimentPlan, kinds: [PlannedKind], storePath: String, workers: Int, shard: Int = 1, shards: Int = 1,
    progress: ProgressHandler? = nil, stop: StopRequest? = nil
) throws -> KindCounts {
    try? FileManager.default.createDirectory(atPath: (storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let store = try ResultsStore(path: storePath)
    try store.describe(plan, shard: shard, shards: shards)
    plan.inputs.reserve(workers: workers)
    var counts = KindCounts()
    for kind in kinds where kind.isAsked && !kind.units.isEmpty && stop?.isRequested != true {
        let mine = kind.shardUnits(kind.units, shard, shards)
        let present = try presentUnits(mine, of: kind, store: store, workers: workers)
        let todo = mine.indices.filter { !present[$0] }
        let run = kind.runner(todo.map { mine[$0] })
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
        let mineCounts = KindCounts(
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
func presentUnits(_ units: [WorkUnit], of kind: PlannedKind, store: ResultsStore, workers: Int) throws -> [Bool] {
    try store.readInBlocks(units.count, blocks: min(workers, units.count / 256)) { reader, range in
        try units[range].map { try isPresent($0, of: kind, reader: reader) }
    }
}

/// Whether `unit` has a result of `kind` in the store that the kind accepts.
private func isPresent(_ unit: WorkUnit, of kind: PlannedKind, reader: StoreReader) throws -> Bool {
    guard let r = try reader.result(key: unit.key), r.kind == kind.name else { return false }
    return kind.accepts(UnitOutcome(metrics: r.metrics, note: r.note, artifacts: r.artifacts), unit)
}

/// A finished unit as it goes into the store.
func storedResult(_ unit: WorkUnit, of kind: PlannedKind, outcome: UnitOutcome, plan: ExperimentPlan, seconds: Double) -> StoredResult {
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

/// The sections of the asked `kinds`, in their order, from the results in `context.store`
/// (nothing is computed), and their failure lines in that order.
///
/// - Complexity: the kinds' `report`s.
public func renderSections(_ kinds: [PlannedKind], context: SectionContext) throws -> (sections: [ReportSection], failures: [String]) {
    var sections: [ReportSection] = [], failures: [String] = []
    var context = context
    context.kinds = kinds
    for kind in kinds where kind.isAsked {
        let section = try kind.report(context)
        failures += section.failures
        sections.append(section)
        context.rendered.append((kind.name, section))
    }
    return (sections, failures)
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
