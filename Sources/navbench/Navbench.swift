import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavProcessPolicy
import NavReport
import NavSynth

@main
struct Navbench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navbench",
        abstract: "Replay and measure indoor navigation aids on recorded sessions.",
        version: NavbenchVersion.current,
        subcommands: [
            Inspect.self, Validate.self, Synth.self, Survey.self, Filter.self, PSD.self, Plot.self, ADev.self,
            APECommand.self, RPECommand.self, AttitudeCommand.self, SimplifyCommand.self, Guide.self, View.self, Simulate.self, Calibrate.self,
            Proximity.self, Run.self,
            Merge.self,
            Status.self, Compare.self,
            ExportNotebook.self, Import.self, Export.self, ResCommand.self, DriftCommand.self, ScoreCommand.self,
            TraceCommand.self, WalkerCommand.self, Steps.self, Turns.self, PDR.self,
        ])
}

extension Navbench {
    /// One error style for every command (docs/exit-codes.md): `navbench: error: ` and one line,
    /// control bytes escaped and long values truncated. Exit status 64 for usage errors, 73 when
    /// an output cannot be written, 1 for other failures; an `ExitCode` a command throws stands.
    static func main() {
        // A file-size limit (ulimit -f) fails the write with EFBIG, reported as a full disk is,
        // instead of killing the process with SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        // --allow-external-links applies to every command that reads HDF5, wherever it stands.
        var arguments = Array(CommandLine.arguments.dropFirst())
        arguments.removeAll { $0 == "--allow-external-links" }  // read into commandLineReadPolicy (ReadPolicy.swift)
        if let problem = memoryBudgetProblem(ProcessInfo.processInfo.environment) {
            printError("navbench: error: " + problem)
            Foundation.exit(64)
        }
        do {
            var command = try parseAsRoot(arguments)
            // NavCore: repeated large reads reuse mapped pages (docs/benchmarks.md); a sweep keeps
            // glibc's own thresholds, so memory is flat in routes (docs/scaling.md).
            if !(command is SweepsManyInputs) && ProcessInfo.processInfo.environment["NAVBENCH_MALLOC_DEFAULTS"] != "1" {
                keepLargeBuffersMapped()
            }
            try command.run()
        } catch {
            if error is ExitCode { exit(withError: error) }
            var code = exitCode(for: error)
            if code == .success { exit(withError: error) }  // --help, --version
            var text: String
            if let t = error as? TraceError {
                text = t.description
                if t.kind == .writeFailed { code = ExitCode(73) }
            } else if code == .validationFailure {
                text = message(for: error)
                if text.hasPrefix("Missing value for"), let (option, value) = negativeNumberAfterOption(text) {
                    text += " (a negative value must be attached: \(option)=\(value))"
                }
            } else {
                text = String(describing: error)
            }
            let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .joined(separator: " ")
            printError("navbench: error: " + escapedForMessage(line, limit: 1000))
            Foundation.exit(code.rawValue)
        }
    }

    /// The negative number that follows the option named in a "Missing value for '--x <x>'" message, if any.
    private static func negativeNumberAfterOption(_ message: String) -> (String, String)? {
        let args = CommandLine.arguments
        for (i, a) in args.enumerated() where a.hasPrefix("--") && message.contains("'\(a) ") && i + 1 < args.count {
            if args[i + 1].hasPrefix("-"), Double(args[i + 1]) != nil { return (a, args[i + 1]) }
        }
        return nil
    }
}

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Per stream: samples, duration, mean rate, largest gap, units and value ranges.")

    @Argument(help: "Trace files (.h5).") var files: [String]
    @Flag(help: "Print JSON (one array of file summaries).") var json = false

    func run() throws {
        var summaries: [TraceSummary] = []
        var failed = 0
        for f in files {
            do {
                let s = try inspectTrace(at: f, policy: commandLineReadPolicy)
                summaries.append(s)
                if !json { print(s.text, terminator: "") }
                if s.errors > 0 { failed += 1 }  // summarised as far as it loads, but invalid: exit 1
            } catch {
                printErrorLine(error)
                failed += 1
            }
        }
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try enc.encode(summaries), as: UTF8.self))
        }
        if failed > 0 { throw ExitCode(1) }
    }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check files against trace format v1; one line per problem.",
        discussion: "Exit status 0 when every file is valid (warnings allowed), 1 otherwise.")

    @Argument(help: "Trace files (.h5).") var files: [String]
    @Flag(help: "Print only problems and the closing count.") var quiet = false

    func run() throws {
        var invalid = 0
        for f in files {
            let r = validateTrace(at: f, policy: commandLineReadPolicy)
            for p in r.problems { print(p.description) }
            if r.isValid {
                if !quiet && r.problems.isEmpty { print("\(f): ok") }
            } else {
                invalid += 1
            }
        }
        print("\(files.count - invalid) valid, \(invalid) invalid")
        if invalid > 0 { throw ExitCode(1) }
    }
}

struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Generate the synthetic venue: per route one recording and navigation sessions, with ground truth.",
        discussion: "Same seed → byte-identical files. Parameters: docs/synthetic-data.md.")

    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(help: "Output folder.") var out: String
    @Option(help: "Navigation sessions per route (at most 100).") var navigations: Int = 3
    @Option(
        help:
            "Venue: corridors (R1–R3: a straight corridor, two turns, a stair, in 4 m wide corridors) or building (B1–B4: a two-storey floor plan with walls and doors, routes walked the way people walk, written with building.floorplan.json; docs/synthetic-data.md)."
    )
    var venue: String = "corridors"
    /// Each navigation is a few MB; 100 per route keeps a venue well under a GB.
    static let maxNavigations = 100

    func validate() throws {
        guard ["corridors", "building"].contains(venue) else { throw ValidationError("--venue \(venue): expected corridors or building") }
        guard (1...Synth.maxNavigations).contains(navigations) else {
            throw ValidationError("--navigations must be from 1 to \(Synth.maxNavigations), got \(navigations)")
        }
    }

    func run() throws {
        let building = venue == "building" ? SynthVenue.building : nil
        let sessions = (building ?? SynthVenue.corridors).sessions(seed: seed, navigations: navigations)
        for s in sessions {
            let path = (out as NSString).appendingPathComponent(s.fileName)
            try writeTrace(s.session, to: path)
            print(path)
        }
        var files = sessions.map(\.fileName)
        if let building {
            let name = safeFileComponent(building.name) + ".floorplan.json"
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys]
            try writeTextAtomically(
                String(decoding: try enc.encode(building.floorPlan), as: UTF8.self) + "\n",
                to: (out as NSString).appendingPathComponent(name))
            files.append(name)
        }
        try writeManifest(
            folder: out, files: files,
            facts: [
                "generator": "navbench synth", "navbench_version": NavbenchVersion.current,
                "seed": String(seed), "navigations": String(navigations),
                "command": "navbench synth --seed \(seed) --navigations \(navigations)" + (building == nil ? "" : " --venue building")
                    + " --out <folder>",
            ])
        print((out as NSString).appendingPathComponent("manifest.json"))
    }
}

struct Survey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "survey",
        abstract: "Validate and inspect every trace file in a folder; write summary.md and streams.csv.")

    @Argument(help: "Folder of trace files.") var folder: String
    @Option(help: "Report folder.") var out: String

    func run() throws {
        let files = try traceFiles(in: folder)
        guard !files.isEmpty else { throw ValidationError("\(folder): no .h5 or .hdf5 files") }
        let entries = surveyDatasets(files, readPolicy: commandLineReadPolicy)
        let md = surveyMarkdown(entries, title: "Dataset survey: \(folder)", command: "navbench survey \(folder) --out \(out)")
        try writeTextAtomically(md, to: (out as NSString).appendingPathComponent("summary.md"))
        try writeTextAtomically(surveyCSV(entries), to: (out as NSString).appendingPathComponent("streams.csv"))
        let invalid = entries.filter { !$0.validation.isValid }
        print("\(entries.count) files, \(invalid.count) invalid; report: \((out as NSString).appendingPathComponent("summary.md"))")
        for e in invalid { printErrorLine(e.validation.errors.first!.error) }
        if !invalid.isEmpty { throw ExitCode(1) }
    }
}

/// A command that works through many inputs one after another (`run`, `merge`): it keeps glibc's
/// malloc thresholds instead of `keepLargeBuffersMapped`'s, which keep every freed session's
/// pages mapped and made peak memory grow with the number of routes (1.54 × at 1,000 routes
/// against 1.43 × with glibc's own: docs/scaling.md, "Memory in routes").
protocol SweepsManyInputs {}
extension Run: SweepsManyInputs {}
extension Merge: SweepsManyInputs {}
