import Foundation
import GRDB
import NavCore
import NavIO
import Synchronization

// The results store of an experiment: `OUTPUT/results.sqlite` (SQLite through GRDB, WAL).
// Schema, keys and example queries: docs/experiments.md ("Results store").

/// Errors of the results store, one line each.
public enum ResultsStoreError: Error, CustomStringConvertible, Sendable {
    case unreadable(path: String, reason: String)
    case foreignShard(path: String, field: String, expected: String, found: String)
    /// A shard row outside the store's limits (`StoreLimits`): the shard is refused whole.
    case malformedShard(path: String, table: String, key: String, problem: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): not a navbench results store (\(reason))"
        case .foreignShard(let path, let field, let expected, let found):
            return "\(path): shard store of another experiment (\(field) \(found), expected \(expected)); remove it or rerun that shard"
        case .malformedShard(let path, let table, let key, let problem):
            return "\(path): table \(table), row \(key): \(problem); remove the shard store or rerun that shard"
        }
    }
}

/// Items queued for a batched commit, shared by the store's writers (runs, closed-loop cells).
final class PendingBatch<Item: Sendable>: Sendable {
    let size: Int
    private let items = Mutex([Item]())
    init(size: Int) { self.size = size }
    /// Queues `item`; returns the full batch (and empties the queue) when it reaches `size`.
    func add(_ item: Item) -> [Item]? {
        items.withLock { p in
            p.append(item)
            guard p.count >= size else { return nil }
            defer { p.removeAll(keepingCapacity: true) }
            return p
        }
    }
    /// Everything queued, emptying the queue.
    func drain() -> [Item] {
        items.withLock { p in
            defer { p.removeAll() }; return p
        }
    }
}

/// Sizes a store row may have. Checked in SQL before a value reaches Swift, so a hostile or
/// damaged store cannot make navbench allocate by what it declares: a shard row beyond them is
/// refused at merge (one line naming the shard, table and key), a row of the report folder's
/// own store beyond them is not trusted (computed again).
enum StoreLimits {
    /// Characters of a key (a SHA-256 in hex).
    static let key = 64
    /// Characters of a route, session or configuration label.
    static let label = 4_096
    /// Characters of a metric name or unit.
    static let name = 256
    /// Metrics per run (ordinals 0..<metricsPerRun).
    static let metricsPerRun = 4_096
    /// Characters of a failure message.
    static let message = 65_536
}

/// One finished run as it goes into the store: its metrics, never its paths (a plot re-runs
/// the few runs it draws, `reportSample`).
struct StoredRun: Sendable {
    var job: ExperimentJob
    var recordingSHA256: String
    var navigationSHA256: String
    var seconds: Double
    var route: String
    var session: String
    var metrics: [Metric]
}

/// The SQLite results store: one writer (GRDB's serialized writer queue), runs written in
/// batched transactions, readers never block it (WAL).
///
/// A run is keyed by `ExperimentJob.key` (SHA-256 of the navbench version, the recording's and
/// navigation's checksums and the configuration's canonical JSON): a rerun skips present keys
/// whose row checksum verifies (a row edited by hand or damaged is computed again, never trusted).
/// A `kill -9` loses at most the runs not yet committed (in flight or in the pending batch);
/// every committed transaction holds whole runs (a run row with all its metric rows).
///
/// Memory: O(batch) while writing; reads stream (cursors), so a report over n runs holds no
/// per-run state here.
public final class ResultsStore: Sendable {
    /// Runs committed per transaction (at most this many finished runs are lost on `kill -9`).
    public static let batchSize = 32
    /// Schema version in `meta`; a store of another version is emptied and rebuilt (it is a
    /// cache of runs, recomputable from the inputs).
    public static let schemaVersion = "3"

    public let path: String
    let pool: DatabasePool
    private let pending = PendingBatch<StoredRun>(size: ResultsStore.batchSize)

    /// Opens (creating if needed) the store at `path`.
    public init(path: String) throws {
        self.path = path
        var config = GRDB.Configuration()
        config.busyMode = .timeout(60)  // shards of a folder share no store, but a reader may be attached
        config.prepareDatabase { db in
            // synchronous NORMAL in WAL mode loses no committed transaction when the process is killed.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: config)
            try pool.write { db in
                if try db.tableExists("meta"),
                    let v = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'schema_version'"), v != ResultsStore.schemaVersion
                {
                    for t in ["metrics", "failures", "runs", "configurations", "inputs", "closed_loop_cells", "meta"] {
                        try db.execute(sql: "DROP TABLE IF EXISTS \(t)")
                    }
                }
                try db.execute(sql: ResultsStore.schema + closedLoopCellsSchema)  // closed-loop cells: ClosedLoopStore.swift
            }
        } catch {
            throw ResultsStoreError.unreadable(path: path, reason: "\(error)")
        }
    }

    /// Tables and indexes (idempotent; docs/experiments.md documents them, keep both in step).
    /// Metrics are one row per (run, metric) in the run's metric order (`ordinal`). SQLite keeps
    /// neither NaN (stored as NULL) nor −0 (a whole REAL is stored as an integer): `exact` holds the
    /// IEEE 754 bits of such a value, NULL otherwise. `runs.checksum` is the SHA-256 of everything
    /// a report reads from the run (`runChecksum`).
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
            checksum TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS runs_by_cell ON runs(route, configuration);
        CREATE TABLE IF NOT EXISTS metrics(
            run_key TEXT NOT NULL REFERENCES runs(key) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            name TEXT NOT NULL,
            value REAL,
            unit TEXT NOT NULL,
            exact INTEGER,
            PRIMARY KEY(run_key, ordinal)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS metrics_by_name ON metrics(name, value);
        CREATE TABLE IF NOT EXISTS failures(
            key TEXT PRIMARY KEY,
            job_index INTEGER NOT NULL,
            navigation TEXT NOT NULL,
            configuration TEXT NOT NULL,
            message TEXT NOT NULL);
        INSERT OR IGNORE INTO meta(name, value) VALUES ('schema_version', '\(schemaVersion)');
        """

    /// Records the experiment's identity, inputs and configurations (before the runs).
    func describe(_ plan: ExperimentPlan, shard: Int, shards: Int) throws {
        try pool.write { db in
            let meta = [
                ("schema_version", ResultsStore.schemaVersion), ("navbench_version", NavbenchVersion.current),
                ("spec_sha256", plan.specSHA256), ("shard", "\(shard)/\(shards)"),
            ]
            for (k, v) in meta { try db.execute(sql: "INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)", arguments: [k, v]) }
            for (p, sum) in plan.checksums.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "INSERT OR REPLACE INTO inputs(path, sha256) VALUES (?, ?)", arguments: [p, sum])
            }
            for c in plan.spec.sweep.configurations {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO configurations(label, options, parameters) VALUES (?, ?, ?)",
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

    /// Reads verified runs inside one read transaction (`StoreReader.metrics(key:)`).
    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T {
        try pool.read { db in try body(StoreReader(db: db)) }
    }

    /// Queues a finished run; commits the batch when it is full.
    func add(_ run: StoredRun) throws { if let batch = pending.add(run) { try commit(batch) } }

    /// Records a failed run (replacing an earlier failure of the same key).
    func fail(_ job: ExperimentJob, message: String) throws {
        try pool.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO failures(key, job_index, navigation, configuration, message) VALUES (?, ?, ?, ?, ?)",
                arguments: [job.key, job.index, job.navigation, job.configuration.label, message])
        }
    }

    /// Commits the pending runs.
    public func flush() throws {
        let batch = pending.drain()
        if !batch.isEmpty { try commit(batch) }
    }

    private func commit(_ batch: [StoredRun]) throws {
        try pool.write { db in
            for run in batch {
                try db.execute(sql: "DELETE FROM metrics WHERE run_key = ?", arguments: [run.job.key])
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO runs(key, job_index, route, session, configuration, recording_sha256, navigation_sha256,
                                                    navbench_version, seconds, checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        run.job.key, run.job.index, run.route, run.session, run.job.configuration.label,
                        run.recordingSHA256, run.navigationSHA256, NavbenchVersion.current, run.seconds,
                        runChecksum(
                            key: run.job.key, route: run.route, session: run.session,
                            configuration: run.job.configuration.label, metrics: run.metrics),
                    ])
                for (i, m) in run.metrics.enumerated() {
                    let exact = m.value.isNaN || (m.value == 0 && m.value.sign == .minus)
                    try db.execute(
                        sql: "INSERT INTO metrics(run_key, ordinal, name, value, unit, exact) VALUES (?, ?, ?, ?, ?, ?)",
                        arguments: [
                            run.job.key, i, m.name, m.value.isNaN ? nil : m.value, m.unit,
                            exact ? Int64(bitPattern: m.value.bitPattern) : nil,
                        ])
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
        // Read-only: a shard of another schema is refused, never rebuilt.
        var readOnly = GRDB.Configuration()
        readOnly.readonly = true
        let meta: [String: String]
        do {
            let shard = try DatabaseQueue(path: shardPath, configuration: readOnly)
            meta = try shard.read { db in
                try Dictionary(
                    Row.fetchAll(db, sql: "SELECT name, value FROM meta").map { ($0["name"] as String, $0["value"] as String) },
                    uniquingKeysWith: { a, _ in a })
            }
        } catch { throw ResultsStoreError.unreadable(path: shardPath, reason: "\(error)") }
        if let v = meta["schema_version"], v != ResultsStore.schemaVersion {
            throw ResultsStoreError.foreignShard(path: shardPath, field: "store schema", expected: ResultsStore.schemaVersion, found: v)
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
            // Every row within the limits before anything is copied (one scan per table, in SQL).
            let checks: [(table: String, sql: String)] =
                [
                    (
                        "runs",
                        """
                        SELECT substr(key, 1, 80), CASE
                          WHEN typeof(key) != 'text' OR length(key) != \(StoreLimits.key) THEN 'key is not a 64-character hex SHA-256'
                          WHEN typeof(job_index) != 'integer' OR job_index < 0 THEN 'job_index is not a non-negative integer'
                          WHEN length(route) > \(StoreLimits.label) OR length(session) > \(StoreLimits.label) OR length(configuration) > \(StoreLimits.label)
                            THEN 'a label is longer than \(StoreLimits.label) characters'
                          WHEN length(checksum) != 64 THEN 'checksum is not a 64-character hex SHA-256'
                          WHEN typeof(seconds) NOT IN ('real', 'integer') THEN 'seconds is not a number' END
                        FROM shard.runs WHERE typeof(key) != 'text' OR length(key) != \(StoreLimits.key) OR typeof(job_index) != 'integer' OR job_index < 0
                          OR length(route) > \(StoreLimits.label) OR length(session) > \(StoreLimits.label) OR length(configuration) > \(StoreLimits.label)
                          OR length(checksum) != 64 OR typeof(seconds) NOT IN ('real', 'integer') LIMIT 1
                        """
                    ),
                    (
                        "metrics",
                        """
                        SELECT substr(run_key, 1, 80), CASE
                          WHEN typeof(ordinal) != 'integer' OR ordinal < 0 OR ordinal >= \(StoreLimits.metricsPerRun) THEN 'ordinal is not an integer 0…\(StoreLimits.metricsPerRun - 1)'
                          WHEN length(name) > \(StoreLimits.name) OR length(unit) > \(StoreLimits.name) THEN 'a metric name or unit is longer than \(StoreLimits.name) characters'
                          ELSE 'value is neither a number nor NULL' END
                        FROM shard.metrics WHERE typeof(ordinal) != 'integer' OR ordinal < 0 OR ordinal >= \(StoreLimits.metricsPerRun)
                          OR length(name) > \(StoreLimits.name) OR length(unit) > \(StoreLimits.name) OR typeof(value) NOT IN ('real', 'integer', 'null') LIMIT 1
                        """
                    ),
                    (
                        "failures",
                        """
                        SELECT substr(key, 1, 80), 'a field is longer than its limit' FROM shard.failures
                        WHERE length(key) > \(StoreLimits.key) OR length(navigation) > \(StoreLimits.label) OR length(configuration) > \(StoreLimits.label)
                          OR length(message) > \(StoreLimits.message) LIMIT 1
                        """
                    ),
                ] + [("closed_loop_cells", closedLoopCellsShardCheckSQL)]  // ClosedLoopStore.swift
            for check in checks {
                if let row = try Row.fetchOne(db, sql: check.sql) {
                    let key: String? = row[0]
                    throw ResultsStoreError.malformedShard(
                        path: shardPath, table: check.table, key: escapedForMessage(key ?? "NULL"),
                        problem: row[1] ?? "malformed row")
                }
            }
            var copied = 0
            try db.inTransaction {
                // Streams in SQL (no run passes through Swift): memory O(1) in the shard's size.
                let runColumns =
                    "key, job_index, route, session, configuration, recording_sha256, navigation_sha256, navbench_version, seconds, checksum"
                try db.execute(sql: "INSERT OR IGNORE INTO runs(\(runColumns)) SELECT \(runColumns) FROM shard.runs")
                copied = db.changesCount
                try db.execute(
                    sql:
                        "INSERT OR IGNORE INTO metrics(run_key, ordinal, name, value, unit, exact) SELECT run_key, ordinal, name, value, unit, exact FROM shard.metrics"
                )
                try db.execute(sql: "INSERT OR IGNORE INTO inputs SELECT * FROM shard.inputs")
                try db.execute(sql: "INSERT OR IGNORE INTO configurations SELECT * FROM shard.configurations")
                try db.execute(sql: absorbClosedLoopCellsSQL)  // ClosedLoopStore.swift
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

/// Reads runs of a store inside one read transaction.
public struct StoreReader {
    let db: Database

    /// The metrics of the run `key`, in their computed order, if the run is present and its row
    /// checksum verifies (nil otherwise: the run is computed again). Labels are the run's as
    /// stored; the caller names the session of its plan.
    ///
    /// Complexity: O(m log n) for m metrics of n stored runs (two index lookups).
    public func metrics(key: String) throws -> (session: String, metrics: [Metric])? {
        guard
            let run = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT route, session, configuration, checksum FROM runs WHERE key = ? AND length(route) <= \(StoreLimits.label)
                          AND length(session) <= \(StoreLimits.label) AND length(configuration) <= \(StoreLimits.label) AND length(checksum) = 64
                        """), arguments: [key])
        else { return nil }
        // Beyond the limits a row is not trusted (computed again): nothing longer reaches Swift.
        let (count, longest): (Int, Int) =
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*), MAX(MAX(length(name), length(unit))) FROM metrics WHERE run_key = ?"),
                arguments: [key]
            ).map { ($0[0] ?? 0, $0[1] ?? 0) } ?? (0, 0)
        guard count <= StoreLimits.metricsPerRun, longest <= StoreLimits.name else { return nil }
        var metrics: [Metric] = []
        let cursor = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT name, value, unit, exact FROM metrics WHERE run_key = ? ORDER BY ordinal"),
            arguments: [key])
        while let row = try cursor.next() {
            let exact: Int64? = row[3], value: Double? = row[1]
            metrics.append(Metric(row[0], exact.map { Double(bitPattern: UInt64(bitPattern: $0)) } ?? value ?? .nan, row[2]))
        }
        let route: String = run[0], session: String = run[1], configuration: String = run[2], checksum: String = run[3]
        guard runChecksum(key: key, route: route, session: session, configuration: configuration, metrics: metrics) == checksum else { return nil }
        return (session, metrics)
    }
}

/// SHA-256 of everything a report reads from a stored run (not its timing): fields
/// length-prefixed, numbers as their IEEE 754 bits (every NaN as one pattern). A row edited by
/// hand or damaged no longer matches and is computed again.
func runChecksum(key: String, route: String, session: String, configuration: String, metrics: [Metric]) -> String {
    var d = Data()
    func add(_ n: UInt64) { withUnsafeBytes(of: n.littleEndian) { d.append(contentsOf: $0) } }
    func add(_ s: String) { let u = Array(s.utf8); add(UInt64(u.count)); d.append(contentsOf: u) }
    for s in [key, route, session, configuration] { add(s) }
    add(UInt64(metrics.count))
    for m in metrics { add(m.name); add(m.value.isNaN ? Double.nan.bitPattern : m.value.bitPattern); add(m.unit) }
    return sha256Hex(of: d)
}
