import ArgumentParser
import Foundation
import NavIO

/// `navbench trace …`: build a session from pieces without Python (docs/trace-format.md,
/// "Editing traces"). Each writes a new file atomically, validated, with the command appended to
/// `processing`; inputs are never modified.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Edit trace files: add, drop, merge streams; trim to a time window.",
        subcommands: [TraceAddStream.self, TraceDropStream.self, TraceMerge.self, TraceTrim.self])
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
