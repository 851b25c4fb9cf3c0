import Foundation
import GRDB
import NavCore
import NavIO
import Synchronization

// The results store of an experiment: `OUTPUT/results.sqlite` (SQLite through GRDB, WAL). One
// schema for every result kind (guidance replay runs, closed-loop cells, calibration, proximity,
// gyroscope filters, APE): a row in `results` per unit of work, its metrics in `metrics`, its
// failure in `failures`. Schema, keys and example queries: docs/experiments.md ("Results store").

/// Errors of the results store, one line each.
public enum ResultsStoreError: Error, CustomStringConvertible, Sendable {
    case unreadable(path: String, reason: String)
    case foreignShard(path: String, field: String, expected: String, found: String)
    /// A shard row outside the store's limits (`StoreLimits`): the shard is refused whole.
    case malformedShard(path: String, table: String, key: String, problem: String)
    /// A shard without one of the store's tables (its migrations claim them all).
    case incompleteShard(path: String, table: String)
    /// A store on a read-only file system: SQLite cannot create the WAL index it reads through.
    case onReadOnlyFileSystem(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): not a navbench results store (\(reason))"
        case .foreignShard(let path, let field, let expected, let found):
            return "\(path): shard store of another experiment (\(field) \(found), expected \(expected)); remove it or rerun that shard"
        case .malformedShard(let path, let table, let key, let problem):
            return "\(path): table \(table), row \(key): \(problem); remove the shard store or rerun that shard"
        case .onReadOnlyFileSystem(let path):
            return "\(path): on a read-only file system, where SQLite cannot create the index (-shm) it reads a store through; "
                + "copy the report folder somewhere writable"
        case .incompleteShard(let path, let table):
            return "\(path): table \(table) is missing (a damaged shard, or not one navbench wrote); remove the shard store or rerun that shard"
        }
    }
}

/// Items queued for a batched commit (`ResultWriter`).
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
    /// Characters of a route, session, configuration label, parameter list or note.
    static let label = 4_096
    /// Characters of a metric name or unit, or of a result kind.
    static let name = 256
    /// Metrics per result (ordinals 0..<metricsPerRun).
    static let metricsPerRun = 4_096
    /// Characters of a failure message.
    static let message = 65_536
    /// Bytes of one artifact (a closed-loop cell of the most walkers a spec allows: 1 + 100,000 × 49 bytes).
    static let artifactBytes = 8 << 20
}

/// One finished unit of work, of any result kind, as it goes into the store: its labels,
/// metrics and artifacts (a plot-sample run's paths, `ReplayPlotPaths`; a closed-loop cell's walkers).
struct StoredResult: Sendable {
    /// Identity (SHA-256 of the navbench version, the inputs' checksums and the unit's parameters).
    var key: String
    /// The kind (`ExperimentKind.name`; `guidance` for replay runs, `closed_loop` for cells).
    var kind: String
    /// Position in its kind's unit order.
    var index: Int
    var route: String
    var session: String
    var configuration: String
    /// The unit's other parameters, one `name=value` per line (empty when it has none).
    var parameters = ""
    var recordingSHA256 = ""
    var navigationSHA256 = ""
    var seconds: Double
    /// A remark of the unit (e.g. why a calibration stopped); empty when none.
    var note = ""
    var metrics: [Metric]
    /// What a report needs besides the metrics, by name (a closed-loop cell's walkers: `ClosedLoopWalkers`);
    /// empty for most kinds.
    var artifacts: [String: [UInt8]] = [:]
}

/// A result as read back from the store, verified against its checksum.
public struct StoredResultRow: Sendable, Equatable {
    public var kind: String
    public var route: String
    public var session: String
    public var configuration: String
    public var parameters: String
    public var note: String
    public var metrics: [Metric]
    /// Its artifacts by name (verified with the row: they are in its checksum).
    public var artifacts: [String: [UInt8]] = [:]
}

/// The one exact-value encoding of the store: SQLite keeps neither NaN (stored as NULL) nor −0
/// (a whole REAL is stored as an integer), so such a value also has its IEEE 754 bits in the
/// INTEGER column `exact` (NULL for every other value).
enum ExactValue {
    /// The REAL column's value and the `exact` column's bits of `v`.
    static func encode(_ v: Double) -> (value: Double?, exact: Int64?) {
        let exact = v.isNaN || (v == 0 && v.sign == .minus)
        return (v.isNaN ? nil : v, exact ? Int64(bitPattern: v.bitPattern) : nil)
    }
    /// The value stored as (`value`, `exact`).
    static func decode(value: Double?, exact: Int64?) -> Double {
        exact.map { Double(bitPattern: UInt64(bitPattern: $0)) } ?? value ?? .nan
    }

    /// The value of a metric row's `value` and `exact` columns, or nil when `value` is neither a
    /// number nor NULL or `exact` neither an integer nor NULL (an edited or damaged row).
    ///
    /// One switch per column on the stored type (written so: `DatabaseValue.isNull` then
    /// `Double.fromDatabaseValue` on the same value made the release build's optimizer crash,
    /// swift 6.3.1, "Found ownership error", CopyPropagation in `StoreReader.result(key:)`).
    static func decode(_ value: DatabaseValue, _ exact: DatabaseValue) -> Double? {
        let v: Double?
        switch value.storage {
        case .null: v = nil
        case .double(let d): v = d
        case .int64(let i): v = Double(i)
        default: return nil
        }
        let e: Int64?
        switch exact.storage {
        case .null: e = nil
        case .int64(let i): e = i
        default: return nil
        }
        return decode(value: v, exact: e)
    }
}

// MARK: - Records (GRDB)

/// A row of `results`.
struct ResultRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "results"
    var key: String
    var kind: String
    var unitIndex: Int
    var route: String
    var session: String
    var configuration: String
    var parameters: String
    var recordingSHA256: String
    var navigationSHA256: String
    var navbenchVersion: String
    var seconds: Double
    var note: String
    var checksum: String

    enum CodingKeys: String, CodingKey {
        case key, kind, unitIndex = "unit_index", route, session, configuration, parameters
        case recordingSHA256 = "recording_sha256", navigationSHA256 = "navigation_sha256"
        case navbenchVersion = "navbench_version", seconds, note, checksum
    }
}

/// A row of `metrics`: one metric of a result, in the result's metric order (`ordinal`).
struct MetricRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "metrics"
    var resultKey: String
    var ordinal: Int
    var name: String
    var value: Double?
    var unit: String
    var exact: Int64?

    enum CodingKeys: String, CodingKey { case resultKey = "result_key", ordinal, name, value, unit, exact }
}

/// A row of `artifacts`: bytes a report needs besides a result's metrics (a closed-loop cell's
/// walkers), so nothing is run again to draw or test it. At most `StoreLimits.artifactBytes`.
struct ArtifactRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "artifacts"
    var resultKey: String
    var name: String
    var data: Data

    enum CodingKeys: String, CodingKey { case resultKey = "result_key", name, data }
}

/// A row of `failures`: a unit that could not be computed, with its one-line message.
struct FailureRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "failures"
    var key: String
    var kind: String
    var unitIndex: Int
    var input: String
    var configuration: String
    var message: String

    enum CodingKeys: String, CodingKey { case key, kind, unitIndex = "unit_index", input, configuration, message }
}

/// The store's migrations. A store made before them (schema 3: `runs`, `closed_loop_cells`)
/// is emptied by the first (it is a cache of results, recomputable from the inputs); a store
/// with a migration this navbench does not know is emptied and rebuilt the same way.
let resultsStoreMigrator: DatabaseMigrator = {
    var m = DatabaseMigrator()
    m.registerMigration("v4: one results table for every kind") { db in
        for t in ["metrics", "failures", "runs", "configurations", "inputs", "closed_loop_cells", "meta", "results"] {
            try db.execute(sql: "DROP TABLE IF EXISTS \(t)")
        }
        try db.create(table: "meta") { t in
            t.primaryKey("name", .text)
            t.column("value", .text).notNull()
        }
        try db.create(table: "inputs") { t in
            t.primaryKey("path", .text)
            t.column("sha256", .text).notNull()
        }
        try db.create(table: "configurations") { t in
            t.primaryKey("label", .text)
            t.column("options", .text).notNull()
            t.column("parameters", .text).notNull()
        }
        try db.create(table: "results") { t in
            t.primaryKey("key", .text)
            t.column("kind", .text).notNull()
            t.column("unit_index", .integer).notNull()
            t.column("route", .text).notNull()
            t.column("session", .text).notNull()
            t.column("configuration", .text).notNull()
            t.column("parameters", .text).notNull()
            t.column("recording_sha256", .text).notNull()
            t.column("navigation_sha256", .text).notNull()
            t.column("navbench_version", .text).notNull()
            t.column("seconds", .double).notNull()
            t.column("note", .text).notNull()
            t.column("checksum", .text).notNull()
        }
        try db.create(index: "results_by_cell", on: "results", columns: ["kind", "route", "configuration"])
        try db.create(table: "metrics", options: [.withoutRowID]) { t in
            t.column("result_key", .text).notNull().references("results", column: "key", onDelete: .cascade)
            t.column("ordinal", .integer).notNull()
            t.column("name", .text).notNull()
            t.column("value", .double)
            t.column("unit", .text).notNull()
            t.column("exact", .integer)
            t.primaryKey(["result_key", "ordinal"])
        }
        try db.create(index: "metrics_by_name", on: "metrics", columns: ["name", "value"])
        try db.create(table: "failures") { t in
            t.primaryKey("key", .text)
            t.column("kind", .text).notNull()
            t.column("unit_index", .integer).notNull()
            t.column("input", .text).notNull()
            t.column("configuration", .text).notNull()
            t.column("message", .text).notNull()
        }
    }
    m.registerMigration("v5: artifacts") { db in
        try db.create(table: "artifacts", options: [.withoutRowID]) { t in
            t.column("result_key", .text).notNull().references("results", column: "key", onDelete: .cascade)
            t.column("name", .text).notNull()
            t.column("data", .blob).notNull()
            t.primaryKey(["result_key", "name"])
        }
    }
    m.registerMigration("v6: resampling memo") { db in
        try db.create(table: "resampling_memo", options: [.withoutRowID]) { t in
            t.primaryKey("key", .text)
            t.column("result", .blob).notNull()
            t.column("checksum", .text).notNull()
        }
    }
    m.registerMigration("v7: resampling memo rows marked used") { db in
        try db.alter(table: "resampling_memo") { t in t.add(column: "used", .integer).notNull().defaults(to: 0) }
    }
    return m
}()

/// The SQLite results store: one writer (GRDB's serialized writer queue), results written in
/// batched transactions (`ResultWriter`), readers never block it (WAL).
///
/// A result is keyed by its unit's key (for a replay run `ExperimentJob.key`: SHA-256 of the
/// navbench version, the recording's and navigation's checksums and the configuration's canonical
/// JSON): a rerun skips present keys whose row checksum verifies (a row edited by hand or damaged
/// is computed again, never trusted). A `kill -9` loses at most the results not yet committed (in
/// flight or in a pending batch); every committed transaction holds whole results (a `results`
/// row with all its `metrics` rows).
///
/// Memory: O(batch) while writing; reads stream (cursors), so a report over n results holds no
/// per-result state here.
public final class ResultsStore: Sendable {
    /// Replay runs committed per transaction (at most this many finished runs are lost on `kill -9`).
    public static let batchSize = 32

    public let path: String
    let pool: DatabasePool

    /// Opens (creating or migrating if needed) the store at `path`.
    public init(path: String) throws {
        self.path = path
        var config = GRDB.Configuration()
        config.busyMode = .timeout(60)  // shards of a folder share no store, but a reader may be attached
        config.prepareDatabase { db in
            // synchronous NORMAL in WAL mode loses no committed transaction when the process is killed.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            pool = try storeWrite(path) {
                let pool = try DatabasePool(path: path, configuration: config)
                // A store of a newer navbench (a migration unknown here) is a cache: emptied, rebuilt.
                if try pool.read({ try resultsStoreMigrator.hasBeenSuperseded($0) }) { try pool.erase() }
                try resultsStoreMigrator.migrate(pool)
                return pool
            }
        } catch let e as TraceError {
            throw e
        } catch {
            throw ResultsStoreError.unreadable(path: path, reason: "\(error)")
        }
    }

    /// The store schema's identity: its last migration.
    static var schemaIdentity: String { resultsStoreMigrator.migrations.last ?? "" }

    /// Records the experiment's identity, inputs and configurations (before the runs).
    func describe(_ plan: ExperimentPlan, shard: Int, shards: Int) throws {
        try storeWrite(path) {
            try pool.write { db in
                let meta = [("navbench_version", NavbenchVersion.current), ("spec_sha256", plan.specSHA256), ("shard", "\(shard)/\(shards)")]
                // Described already (a rerun, the engine's second call): the same spec and input
                // checksums give the same configurations, so nothing is written again.
                // The store may come from elsewhere (an output folder is not trusted): only the rows
                // this comparison can match are read, each bounded — a name, path or value longer
                // than any the plan writes reads as NULL, and one row more than the plan has is
                // enough to know the lists differ.
                let bounded = { (table: String, key: String, value: String, rows: Int) throws -> [String: String] in
                    try Row.fetchAll(
                        db,
                        sql: "SELECT CASE WHEN length(\(key)) <= \(StoreLimits.label) THEN \(key) END, "
                            + "CASE WHEN length(\(value)) <= \(StoreLimits.label) THEN \(value) END FROM \(table) LIMIT \(rows + 1)"
                    ).reduce(into: [String: String]()) { d, row in
                        if let n = String.fromDatabaseValue(row[0] as DatabaseValue), let v = String.fromDatabaseValue(row[1] as DatabaseValue) {
                            d[n] = v
                        }
                    }
                }
                let stored = try bounded("meta", "name", "value", 64)
                let inputs = try bounded("inputs", "path", "sha256", plan.checksums.count)
                if meta.allSatisfy({ stored[$0.0] == $0.1 }) && inputs == plan.checksums { return }
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
    }

    /// Keys of the results present, of every kind (for skipping on rerun). Complexity: O(results)
    /// time and memory.
    public func presentKeys() throws -> Set<String> {
        try pool.read { db in
            var keys = Set<String>()
            let cursor = try String.fetchCursor(db, sql: "SELECT key FROM results")
            while let k = try cursor.next() { keys.insert(k) }
            return keys
        }
    }

    /// Reads verified results inside one read transaction (`StoreReader`).
    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T {
        try pool.read { db in try body(StoreReader(db: db)) }
    }

    /// `read` over positions 0..<`count` in `blocks` contiguous blocks (`shardRange`; at least
    /// one), each on its own thread in its own read transaction (the pool reads concurrently),
    /// the results joined in position order: the same whatever the blocks.
    ///
    /// - Throws: `ResultsStoreError.unreadable` with the first block's error.
    func readInBlocks<T: Sendable>(
        _ count: Int, blocks: Int, _ read: @Sendable (StoreReader, Range<Int>) throws -> [T]
    ) throws -> [T] {
        let blocks = max(1, blocks)
        do {
            return try mapConcurrently(blocks, workers: blocks) { k in
                try self.read { try read($0, shardRange(count: count, shard: k + 1, shards: blocks)) }
            }.flatMap { $0 }
        } catch { throw ResultsStoreError.unreadable(path: path, reason: "\(error)") }
    }

    /// A writer committing results in batches of `batchSize` (its own queue; one per phase).
    func writer(batchSize: Int) -> ResultWriter { ResultWriter(pool: pool, batchSize: batchSize) }

    /// Records a failed unit of any kind (replacing an earlier failure of the same key).
    func fail(key: String, kind: String, index: Int, input: String, configuration: String, message: String) throws {
        try storeWrite(path) {
            try pool.write { db in
                try FailureRecord(key: key, kind: kind, unitIndex: index, input: input, configuration: configuration, message: message)
                    .insert(db, onConflict: .replace)
            }
        }
    }

    /// Copies the results of the shard store at `shardPath` into this store (ATTACH, one
    /// transaction), refusing a shard of another spec, store schema or navbench version.
    ///
    /// - Returns: results copied (of every kind).
    public func absorb(shard shardPath: String, specSHA256: String) throws -> Int {
        // Read-only: a shard of another schema is refused, never rebuilt.
        var readOnly = GRDB.Configuration()
        readOnly.readonly = true
        let meta: [String: String], applied: [String]
        do {
            let shard = try DatabaseQueue(path: shardPath, configuration: readOnly)
            (meta, applied) = try shard.read { db in
                let applied = try resultsStoreMigrator.appliedMigrations(db)
                guard try db.tableExists("meta") else { return ([:], applied) }
                // Only the two names checked below, each value bounded (a shard is not trusted): one
                // longer than any navbench writes is read as its first 80 characters and an
                // ellipsis, which matches nothing and names what was found.
                let rows = try Row.fetchAll(
                    db,
                    sql: "SELECT name, CASE WHEN length(value) <= \(StoreLimits.label) THEN value ELSE substr(value, 1, 80) || '…' END "
                        + "FROM meta WHERE name IN ('navbench_version', 'spec_sha256') AND typeof(value) = 'text' LIMIT 4")
                return (Dictionary(rows.map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { a, _ in a }), applied)
            }
        } catch { throw ResultsStoreError.unreadable(path: shardPath, reason: "\(error)") }
        if applied != resultsStoreMigrator.migrations {
            throw ResultsStoreError.foreignShard(
                path: shardPath, field: "store schema", expected: ResultsStore.schemaIdentity,
                found: escapedForMessage(applied.last ?? "none (made before migrations)"))
        }
        if let v = meta["navbench_version"], v != NavbenchVersion.current {
            throw ResultsStoreError.foreignShard(
                path: shardPath, field: "navbench version", expected: NavbenchVersion.current, found: escapedForMessage(v))
        }
        if let s = meta["spec_sha256"], s != specSHA256 {
            throw ResultsStoreError.foreignShard(path: shardPath, field: "spec sha256", expected: specSHA256, found: escapedForMessage(s))
        }
        return try storeWrite(path) { try absorbChecked(shardPath) }
    }

    private func absorbChecked(_ shardPath: String) throws -> Int {
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS shard", arguments: [shardPath])
            defer { try? db.execute(sql: "DETACH DATABASE shard") }
            // Every table there, and every row within the limits, before anything is copied (one scan per table, in SQL).
            let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM shard.sqlite_master WHERE type = 'table'"))
            for table in ["results", "metrics", "inputs", "configurations", "artifacts", "failures"] where !tables.contains(table) {
                throw ResultsStoreError.incompleteShard(path: shardPath, table: table)
            }
            for check in shardChecks {
                if let row = try Row.fetchOne(db, sql: check.sql) {
                    throw ResultsStoreError.malformedShard(
                        path: shardPath, table: check.table, key: escapedForMessage(String.fromDatabaseValue(row[0] as DatabaseValue) ?? "NULL"),
                        problem: String.fromDatabaseValue(row[1] as DatabaseValue) ?? "malformed row")
                }
            }
            var copied = 0
            try db.inTransaction {
                // Streams in SQL (no result passes through Swift): memory O(1) in the shard's size.
                let resultColumns = ResultRecord.CodingKeys.allColumns
                try db.execute(sql: "INSERT OR IGNORE INTO results(\(resultColumns)) SELECT \(resultColumns) FROM shard.results")
                copied = db.changesCount
                let metricColumns = MetricRecord.CodingKeys.allColumns
                // A metric row whose result the shard lacks is not copied (the foreign key would refuse it).
                try db.execute(
                    sql: "INSERT OR IGNORE INTO metrics(\(metricColumns)) SELECT \(metricColumns) FROM shard.metrics "
                        + "WHERE result_key IN (SELECT key FROM shard.results)")
                try db.execute(sql: "INSERT OR IGNORE INTO inputs(path, sha256) SELECT path, sha256 FROM shard.inputs")
                try db.execute(
                    sql:
                        "INSERT OR IGNORE INTO configurations(label, options, parameters) SELECT label, options, parameters FROM shard.configurations"
                )
                let artifactColumns = ArtifactRecord.CodingKeys.allColumns
                try db.execute(
                    sql: "INSERT OR IGNORE INTO artifacts(\(artifactColumns)) SELECT \(artifactColumns) FROM shard.artifacts "
                        + "WHERE result_key IN (SELECT key FROM shard.results)")
                let failureColumns = FailureRecord.CodingKeys.allColumns
                try db.execute(
                    sql:
                        "INSERT OR REPLACE INTO failures(\(failureColumns)) SELECT \(failureColumns) FROM shard.failures WHERE key NOT IN (SELECT key FROM results)"
                )
                return .commit
            }
            return copied
        }
    }

    /// Every metric row as `result_key|name` → value (nil for NULL). For tests and small stores.
    public func metricRows() throws -> [String: Double?] {
        try pool.read { db in
            var out: [String: Double?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT result_key, name, value FROM metrics") {
                out[(row["result_key"] as String) + "|" + (row["name"] as String)] = row["value"] as Double?
            }
            return out
        }
    }

    /// `PRAGMA integrity_check` (the one line "ok" when the store is sound).
    public func integrityCheck() throws -> String {
        try pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }
}

extension CodingKey where Self: CaseIterable {
    /// The columns of a record, comma-separated, in declaration order.
    static var allColumns: String { allCases.map(\.stringValue).joined(separator: ", ") }
}

extension ResultRecord.CodingKeys: CaseIterable {}
extension MetricRecord.CodingKeys: CaseIterable {}
extension FailureRecord.CodingKeys: CaseIterable {}
extension ArtifactRecord.CodingKeys: CaseIterable {}

/// The first row of each attached shard table beyond the store's limits (`StoreLimits`), as
/// (key, problem), for `ResultsStore.absorb`'s checks before it copies.
private let shardChecks: [(table: String, sql: String)] = {
    let label = StoreLimits.label, name = StoreLimits.name
    let labels = ["route", "session", "configuration", "parameters", "note"]
    let longLabel = labels.map { "length(\($0)) > \(label)" }.joined(separator: " OR ")
    let results = [
        ("typeof(key) != 'text' OR length(key) != \(StoreLimits.key)", "key is not a 64-character hex SHA-256"),
        ("typeof(kind) != 'text' OR length(kind) > \(name)", "kind is not a name of at most \(name) characters"),
        ("typeof(unit_index) != 'integer' OR unit_index < 0", "unit_index is not a non-negative integer"),
        (longLabel, "a label is longer than \(label) characters"),
        ("length(checksum) != 64", "checksum is not a 64-character hex SHA-256"),
        ("typeof(seconds) NOT IN ('real', 'integer')", "seconds is not a number"),
    ]
    let metrics = [
        (
            "typeof(ordinal) != 'integer' OR ordinal < 0 OR ordinal >= \(StoreLimits.metricsPerRun)",
            "ordinal is not an integer 0…\(StoreLimits.metricsPerRun - 1)"
        ),
        ("length(name) > \(name) OR length(unit) > \(name)", "a metric name or unit is longer than \(name) characters"),
        ("typeof(value) NOT IN ('real', 'integer', 'null')", "value is neither a number nor NULL"),
        ("typeof(exact) NOT IN ('integer', 'null')", "exact is neither an integer nor NULL"),
    ]
    let failures = [
        (
            "length(key) > \(StoreLimits.key) OR length(kind) > \(name) OR length(input) > \(label) OR length(configuration) > \(label) OR length(message) > \(StoreLimits.message)",
            "a field is longer than its limit"
        )
    ]
    func check(_ table: String, key: String, _ conditions: [(String, String)]) -> (table: String, sql: String) {
        let cases = conditions.map { "WHEN \($0.0) THEN '\($0.1)'" }.joined(separator: " ")
        let any = conditions.map { "(\($0.0))" }.joined(separator: " OR ")
        return (table, "SELECT substr(\(key), 1, 80), CASE \(cases) END FROM shard.\(table) WHERE \(any) LIMIT 1")
    }
    let artifacts = [
        (
            "typeof(name) != 'text' OR length(name) > \(name) OR typeof(data) != 'blob' OR length(data) > \(StoreLimits.artifactBytes)",
            "an artifact is not a name of at most \(name) characters with at most \(StoreLimits.artifactBytes) bytes"
        )
    ]
    return [
        check("results", key: "key", results), check("metrics", key: "result_key", metrics), check("artifacts", key: "result_key", artifacts),
        check("failures", key: "key", failures),
    ]
}()

/// Writes results of any kind into a store in batched transactions (one writer: GRDB's queue).
final class ResultWriter: Sendable {
    let pool: DatabasePool
    private let pending: PendingBatch<StoredResult>

    init(pool: DatabasePool, batchSize: Int) {
        self.pool = pool
        pending = PendingBatch(size: batchSize)
    }

    /// The store's file (`pool.path`), named when a write fails.
    var path: String { pool.path }

    /// Queues a finished result; commits the batch when it is full.
    func add(_ result: StoredResult) throws { if let batch = pending.add(result) { try commit(batch) } }

    /// Commits the pending results.
    func flush() throws { let batch = pending.drain(); if !batch.isEmpty { try commit(batch) } }

    private func commit(_ batch: [StoredResult]) throws {
        try storeWrite(path) { try commitUnnamed(batch) }
    }

    private func commitUnnamed(_ batch: [StoredResult]) throws {
        try pool.write { db in
            for r in batch {
                try MetricRecord.filter(Column("result_key") == r.key).deleteAll(db)
                try ArtifactRecord.filter(Column("result_key") == r.key).deleteAll(db)
                try ResultRecord(
                    key: r.key, kind: r.kind, unitIndex: r.index, route: r.route, session: r.session, configuration: r.configuration,
                    parameters: r.parameters, recordingSHA256: r.recordingSHA256, navigationSHA256: r.navigationSHA256,
                    navbenchVersion: NavbenchVersion.current, seconds: r.seconds, note: r.note,
                    checksum: resultChecksum(
                        key: r.key, kind: r.kind, route: r.route, session: r.session, configuration: r.configuration,
                        parameters: r.parameters, note: r.note, metrics: r.metrics, artifacts: r.artifacts)
                ).insert(db, onConflict: .replace)
                for (i, m) in r.metrics.enumerated() {
                    let stored = ExactValue.encode(m.value)
                    try MetricRecord(resultKey: r.key, ordinal: i, name: m.name, value: stored.value, unit: m.unit, exact: stored.exact).insert(db)
                }
                for (name, bytes) in r.artifacts.sorted(by: { $0.key < $1.key }) {
                    try ArtifactRecord(resultKey: r.key, name: name, data: Data(bytes)).insert(db)
                }
                _ = try FailureRecord.deleteOne(db, key: r.key)
            }
        }
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

/// Reads results of a store inside one read transaction.
public struct StoreReader {
    let db: Database

    /// The result `key` with its metrics in their computed order, if present and its checksum
    /// verifies (nil otherwise: the unit is computed again). A row beyond the store's limits
    /// (`StoreLimits`) or of the wrong types is not returned: nothing longer reaches Swift.
    ///
    /// Complexity: O(m log n) for m metrics of n stored results (two index lookups).
    public func result(key: String) throws -> StoredResultRow? {
        let limits = ["route", "session", "configuration", "parameters", "note"].map { "length(\($0)) <= \(StoreLimits.label)" }
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT kind, route, session, configuration, parameters, note, checksum FROM results WHERE key = ? AND length(kind) <= "
                        + "\(StoreLimits.name) AND \(limits.joined(separator: " AND ")) AND length(checksum) = 64"),
                arguments: [key])
        else { return nil }
        var text: [String] = []
        for i in 0..<7 {
            guard let t = String.fromDatabaseValue(row[i] as DatabaseValue) else { return nil }
            text.append(t)
        }
        var metrics: [Metric] = []
        // Bounded in SQL: a name or unit over the limit arrives as NULL (the result is refused
        // without its text reaching Swift), one row past the count limit refuses it too.
        let cursor = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT CASE WHEN length(name) <= \(StoreLimits.name) THEN name END, value, "
                    + "CASE WHEN length(unit) <= \(StoreLimits.name) THEN unit END, exact FROM metrics WHERE result_key = ? "
                    + "ORDER BY ordinal LIMIT \(StoreLimits.metricsPerRun + 1)"),
            arguments: [key])
        while let m = try cursor.next() {
            guard metrics.count < StoreLimits.metricsPerRun else { return nil }
            // Converted without trapping: a row of the wrong types (edited, damaged) is not a result.
            guard let name = String.fromDatabaseValue(m[0] as DatabaseValue), let unit = String.fromDatabaseValue(m[2] as DatabaseValue),
                let value = ExactValue.decode(m[1], m[3])
            else { return nil }
            metrics.append(Metric(name, value, unit))
        }
        var artifacts: [String: [UInt8]] = [:]
        let artifactCursor = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT name, data FROM artifacts WHERE result_key = ? AND length(name) <= \(StoreLimits.name) "
                    + "AND length(data) <= \(StoreLimits.artifactBytes)"),
            arguments: [key])
        while let a = try artifactCursor.next() {
            guard let name = String.fromDatabaseValue(a[0] as DatabaseValue), let data = Data.fromDatabaseValue(a[1] as DatabaseValue) else {
                return nil
            }
            artifacts[name] = [UInt8](data)
        }
        let r = StoredResultRow(
            kind: text[0], route: text[1], session: text[2], configuration: text[3], parameters: text[4], note: text[5], metrics: metrics,
            artifacts: artifacts)
        let sum = resultChecksum(
            key: key, kind: r.kind, route: r.route, session: r.session, configuration: r.configuration, parameters: r.parameters,
            note: r.note, metrics: metrics, artifacts: artifacts)
        return sum == text[6] ? r : nil
    }

    /// The session label and metrics of unit `key` when its verified row is of kind `kind`
    /// (`result(key:)`). Labels are the unit's as stored; the caller names the session of its plan.
    public func metrics(key: String, kind: String) throws -> (session: String, metrics: [Metric])? {
        guard let r = try result(key: key), r.kind == kind else { return nil }
        return (r.session, r.metrics)
    }

    /// The names of the artifacts stored for unit `key` (not verified: `result(key:)` verifies them).
    func artifactNames(key: String) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT name FROM artifacts WHERE result_key = ? AND length(name) <= \(StoreLimits.name)"),
            arguments: [key])
    }

    /// The failure message stored for unit `key`, if any (within `StoreLimits.message`).
    public func failure(key: String) throws -> String? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT message FROM failures WHERE key = ? AND length(message) <= \(StoreLimits.message)"),
            arguments: [key]
        ).flatMap { String.fromDatabaseValue($0[0] as DatabaseValue) }
    }
}

/// The `kind` of a guidance replay run's row.
public let guidanceResultKind = "guidance"

/// SHA-256 of everything a report reads from a stored result (not its timing): fields
/// length-prefixed, numbers as their IEEE 754 bits (every NaN as one pattern). A row edited by
/// hand or damaged no longer matches and is computed again. Artifacts, when a result has any,
/// follow in name order (count, then each name and its bytes): a result without artifacts has
/// the checksum it had before the artifacts table.
func resultChecksum(
    key: String, kind: String, route: String, session: String, configuration: String, parameters: String, note: String, metrics: [Metric],
    artifacts: [String: [UInt8]] = [:]
) -> String {
    var d = FieldDigest()
    for s in [key, kind, route, session, configuration, parameters, note] { d.add(s) }
    d.add(UInt64(metrics.count))
    for m in metrics { d.add(m.name); d.add(m.value.isNaN ? Double.nan.bitPattern : m.value.bitPattern); d.add(m.unit) }
    if !artifacts.isEmpty {
        d.add(UInt64(artifacts.count))
        for (name, bytes) in artifacts.sorted(by: { $0.key < $1.key }) { d.add(name); d.add(bytes) }
    }
    return d.sha256
}

/// Fields hashed so that none can be mistaken for another's continuation: a string as its UTF-8
/// length (UInt64, little-endian) then its bytes, a number as its 8 little-endian bytes. The one
/// encoding of the store's row checksums (`resultChecksum`) and of result-kind keys (`workUnitKey`).
struct FieldDigest {
    /// The fields' bytes (one buffer, grown in place: a cached rerun digests every stored result).
    private var bytes: [UInt8] = []
    mutating func add(_ n: UInt64) { withUnsafeBytes(of: n.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { u in
            add(UInt64(u.count))
            bytes.append(contentsOf: u)
        }
    }
    mutating func add(_ b: [UInt8]) {
        add(UInt64(b.count))
        bytes.append(contentsOf: b)
    }
    /// SHA-256 of the fields added, lowercase hex.
    var sha256: String { sha256Hex(of: bytes) }
}

/// Runs `body`, a write to the store at `path`, turning SQLite's full-disk and I/O errors into a
/// write failure naming the store (exit 73, docs/exit-codes.md; was exit 1 and "SQLite error 13
/// … COMMIT TRANSACTION" naming no file).
func storeWrite<T>(_ path: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as DatabaseError where [.SQLITE_FULL, .SQLITE_IOERR].contains(e.resultCode) {
        throw TraceError(.writeFailed, file: path, "cannot write the results store (SQLite: \(e.message ?? "\(e.resultCode)"); disk full?)")
    }
}

/// Whether the file system holding `path`'s folder is mounted read-only (statvfs's ST_RDONLY).
func isOnReadOnlyFileSystem(_ path: String) -> Bool {
    var st = statvfs()
    let folder = (path as NSString).deletingLastPathComponent
    guard statvfs(folder.isEmpty ? "." : folder, &st) == 0 else { return false }
    return st.f_flag & UInt(ST_RDONLY) != 0
}
