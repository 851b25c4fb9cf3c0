import Foundation
import NavCore
import NavIO
import Subprocess
import Synchronization
import SystemPackage

// `navbench run SPEC --slurm` (issue 32, item 1): a sweep as Slurm job arrays — planned here
// (which shards, packed into arrays the site allows, the sbatch lines), submitted with sbatch
// started directly (no shell: swift-subprocess), the merge after every array (afterok).
// Running the same command again submits only the shards whose units are not all in their stores.

/// What a Slurm submission may use: the site's limits and the task's resources.
public struct SlurmOptions: Sendable, Equatable {
    /// Units (replay runs, cells, calibration units, …) a task computes at most: the sweep is cut
    /// into ⌈units / unitsPerTask⌉ shards, so an allocation lasts minutes, not seconds.
    public var unitsPerTask = 500
    /// `scontrol show config`'s MaxArraySize: array indices run 0…MaxArraySize − 1.
    public var maxArraySize = 1_001
    public var partition: String?
    public var cpusPerTask = 1
    /// Slurm's `--time` of each task (e.g. `30:00`); nil: the partition's default.
    public var time: String?
    /// Jobs this submission may queue at once (MaxSubmitJobs of the user's association or QOS;
    /// each array task counts as one job): nil, no limit. When the pending tasks and the merge
    /// exceed it, the first `maxSubmit` pending shards are submitted without the merge, and the
    /// same command, run again when they have finished, submits the rest.
    public var maxSubmit: Int?
    /// Where Slurm writes each task's output (`slurm-%A_%a.out`) and the merge's.
    public var logFolder: String
    public init(logFolder: String) { self.logFolder = logFolder }
}

/// The sbatch lines of a sweep: one per array (the pending shards, packed), then the merge.
public struct SlurmPlan: Sendable, Equatable {
    /// Shards of the sweep (`--shard K/N`): N.
    public var shards: Int
    /// Units of the sweep, and of the shards not yet complete.
    public var units: Int, pendingUnits: Int
    /// The shards to run (1-based, ascending): those with units missing from their stores.
    public var pendingShards: [Int]
    /// Pending shards left for a later submission (`SlurmOptions.maxSubmit`), ascending.
    public var deferredShards: [Int] = []
    /// The arrays the pending shards are packed into, in order.
    public var arrays: [SlurmArray]
    /// sbatch's arguments of each array (without the program name), in order.
    public var arrayArguments: [[String]]
    /// sbatch's arguments of the merge, without its dependency (added when the arrays' ids are known).
    public var mergeArguments: [[String]]
    /// Whether the report is already written from every unit (nothing to submit).
    public var complete: Bool
}

/// One job array: task i (an index of `indices`) runs shard `offset` + i.
public struct SlurmArray: Sendable, Equatable {
    public var offset: Int
    public var indices: [Int]
    /// The shards its tasks run.
    public var shards: [Int] { indices.map { offset + $0 } }
}

/// A Slurm submission that cannot be planned or made, one line.
public struct SlurmError: Error, CustomStringConvertible, Sendable, Equatable {
    public var problem: String
    public var description: String { problem }
}

/// Plans `spec`'s sweep on Slurm. The shard count is ⌈units / `unitsPerTask`⌉, or the count the
/// output folder's shard stores already name (a resubmission keeps its stores); the pending
/// shards (`experimentStatus`: units missing) are packed into arrays whose indices stay below
/// MaxArraySize (task i of an array with offset o runs shard o + i). `taskCommand` is the
/// navbench command a task runs given `--shard-from-array O/N` (its arguments after the program);
/// `mergeCommand` the merge's. Nothing is submitted.
///
/// - Throws: `SlurmError` (options out of range), or what `experimentStatus` throws.
/// - Complexity: O(units) store lookups.
public func planSlurmSweep(
    _ spec: ExperimentSpec, options: SlurmOptions, navbench: String, taskArguments: [String], mergeArguments merge: [String],
    readPolicy: HDF5ReadPolicy = .standard, kinds: [any ExperimentKind] = ExperimentKinds.standard
) throws -> SlurmPlan {
    guard (1...10_000_000).contains(options.unitsPerTask) else {
        throw SlurmError(problem: "--runs-per-task must be 1 to 10,000,000, got \(options.unitsPerTask)")
    }
    guard options.maxArraySize >= 2 else { throw SlurmError(problem: "MaxArraySize must be at least 2, got \(options.maxArraySize)") }
    if let m = options.maxSubmit, m < 1 { throw SlurmError(problem: "MaxSubmitJobs must be at least 1, got \(m)") }
    let existing = shardCounts(spec)
    guard existing.count <= 1 else {
        throw SlurmError(
            problem: "\(escapedForMessage(spec.output)) holds shard stores of \(existing.sorted().map(String.init).joined(separator: ", ")) shards; "
                + "remove the stores of the other split, or give another --out")
    }
    let plan = planExperiment(spec, readPolicy: readPolicy)
    let units = unitBlocks(kinds.map { $0.plan(plan) }).map(\.count).reduce(0, +)
    let shards = existing.first ?? min(maxShards, max(1, (units + options.unitsPerTask - 1) / options.unitsPerTask))
    let status = try experimentStatus(spec, shards: shards, readPolicy: readPolicy, kinds: kinds)
    let allPending = status.shards.filter { $0.missing > 0 }.map(\.shard)
    // Under MaxSubmitJobs: every pending task and the merge, or the first tasks alone.
    let fits = options.maxSubmit.map { allPending.count + 1 <= $0 } ?? true
    let pending = fits ? allPending : Array(allPending.prefix(options.maxSubmit!))
    let arrays = packShards(pending, maxArraySize: options.maxArraySize)
    var common = ["--parsable", "--cpus-per-task=\(options.cpusPerTask)"]
    if let p = options.partition { common.append("--partition=\(p)") }
    if let t = options.time { common.append("--time=\(t)") }
    let name = "navbench-" + String(spec.name.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }.prefix(40))
    let logs = options.logFolder
    let arrayArguments = arrays.enumerated().map { i, a in
        common + [
            "--job-name=\(name)", "--output=\((logs as NSString).appendingPathComponent("slurm-%A_%a.out"))",
            "--array=\(arrayRanges(a.indices))", "--signal=B:USR1@90", "--requeue", "--open-mode=append",
            "--wrap=exec "
                + shellWords(
                    [navbench] + taskArguments + ["--shard-from-array", "\(a.offset)/\(shards)", "--jobs", "\(options.cpusPerTask)", "--quiet"]),
        ]
    }
    let mergeLine =
        common.filter { !$0.hasPrefix("--cpus-per-task") } + [
            // A task that fails for good leaves afterok unsatisfiable: Slurm then cancels the merge
            // instead of leaving it pending forever (rerunning the command resubmits both).
            "--job-name=\(name)-merge", "--kill-on-invalid-dep=yes", "--output=\((logs as NSString).appendingPathComponent("slurm-%j.out"))",
            "--wrap=exec " + shellWords([navbench] + merge),
        ]
    let complete = allPending.isEmpty && status.merged
    return SlurmPlan(
        shards: shards, units: units, pendingUnits: status.shards.map(\.missing).reduce(0, +), pendingShards: pending,
        deferredShards: Array(allPending.dropFirst(pending.count)), arrays: arrays, arrayArguments: arrayArguments,
        mergeArguments: complete || !fits ? [] : [mergeLine], complete: complete)
}

/// Packs ascending shard numbers into arrays: each starts at offset o = (its first shard) − 1 and
/// holds the shards s with s − o ≤ MaxArraySize − 1 (Slurm's largest index).
///
/// Complexity: O(shards).
func packShards(_ shards: [Int], maxArraySize: Int) -> [SlurmArray] {
    var out: [SlurmArray] = []
    for s in shards {
        if let last = out.last, s - last.offset <= maxArraySize - 1 {
            out[out.count - 1].indices.append(s - last.offset)
        } else {
            out.append(SlurmArray(offset: s - 1, indices: [1]))
        }
    }
    return out
}

/// Ascending integers as ranges: runs of consecutive ones as `a-b`, joined by `separator`
/// (sbatch's `--array` list with ","; "1-7, 9" for people).
public func arrayRanges(_ indices: [Int], separator: String = ",") -> String {
    var parts: [String] = []
    var i = 0
    while i < indices.count {
        var j = i
        while j + 1 < indices.count && indices[j + 1] == indices[j] + 1 { j += 1 }
        parts.append(i == j ? "\(indices[i])" : "\(indices[i])-\(indices[j])")
        i = j + 1
    }
    return parts.joined(separator: separator)
}

/// Words quoted for the POSIX shell that runs sbatch's `--wrap`: a word of letters, digits and
/// `_ . / : = % @ , + -` as it is, any other in single quotes (a quote inside as '\''), so a path
/// with spaces or `$` stays one word and nothing is expanded.
func shellWords(_ words: [String]) -> String {
    words.map { w in
        !w.isEmpty
            && w.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_./:=%@,+-".unicodeScalars.contains($0)) })
            ? w : "'" + w.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }.joined(separator: " ")
}

/// What a submission submitted: each array's job id, and the merge's.
public struct SlurmSubmission: Sendable, Equatable {
    public var arrayJobs: [String]
    public var mergeJob: String?
}

/// Submits `plan`: each array with `sbatch` (started directly, no shell), then the merge with
/// `--dependency=afterok:` every array's id (none when no array is pending: the merge alone).
///
/// - Throws: `SlurmError` naming the sbatch line that failed and its last error line.
public func submitSlurmSweep(_ plan: SlurmPlan, sbatch: String = "sbatch") throws -> SlurmSubmission {
    var ids: [String] = []
    for args in plan.arrayArguments { ids.append(try runSbatch(sbatch, args)) }
    guard let merge = plan.mergeArguments.first else { return SlurmSubmission(arrayJobs: ids, mergeJob: nil) }
    let dependency = ids.isEmpty ? [] : ["--dependency=afterok:" + ids.joined(separator: ":")]
    let mergeID = try runSbatch(sbatch, Array(merge.prefix(1)) + dependency + Array(merge.dropFirst()))
    return SlurmSubmission(arrayJobs: ids, mergeJob: mergeID)
}

/// Runs `sbatch ARGS` and returns the job id it prints (`--parsable`: `ID` or `ID;cluster`).
private func runSbatch(_ sbatch: String, _ args: [String]) throws -> String {
    let r = try runProgram(sbatch, args)
    guard r.status == 0 else {
        throw SlurmError(problem: "sbatch failed (exit \(r.status)): \(r.errorLastLine.isEmpty ? r.output : r.errorLastLine)")
    }
    let id = r.output.split(whereSeparator: \.isNewline).last.map { String($0.split(separator: ";").first ?? "") } ?? ""
    guard !id.isEmpty, id.allSatisfy(\.isNumber) else { throw SlurmError(problem: "sbatch printed no job id ('\(r.output.prefix(80))')") }
    return id
}

/// The user's MaxSubmitJobs: the smallest limit `sacctmgr` shows for the user's associations
/// (`MaxSubmit`) and their QOS (`MaxSubmitPU`); nil when none is set or sacctmgr cannot be run
/// (a cluster without accounting has no such limit).
public func slurmMaxSubmitJobs(sacctmgr: String = "sacctmgr", user: String) -> Int? {
    guard !user.isEmpty, user.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) }) else { return nil }
    var limits: [Int] = []
    for args in [["-nP", "show", "assoc", "where", "user=\(user)", "format=MaxSubmit"], ["-nP", "show", "qos", "format=MaxSubmitPU"]] {
        guard let r = try? runProgram(sacctmgr, args), r.status == 0 else { continue }
        for line in r.output.split(whereSeparator: \.isNewline) {
            if let n = Int(line.trimmingCharacters(in: .whitespaces)), n >= 1 { limits.append(n) }
        }
    }
    return limits.min()
}

/// Slurm's MaxArraySize (`scontrol show config`); nil when it cannot be read.
public func slurmMaxArraySize(scontrol: String = "scontrol") -> Int? {
    guard let r = try? runProgram(scontrol, ["show", "config"]), r.status == 0 else { return nil }
    for line in r.output.split(whereSeparator: \.isNewline) {
        let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, parts[0] == "MaxArraySize", let n = Int(parts[1]), n >= 1 { return n }
    }
    return nil
}

/// Runs a program (a name found on PATH, or a path) with `arguments`, no shell; its exit status,
/// standard output and the last line of its standard error (each at most 1 MiB).
func runProgram(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String, errorLastLine: String) {
    let result = Mutex<Result<(Int32, String, String), any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
    let args = Arguments(arguments)
    Task {
        do {
            let r = try await run(executable, arguments: args, output: .string(limit: 1 << 20), error: .string(limit: 1 << 20))
            let status: Int32
            switch r.terminationStatus {
            case .exited(let code): status = code
            case .signaled(let signal): status = 128 + signal
            }
            let err = r.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
            result.withLock { $0 = .success((status, r.standardOutput, err)) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    switch result.withLock({ $0 })! {
    case .success(let r): return r
    case .failure(let error):
        throw SlurmError(problem: "cannot run \(program): \(String(describing: error).split(separator: "\n").first ?? "")")
    }
}
