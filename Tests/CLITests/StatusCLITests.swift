import Foundation
import Testing

/// `navbench status` (issue 32, item 3): per shard the units done, failed and missing, whether
/// the merge ran, and an exit code a script can branch on (3: run what is missing, then merge; 0:
/// complete), exact output; it writes nothing into the run folder.
@Suite struct StatusCLITests {
    @Test func statusFollowsAShardedRunToItsMerge() throws {
        let dir = NSTemporaryDirectory() + "nb-status-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = dir + "/s.yaml"
        try """
        name: st
        inputs:
          - \(repoRoot)/Datasets/R1-corridor_*.h5
        output: \(dir)/out
        sweep:
          rdp_tolerance: [0.3, 1.0]
        calibration: [mean, circmean]
        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let none = try navbench(["status", spec])
        #expect(none.status == 3 && none.err.isEmpty)
        #expect(
            none.out == """
                shard 1 of 1 (results.sqlite): no store yet; 0 of 14 units done, 0 failed, 14 missing
                report: not written yet
                incomplete: 14 of 14 units missing, in shard 1

                """)
        #expect(try navbench(["run", spec, "--shard", "2/3", "--quiet"]).status == 0)
        // SQLite's own -shm/-wal files of a WAL store aside (a reader needs them), status writes nothing.
        func listing() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: dir + "/out").filter { !$0.hasSuffix("-shm") && !$0.hasSuffix("-wal") }.sorted()
        }
        let before = try listing()
        let store = try Data(contentsOf: URL(fileURLWithPath: dir + "/out/results.shard-2-of-3.sqlite"))
        let partial = try navbench(["status", spec])
        #expect(partial.status == 3)
        #expect(
            partial.out == """
                shard 1 of 3 (results.shard-1-of-3.sqlite): no store yet; 0 of 4 units done, 0 failed, 4 missing
                shard 2 of 3 (results.shard-2-of-3.sqlite): 5 of 5 units done, 0 failed, 0 missing
                shard 3 of 3 (results.shard-3-of-3.sqlite): no store yet; 0 of 5 units done, 0 failed, 5 missing
                merge: not run
                incomplete: 9 of 14 units missing, in shards 1, 3

                """)
        #expect(try listing() == before, "status writes nothing")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/out/results.shard-2-of-3.sqlite")) == store)
        for k in [1, 3] { #expect(try navbench(["run", spec, "--shard", "\(k)/3", "--quiet"]).status == 0) }
        let unmerged = try navbench(["status", spec])
        #expect(unmerged.status == 3 && unmerged.out.hasSuffix("merge: not run\ncomplete: every unit has a result; run navbench merge\n"))
        let merge = try navbench(["merge", spec])
        #expect(merge.status == 0 && !merge.out.contains("unchanged"), "\(merge.out)")
        // Merge exactly once (issue 32, item 4): a second merge of the same stores says so.
        let again = try navbench(["merge", spec])
        #expect(again.status == 0 && again.out.contains("(unchanged: these shard stores were merged before"), "\(again.out)")
        let done = try navbench(["status", spec])
        #expect(done.status == 0 && done.out.hasSuffix("merge: done\ncomplete\n"), "\(done.out)")
        let bad = try navbench(["status", spec, "--shards", "0"])
        #expect(bad.status == 64 && bad.err == "navbench: error: --shards must be from 1 to 1000000, got 0\n")
        // A planted store name claiming 10^12 shards is no shard store: it sizes nothing, the status stands.
        try Data().write(to: URL(fileURLWithPath: dir + "/out/results.shard-1-of-999999999999.sqlite"))
        let planted = try navbench(["status", spec])
        #expect(planted.status == 0 && planted.out == done.out, "\(planted.out) \(planted.err)")
    }
}
