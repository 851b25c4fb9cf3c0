import Foundation
import Testing

/// `navbench run SPEC --slurm … --dry-run` (issue 32, item 1): exact output, nothing written; the
/// flags' rules; `--shard-from-array` outside an array task. The scheduler itself runs the
/// submissions in scripts/check_slurm_shards.sh.
@Suite struct SlurmCLITests {
    @Test func dryRunPrintsTheSbatchLines() throws {
        let dir = NSTemporaryDirectory() + "nb-slurm-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = dir + "/s.yaml"
        try """
        name: sl
        inputs:
          - \(repoRoot)/Datasets/R1-corridor_*.h5
        output: \(dir)/out
        sweep:
          rdp_tolerance: [0.3, 1.0]
        calibration: [mean, circmean]
        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let r = try navbench(["run", spec, "--slurm", "--max-array", "3", "--runs-per-task", "4", "--time", "10:00", "--dry-run"])
        #expect(r.status == 0 && r.err.isEmpty)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "14 units in 4 shards of about 4 units; 4 shards (14 units) to run in 2 arrays (MaxArraySize 3), then the merge")
        #expect(lines.count == 4)
        for (k, offset) in [(1, 0), (2, 2)] {
            #expect(
                lines[k].hasPrefix(
                    "sbatch --parsable --cpus-per-task=1 --time=10:00 --job-name=navbench-sl --output=\(dir)/out/slurm/slurm-%A_%a.out --array=1-2 --signal=B:USR1@90 --requeue --open-mode=append '--wrap=exec "
                ))
            #expect(lines[k].hasSuffix(" run \(spec) --shard-from-array \(offset)/4 --jobs 1 --quiet'"))
        }
        #expect(lines[3].hasPrefix("sbatch --parsable '--dependency=afterok:<array 1>:<array 2>' --time=10:00 --job-name=navbench-sl-merge"))
        #expect(lines[3].hasSuffix(" merge \(spec)'"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))  // a dry run writes nothing
        // Lines to paste are shell-quoted word by word; control bytes never reach them (issue 50, item 16).
        let quoted = try navbench(["run", spec, "--slurm", "--max-array", "3", "--runs-per-task", "4", "--partition", "a>x;$(id)", "--dry-run"])
        #expect(quoted.status == 0 && quoted.out.contains(" '--partition=a>x;$(id)' ") && !quoted.out.contains(" --partition=a>x"), "\(quoted.out)")
        let control = try navbench(["run", spec, "--slurm", "--partition", "a\u{1B}]0;x\u{07}", "--dry-run"])
        #expect(control.status == 64 && !control.err.contains("\u{1B}") && control.err.contains("printable ASCII"), "\(control.err)")
        // Under --max-submit 3: three of the four shards, no merge, and what to do next.
        let limited = try navbench(["run", spec, "--slurm", "--max-array", "3", "--runs-per-task", "4", "--max-submit", "3", "--dry-run"])
        let limitedLines = limited.out.split(separator: "\n").map(String.init)
        #expect(limited.status == 0 && limitedLines.count == 3)
        #expect(
            limitedLines.first
                == "14 units in 4 shards of about 4 units; 3 shards (14 units) to run in 2 arrays (MaxArraySize 3); "
                + "1 more shards and the merge exceed MaxSubmitJobs 3: run this command again when these have finished")
        #expect(limitedLines[2].contains("--array=1 ") && !limited.out.contains("navbench-sl-merge"))
    }

    /// The tasks' log folder inside the output folder is never a planted link: refused before sbatch runs.
    @Test func aPlantedLogLinkIsRefused() throws {
        let dir = NSTemporaryDirectory() + "nb-slurm-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/out/slurm", withDestinationPath: "/tmp")
        let spec = dir + "/s.yaml"
        try "name: sl\ninputs:\n  - \(repoRoot)/Datasets/R1-corridor_*.h5\noutput: \(dir)/out\nsweep:\n  rdp_tolerance: [0.3]\n"
            .write(toFile: spec, atomically: true, encoding: .utf8)
        let r = try navbench(["run", spec, "--slurm", "--max-array", "8"])
        #expect(r.status == 73)
        #expect(r.err.contains("\(dir)/out/slurm: exists and is not a folder (a symbolic link or a file); remove it"))
    }

    @Test func flagsAreCheckedBeforeAnythingRuns() throws {
        let spec = repoRoot + "/Experiments/default.yaml"
        for (args, message) in [
            (["--partition", "short"], "--partition applies with --slurm"),
            (["--slurm", "--shard", "1/2"], "--slurm plans the shards itself; leave out --shard, --shard-from-array and --print-config"),
            (["--slurm", "--runs-per-task", "0"], "--runs-per-task must be from 1 to 10000000, got 0"),
            (["--slurm", "--time", "1 day"], "--time '1 day': expected one word of printable ASCII, at most 128 characters"),
            (["--shard-from-array", "3/3"], "--shard-from-array 3/3: expected OFFSET/N with 0 ≤ OFFSET < N ≤ 1000000"),
        ] {
            let r = try navbench(["run", spec] + args)
            #expect(r.status == 64, "\(args)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
        let outside = try navbench(["run", spec, "--shard-from-array", "0/3", "--quiet"])
        #expect(outside.status != 0 && outside.err.contains("--shard-from-array needs SLURM_ARRAY_TASK_ID (set in a Slurm array task)"))
    }
}

/// `import ipin`: a record type from the file is echoed in a note, escaped (never raw control bytes on a terminal).
@Suite struct IPINImportCLITests {
    @Test func notesFromTheFileAreEscaped() throws {
        let dir = try scratchFolder("ipin")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "POSI;1.0;1;49.46;11.11;0;100\n\u{1B}[2J;1;2\n".write(toFile: dir + "/log.txt", atomically: true, encoding: .utf8)
        let r = try navbench(["import", "ipin", dir + "/log.txt", "--out", dir + "/t.h5"])
        #expect(r.status == 0)
        #expect(r.err.contains("rows without a stream in trace format v1, not imported: "))
        #expect(!r.err.contains("\u{1B}"))
    }
}
