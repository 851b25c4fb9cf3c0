import Foundation
import NavCore
import NavIO
import Synchronization

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

/// Writes results of any kind into a store in batched transactions (one writer: `SQLitePool`'s).
final class ResultWriter: Sendable {
    let pool: SQLitePool
    private let pending: PendingBatch<StoredResult>

    init(pool: SQLitePool, batchSize: Int) {
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
                try db.execute(sql: "DELETE FROM metrics WHERE result_key = ?", arguments: [r.key], cached: true)
                try db.execute(sql: "DELETE FROM artifacts WHERE result_key = ?", arguments: [r.key], cached: true)
                let artifacts = r.artifacts.sorted(by: { $0.key < $1.key }).map { (name: $0.key, bytes: $0.value, digest: artifactDigest($0.value)) }
                let digests = Dictionary(uniqueKeysWithValues: artifacts.map { ($0.name, $0.digest) })
                let checksum = resultChecksum(
                    key: r.key, kind: r.kind, route: r.route, session: r.session, configuration: r.configuration, parameters: r.parameters,
                    note: r.note, metrics: r.metrics, artifactDigests: digests)
                let row: [any SQLiteBindable] = [
                    r.key, r.kind, r.index, r.route, r.session, r.configuration, r.parameters, r.recordingSHA256, r.navigationSHA256,
                    NavbenchVersion.current, r.seconds, r.note, checksum,
                ]
                try db.execute(
                    sql: "INSERT OR REPLACE INTO results(\(StoreColumns.results)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: row,
                    cached: true)
                for (i, m) in r.metrics.enumerated() {
                    let stored = ExactValue.encode(m.value)
                    try db.execute(
                        sql: "INSERT INTO metrics(\(StoreColumns.metrics)) VALUES (?, ?, ?, ?, ?, ?)",
                        arguments: [r.key, i, m.name, stored.value, m.unit, stored.exact], cached: true)
                }
                for a in artifacts {
                    try db.execute(
                        sql: "INSERT INTO artifacts(\(StoreColumns.artifacts)) VALUES (?, ?, ?, ?)", arguments: [r.key, a.name, a.digest, a.bytes],
                        cached: true)
                }
                try db.execute(sql: "DELETE FROM failures WHERE key = ?", arguments: [r.key], cached: true)
            }
        }
    }
}

/// Runs `body`, a write to the store at `path`, turning SQLite's full-disk and I/O errors into a
/// write failure naming the store (exit 73, docs/exit-codes.md; was exit 1 and "SQLite error 13
/// … COMMIT TRANSACTION" naming no file).
func storeWrite<T>(_ path: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as SQLiteError where [SQLiteError.full, SQLiteError.ioError].contains(e.code) {
        throw TraceError(.writeFailed, file: path, "cannot write the results store (SQLite: \(e.message); disk full?)")
    }
}
