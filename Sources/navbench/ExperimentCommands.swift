import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavPipeline
import NavReport
import Synchronization

/// `--max-configurations`: the spec limits of every command that reads a spec (run, merge,
/// compare, export-notebook), so a spec run with a raised limit can be merged and compared.
struct SpecLimitOptions: ParsableArguments {
    @Option(help: "Most sweep configurations accepted (default 10000); the grid is counted before it is built.")
    var maxConfigurations: Int?

    func validate() throws {
        if let m = maxConfigurations, !(1...10_000_000).contains(m) {
            throw ValidationError("--max-configurations must be from 1 to 10000000, got \(m)")
        }
    }

    var limits: SpecLimits { maxConfigurations.map { SpecLimits(maxConfigurations: $0) } ?? .standard }
}

/// `NAVBENCH_TRACE_MEMORY=1`: print the resident set size at each phase of run and merge.
var tracingMemoryRequested: Bool { ProcessInfo.processInfo.environment["NAVBENCH_TRACE_MEMORY"] == "1" }

/// Progress of every phase of a run or merge (guidance runs, closed-loop cells, result-kind units,
/// plot runs, statistics tables): on a terminal's standard error a bar with ETA; when standard
/// error is not a terminal (a log, CI), one line per phase as it ends ("navbench: note: guidance
/// runs: 504 done in 12 s"); nothing when quiet.
func progressBar(quiet: Bool) -> ProgressHandler? {
    guard !quiet else { return nil }
    let terminal = isatty(2) != 0 && ProcessInfo.processInfo.environment["CI"] == nil
    let phaseStart = Mutex((phase: "", start: Date()))
    return { p in
        let start = phaseStart.withLock { s in
            if s.phase != p.phase { s = (p.phase, Date()) }
            return s.start
        }
        let elapsed = Date().timeIntervalSince(start)
        guard terminal else {
            if p.done == p.total {
                FileHandle.standardError.write(Data("navbench: note: \(p.phase): \(p.total) done in \(Int(elapsed.rounded())) s\n".utf8))
            }
            return
        }
        let width = 30, filled = p.total == 0 ? width : width * p.done / p.total
        let eta = p.done == 0 ? 0 : elapsed / Double(p.done) * Double(p.total - p.done)
        let line =
            "\r\(p.phase) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            + "] \(p.done)/\(p.total) ETA \(Int(eta.rounded())) s "
        FileHandle.standardError.write(Data((p.done == p.total ? line + "\n" : line).utf8))
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an experiment spec: every (route, navigation session, configuration), in parallel, resumable; write the report.",
        discussion: """
            Schema: docs/experiments.md. Results go into OUTPUT/results.sqlite keyed by input checksums and configuration, so a rerun skips \
            finished jobs. KEY=VALUE overrides any spec key (a sweep dimension by its name: rdp_tolerance=0.6); KEY=a,b sweeps it; \
            --print-config shows the resolved spec without running.
            """)

    @Argument(help: "Experiment spec (YAML).") var spec: String
    @Argument(help: "Overrides KEY=VALUE or KEY=a,b (sweep), e.g. rdp_tolerance=0.3,0.6 wording=six-sector.") var overrides: [String] = []
    @Option(help: "Output folder (default: the spec's output, or Reports/NAME).") var out: String?
    @Option(help: "Parallel jobs (default: all cores).") var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Run only shard K of N (deterministic slice); combine shards with navbench merge.") var shard: String?
    @Option(
        name: .customLong("shard-from-array"),
        help: "Run shard OFFSET + $SLURM_ARRAY_TASK_ID of N (what the tasks of --slurm run).")
    var shardFromArray: String?
    @Flag(help: "No progress bar.") var quiet = false
    @OptionGroup var specLimits: SpecLimitOptions
    @Flag(help: "Print the resolved spec (overrides applied, defaults filled in) as YAML and exit.") var printConfig = false
    @OptionGroup var cluster: SlurmRunOptions

    func validate() throws {
        guard (1...1024).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 1024, got \(jobs)") }
        if let shard { _ = try parseShard(shard) }
        if let shardFromArray { _ = try parseShard(shardFromArray, offset: true) }
        if shard != nil && shardFromArray != nil { throw ValidationError("give --shard or --shard-from-array, not both") }
        if cluster.slurm && (shard != nil || shardFromArray != nil || printConfig) {
            throw ValidationError("--slurm plans the shards itself; leave out --shard, --shard-from-array and --print-config")
        }
        try cluster.check()
    }

    func run() throws {
        var s = try ExperimentSpec.load(spec, overrides: overrides, limits: specLimits.limits)
        if let out { s.output = out }
        if printConfig {
            print(s.resolvedYAML, terminator: "")
            return
        }
        if cluster.slurm {
            try cluster.submit(s, spec: spec, overrides: overrides, out: out, maxConfigurations: specLimits.maxConfigurations)
            return
        }
        let (k, n) = try shardFromArray.map(shardOfArrayTask) ?? shard.map { try parseShard($0) } ?? (1, 1)
        let command = (["navbench run \(spec)"] + overrides).joined(separator: " ") + (out.map { " --out \($0)" } ?? "")
        // SIGTERM or SIGUSR1 (a preempted cluster task): finish and commit the units in flight, stop.
        let stop = StopRequest()
        let signals = stopOnSignals([SIGTERM, SIGUSR1], stop)
        defer { withExtendedLifetime(signals) {} }
        let r: ExperimentOutcome
        do {
            r = try runExperiment(
                s, workers: jobs, shard: k, shards: n, command: command, progress: progressBar(quiet: quiet),
                readPolicy: commandLineReadPolicy,
                tracingMemory: tracingMemoryRequested, stop: stop, machineFacts: gitCommitFact())
        } catch let stopped as ExperimentStopped {
            printError("navbench: \(stopped.description)")
            throw ExitCode(stoppedExitStatus)
        }
        for f in r.failures { printError("navbench: error: \(escapedForMessage(f, limit: 1000))") }
        // Replay runs (kind `guidance`), then the other kinds' units (calibration, proximity, gyroscope filters, APE, cells, …).
        let jobs = r.counts[kind: guidanceResultKind], units = r.counts.excluding(guidanceResultKind)
        let other = units.done + units.failures.count == 0 ? "" : ", \(units.done) other results (\(units.computed) computed)"
        guard let report = r.report else {
            print(
                "shard \(k)/\(n): \(jobs.done) jobs (\(jobs.computed) computed, \(jobs.done - jobs.computed) cached)\(other); combine with: navbench merge \(spec) --out \(s.output)"
            )
            if !r.counts.failures.isEmpty { throw ExitCode(1) }
            return
        }
        print(
            "\(r.plan.jobs.count) jobs (\(jobs.computed) computed, \(r.plan.jobs.count - jobs.computed - jobs.failures.count) cached)\(other), \(r.failures.count) failures; report: \(report.summary)"
        )
        if !r.failures.isEmpty { throw ExitCode(1) }
    }
}

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the shards of a sharded run into the report an unsharded run writes.",
        discussion: """
            Refused while a unit has no result in any shard (its shard did not run or was stopped): one line with the count and \
            the shards, exit 3 (navbench status lists them); --allow-missing writes a partial report listing them as failures.
            """)

    @Argument(help: "Experiment spec (YAML).") var spec: String
    @Argument(help: "The overrides the shards were run with (KEY=VALUE).") var overrides: [String] = []
    @Option(help: "Output folder the shards wrote to (default: the spec's output).") var out: String?
    @Flag(help: "Write a partial report when units have no result (their shards did not run); refused by default.")
    var allowMissing = false
    @OptionGroup var specLimits: SpecLimitOptions

    func run() throws {
        var s = try ExperimentSpec.load(spec, overrides: overrides, limits: specLimits.limits)
        if let out { s.output = out }
        let command = (["navbench run \(spec)"] + overrides).joined(separator: " ") + (out.map { " --out \($0)" } ?? "")
        let r: ExperimentOutcome
        do {
            r = try mergeExperiment(
                s, command: command, readPolicy: commandLineReadPolicy, tracingMemory: tracingMemoryRequested, allowMissing: allowMissing,
                machineFacts: gitCommitFact())
        } catch let e as IncompleteMergeError {
            printErrorLine(e)
            throw ExitCode(3)  // as `status`: run what is missing, then merge
        }
        print(
            "merged \(r.counts[kind: guidanceResultKind].done) of \(r.plan.jobs.count) jobs; report: \(r.report!.summary)"
                + (r.reportUnchanged ? " (unchanged: these shard stores were merged before, and merging again wrote the same report)" : ""))
        for f in r.failures { printError("navbench: error: \(escapedForMessage(f, limit: 1000))") }
        if !r.failures.isEmpty { throw ExitCode(1) }
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Where a (sharded) run stands: per shard its units done, failed and missing, the failures, whether the merge ran.",
        discussion: """
            Reads the run's stores read-only and writes nothing. Exit status: 0 every unit has a result and the merge ran (or \
            the unsharded run wrote its report); 3 units are missing or the merge has not run (run the shards listed, then \
            navbench merge); 1 some units failed (listed), or the spec or a store cannot be read.
            """)

    @Argument(help: "Experiment spec (YAML).") var spec: String
    @Argument(help: "The overrides the run was made with (KEY=VALUE).") var overrides: [String] = []
    @Option(help: "Output folder of the run (default: the spec's output).") var out: String?
    @Option(help: "Shards the run was split into (default: as its shard stores say, else 1).") var shards: Int?
    @OptionGroup var specLimits: SpecLimitOptions

    func validate() throws {
        if let shards, !(1...maxShards).contains(shards) { throw ValidationError("--shards must be from 1 to \(maxShards), got \(shards)") }
    }

    func run() throws {
        var s = try ExperimentSpec.load(spec, overrides: overrides, limits: specLimits.limits)
        if let out { s.output = out }
        let status = try experimentStatus(s, shards: shards, readPolicy: commandLineReadPolicy)
        print(status.text, terminator: "")
        if status.exitCode != 0 { throw ExitCode(status.exitCode) }
    }
}

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two runs' metrics; exit 1 when a metric got worse beyond its tolerance and beyond noise.",
        discussion: """
            BASELINE and CURRENT are run folders or metrics.csv files (pandas-written ones too). Lower is better for errors,
            drift, corrections and false or missed arrivals; higher for agreement, precision, recall and completion; counts like
            instructions never regress. Per route and metric, the runs both tables have are paired, averaged per independent
            unit (route x session x seed: configurations are never replicates), and a regression needs the mean difference to be
            worse beyond the tolerance AND its 95 % bootstrap CI over the units to exclude zero; with fewer than 5 paired units
            the per-row tolerance rule decides (and the table says so), unless the runs' seeds differ: then such routes are
            decided in one pooled row per metric over all routes (sign-flip test, Holm). Closed-loop cells (seeds pooled) regress
            when worse with a Holm-adjusted one-sided p below their share of alpha = 0.05 (Fisher's exact test, Welch's t); the
            closed loop and the pooled rows split alpha, so a rerun with other seeds fails at most 5 % of the time. A row missing
            from CURRENT or a value turned NaN is a regression. Default tolerances per unit: docs/ci.md.
            The table labels a moved metric worse, mixed (runs worse beyond tolerance while the mean improved: still a
            regression), better (a clear improvement) or ok, and names the runs the per-row rule saw move (docs/ci.md, "Labels").
            Exit status: 0 no regression, 1 regression (worse or mixed), 2 an input cannot be read.
            """)

    @Argument(help: "Baseline run folder or metrics.csv.") var baseline: String
    @Argument(help: "Current run folder or metrics.csv.") var current: String
    @Option(help: "Tolerance METRIC=ABS,REL (repeatable); defaults per unit (docs/ci.md).") var tolerance: [String] = []
    @Option(help: "Experiment spec whose compare: section gives tolerances.") var spec: String?
    @Option(help: "Also write the Markdown change table here (same as --markdown).") var out: String?
    @Option(help: "Write the Markdown change table for a CI job summary here.") var markdown: String?
    @Option(help: "Write a JUnit XML report here (one testcase per route and metric).") var junit: String?
    @Option(help: "Bootstrap resamples of the paired CI.") var resamples: Int = 10_000
    @OptionGroup var specLimits: SpecLimitOptions

    func run() throws {
        guard StatisticsOptions.resamplesRange.contains(resamples) else {
            throw ValidationError(
                "--resamples \(resamples): expected \(StatisticsOptions.resamplesRange.lowerBound)…\(StatisticsOptions.resamplesRange.upperBound) (as the spec's statistics.resamples)"
            )
        }
        var tolerances: [String: CompareTolerance] = [:]
        if let spec { tolerances = try ExperimentSpec.load(spec, limits: specLimits.limits).tolerances }
        for t in tolerance {
            let parts = t.split(separator: "=", maxSplits: 1)
            let nums = parts.count == 2 ? parts[1].split(separator: ",", omittingEmptySubsequences: false).map { numberFromText($0) } : []
            guard parts.count == 2, nums.count == 2, let a = nums[0], let r = nums[1],
                let checked = CompareTolerance(checkedAbsolute: a, relative: r)
            else {
                throw ValidationError("--tolerance \(escapedForMessage(t)): expected METRIC=ABS,REL with ABS and REL finite numbers ≥ 0")
            }
            tolerances[String(parts[0])] = checked
        }
        // One library call (a notebook or a test makes the same): replay, result kinds, closed loop.
        let comparison: RunComparison
        do { comparison = try compareRuns(baseline: baseline, current: current, tolerances: tolerances, resamples: resamples) } catch {
            printErrorLine(error)
            throw ExitCode(2)
        }
        for path in [out, markdown, junit] { try checkOutput(path, extraInputs: [runMetricsPath(baseline), runMetricsPath(current)]) }
        // Headline, JUnit failures and exit status all come from `comparison.regressions`.
        let md = comparison.markdown(baselineName: baseline, currentName: current)
        print(md, terminator: "")
        for path in [out, markdown].compactMap({ $0 }) { try writeTextAtomically(md, to: path) }
        if let junit { try writeTextAtomically(comparison.junit(suiteName: "\(current) vs \(baseline)"), to: junit) }
        if comparison.regressions > 0 { throw ExitCode(1) }
    }
}

struct ExportNotebook: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-notebook",
        abstract: "Write a Jupyter notebook that loads a run's metrics.csv with pandas and regenerates its tables and plots.")

    @Argument(help: "Experiment spec (YAML).") var spec: String
    @Option(help: "Notebook path (default Notebooks-export/NAME.ipynb).") var out: String?
    @Option(help: "Path of metrics.csv as the notebook will see it (default: relative to the notebook).") var metrics: String?
    @OptionGroup var specLimits: SpecLimitOptions

    func run() throws {
        let s = try ExperimentSpec.load(spec, limits: specLimits.limits)
        let path = out ?? "Notebooks-export/\(s.name).ipynb"
        try checkOutput(path)
        let folder = parentFolder(of: path)
        let metricsFile =
            metrics ?? relativePath(from: folder.isEmpty ? "." : folder, to: (s.output as NSString).appendingPathComponent("metrics.csv"))
        try writeTextAtomically(experimentNotebook(experiment: s.name, metricsPath: metricsFile, keyMetrics: s.keyMetrics), to: path)
        if path != "-" { print(path) }
    }
}

/// `to` relative to the folder `from` (both relative to the current directory or absolute).
func relativePath(from: String, to: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    func parts(_ p: String) -> [String] {
        URL(fileURLWithPath: p, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL.pathComponents
    }
    let a = parts(from), b = parts(to)
    var i = 0
    while i < min(a.count, b.count) && a[i] == b[i] { i += 1 }
    return (Array(repeating: "..", count: a.count - i) + b[i...]).joined(separator: "/")
}

/// The exit status of a run stopped by SIGTERM or SIGUSR1 after committing what it finished
/// (EX_TEMPFAIL): retryable, e.g. Slurm's `RequeueExit=75` (docs/exit-codes.md).
let stoppedExitStatus: Int32 = 75

/// Dispatch sources that request `stop` on each of `signals` (their default action, ending the
/// process at once, is turned off while the sources live); a note on standard error the first time.
func stopOnSignals(_ signals: [Int32], _ stop: StopRequest) -> [DispatchSourceSignal] {
    signals.map { sig in
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        source.setEventHandler {
            if !stop.isRequested {
                printError("navbench: note: signal \(sig) received: no new unit is started; the units in flight finish and are stored")
            }
            stop.request()
        }
        source.resume()
        return source
    }
}

/// The manifest's `git_commit` fact: `git rev-parse HEAD` in the working directory, when it
/// succeeds (none outside a repository or without git). The library starts no process for it.
func gitCommitFact() -> [String: String] {
    let git = Process()
    git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    git.arguments = ["git", "rev-parse", "HEAD"]
    let pipe = Pipe()
    git.standardOutput = pipe
    git.standardError = FileHandle.nullDevice
    guard (try? git.run()) != nil else { return [:] }
    let sha = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    git.waitUntilExit()
    return git.terminationStatus == 0 ? ["git_commit": sha] : [:]
}
