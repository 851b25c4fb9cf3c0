import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavPipeline

/// `navbench run SPEC --slurm …` (issue 32): the options, and the submission (planned and made by
/// `planSlurmSweep` / `submitSlurmSweep`; docs/experiments.md, "On a cluster").
struct SlurmRunOptions: ParsableArguments {
    @Flag(help: "Submit the sweep to Slurm (job arrays of shards, then a merge after them) instead of running it here.") var slurm = false
    @Option(help: "With --slurm: the partition.") var partition: String?
    @Option(name: .customLong("cpus-per-task"), help: "With --slurm: CPUs of each task (its --jobs; default 1).") var cpusPerTask: Int?
    @Option(help: "With --slurm: each task's time limit, as sbatch --time (e.g. 30:00).") var time: String?
    @Option(name: .customLong("max-array"), help: "With --slurm: Slurm's MaxArraySize (default: scontrol show config's).") var maxArray: Int?
    @Option(
        name: .customLong("max-submit"),
        help: "With --slurm: jobs you may queue at once (default: sacctmgr's MaxSubmit for you, if any); more pending tasks wait for a rerun.")
    var maxSubmit: Int?
    @Option(name: .customLong("runs-per-task"), help: "With --slurm: units of work per task (default 500), so a task lasts minutes.")
    var runsPerTask: Int?
    @Flag(name: .customLong("dry-run"), help: "With --slurm: print the sbatch lines and submit nothing.") var dryRun = false

    func check() throws {
        let flags: [(String, Bool)] = [
            ("--partition", partition != nil), ("--cpus-per-task", cpusPerTask != nil), ("--time", time != nil), ("--max-array", maxArray != nil),
            ("--max-submit", maxSubmit != nil), ("--runs-per-task", runsPerTask != nil), ("--dry-run", dryRun),
        ]
        let given: [String] = flags.filter(\.1).map(\.0)
        if !slurm, let first = given.first { throw ValidationError("\(first) applies with --slurm") }
        if let c = cpusPerTask, !(1...1024).contains(c) { throw ValidationError("--cpus-per-task must be from 1 to 1024, got \(c)") }
        if let m = maxArray, !(2...4_000_001).contains(m) { throw ValidationError("--max-array must be from 2 to 4000001, got \(m)") }
        if let m = maxSubmit, !(1...10_000_000).contains(m) { throw ValidationError("--max-submit must be from 1 to 10000000, got \(m)") }
        if let r = runsPerTask, !(1...10_000_000).contains(r) { throw ValidationError("--runs-per-task must be from 1 to 10000000, got \(r)") }
        for (flag, v) in [("--partition", partition), ("--time", time)] {
            // Slurm's partition names and times are printable ASCII words; control bytes never reach a terminal or sbatch.
            if let v,
                v.isEmpty || v.count > 128 || v.unicodeScalars.contains(where: { !(0x21...0x7E).contains($0.value) || $0 == "," && flag == "--time" })
            {
                throw ValidationError("\(flag) '\(escapedForMessage(v))': expected one word of printable ASCII, at most 128 characters")
            }
        }
    }

    /// Plans `spec`'s sweep, prints it, and (unless --dry-run) submits it.
    func submit(_ spec: ExperimentSpec, spec specPath: String, overrides: [String], out: String?, maxConfigurations: Int?) throws {
        let cwd = FileManager.default.currentDirectoryPath
        func absolute(_ p: String) -> String { p.hasPrefix("/") ? p : (cwd as NSString).appendingPathComponent(p) }
        // The executable running now (tasks run the same build), and paths that hold in any working directory.
        let navbench = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? absolute(CommandLine.arguments[0])
        let common =
            [absolute(specPath)] + overrides + (out.map { ["--out", absolute($0)] } ?? [])
            + (maxConfigurations.map { ["--max-configurations", "\($0)"] } ?? [])
        let logs = (spec.output as NSString).appendingPathComponent("slurm")
        var options = SlurmOptions(logFolder: absolute(logs))
        options.partition = partition
        options.cpusPerTask = cpusPerTask ?? 1
        options.time = time
        options.unitsPerTask = runsPerTask ?? options.unitsPerTask
        if let m = maxArray ?? slurmMaxArraySize() {
            options.maxArraySize = m
        } else {
            printError("navbench: note: scontrol show config gave no MaxArraySize; assuming Slurm's default 1001 (give --max-array)")
        }
        options.maxSubmit = maxSubmit ?? slurmMaxSubmitJobs(user: ProcessInfo.processInfo.userName)
        let plan: SlurmPlan
        do {
            plan = try planSlurmSweep(
                spec, options: options, navbench: navbench, taskArguments: ["run"] + common, mergeArguments: ["merge"] + common,
                readPolicy: commandLineReadPolicy)
        } catch let e as SlurmError {
            printError("navbench: error: \(e.description)")
            throw ExitCode(2)
        }
        print(plan.summary(maxArraySize: options.maxArraySize, maxSubmit: options.maxSubmit))
        if plan.complete { return }
        if dryRun {
            for args in plan.arrayArguments { print(slurmCommandLine(args)) }
            let dependency =
                plan.arrays.isEmpty ? [] : ["--dependency=afterok:" + plan.arrays.indices.map { "<array \($0 + 1)>" }.joined(separator: ":")]
            for args in plan.mergeArguments { print(slurmCommandLine(Array(args.prefix(1)) + dependency + Array(args.dropFirst()))) }
            return
        }
        // Nothing already in the output folder is trusted: the log folder is made here, or is a real folder.
        var st = stat()
        if lstat(logs, &st) == 0 && (st.st_mode & S_IFMT) != S_IFDIR {
            printError(
                "navbench: error: \(escapedForMessage(logs)): exists and is not a folder (a symbolic link or a file); remove it, it is where the tasks' logs go"
            )
            throw ExitCode(73)
        }
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let submitted: SlurmSubmission
        do { submitted = try submitSlurmSweep(plan) } catch let e as SlurmError {
            printError("navbench: error: \(e.description)")
            throw ExitCode(1)
        }
        for (id, array) in zip(submitted.arrayJobs, plan.arrays) {
            print("submitted array \(id): shards \(arrayRanges(array.shards, separator: ", ")) of \(plan.shards)")
        }
        if let m = submitted.mergeJob {
            print("submitted merge \(m)" + (submitted.arrayJobs.isEmpty ? "" : " after \(submitted.arrayJobs.joined(separator: ", "))"))
        }
        // A line to paste: every word shell-quoted (a folder named $(…) or a;b stays a word).
        print(
            "follow with: "
                + shellLine(["navbench", "status", specPath] + (out.map { ["--out", $0] } ?? []) + ["--shards", String(plan.shards)])
                + "; task logs in \(shellWord(logs))")
    }
}

/// An sbatch line as a shell would take it (for --dry-run): each word quoted where needed.
func slurmCommandLine(_ args: [String]) -> String { shellLine(["sbatch"] + args) }

/// One word as a POSIX shell reads it back: as is when it holds only ASCII letters, digits and
/// `-_=./:%,@+`, else in single quotes (a quote inside as '\''); control bytes escaped first
/// (`escapedForMessage`), so a pasted line never runs what a name holds (`$(…)`, `;`, `>`, `` ` ``).
func shellWord(_ w: String) -> String {
    let safe =
        !w.isEmpty
        && w.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_=./:%,@+".unicodeScalars.contains($0))
        }
    return safe ? w : "'" + escapedForMessage(w, limit: 4096).replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Words as one pasteable shell line.
func shellLine(_ words: [String]) -> String { words.map(shellWord).joined(separator: " ") }

extension SlurmPlan {
    /// What the plan submits, for the terminal.
    func summary(maxArraySize: Int, maxSubmit: Int? = nil) -> String {
        if complete { return "nothing to submit: all \(units) units have a result and the report is written" }
        if pendingShards.isEmpty { return "\(units) units in \(shards) shards, all with their results; submitting the merge alone" }
        let head =
            "\(units) units in \(shards) shards of about \(max(1, (units + shards - 1) / shards)) units; \(pendingShards.count) shards "
            + "(\(pendingUnits) units) to run in \(arrays.count) array\(arrays.count == 1 ? "" : "s") (MaxArraySize \(maxArraySize))"
        guard !deferredShards.isEmpty, let maxSubmit else { return head + ", then the merge" }
        return head + "; \(deferredShards.count) more shards and the merge exceed MaxSubmitJobs \(maxSubmit): "
            + "run this command again when these have finished"
    }
}
