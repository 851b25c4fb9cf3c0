import Foundation
import GRDB
import NavCore
import Synchronization

// The results store of an experiment: `OUTPUT/results.sqlite` (SQLite through GRDB, WAL).
// Schema, keys and example queries: docs/experiments.md ("Results store").

/// Errors of the results store, one line each.
public enum ResultsStoreError: Error, CustomStringConvertible, Sendable {
    case unreadable(path: String, reason: String)
    case foreignShard(path: String, field: String, expected: String, found: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): not a navbench results store (\(reason))"
        case .foreignShard(let path, let field, let expected, let found):
            return "\(path): shard store of another experiment (\(field) \(found), expected \(expected)); remove it or rerun that shard"
        }
    }
}

/// One finished run as it goes into the store.
struct StoredRun: Sendable {
    var job: ExperimentJob
    var recordingSHA256: String
    var navigationSHA256: String
    var seconds: Double
    var result: JobResult
}

/// The SQLite results store: one writer (GRDB's serialized writer queue), runs written in
/// batched transactions, readers never block it (WAL).
///
/// A run is keyed by `ExperimentJob.key` (SHA-256 of the navbench version, the recording's and
/// navigation's checksums and the configuration's canonical JSON): a rerun skips present keys.
/// A `kill -9` loses at most the runs not yet committed (in flight or in the pending batch);
/// every committed transaction holds whole runs (a run row with all its metric rows).
public final class ResultsStore: Sendable {
    /// Runs committed per transaction (at most this many finished runs are lost on `kill -9`).
    public static let batchSize = 32
    /// Schema version in `meta`.
    public static let schemaVersion = "1"

    public let path: String
    let pool: DatabasePool
    private let pending = Mutex([StoredRun]())

    /// Opens (creating if needed) the store at `path`.
    public init(path: String) throws {
        self.path = path
        var config = GRDB.Configuration()
        config.busyMode = .timeout(60)  // shards of a folder share no store, but a reader may be attached
        do {
            pool = try DatabasePool(path: path, configuration: config)
            try pool.write { db in try db.execute(sql: ResultsStore.schema) }
        } catch {
            throw ResultsStoreError.unreadable(path: path, reason: "\(error)")
        }
    }

    /// Tables and indexes (idempotent). Metrics are also kept one row per (run, metric) so they
    /// can be queried; `runs.result` holds the full run result (JSON) the report is written from.
    static let schema = """
        CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS inputs(path TEXT PRIMARY KEY, sha256 TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS configurations(label TEXT PRIMARY KEY, options TEXT NOT NULL, parameters TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS runs(
            key TEXT PRIMARY KEY,
            job_index INTEGER NOT NULL,
            route TEXT NOT NULL,
            session TEXT NOT NULL,
            configuration TEXT NOT NULL,
            recording_sha256 TEXT NOT NULL,
            navigation_sha256 TEXT NOT NULL,
            navbench_version TEXT NOT NULL,
            seconds REAL NOT NULL,
            result TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS runs_by_cell ON runs(route, configuration);
        CREATE TABLE IF NOT EXISTS metrics(
            run_key TEXT NOT NULL REFERENCES runs(key) ON DELETE CASCADE,
            name TEXT NOT NULL,
            value REAL,
            unit TEXT NOT NULL,
            PRIMARY KEY(run_key, name)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS metrics_by_name ON metrics(name, value);
        CREATE TABLE IF NOT EXISTS failures(
            key TEXT PRIMARY KEY,
            job_index INTEGER NOT NULL,
            navigation TEXT NOT NULL,
            configuration TEXT NOT NULL,
            message TEXT NOT NULL);
        """

    /// Records the experiment's identity, inputs and configurations (before the runs).
    func describe(_ plan: ExperimentPlan, shard: Int, shards: Int) throws {
        try pool.write { db in
            let meta = [("schema_version", ResultsStore.schemaVersion), ("navbench_version", NavbenchVersion.current),
                        ("spec_sha256", plan.specSHA256), ("shard", "\(shard)/\(shards)")]
            for (k, v) in meta { try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)", arguments: [k, v]) }
            for (p, sum) in plan.checksums.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "INSERT OR REPLACE INTO inputs(path, sha256) VALUES (?, ?)", arguments: [p, sum])
            }
            for c in plan.spec.sweep.configurations {
                try db.execute(sql: "INSERT OR REPLACE INTO configurations(label, options, parameters) VALUES (?, ?, ?)",
                               arguments: [c.label, c.options.canonicalJSON, c.parameters.joined(separator: "\n")])
            }
        }
    }

    /// Keys of the runs present (for skipping on rerun). Complexity: O(runs) time and memory.
    public func presentKeys() throws -> Set<String> {
        try pool.read { db in
            var keys = Set<String>()
            let cursor = try String.fetchCursor(db, sql: "SELECT key FROM runs")
            while let k = try cursor.next() { keys.insert(k) }
            return keys
        }
    }

    /// The stored result of one run, or nil.
    func result(key: String) throws -> JobResult? {
        let text = try pool.read { db in try String.fetchOne(db, sql: "SELECT result FROM runs WHERE key = ?", arguments: [key]) }
        guard let text else { return nil }
        return try jobResultDecoder().decode(JobResult.self, from: Data(text.utf8))
    }

    /// Queues a finished run; commits the batch when it is full.
    func add(_ run: StoredRun) throws {
        let batch: [StoredRun]? = pending.withLock { p in
            p.append(run)
            guard p.count >= ResultsStore.batchSize else { return nil }
            defer { p.removeAll(keepingCapacity: true) }
            return p
        }
        if let batch { try commit(batch) }
    }

    /// Records a failed run (replacing an earlier failure of the same key).
    func fail(_ job: ExperimentJob, message: String) throws {
        try pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO failures(key, job_index, navigation, configuration, message) VALUES (?, ?, ?, ?, ?)",
                           arguments: [job.key, job.index, job.navigation, job.configuration.label, message])
        }
    }

    /// Commits the pending runs.
    public func flush() throws {
        let batch = pending.withLock { p in defer { p.removeAll() }; return p }
        if !batch.isEmpty { try commit(batch) }
    }

    private func commit(_ batch: [StoredRun]) throws {
        let encoder = jobResultEncoder()
        let rows = try batch.map { ($0, String(decoding: try encoder.encode($0.result), as: UTF8.self)) }
        try pool.write { db in
            for (run, text) in rows {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO runs(key, job_index, route, session, configuration, recording_sha256, navigation_sha256,
                                                navbench_version, seconds, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [run.job.key, run.job.index, run.result.route, run.result.session, run.result.configuration,
                                     run.recordingSHA256, run.navigationSHA256, NavbenchVersion.current, run.seconds, text])
                try db.execute(sql: "DELETE FROM metrics WHERE run_key = ?", arguments: [run.job.key])
                for m in run.result.metrics {
                    try db.execute(sql: "INSERT OR REPLACE INTO metrics(run_key, name, value, unit) VALUES (?, ?, ?, ?)",
                                   arguments: [run.job.key, m.name, m.value.isFinite ? m.value : nil, m.unit])
                }
                try db.execute(sql: "DELETE FROM failures WHERE key = ?", arguments: [run.job.key])
            }
        }
    }

    /// Copies the runs of the shard store at `shardPath` into this store (ATTACH, one
    /// transaction), refusing a shard of another spec or navbench version.
    ///
    /// - Returns: runs copied.
    public func absorb(shard shardPath: String, specSHA256: String) throws -> Int {
        let shardStore = try ResultsStore(path: shardPath)
        let meta = try shardStore.pool.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT name, value FROM meta").map { ($0["name"] as String, $0["value"] as String) })
        }
        if let v = meta["navbench_version"], v != NavbenchVersion.current {
            throw ResultsStoreError.foreignShard(path: shardPath, field: "navbench version", expected: NavbenchVersion.current, found: v)
        }
        if let s = meta["spec_sha256"], s != specSHA256 {
            throw ResultsStoreError.foreignShard(path: shardPath, field: "spec sha256", expected: specSHA256, found: s)
        }
        return try pool.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS shard", arguments: [shardPath])
            defer { try? db.execute(sql: "DETACH DATABASE shard") }
            var copied = 0
            try db.inTransaction {
                try db.execute(sql: "INSERT OR IGNORE INTO runs SELECT * FROM shard.runs")
                copied = db.changesCount
                try db.execute(sql: "INSERT OR IGNORE INTO metrics SELECT * FROM shard.metrics")
                try db.execute(sql: "INSERT OR IGNORE INTO inputs SELECT * FROM shard.inputs")
                try db.execute(sql: "INSERT OR IGNORE INTO configurations SELECT * FROM shard.configurations")
                try db.execute(sql: "INSERT OR REPLACE INTO failures SELECT * FROM shard.failures WHERE key NOT IN (SELECT key FROM runs)")
                return .commit
            }
            return copied
        }
    }

    /// Every metric row as `run_key|name` → value (nil for NULL). For tests and small stores.
    public func metricRows() throws -> [String: Double?] {
        try pool.read { db in
            var out: [String: Double?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT run_key, name, value FROM metrics") {
                out[(row["run_key"] as String) + "|" + (row["name"] as String)] = row["value"] as Double?
            }
            return out
        }
    }

    /// `PRAGMA integrity_check` (the one line "ok" when the store is sound).
    public func integrityCheck() throws -> String {
        try pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }
}

/// Where a run keeps its results: `OUTPUT/results.sqlite`, or for shard K of N
/// `OUTPUT/results.shard-K-of-N.sqlite` (merged by `navbench merge`).
public func experimentStorePath(_ spec: ExperimentSpec, shard: Int = 1, shards: Int = 1) -> String {
    let name = shards == 1 ? "results.sqlite" : "results.shard-\(shard)-of-\(shards).sqlite"
    return (spec.output as NSString).appendingPathComponent(name)
}

/// The shard stores in a report folder, sorted.
func shardStorePaths(_ spec: ExperimentSpec) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: spec.output)) ?? []
    return names.filter { $0.hasPrefix("results.shard-") && $0.hasSuffix(".sqlite") }.sorted()
        .map { (spec.output as NSString).appendingPathComponent($0) }
}
