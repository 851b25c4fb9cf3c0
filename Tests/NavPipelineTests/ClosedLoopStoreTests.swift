import Foundation
import NavCore
import NavIO
import NavReport
import Testing

@testable import NavPipeline

/// The closed loop as run-phase work: cells in the results store (kind `closed_loop`), split
/// across shards, skipped on rerun, read (never walked again) by the report and by `merge`.
@Suite(.serialized) struct ClosedLoopStoreTests {
    /// One venue route and one navigation session; 2 tolerances × 2 walkers × 2 VIO levels = 8 cells.
    func spec(_ out: String) throws -> ExperimentSpec {
        try ExperimentSpec.parse(
            """
            name: t
            inputs:
              - \(datasets)/venue/B1-offices_recording.h5
              - \(datasets)/venue/B1-offices_nav1.h5
            output: \(out)
            sweep:
              rdp_tolerance: [0.3, 1.0]
            closed_loop:
              walker: [ideal, cane]
              vio_error: [none, "yaw_offset=3"]
              runs: 3
              sample_paths: 2
            """, file: "t.yaml")
    }

    func read(_ folder: String, _ name: String) throws -> String {
        try String(contentsOfFile: (folder as NSString).appendingPathComponent(name), encoding: .utf8)
    }

    static let files = ["closed-loop.csv", "summary.md", "summary.tex", "metrics.csv", "plots/B1-offices-closed-loop.svg"]

    /// Unsharded with 2 jobs, with 1 job, and 2 shards merged: the same bytes; each cell walked
    /// once per run (4 + 4 in the shards), none by the merge; and the same section as the cells
    /// walked in memory (`runClosedLoopSection`), so the store round trip changes nothing.
    @Test func shardsAndJobCountsGiveTheSameBytes() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        var s = try spec(dir + "/whole")
        let whole = try runExperiment(s, workers: 2, command: "test")
        #expect(whole.failures.isEmpty)
        #expect(whole.counts[kind: "closed_loop"] == KindCounts(done: 8, computed: 8, failures: []))
        s.output = dir + "/one"
        let one = try runExperiment(s, workers: 1, command: "test")
        #expect(one.counts[kind: "closed_loop"].computed == 8)
        s.output = dir + "/sharded"
        let first = try runExperiment(s, workers: 2, shard: 1, shards: 2, command: "test")
        let second = try runExperiment(s, workers: 1, shard: 2, shards: 2, command: "test")
        #expect(first.counts[kind: "closed_loop"].computed == 4 && second.counts[kind: "closed_loop"].computed == 4)
        #expect(first.report == nil)
        let merged = try mergeExperiment(s, command: "test")
        #expect(merged.failures.isEmpty)
        #expect(merged.counts[kind: "closed_loop"].computed == 0)
        for f in Self.files {
            let a = try read(dir + "/whole", f)
            #expect(try read(dir + "/one", f) == a, "\(f): 1 vs 2 jobs")
            #expect(try read(dir + "/sharded", f) == a, "\(f): 2 shards merged vs unsharded")
        }
        let csv = try read(dir + "/whole", "closed-loop.csv")
        #expect(csv.split(separator: "\n").count == 1 + 8 * closedLoopMetricColumns.count)
        let inMemory = runClosedLoopSection(planExperiment(try spec(dir + "/x")), workers: 2)
        #expect(inMemory.table.csv == csv)
        #expect(try read(dir + "/whole", "summary.md").contains(inMemory.markdown))
    }

    /// A rerun walks no cell and writes the same bytes; a cell whose row was edited (checksum
    /// mismatch) is walked again, and only that one.
    @Test func rerunWalksNothingAndAnEditedRowIsWalkedAgain() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        #expect(try runExperiment(s, workers: 2, command: "test").counts[kind: "closed_loop"].computed == 8)
        let before = try Self.files.map { try read(dir + "/out", $0) }
        let again = try runExperiment(s, workers: 2, command: "test")
        #expect(again.counts[kind: "closed_loop"] == KindCounts(done: 8, computed: 0, failures: []))
        #expect(try Self.files.map { try read(dir + "/out", $0) } == before)
        let store = try ResultsStore(path: experimentStorePath(s))
        try store.pool.write { db in
            try db.execute(
                sql: """
                    UPDATE metrics SET value = 0.123 WHERE name = 'success_rate'
                    AND result_key = (SELECT key FROM results WHERE kind = 'closed_loop' AND unit_index = 5)
                    """)
        }
        let key = planClosedLoopCells(planExperiment(s)).cells[5].key
        #expect(try store.read { try $0.closedLoopCell(key: key) } == nil)
        let third = try runExperiment(s, workers: 1, command: "test")
        #expect(third.counts[kind: "closed_loop"].computed == 1)
        #expect(try Self.files.map { try read(dir + "/out", $0) } == before)
        #expect(try store.integrityCheck() == "ok")
    }

    /// The report takes a cell's figures from the store: a value planted with a valid checksum
    /// shows in `closed-loop.csv` after `merge` (which walks nothing).
    @Test func mergeReadsTheCellsFromTheStore() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        for k in 1...2 { _ = try runExperiment(s, workers: 1, shard: k, shards: 2, command: "test") }
        let plan = planExperiment(s)
        let cell = ClosedLoopKind().units(of: plan)[2]  // shard 1 (the first half of the cell order)
        let shardStore = try ResultsStore(path: experimentStorePath(s, shard: 1, shards: 2))
        var (metrics, walkers) = try #require(try shardStore.read { try $0.closedLoopCell(key: cell.key) })
        #expect(metrics[0].name == "success_rate")
        metrics[0].value = 0.123456
        let writer = shardStore.writer(batchSize: 1)
        let outcome = UnitOutcome(metrics: metrics, artifacts: [ClosedLoopWalkers.artifactName: walkers.bytes])
        try writer.add(storedResult(cell, of: ClosedLoopKind().plan(plan), outcome: outcome, plan: plan, seconds: 0))
        try writer.flush()
        let merged = try mergeExperiment(s, command: "test")
        #expect(merged.failures.isEmpty)
        let rows = try read(dir + "/out", "closed-loop.csv").split(separator: "\n").filter { $0.contains(",success_rate,") }
        #expect(rows.filter { $0.contains("0.123456") }.count == 1)
        #expect(rows.count == 8)
    }

    /// A cell without a result (its shard did not run) is listed as a failure, one line each,
    /// like a missing job; the others are reported.
    @Test func missingCellsAreFailures() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        _ = try runExperiment(s, workers: 2, shard: 1, shards: 2, command: "test")
        // Refused by default (issue 32, item 4): one line with the count and the shard to run.
        #expect(throws: IncompleteMergeError.self) { try mergeExperiment(s, command: "test") }
        #expect(!FileManager.default.fileExists(atPath: dir + "/out/summary.md"), "a refused merge writes no report")
        let merged = try mergeExperiment(s, command: "test", allowMissing: true)
        let cellLines = merged.failures.filter { $0.contains("[closed_loop ") }
        #expect(cellLines.count == 4)
        #expect(cellLines.allSatisfy { $0.hasSuffix("no result (its shard did not run, or the run was stopped)") && !$0.contains("\n") })
        let csv = try read(dir + "/out", "closed-loop.csv")
        #expect(csv.split(separator: "\n").count == 1 + 4 * closedLoopMetricColumns.count)
    }

    /// A cell's stored metrics are the section's metrics, in order, with their units.
    @Test func storedMetricsAreTheSectionMetrics() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir + "/out")
        _ = try runExperiment(s, workers: 2, command: "test")
        let store = try ResultsStore(path: experimentStorePath(s))
        let stored = try store.pool.read { db in
            try db.rows(
                sql: """
                    SELECT m.name, m.unit FROM results r JOIN metrics m ON m.result_key = r.key
                    WHERE r.kind = 'closed_loop' AND r.unit_index = 0 ORDER BY m.ordinal
                    """
            ).map { ($0[0].string ?? "?") + " " + ($0[1].string ?? "?") }
        }
        #expect(stored == closedLoopMetricColumns.map { $0.name + " " + $0.unit })
        let table = try MetricsTable.read(dir + "/out/closed-loop.csv")
        let firstCell = table.rows.prefix(closedLoopMetricColumns.count)
        #expect(firstCell.map(\.metric) == closedLoopMetricColumns.map(\.name))
        #expect(firstCell.map(\.unit) == closedLoopMetricColumns.map(\.unit))
        // A query a researcher would write: cells with a registration yaw error and success below 1.
        let n = try store.pool.read { db in
            try db.firstRow(
                sql: """
                    SELECT COUNT(*) FROM results r JOIN metrics m ON m.result_key = r.key AND m.name = 'success_rate'
                    WHERE r.kind = 'closed_loop' AND r.parameters LIKE '%vio_error=yaw_offset%' AND m.value <= 1
                    """)?[0].integer
        }
        #expect(n == 4)
    }
}

@Suite(.serialized) struct ClosedLoopStoreLimitTests {
    /// A shard cell row beyond the store's limits is refused at merge in one line naming the
    /// shard, the table and the row; in the folder's own store it is walked again.
    @Test func anOversizedCellRowIsRefusedOrWalkedAgain() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try ClosedLoopStoreTests().spec(dir + "/out")
        for k in 1...2 { _ = try runExperiment(s, workers: 1, shard: k, shards: 2, command: "test") }
        let shardPath = experimentStorePath(s, shard: 2, shards: 2)
        let cells = planClosedLoopCells(planExperiment(s)).cells
        let last = cells.count - 1  // shard 2 of 2 holds the last block of the cell order (`shardRange`)
        try ResultsStore(path: shardPath).pool.write { db in
            try db.execute(
                sql: "UPDATE results SET parameters = ? WHERE kind = 'closed_loop' AND unit_index = ?",
                arguments: [String(repeating: "w", count: 5000), last])
        }
        do {
            _ = try mergeExperiment(s, command: "test")
            Issue.record("merge accepted an oversized cell row")
        } catch {
            let line = "\(error)"
            #expect(line.hasPrefix("\(shardPath): table results, row "))
            #expect(!line.contains("\n"))
        }
        let own = try ResultsStore(path: shardPath)
        let key = cells[last].key
        #expect(try own.read { try $0.closedLoopCell(key: key) } == nil)
        #expect(try runExperiment(s, workers: 1, shard: 2, shards: 2, command: "test").counts[kind: "closed_loop"].computed == 1)
    }
}

@Suite struct ClosedLoopSectionInputTests {
    /// A cell whose stored rates do not give whole counts (NaN runs, a huge value) is shown as
    /// "–" in its column: no trapping conversion, the rest of the section is written.
    @Test func oddStoredCountsGiveNoIntervalAndNoTrap() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = planExperiment(try ClosedLoopStoreTests().spec(dir + "/out"))
        let cp = planClosedLoopCells(plan)
        for odd in [Double.nan, 1e300] {
            let section = closedLoopSection(
                plan, cp,
                metrics: { _ in
                    closedLoopMetricColumns.map { Metric($0.name, $0.name == "runs" ? odd : 0.5, $0.unit) }
                }, walkers: { _ in nil })
            // The cells' rows (not the walker parameters' table: `| parameter …`, `| \`speed\` …`).
            let rows = section.markdown.split(separator: "\n").filter {
                $0.hasPrefix("| ") && !$0.hasPrefix("| guidance") && !$0.hasPrefix("| parameter") && !$0.hasPrefix("| `")
            }
            #expect(!rows.isEmpty)
            #expect(rows.allSatisfy { $0.contains("| – |") || $0.hasSuffix("| – |") }, "\(rows.first ?? "")")
        }
    }
}
