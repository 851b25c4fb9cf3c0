import Foundation
import NavCore
import NavReport

// Kinds of experiment results: the guidance replay, heading calibration, beacon proximity,
// gyroscope filters, APE, closed-loop cells, walker uncertainty, step and turn detection
// (`ExperimentKinds.standard`) and any kind a caller registers. A kind plans itself once per run
// (`PlannedKind`); the one engine (ExperimentEngine.swift) splits the planned units by the shard
// rule, computes them, stores them, and renders each section from the store. Adding a kind:
// docs/result-kinds.md.

/// A kind of experiment result.
///
/// Contract: `plan(_:)`'s units are a function of the plan's input names, their metadata and
/// checksums and the spec (never of stream lists, which a shard's plan lacks), so every shard and
/// `merge` plan the same units with the same keys; running a unit is deterministic; the section
/// reads only the store and the plan, so a report written by `run` and one written by `merge` are
/// the same bytes.
public protocol ExperimentKind: Sendable {
    /// The store's `kind` of its results (unique among the kinds of one run).
    var name: String { get }
    /// The CSV in the report folder that `navbench compare` gates row by row for this kind
    /// (`route, session, configuration, <parameters>, metric, value, unit`); nil when the kind
    /// is gated another way (the replay's metrics.csv, the closed loop's cells) or not at all.
    var gatedCSV: String? { get }
    /// The spec sections this kind owns (key, documentation line, typed reader; KindSpecSection.swift),
    /// none by default: `ExperimentSpec` accepts a key only for a kind in the list it is read with,
    /// and the kind reads its value back with `plan.spec.kindSection(key, as:)`.
    var specSections: [KindSpecSection] { get }
    /// The kind planned for `plan`: made once per run and passed to the engine, the status, the
    /// merge check and the report.
    func plan(_ plan: ExperimentPlan) -> PlannedKind
}

extension ExperimentKind {
    public var specSections: [KindSpecSection] { [] }
}

/// Computes units of one kind (what `PlannedKind.runner` prepared for the units of a run).
public typealias UnitRunner = @Sendable (WorkUnit) throws -> UnitOutcome

/// A kind planned for one run: its units, how to compute them, what a stored outcome must
/// satisfy and how its section is rendered, with the work its units share done once (the closed
/// loop's cells and scenarios are planned here, not per call).
public struct PlannedKind: Sendable {
    /// The kind's `name`.
    public var name: String
    /// Whether the plan asks for this kind: its units run and its section appears (even empty) only then.
    public var isAsked: Bool
    /// The units, in a fixed order (the order the shard rule splits).
    public var units: [WorkUnit]
    /// The names of `WorkUnit.parameters`, stored with each result (`name=value` per line).
    public var parameterColumns: [String]
    /// What its units are, for the progress display.
    public var phase: String
    /// Results committed per transaction: at most this many finished units are lost on `kill -9`.
    public var commitBatch: Int
    /// `commitBatch` unless a kind says otherwise.
    public static let defaultCommitBatch = 8
    /// The units of shard `shard` of `shards` (default: the `shardRange` block of the unit order).
    public var shardUnits: @Sendable (_ units: [WorkUnit], _ shard: Int, _ shards: Int) -> [WorkUnit] = { units, shard, shards in
        Array(units[shardRange(count: units.count, shard: shard, shards: shards)])
    }
    /// What computes the units one run computes (in unit order), with the work they share done once.
    public var runner: @Sendable (_ units: [WorkUnit]) -> UnitRunner
    /// Whether a stored outcome is a complete result of its unit. One that is not counts as
    /// missing: computed again by a run, "no result" in a report.
    public var accepts: @Sendable (UnitOutcome, WorkUnit) -> Bool
    /// Its section from the store; its `failures` end with one line for every unit without an
    /// accepted result (its stored failure, or "no result").
    public var report: @Sendable (SectionContext) throws -> ReportSection

    public init(
        name: String, isAsked: Bool, units: [WorkUnit], parameterColumns: [String], phase: String? = nil,
        commitBatch: Int = PlannedKind.defaultCommitBatch, shardUnits: (@Sendable ([WorkUnit], Int, Int) -> [WorkUnit])? = nil,
        accepts: @escaping @Sendable (UnitOutcome, WorkUnit) -> Bool = { _, _ in true },
        runner: @escaping @Sendable ([WorkUnit]) -> UnitRunner, report: @escaping @Sendable (SectionContext) throws -> ReportSection
    ) {
        self.name = name; self.isAsked = isAsked; self.units = isAsked ? units : []; self.parameterColumns = parameterColumns
        self.phase = phase ?? "\(name) units"; self.commitBatch = commitBatch; self.accepts = accepts
        self.runner = runner; self.report = report
        if let shardUnits { self.shardUnits = shardUnits }
    }

    /// A kind whose section is a function of its units' stored outcomes, given in memory in unit
    /// order (every kind but the replay, whose runs do not fit in memory): `run` computes one
    /// unit; the section's failure lines are followed by one per unit without an accepted result.
    public init(
        name: String, isAsked: Bool, units: [WorkUnit], parameterColumns: [String], phase: String? = nil,
        accepts: @escaping @Sendable (UnitOutcome, WorkUnit) -> Bool = { _, _ in true },
        run: @escaping @Sendable (WorkUnit) throws -> UnitOutcome,
        section: @escaping @Sendable (KindResults, SectionContext) throws -> ReportSection
    ) {
        self.init(
            name: name, isAsked: isAsked, units: units, parameterColumns: parameterColumns, phase: phase, accepts: accepts, runner: { _ in run },
            section: section)
    }

    /// The kind above, whose units share work done once per run (`runner`).
    public init(
        name: String, isAsked: Bool, units: [WorkUnit], parameterColumns: [String], phase: String? = nil,
        accepts: @escaping @Sendable (UnitOutcome, WorkUnit) -> Bool = { _, _ in true },
        runner: @escaping @Sendable ([WorkUnit]) -> UnitRunner,
        section: @escaping @Sendable (KindResults, SectionContext) throws -> ReportSection
    ) {
        let units = isAsked ? units : []
        self.init(
            name: name, isAsked: isAsked, units: units, parameterColumns: parameterColumns, phase: phase, accepts: accepts, runner: runner,
            report: { context in
                let (results, missing) = try storedOutcomes(kind: name, units: units, accepts: accepts, store: context.store)
                var s = try section(results, context)
                s.failures += missing
                return s
            })
    }

    /// A kind asked when `asked`, whose units (listed only then) each run alone and whose section is
    /// a function of its units' stored outcomes: calibration, proximity, gyroscope filters, APE,
    /// walker uncertainty, step and turn detection.
    public static func perUnit(
        _ name: String, asked: Bool, units: () -> [WorkUnit], parameterColumns: [String],
        accepts: @escaping @Sendable (UnitOutcome, WorkUnit) -> Bool = { _, _ in true },
        run: @escaping @Sendable (WorkUnit) throws -> UnitOutcome, section: @escaping @Sendable (KindResults) -> ReportSection
    ) -> PlannedKind {
        PlannedKind(
            name: name, isAsked: asked, units: asked ? units() : [], parameterColumns: parameterColumns, accepts: accepts, run: run,
            section: { results, _ in section(results) })
    }

    /// A kind the plan does not ask for: no units, no section.
    public static func notAsked(_ name: String) -> PlannedKind {
        PlannedKind(
            name: name, isAsked: false, units: [], parameterColumns: [], run: { _ in UnitOutcome(metrics: []) },
            section: { _, _ in ReportSection(markdown: "", files: []) })
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
    /// The run's planned kinds: what a section that reads another kind's results (the closed
    /// loop reads the walker-uncertainty analysis) finds them by.
    public var kinds: [PlannedKind] = []
    /// The sections rendered before this one in this report, by kind name (kinds' order).
    public var rendered: [(kind: String, section: ReportSection)] = []

    /// The value of type `T` that the section of kind `kind`, rendered before this one, offers
    /// (`ReportSection.offered`); nil when that kind is not in the report or offers none.
    public func offered<T>(by kind: String, as: T.Type) -> T? {
        rendered.first { $0.kind == kind }?.section.offered.lazy.compactMap { $0 as? T }.first
    }

    /// The stored outcomes of the run's kind `name` when it is planned and asked, else nil.
    ///
    /// - Complexity: O(units of that kind) store lookups.
    public func storedResults(of name: String) throws -> KindResults? {
        guard let kind = kinds.first(where: { $0.name == name && $0.isAsked }) else { return nil }
        return try storedOutcomes(of: kind, store: store).results
    }
}

/// Every unit of `kind` with its stored outcome (nil: failed, missing or not accepted), in unit
/// order, and the distinct failure lines of the units without one (its stored failure, or "no result").
///
/// - Complexity: O(units) store lookups.
public func storedOutcomes(of kind: PlannedKind, store: ResultsStore) throws -> (results: KindResults, failures: [String]) {
    try storedOutcomes(kind: kind.name, units: kind.units, accepts: kind.accepts, store: store)
}
