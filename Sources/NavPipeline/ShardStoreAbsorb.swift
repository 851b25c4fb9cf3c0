import Foundation
import NavCore
import NavIO

// `merge`'s copy of a shard store into the report folder's store, checked before it copies.

extension ResultsStore {
    /// Copies the results of the shard store at `shardPath` into this store (ATTACH, one
    /// transaction), refusing a shard of another spec, store schema or navbench version.
    ///
    /// - Returns: results copied (of every kind).
    public func absorb(shard shardPath: String, specSHA256: String) throws -> Int {
        // Read-only: a shard of another schema is refused, never rebuilt.
        let meta: [String: String], applied: [String]
        do {
            let db = try SQLiteConnection(path: shardPath, readOnly: true)
            (meta, applied) = try db.inTransaction(immediate: false) {
                let applied = try resultsStoreMigrations.applied(db)
                guard try db.tableExists("meta") else { return ([:], applied) }
                // Only the two names checked below, each value bounded (a shard is not trusted): one
                // longer than any navbench writes is read as its first 80 characters and an
                // ellipsis, which matches nothing and names what was found.
                let rows = try db.rows(
                    sql: "SELECT name, CASE WHEN length(value) <= \(StoreLimits.label) THEN value ELSE substr(value, 1, 80) || '…' END "
                        + "FROM meta WHERE name IN ('navbench_version', 'spec_sha256') AND typeof(value) = 'text' LIMIT 4")
                let pairs = rows.compactMap { r in r[0].string.flatMap { n in r[1].string.map { (n, $0) } } }
                return (Dictionary(pairs, uniquingKeysWith: { a, _ in a }), applied)
            }
        } catch { throw ResultsStoreError.unreadable(path: shardPath, reason: "\(error)") }
        if applied != resultsStoreMigrations.identifiers {
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
            let tables = Set(try db.strings(sql: "SELECT name FROM shard.sqlite_master WHERE type = 'table'"))
            for table in ["results", "metrics", "inputs", "configurations", "artifacts", "failures"] where !tables.contains(table) {
                throw ResultsStoreError.incompleteShard(path: shardPath, table: table)
            }
            for check in shardChecks {
                if let row = try db.firstRow(sql: check.sql) {
                    throw ResultsStoreError.malformedShard(
                        path: shardPath, table: check.table, key: escapedForMessage(row[0].string ?? "NULL"),
                        problem: row[1].string ?? "malformed row")
                }
            }
            var copied = 0
            try db.inTransaction {
                // Streams in SQL (no result passes through Swift): memory O(1) in the shard's size.
                let resultColumns = StoreColumns.results
                try db.execute(sql: "INSERT OR IGNORE INTO results(\(resultColumns)) SELECT \(resultColumns) FROM shard.results")
                copied = db.changes
                let metricColumns = StoreColumns.metrics
                // A metric row whose result the shard lacks is not copied (the foreign key would refuse it).
                try db.execute(
                    sql: "INSERT OR IGNORE INTO metrics(\(metricColumns)) SELECT \(metricColumns) FROM shard.metrics "
                        + "WHERE result_key IN (SELECT key FROM shard.results)")
                try db.execute(sql: "INSERT OR IGNORE INTO inputs(path, sha256) SELECT path, sha256 FROM shard.inputs")
                try db.execute(
                    sql:
                        "INSERT OR IGNORE INTO configurations(label, options, parameters) SELECT label, options, parameters FROM shard.configurations"
                )
                let artifactColumns = StoreColumns.artifacts
                try db.execute(
                    sql: "INSERT OR IGNORE INTO artifacts(\(artifactColumns)) SELECT \(artifactColumns) FROM shard.artifacts "
                        + "WHERE result_key IN (SELECT key FROM shard.results)")
                let failureColumns = StoreColumns.failures
                try db.execute(
                    sql:
                        "INSERT OR REPLACE INTO failures(\(failureColumns)) SELECT \(failureColumns) FROM shard.failures WHERE key NOT IN (SELECT key FROM results)"
                )
            }
            return copied
        }
    }
}

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
        ),
        (
            "typeof(sha256) != 'text' OR length(sha256) != 64", "an artifact sha256 is not a 64-character hex SHA-256"
        ),
    ]
    return [
        check("results", key: "key", results), check("metrics", key: "result_key", metrics), check("artifacts", key: "result_key", artifacts),
        check("failures", key: "key", failures),
    ]
}()
