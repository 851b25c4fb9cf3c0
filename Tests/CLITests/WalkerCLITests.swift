import Foundation
import Testing

/// `navbench simulate --write-traces`, `walker fit` and `walker recover` (issue 30, item 2).
@Suite(.serialized) struct WalkerCLITests {
    static let walker = "cane:speed=0.72,reaction_time=1.7,over_rotation_slight=9,step_direction_std=2.1"

    /// `--write-traces` never replaces a file and never leaves a partial set (issue 50, items 8 and
    /// 10): a folder holding files (the recording itself among them) or '' is refused before
    /// anything runs; a successful write leaves no staging folder beside the traces.
    @Test func writtenTracesNeverReplaceFilesOrStayPartial() throws {
        let dir = NSTemporaryDirectory() + "navbench-traces-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: repoRoot + "/Datasets/R2-turns_recording.h5", toPath: dir + "/in/route.h5")
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/in/route.h5"))
        for folder in [dir + "/in", ""] {
            let r = try navbench(["simulate", dir + "/in/route.h5", "--walls", "none", "--runs", "2", "--write-traces", folder])
            #expect(r.status == 64 && r.err.split(separator: "\n").count == 1 && r.err.contains("--write-traces"), "\(r.err)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/in/route.h5")) == before)
        let ok = try navbench(["simulate", dir + "/in/route.h5", "--walls", "none", "--runs", "2", "--write-traces", dir + "/out"])
        #expect(ok.status == 0, "\(ok.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["in", "out"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted() == ["route.h5", "walk-00000.h5", "walk-00001.h5"])
    }

    /// Simulated walks written as sessions are fitted back from the files: the issue's values
    /// inside their CIs (speed within 5 %, the others within 15 %); the fitted walker written as
    /// a profile file walks again through --walker @FILE; an unreadable session is one error
    /// line naming it, the others are fitted, exit 1.
    @Test func writtenWalksAreFittedBackFromTheFiles() throws {
        let dir = NSTemporaryDirectory() + "navbench-walker-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sim = try navbench(
            [
                "simulate", "Datasets/R2-turns_recording.h5", "--walker", Self.walker, "--walls", "none", "--runs", "30", "--seed", "1",
                "--write-traces", dir + "/walks", "--json",
            ], cwd: repoRoot)
        #expect(sim.status == 0, "\(sim.err)")
        #expect(try JSONSerialization.jsonObject(with: Data(sim.out.utf8)) is [String: Any], "stdout stays the JSON report")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/walks").sorted()
        #expect(files.count == 31 && files.first == "route.h5" && files.last == "walk-00029.h5")
        let walks = files.dropFirst().map { dir + "/walks/" + $0 }
        let fit = try navbench(["walker", "fit", dir + "/walks/route.h5"] + walks + ["--json", "--out", dir + "/fitted.yaml"], cwd: repoRoot)
        #expect(fit.status == 0, "\(fit.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(fit.out.utf8)) as? [String: Any])
        #expect(json["walks"] as? Int == 30)
        let estimates = try #require(json["estimates"] as? [[String: Any]])
        for (key, truth, within) in [
            ("speed", 0.72, 0.05), ("reaction_time", 1.7, 0.15), ("over_rotation_slight", 9.0, 0.15), ("step_direction_std", 2.1, 0.15),
        ] {
            let e = try #require(estimates.first { $0["key"] as? String == key }, "\(key)")
            let value = try #require(e["value"] as? Double), low = try #require(e["low"] as? Double), high = try #require(e["high"] as? Double)
            #expect(abs(value - truth) <= within * truth, "\(key) \(value)")
            #expect(low - 1e-9 <= truth && truth <= high + 1e-9, "\(key) [\(low), \(high)]")
            #expect((e["n"] as? Int ?? 0) > 0)
        }
        // The same files measured as real walks (their annotations and IMU): a cane walker's gait, n = 30 runs.
        let gait = try navbench(["walker", "fit", "--imu"] + walks + ["--json"], cwd: repoRoot)
        #expect(gait.status == 0, "\(gait.err)")
        let communities = try #require(
            (try JSONSerialization.jsonObject(with: Data(gait.out.utf8)) as? [String: Any])?["communities"] as? [[String: Any]])
        #expect(communities.map { $0["aid"] as? String } == ["cane"])
        let cadence = try #require((communities[0]["estimates"] as? [[String: Any]])?.first { $0["key"] as? String == "cadence" })
        #expect(cadence["n"] as? Int == 30)
        let again = try navbench(
            ["simulate", "Datasets/R2-turns_recording.h5", "--walker", "@" + dir + "/fitted.yaml", "--walls", "none", "--runs", "2"], cwd: repoRoot)
        #expect(again.status == 0, "\(again.err)")
        try Data("not a trace".utf8).write(to: URL(fileURLWithPath: dir + "/broken.h5"))
        let partial = try navbench(["walker", "fit", dir + "/walks/route.h5", dir + "/broken.h5"] + walks.prefix(5), cwd: repoRoot)
        #expect(partial.status == 1)
        #expect(partial.err.split(separator: "\n").count == 1 && partial.err.contains("broken.h5"), "\(partial.err)")
        #expect(partial.out.hasPrefix("walker fit: 5 walks along "), "\(partial.out)")
    }

    @Test func recoverPrintsOneRowPerParameterAndBoundsItsWork() throws {
        let r = try navbench(
            ["walker", "recover", "Datasets/R2-turns_recording.h5", "--walker", Self.walker, "--seeds", "2", "--runs", "10"], cwd: repoRoot)
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("parameter recovery: 2 repetitions of 10 walks of cane:") == true)
        #expect(lines.contains { $0.hasPrefix("speed ") && $0.contains("2 of 2") })
        for bad in [["--seeds", "0"], ["--runs", "1"], ["--seeds", "1000", "--runs", "1000"], ["--walker", "wheelchair"]] {
            let b = try navbench(["walker", "recover", "Datasets/R2-turns_recording.h5"] + bad, cwd: repoRoot)
            #expect(b.status == 64 && b.err.split(separator: "\n").count == 1, "\(bad): \(b.err)")
        }
    }
}
