import Foundation
import NavCore
import NavIO
import Testing

@testable import NavPipeline

@Suite(.serialized) struct ResultsStoreTests {
    func smallSpec(_ out: String) throws -> ExperimentSpec {
        try ExperimentSpec.parse(
            "name: t\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(out)\nsweep:\n  rdp_tolerance: [0.3, 1.0]\n", file: "t.yaml")
    }

    /// NaN, −0, ±∞ and subnormals come back with their IEEE 754 bits (SQLite alone turns NaN
    /// into NULL and −0 into 0).
    @Test func metricsRoundTripBitForBit() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try smallSpec(dir + "/out")
        let plan = planExperiment(s)
        let job = plan.jobs[0]
        let values: [Double] = [.nan, -0.0, 0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -1.5, 0.1]
        let metrics = values.enumerated().map { Metric("m\($0.offset)", $0.element, "m") }
        let store = try ResultsStore(path: dir + "/s.sqlite")
        let writer = store.writer(batchSize: ResultsStore.batchSize)
        try writer.add(
            StoredResult(
                key: job.key, kind: guidanceResultKind, index: job.index, route: job.routeID, session: "nav1", configuration: job.configuration.label,
                recordingSHA256: "r", navigationSHA256: "n", seconds: 0, metrics: metrics))
        try writer.flush()
        let back = try #require(try store.read { try $0.metrics(key: job.key, kind: guidanceResultKind) })
        #expect(back.session == "nav1")
        #expect(back.metrics.map(\.name) == metrics.map(\.name))
        for (a, b) in zip(back.metrics, metrics) {
            if b.value.isNaN { #expect(a.value.isNaN) } else { #expect(a.value.bitPattern == b.value.bitPattern) }
        }
    }

    /// A metric edited in the file (by hand, or damaged) fails the row checksum: the run is
    /// computed again and the report is the one of an untouched store.
    @Test func anEditedRowIsComputedAgainNotTrusted() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try smallSpec(dir + "/out")
        let plan = planExperiment(s)
        let path = experimentStorePath(s)
        _ = try executeReplay(plan, storePath: path, workers: 1)
        let store = try ResultsStore(path: path)
        _ = try writeExperimentReport(plan, store: store, failures: [], command: "test", facts: [:])
        let csv = try String(contentsOfFile: dir + "/out/metrics.csv", encoding: .utf8)
        let victim = plan.jobs[1].key
        try store.pool.write { db in
            try db.execute(sql: "UPDATE metrics SET value = value + 1 WHERE result_key = ? AND ordinal = 1", arguments: [victim])
        }
        #expect(try store.read { try $0.metrics(key: victim, kind: guidanceResultKind) } == nil)
        let (done, _, computed) = try executeReplay(plan, storePath: path, workers: 1)
        #expect(computed == 1)
        #expect(done == plan.jobs.count)
        _ = try writeExperimentReport(plan, store: store, failures: [], command: "test", facts: [:])
        #expect(try String(contentsOfFile: dir + "/out/metrics.csv", encoding: .utf8) == csv)
    }

    /// The store holds metrics, never paths: no results column beyond the documented ones, and
    /// the schema is the migrator's (a store of schema 3, before migrations, is rebuilt).
    @Test func resultsHoldNoPaths() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try smallSpec(dir + "/out")
        _ = try executeReplay(planExperiment(s), storePath: experimentStorePath(s), workers: 2)
        let store = try ResultsStore(path: experimentStorePath(s))
        let columns = try store.pool.read { db in try db.columns(in: "results") }
        #expect(
            columns == [
                "key", "kind", "unit_index", "route", "session", "configuration", "parameters", "recording_sha256", "navigation_sha256",
                "navbench_version", "seconds", "note", "checksum",
            ])
        #expect(try store.pool.read { db in try resultsStoreMigrations.applied(db) } == resultsStoreMigrations.identifiers)
    }

    /// A store of schema 3 (tables `runs`, `closed_loop_cells`, no migrations) is a cache of
    /// another layout: opening it empties it and builds the current schema.
    @Test func aStoreOfSchemaThreeIsRebuilt() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/old.sqlite"
        do {
            let db = try SQLiteConnection(path: path)
            try db.execute(
                sql: """
                    CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);
                    INSERT INTO meta VALUES ('schema_version', '3');
                    CREATE TABLE runs(key TEXT PRIMARY KEY, job_index INTEGER NOT NULL);
                    INSERT INTO runs VALUES ('k', 0);
                    CREATE TABLE closed_loop_cells(key TEXT PRIMARY KEY);
                    """)
        }
        let store = try ResultsStore(path: path)
        let tables = try store.pool.read { db in
            try db.strings(sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb_%' ORDER BY name")
        }
        #expect(tables == ["artifacts", "configurations", "failures", "inputs", "meta", "metrics", "resampling_memo", "results"])
        #expect(try store.presentKeys().isEmpty)
    }

    /// The plot sample: at most `perCell` runs per (route, configuration), the same whatever the
    /// order runs are offered in, and a cell with few runs drawn whole.
    @Test func plotSampleIsBoundedAndOrderFree() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let seeds = (1...6).map(String.init).joined(separator: ", ")
        let s = try ExperimentSpec.parse(
            "name: t\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(dir)\nsweep:\n  rdp_tolerance: [0.3]\n  seeds: [\(seeds)]\n",
            file: "t.yaml")
        let plan = planExperiment(s)
        var forward = PlotSample(plan), backward = PlotSample(plan)
        for j in plan.jobs { forward.offer(j) }
        for j in plan.jobs.reversed() { backward.offer(j) }
        #expect(forward.indices == backward.indices)
        // 6 configurations (one per seed) × 3 sessions: every cell has 3 ≤ perCell runs.
        #expect(forward.indices == plan.jobs.map(\.index))
        // 50 runs in one cell: perCell of them.
        let many = ExperimentPlan(
            spec: s, inputs: SessionCatalog(sessions: [:]), checksums: [:],
            jobs: (0..<50).map { i in
                var j = plan.jobs[0]; j.index = i; j.key = "k\(i)"; return j
            },
            failures: [], specSHA256: "")
        var sample = PlotSample(many)
        for j in many.jobs { sample.offer(j) }
        #expect(sample.indices.count == PlotSample.perCell)
    }

    /// Values of the wrong SQLite type (issue 29: `UPDATE … SET route = x'ff'`, a shard's meta
    /// row holding a BLOB) died in a GRDB `try!`. Every column of every table, one at a time, set
    /// to a BLOB in the store of `run` and in a shard of `merge`: each gives a typed error or a
    /// report equal to the untouched one (the row recomputed), never a trap.
    @Test func valuesOfTheWrongTypeAreNeverATrap() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        // One recording, one navigation, two configurations: two guidance runs (the test is
        // about the store, ~60 runs and merges of it).
        let s = try ExperimentSpec.parse(
            "name: t\ninputs:\n  - \(datasets)/R1-corridor_recording.h5\n  - \(datasets)/R1-corridor_nav1.h5\noutput: \(dir)/out\n"
                + "sweep:\n  rdp_tolerance: [0.3, 1.0]\n", file: "t.yaml")
        _ = try runExperiment(s, workers: 2, command: "t")
        let pristine = try String(contentsOfFile: dir + "/out/metrics.csv", encoding: .utf8)
        let store = experimentStorePath(s)
        try FileManager.default.copyItem(atPath: store, toPath: dir + "/pristine.sqlite")
        var shardSpec = s
        shardSpec.output = dir + "/shards"
        for k in 1...2 { _ = try runExperiment(shardSpec, workers: 1, shard: k, shards: 2, command: "t") }
        let shard = dir + "/shards/results.shard-1-of-2.sqlite"
        try FileManager.default.copyItem(atPath: shard, toPath: dir + "/pristine-shard.sqlite")
        let pristineStore = try SQLiteConnection(path: dir + "/pristine.sqlite", readOnly: true)
        let columns = try pristineStore.strings(sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb_%' ORDER BY name")
            .flatMap { t in try pristineStore.columns(in: t).map { (t, $0) } }
        #expect(columns.count > 20)
        func tamper(_ path: String, from pristine: String, _ table: String, _ column: String) throws {
            try? FileManager.default.removeItem(atPath: path)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try FileManager.default.copyItem(atPath: pristine, toPath: path)
            let db = try SQLiteConnection(path: path)
            try db.execute(sql: "PRAGMA foreign_keys = OFF")  // as `sqlite3` edits a file
            // By primary key: `metrics` is a WITHOUT ROWID table.
            let key = try db.strings(sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", arguments: [table])
                .map { "\"\($0)\"" }.joined(separator: ", ")
            try db.execute(sql: "UPDATE \"\(table)\" SET \"\(column)\" = x'ff' WHERE (\(key)) IN (SELECT \(key) FROM \"\(table)\" LIMIT 1)")
        }
        for (table, column) in columns {
            try tamper(store, from: dir + "/pristine.sqlite", table, column)
            do {
                _ = try runExperiment(s, workers: 1, command: "t")
                #expect(try String(contentsOfFile: dir + "/out/metrics.csv", encoding: .utf8) == pristine, "run, \(table).\(column)")
            } catch {
                // One line naming the store (the bad input), not a bare SQLite or decoding error.
                #expect("\(error)".contains("results.sqlite") && !"\(error)".contains("\n"), "run, \(table).\(column): \(error)")
            }
            try tamper(shard, from: dir + "/pristine-shard.sqlite", table, column)
            do {
                _ = try mergeExperiment(shardSpec, command: "t", allowMissing: true)
            } catch {
                #expect("\(error)".contains("results.shard-1-of-2.sqlite") && !"\(error)".contains("\n"), "merge, \(table).\(column): \(error)")
            }
        }
    }

    /// Text the engine compares against its plan (meta, inputs) is read bounded from a store it
    /// did not write: 8 MB values make a rerun rewrite them, and a shard's 8 MB spec checksum is
    /// refused in one short line.
    @Test func overlongMetaAndInputsAreReadBounded() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try ExperimentSpec.parse(
            "name: t\ninputs:\n  - \(datasets)/R1-corridor_recording.h5\n  - \(datasets)/R1-corridor_nav1.h5\noutput: \(dir)/out\n"
                + "sweep:\n  rdp_tolerance: [0.3]\n", file: "t.yaml")
        _ = try runExperiment(s, workers: 1, command: "t")
        let pristine = try String(contentsOfFile: dir + "/out/metrics.csv", encoding: .utf8)
        func inflate(_ path: String, inputs: Bool) throws {
            let db = try SQLiteConnection(path: path)
            try db.execute(sql: "UPDATE meta SET value = printf('%.*c', 8000000, 'x') WHERE name = 'spec_sha256'")
            if inputs { try db.execute(sql: "UPDATE inputs SET path = printf('%.*c', 8000000, 'p') || rowid") }
        }
        try inflate(experimentStorePath(s), inputs: true)
        _ = try runExperiment(s, workers: 1, command: "t")
        #expect(try String(contentsOfFile: dir + "/out/metrics.csv", encoding: .utf8) == pristine)
        let spec = try SQLiteConnection(path: experimentStorePath(s)).firstRow(sql: "SELECT value FROM meta WHERE name = 'spec_sha256'")?[0].string
        #expect(spec?.count == 64)
        var shardSpec = s
        shardSpec.output = dir + "/shards"
        for k in 1...2 { _ = try runExperiment(shardSpec, workers: 1, shard: k, shards: 2, command: "t") }
        try inflate(dir + "/shards/results.shard-1-of-2.sqlite", inputs: false)
        #expect(throws: ResultsStoreError.self) { _ = try mergeExperiment(shardSpec, command: "t") }
        do { _ = try mergeExperiment(shardSpec, command: "t") } catch {
            let line = "\(error)"
            #expect(
                line.contains("results.shard-1-of-2.sqlite") && line.contains("xxxx…") && !line.contains("\n") && line.count < 1_000,
                "\(line.prefix(300))")
        }
    }
}
