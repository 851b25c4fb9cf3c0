import Foundation
import NavCore
import NavIO
import Synchronization

// The results store of an experiment: `OUTPUT/results.sqlite` (SQLite, WAL; `SQLitePool`). One
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

/// The SQLite results store: one writer (`SQLitePool`'s, serialised), results written in
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
    let pool: SQLitePool

    /// Opens (creating or migrating if needed) the store at `path`.
    public init(path: String) throws {
        self.path = path
        do {
            // Shards of a folder share no store, but a reader may be attached: a lock is waited for 60 s.
            pool = try storeWrite(path) {
                let pool = try SQLitePool(path: path, busyTimeoutMilliseconds: 60_000)
                try pool.writeWithoutTransaction { db in
                    // A store of a newer navbench (a migration unknown here) is a cache: emptied, rebuilt.
                    if try resultsStoreMigrations.hasBeenSuperseded(db) { try db.eraseSchema() }
                    try resultsStoreMigrations.migrate(db)
                }
                return pool
            }
        } catch let e as TraceError {
            throw e
        } catch {
            throw ResultsStoreError.unreadable(path: path, reason: "\(error)")
        }
    }

    /// The store schema's identity: its last migration.
    static var schemaIdentity: String { resultsStoreMigrations.identifiers.last ?? "" }

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
                    try db.rows(
                        sql: "SELECT CASE WHEN length(\(key)) <= \(StoreLimits.label) THEN \(key) END, "
                            + "CASE WHEN length(\(value)) <= \(StoreLimits.label) THEN \(value) END FROM \(table) LIMIT \(rows + 1)"
                    ).reduce(into: [String: String]()) { d, row in
                        if let n = row[0].string, let v = row[1].string { d[n] = v }
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
            try db.forEachRow(sql: "SELECT key FROM results") { row in
                if let k = row[0].string { keys.insert(k) }
                return true
            }
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
                try db.execute(
                    sql: "INSERT OR REPLACE INTO failures(\(StoreColumns.failures)) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [key, kind, index, input, configuration, message])
            }
        }
    }

    /// Every metric row as `result_key|name` → value (nil for NULL). For tests and small stores.
    public func metricRows() throws -> [String: Double?] {
        try pool.read { db in
            var out: [String: Double?] = [:]
            for row in try db.rows(sql: "SELECT result_key, name, value FROM metrics") {
                guard let key = row[0].string, let name = row[1].string else { continue }
                out[key + "|" + name] = .some(row[2].double)
            }
            return out
        }
    }

    /// `PRAGMA integrity_check` (the one line "ok" when the store is sound).
    public func integrityCheck() throws -> String {
        try pool.read { db in try db.strings(sql: "PRAGMA integrity_check").joined(separator: "\n") }
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

/// The `kind` of a guidance replay run's row.
public let guidanceResultKind = "guidance"

/// Whether the file system holding `path`'s folder is mounted read-only (statvfs's ST_RDONLY).
func isOnReadOnlyFileSystem(_ path: String) -> Bool {
    var st = statvfs()
    let folder = (path as NSString).deletingLastPathComponent
    guard statvfs(folder.isEmpty ? "." : folder, &st) == 0 else { return false }
    return st.f_flag & UInt(ST_RDONLY) != 0
}
