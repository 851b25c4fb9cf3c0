import Foundation
import Testing

@testable import NavPipeline

/// `planSlurmSweep` (issue 32, item 1): shards packed into arrays the site allows, the sbatch
/// lines, and a resubmission that plans only the shards whose units are missing. The real
/// scheduler runs them in scripts/check_slurm_shards.sh.
@Suite struct SlurmSweepTests {
    @Test func shardsArePackedBelowMaxArraySize() {
        // MaxArraySize 8: indices 1…7 per array.
        let a = packShards(Array(1...20), maxArraySize: 8)
        #expect(a.map(\.offset) == [0, 7, 14])
        let expectedIndices: [[Int]] = [Array(1...7), Array(1...7), Array(1...6)]
        #expect(a.map(\.indices) == expectedIndices)
        #expect(a.flatMap(\.shards) == Array(1...20))
        // A resubmission of a few shards far apart: one array while they fit, a new one after.
        let b = packShards([3, 5, 9, 30], maxArraySize: 8)
        #expect(b.map(\.shards) == [[3, 5, 9], [30]] && b[0].indices == [1, 3, 7])
        #expect(arrayRanges([1, 2, 3, 5, 7, 8]) == "1-3,5,7-8")
        #expect(packShards([], maxArraySize: 8).isEmpty)
    }

    /// The words of `--wrap` reach the program unchanged through the shell sbatch runs them with.
    @Test func wrapWordsSurviveTheShell() throws {
        let words = ["/opt/nav bench/navbench", "it's", "$HOME", "a\"b", "x;y", "*", "", "--out", "/tmp/a b", "plain/path-1.yaml", "é"]
        let sh = Process()
        sh.executableURL = URL(fileURLWithPath: "/bin/sh")
        sh.arguments = ["-c", "for w in " + shellWords(words) + "; do printf '[%s]\\n' \"$w\"; done"]
        let pipe = Pipe()
        sh.standardOutput = pipe
        try sh.run()
        sh.waitUntilExit()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(out == words.map { "[\($0)]\n" }.joined())
    }

    @Test func aResubmissionPlansOnlyTheMissingShards() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = try ExperimentSpec.parse(
            "name: s\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(dir)/out\nsweep:\n  rdp_tolerance: [0.3, 1.0]\n  registration: [gravity-aligned, full]\n",
            file: "s.yaml")
        var options = SlurmOptions(logFolder: dir + "/logs")
        options.unitsPerTask = 1
        options.maxArraySize = 3
        let plan = try planSlurmSweep(
            spec, options: options, navbench: "/bin/nb", taskArguments: ["run", "s.yaml"], mergeArguments: ["merge", "s.yaml"])
        #expect(plan.units == plan.shards && plan.pendingShards == Array(1...plan.shards) && plan.shards >= 4)
        #expect(plan.arrays.count == (plan.shards + 1) / 2)
        #expect(plan.arrayArguments[0].contains("--array=1-2"))
        #expect(plan.arrayArguments[1].last == "--wrap=exec /bin/nb run s.yaml --shard-from-array 2/\(plan.shards) --jobs 1 --quiet")
        #expect(
            plan.mergeArguments == [
                [
                    "--parsable", "--job-name=navbench-s-merge", "--kill-on-invalid-dep=yes", "--output=\(dir)/logs/slurm-%j.out",
                    "--wrap=exec /bin/nb merge s.yaml",
                ]
            ])
        // Under MaxSubmitJobs 3 (tasks and merge all count): the first 3 shards alone, no merge;
        // with room for every task and the merge, all of them.
        options.maxSubmit = 3
        let limited = try planSlurmSweep(spec, options: options, navbench: "/bin/nb", taskArguments: ["run"], mergeArguments: ["merge"])
        #expect(limited.pendingShards == [1, 2, 3] && limited.deferredShards == Array(4...plan.shards))
        #expect(limited.mergeArguments.isEmpty && limited.arrays.flatMap(\.shards) == [1, 2, 3])
        options.maxSubmit = plan.shards + 1
        let roomy = try planSlurmSweep(spec, options: options, navbench: "/bin/nb", taskArguments: ["run"], mergeArguments: ["merge"])
        #expect(roomy.pendingShards == plan.pendingShards && roomy.deferredShards.isEmpty && roomy.mergeArguments.count == 1)
        options.maxSubmit = nil
        // Shards 1 and 3 run (as their array tasks would): only the others are planned again,
        // with the shard count their stores name even when the units per task change.
        for k in [1, 3] { _ = try runExperiment(spec, workers: 1, shard: k, shards: plan.shards, command: "test") }
        options.unitsPerTask = 100
        let again = try planSlurmSweep(spec, options: options, navbench: "/bin/nb", taskArguments: ["run"], mergeArguments: ["merge"])
        #expect(again.shards == plan.shards)
        #expect(again.pendingShards == [2] + Array(4...plan.shards))
        #expect(again.pendingUnits == plan.units - 2)
        for k in [2] + Array(4...plan.shards) { _ = try runExperiment(spec, workers: 1, shard: k, shards: plan.shards, command: "test") }
        let merge = try planSlurmSweep(spec, options: options, navbench: "/bin/nb", taskArguments: ["run"], mergeArguments: ["merge"])
        #expect(merge.pendingShards.isEmpty && merge.arrayArguments.isEmpty && merge.mergeArguments.count == 1 && !merge.complete)
        _ = try mergeExperiment(spec, command: "test")
        #expect(try planSlurmSweep(spec, options: options, navbench: "/bin/nb", taskArguments: [], mergeArguments: []).complete)
    }
}
