import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavImport

/// `navbench trace …`: build a session from pieces without Python (docs/trace-format.md,
/// "Editing traces"). Each writes a new file atomically, validated, with the command appended to
/// `processing`; inputs are never modified.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Edit trace files: add, drop, merge streams; trim to a time window.",
        subcommands: [TraceAddStream.self, TraceDropStream.self, TraceMerge.self, TraceTrim.self, TraceAddAnnotations.self])
}

struct TraceAddStream: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-stream",
        abstract: "FILE with a stream of another trace added (written to --out; FILE is never modified).")
    @Argument(help: "The trace to add to (.h5; read only).") var file: String
    @Option(help: "The trace holding the stream (.h5).") var from: String
    @Option(help: "The stream to copy (vio, groundtruth, imu, …).") var stream: String
    @Option(name: .customLong("as"), help: "Its name in the output (default: the same).") var target: String?
    @Option(name: .customLong("t-offset"), parsing: .unconditional, help: "Seconds added to the stream's timestamps.") var tOffset: Double = 0
    @Flag(help: "Replace a stream of that name already in FILE.") var replace = false
    @Option(help: "The output trace (.h5).") var out: String

    func validate() throws {
        guard tOffset.isFinite else { throw ValidationError("--t-offset must be a finite number of seconds, got \(tOffset)") }
    }

    func run() throws {
        try editTrace(inputs: [file, from], output: out, command: commandProvenance(from: "trace"), readPolicy: commandLineReadPolicy) { t in
            try addingStream(stream, from: t[1], to: t[0], as: target, timeOffset: tOffset, replace: replace)
        }
    }
}

struct TraceDropStream: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "drop-stream", abstract: "Write FILE without one stream.")
    @Argument(help: "The trace (.h5; read only).") var file: String
    @Option(help: "The stream to drop.") var stream: String
    @Option(help: "The output trace (.h5).") var out: String

    func run() throws {
        try editTrace(inputs: [file], output: out, command: commandProvenance(from: "trace"), readPolicy: commandLineReadPolicy) { t in
            try droppingStream(stream, from: t[0])
        }
    }
}

struct TraceMerge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "The streams of A and B in one trace (A's session attributes); a stream in both is an error.")
    @Argument(help: "The first trace (.h5).") var a: String
    @Argument(help: "The second trace (.h5).") var b: String
    @Option(help: "The output trace (.h5).") var out: String

    func run() throws {
        try editTrace(inputs: [a, b], output: out, command: commandProvenance(from: "trace"), readPolicy: commandLineReadPolicy) { t in
            try mergingTraces(t[0], t[1])
        }
    }
}

struct TraceTrim: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trim", abstract: "Keep the samples of every stream with START ≤ t ≤ END.")
    @Argument(help: "The trace (.h5; read only).") var file: String
    @Option(help: "First time kept, seconds.") var start: Double
    @Option(help: "Last time kept, seconds.") var end: Double
    @Option(help: "The output trace (.h5).") var out: String

    func validate() throws {
        guard start.isFinite && end.isFinite && start <= end else {
            throw ValidationError("--start \(start) --end \(end): expected finite seconds with start ≤ end")
        }
    }

    func run() throws {
        try editTrace(inputs: [file], output: out, command: commandProvenance(from: "trace"), readPolicy: commandLineReadPolicy) { t in
            try trimmingTrace(t[0], start: start, end: end)
        }
    }
}

struct TraceAddAnnotations: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-annotations",
        abstract: "FILE with an annotation stream read from a CSV of labels (a lab's own heel strikes, turns, events).",
        discussion: """
            The CSV has a header; --start names the column of start times (seconds on the trace's clock after --t-offset), \
            --end makes the rows intervals (else instants), --label and --value name the label and number columns. The rows \
            are sorted by start. Written to --out (validated, atomically); FILE is never modified (docs/trace-format.md).
            """)
    @Argument(help: "The trace to add to (.h5; read only).") var file: String
    @Option(help: "The CSV of labels.") var csv: String
    @Option(help: "The stream's name: 1–64 characters of a–z, 0–9, _ or -.") var name: String
    @Option(help: "Who or what made the labels.") var source: String
    @Option(help: "Column of start times (s).") var start: String
    @Option(help: "Column of end times (s); omit for instants.") var end: String?
    @Option(help: "Column of labels.") var label: String?
    @Option(help: "Column of values (a turn's angle, …).") var value: String?
    @Option(name: .customLong("value-units"), help: "Units of --value.") var valueUnits: String = "1"
    @Option(name: .customLong("t-offset"), parsing: .unconditional, help: "Seconds added to every time.") var tOffset: Double = 0
    @Flag(help: "Replace an annotation stream of that name already in FILE.") var replace = false
    @Option(help: "The output trace (.h5).") var out: String

    func validate() throws {
        guard AnnotationStream.isValidName(name) else { throw ValidationError("--name \(name): expected 1–64 characters of a–z, 0–9, _ or -") }
        guard tOffset.isFinite else { throw ValidationError("--t-offset must be a finite number of seconds, got \(tOffset)") }
        guard !source.isEmpty, source.utf8.count <= 4_096 else { throw ValidationError("--source: expected 1–4,096 bytes") }
    }

    func run() throws {
        try checkOutput(out)
        do {
            let stream = try importAnnotationCSV(
                csv, name: name, source: source,
                columns: AnnotationColumns(start: start, end: end, label: label, value: value, valueUnits: valueUnits, timeOffset: tOffset))
            try editTrace(inputs: [file], output: out, command: commandProvenance(from: "trace"), readPolicy: commandLineReadPolicy) { t in
                var trace = t[0]
                let full = "\(TraceSchema.annotationsGroup)/\(name)"
                if trace.stream(full) != nil, !replace {
                    throw TraceEditError("\(escapedForMessage(file)): already has /\(full) (--replace to overwrite it)")
                }
                trace.streams.removeAll { $0.name == full }
                trace.streams.append(loadedStream(stream))
                return trace
            }
            print(out)
        } catch {
            printErrorLine(error)
            throw failureStatus(error)
        }
    }
}
