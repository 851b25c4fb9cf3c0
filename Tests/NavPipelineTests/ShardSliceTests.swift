import Foundation
import NavCore
import NavPipeline
import Testing

/// Issue 16: a shard loads only the inputs its slice of jobs needs, and the merged shards still
/// equal the unsharded run byte for byte.
@Suite(.serialized) struct ShardSliceTests {
    @Test(arguments: [(0, 1), (1, 1), (7, 3), (18, 9), (18, 4), (5, 8), (1_000_003, 50)])
    func blocksCoverEveryJobOnce(count: Int, shards: Int) {
        var seen = 0, sizes: [Int] = []
        for k in 1...shards {
            let r = shardRange(count: count, shard: k, shards: shards)
            #expect(r.lowerBound == seen, "shard \(k)/\(shards) of \(count) starts at \(r.lowerBound), expected \(seen)")
            seen = r.upperBound
            sizes.append(r.count)
        }
        #expect(seen == count)
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
    }

    /// Keys are held as 32 bytes when they are SHA-256 hex, as text otherwise; both read back exactly.
    @Test(arguments: [
        "0123456789abcdef0123456789abcdeffedcba9876543210ffffffffffffffff", String(repeating: "0", count: 64),
        "0123456789ABCDEF0123456789abcdeffedcba9876543210ffffffffffffffff", "k1", "", "é" + String(repeating: "a", count: 63),
    ])
    func jobKeysReadBackExactly(_ key: String) throws {
        let plan = planExperiment(try spec(NSTemporaryDirectory() + "nb-unused-output"))  // planning writes nothing
        var job = try #require(plan.jobs.first)
        job.key = key
        #expect(job.key == key)
        #expect(plan.jobs.allSatisfy { $0.key.utf8.count == 64 && $0.key.allSatisfy { "0123456789abcdef".contains($0) } })
    }

    func spec(_ out: String) throws -> ExperimentSpec {
        try ExperimentSpec.parse(
            "name: slice\ninputs:\n  - \(datasets)/R*.h5\noutput: \(out)\nsweep:\n  rdp_tolerance: [0.3, 1.0]\n", file: "slice.yaml")
    }

    @Test func aShardLoadsOnlyItsSessions() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        let whole = planExperiment(s)
        #expect(whole.jobs.count == 9 * 2)
        for k in 1...9 {
            let plan = planExperiment(s, shard: k, shards: 9)
            #expect(plan.jobs.map(\.key) == whole.jobs.map(\.key))  // same jobs and keys as unsharded
            #expect(plan.checksums == whole.checksums)
            let mine = plan.jobs[shardRange(count: 18, shard: k, shards: 9)]
            let needed = Set(mine.flatMap { [$0.recording, $0.navigation] })
            let loaded = Set(plan.inputs.entries.filter { $0.value.streams != nil }.keys)  // checked in full
            #expect(loaded == needed, "shard \(k)/9 loaded \(loaded.sorted()), needs \(needed.sorted())")
            #expect(loaded.count == 2)  // one navigation session and its route's recording
            for (file, entry) in plan.inputs.entries { #expect(entry.metadata == whole.inputs.metadata(file)!) }
        }
    }

    @Test func slicedShardsMergeToTheUnshardedReport() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let whole = try spec(dir + "/whole")
        _ = try runExperiment(whole, workers: 2, command: "navbench run slice.yaml")
        var sharded = whole
        sharded.output = dir + "/sharded"
        var computed = 0
        for k in 1...4 {
            let o = try runExperiment(sharded, workers: 1, shard: k, shards: 4, command: "navbench run slice.yaml")
            #expect(o.failures.isEmpty, "\(o.failures)")
            #expect(o.report == nil)
            computed += o.counts[kind: guidanceResultKind].computed
        }
        #expect(computed == 18)
        let merged = try mergeExperiment(sharded, command: "navbench run slice.yaml")
        #expect(merged.failures.isEmpty && merged.counts[kind: guidanceResultKind].done == 18)
        for f in ["metrics.csv", "summary.md"] {
            let a = try String(contentsOfFile: whole.output + "/" + f, encoding: .utf8)
            let b = try String(contentsOfFile: sharded.output + "/" + f, encoding: .utf8)
            #expect(a == b, "\(f) differs")
        }
    }
}
