import Foundation
import NavCore
import NavIO
import NavReport

// What the engine moves between a kind and the store: a unit of work, what it produced, the
// section a kind renders from the store and what that section reads.

/// One unit of work of a kind: what it reads, how it is labelled, its identity.
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
    /// Figures and pages the section wrote itself (streamed) that `report.html` shows: file names
    /// inside the report folder, read back one at a time when the page inlines them (so no section
    /// holds every route's figures). Never written again.
    public var written: [String] = []
    /// Its answers for the summary's Findings section, one line each (none: the section has no verdict).
    public var findings: [String]
    /// Lines for the report's failure list (a venue floor plan that could not be read, so its
    /// walks used a corridor); the engine appends one for every unit without an accepted result.
    public var failures: [String]
    /// Findings that compare this section with one rendered before it (the closed loop's lines
    /// where it and the replay disagree): placed after every section's own findings.
    public var closingFindings: [String] = []
    /// Values this section offers the sections rendered after it, found by type
    /// (`SectionContext.offered(by:as:)`: the replay offers its main effects).
    public var offered: [any Sendable] = []
    public init(markdown: String, files: [(name: String, contents: String)], findings: [String] = [], failures: [String] = []) {
        self.init(pieces: [markdown], files: files, findings: findings, failures: failures)
    }
    public init(pieces: [String], files: [(name: String, contents: String)], findings: [String] = [], failures: [String] = []) {
        self.pieces = pieces; self.files = files; self.findings = findings; self.failures = failures
    }
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
