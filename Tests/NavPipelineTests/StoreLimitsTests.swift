import Foundation
import NavCore
import Testing

@testable import NavPipeline

/// A shard store is a file from elsewhere: rows beyond `StoreLimits` are refused at merge with
/// one line naming the shard, the table and the row; in the report folder's own store such a row
/// is not trusted (computed again).
@Suite(.serialized) struct StoreLimitsTests {
    func spec(_ out: String) throws -> ExperimentSpec {
        try ExperimentSpec.parse(
            "name: t\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(out)\nsweep:\n  rdp_tolerance: [0.3, 1.0]\n", file: "t.yaml")
    }

    static let tamperings: [(table: String, sql: String, problem: String)] = [
        (
            "results", "UPDATE results SET route = printf('%.5000c', 'x') WHERE unit_index = (SELECT MIN(unit_index) FROM results)",
            "a label is longer than 4096 characters"
        ),
        (
            "results", "UPDATE results SET unit_index = 'seven' WHERE unit_index = (SELECT MIN(unit_index) FROM results)",
            "unit_index is not a non-negative integer"
        ),
        (
            "metrics", "UPDATE metrics SET ordinal = 5000000 WHERE ordinal = 0 AND result_key = (SELECT MIN(result_key) FROM metrics)",
            "ordinal is not an integer 0…4095"
        ),
        (
            "metrics", "UPDATE metrics SET unit = printf('%.300c', 'u') WHERE ordinal = 1 AND result_key = (SELECT MIN(result_key) FROM metrics)",
            "a metric name or unit is longer than 256 characters"
        ),
        (
            "metrics", "UPDATE metrics SET value = x'00ff' WHERE ordinal = 2 AND result_key = (SELECT MIN(result_key) FROM metrics)",
            "value is neither a number nor NULL"
        ),
        (
            "artifacts", "UPDATE artifacts SET sha256 = printf('%.5000c', 'f') WHERE result_key = (SELECT MIN(result_key) FROM artifacts)",
            "an artifact sha256 is not a 64-character hex SHA-256"
        ),
    ]

    @Test(arguments: 0..<tamperings.count)
    func aMalformedShardRowIsRefusedWithOneLine(_ i: Int) throws {
        let t = Self.tamperings[i]
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        let plan = planExperiment(s)
        for k in 1...2 { _ = try executeReplay(plan, storePath: experimentStorePath(s, shard: k, shards: 2), workers: 1, shard: k, shards: 2) }
        let shardPath = experimentStorePath(s, shard: 2, shards: 2)
        try ResultsStore(path: shardPath).pool.write { db in try db.execute(sql: t.sql) }
        do {
            _ = try mergeShardStores(plan)
            Issue.record("merge accepted a shard with a malformed \(t.table) row")
        } catch {
            let line = "\(error)"
            #expect(line.hasPrefix("\(shardPath): table \(t.table), row "), "\(line)")
            #expect(line.hasSuffix(": \(t.problem); remove the shard store or rerun that shard"), "\(line)")
            #expect(!line.contains("\n") && line.count < 400)
        }
    }

    /// A shard whose schema claims every migration but lacks a table (dropped, or forged) is one
    /// line naming the shard and the table (issue 50, item 17; was a raw SQL error naming no shard).
    @Test(arguments: ["artifacts", "failures", "metrics"])
    func aShardWithoutATableIsRefusedWithOneLine(_ table: String) throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        let plan = planExperiment(s)
        for k in 1...2 { _ = try executeReplay(plan, storePath: experimentStorePath(s, shard: k, shards: 2), workers: 1, shard: k, shards: 2) }
        let shardPath = experimentStorePath(s, shard: 2, shards: 2)
        try ResultsStore(path: shardPath).pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "DROP TABLE \(table)")
        }
        #expect(throws: ResultsStoreError.self) { _ = try mergeShardStores(plan) }
        do {
            _ = try mergeShardStores(plan)
        } catch {
            let expected = "\(shardPath): table \(table) is missing (a damaged shard, or not one navbench wrote); "
            #expect("\(error)" == expected + "remove the shard store or rerun that shard")
        }
    }

    @Test func anOversizedRowOfTheOwnStoreIsComputedAgain() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        let plan = planExperiment(s)
        let path = experimentStorePath(s)
        _ = try executeReplay(plan, storePath: path, workers: 1)
        let store = try ResultsStore(path: path)
        let victim = plan.jobs[0].key
        #expect(try store.read { try $0.metrics(key: victim, kind: guidanceResultKind) } != nil)
        try store.pool.write { db in
            // 5,000 extra metric rows for one run: beyond metricsPerRun, never decoded.
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1000 UNION ALL SELECT i + 1 FROM n WHERE i < 5999)
                    INSERT INTO metrics(result_key, ordinal, name, value, unit, exact) SELECT ?, i, 'x', 0, 'm', NULL FROM n
                    """, arguments: [victim])
        }
        #expect(try store.read { try $0.metrics(key: victim, kind: guidanceResultKind) } == nil)
        let (_, _, computed) = try executeReplay(plan, storePath: path, workers: 1)
        #expect(computed == 1)
        #expect(try store.read { try $0.metrics(key: victim, kind: guidanceResultKind) } != nil)
    }
}
