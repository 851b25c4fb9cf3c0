import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavReport
import NavSynth

@main
struct Navbench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navbench",
        abstract: "Replay and measure indoor navigation aids on recorded sessions.",
        version: NavbenchVersion.current,
        subcommands: [Inspect.self, Validate.self, Synth.self, Survey.self, Filter.self, PSD.self, ADev.self,
                      APECommand.self, RPECommand.self, SimplifyCommand.self, Guide.self, Simulate.self, Calibrate.self, Proximity.self, Run.self, Merge.self, Compare.self,
                      ExportNotebook.self, Import.self, Export.self, Bench.self])
}

/// Prints to standard error.
func printError(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Per stream: samples, duration, mean rate, largest gap, units and value ranges.")

    @Argument(help: "Trace files (.h5).") var files: [String]
    @Flag(help: "Print JSON (one array of file summaries).") var json = false

    func run() throws {
        var summaries: [TraceSummary] = []
        var failed = 0
        for f in files {
            do {
                let s = try inspectTrace(at: f)
                summaries.append(s)
                if !json { print(s.text, terminator: "") }
            } catch {
                printError("navbench: error: \(error)")
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
        abstract: "Check files against trace format v1; one line per problem.",
        discussion: "Exit status 0 when every file is valid (warnings allowed), 1 otherwise.")

    @Argument(help: "Trace files (.h5).") var files: [String]
    @Flag(help: "Print only problems and the closing count.") var quiet = false

    func run() throws {
        var invalid = 0
        for f in files {
            let r = validateTrace(at: f)
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
        abstract: "Generate the synthetic venue: per route one recording and navigation sessions, with ground truth.",
        discussion: "Same seed → byte-identical files. Parameters: docs/synthetic-data.md.")

    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(help: "Output folder.") var out: String
    @Option(help: "Navigation sessions per route.") var navigations: Int = 3

    func validate() throws {
        guard navigations >= 1 else { throw ValidationError("--navigations must be at least 1, got \(navigations)") }
    }

    func run() throws {
        var p = SynthParameters()
        p.navigationSessionsPerRoute = navigations
        let sessions = synthesizeVenue(seed: seed, parameters: p)
        for s in sessions {
            let path = (out as NSString).appendingPathComponent(s.fileName)
            try writeTrace(s.session, to: path)
            print(path)
        }
        try writeManifest(folder: out, files: sessions.map(\.fileName), facts: [
            "generator": "navbench synth", "navbench_version": NavbenchVersion.current,
            "seed": String(seed), "navigations": String(navigations),
            "command": "navbench synth --seed \(seed) --navigations \(navigations) --out <folder>",
        ])
        print((out as NSString).appendingPathComponent("manifest.json"))
    }
}

struct Survey: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate and inspect every trace file in a folder; write summary.md and streams.csv.")

    @Argument(help: "Folder of trace files.") var folder: String
    @Option(help: "Report folder.") var out: String

    func run() throws {
        let files = try traceFiles(in: folder)
        guard !files.isEmpty else { throw ValidationError("\(folder): no .h5 or .hdf5 files") }
        let entries = surveyDatasets(files)
        let md = surveyMarkdown(entries, title: "Dataset survey: \(folder)", command: "navbench survey \(folder) --out \(out)")
        try writeTextAtomically(md, to: (out as NSString).appendingPathComponent("summary.md"))
        try writeTextAtomically(surveyCSV(entries), to: (out as NSString).appendingPathComponent("streams.csv"))
        let invalid = entries.filter { !$0.validation.isValid }
        print("\(entries.count) files, \(invalid.count) invalid; report: \((out as NSString).appendingPathComponent("summary.md"))")
        for e in invalid { printError("navbench: error: \(e.validation.errors.first!.error)") }
        if !invalid.isEmpty { throw ExitCode(1) }
    }
}
