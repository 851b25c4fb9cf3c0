import Foundation
import GRDB
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

/// Runs `body`, a write to the store at `path`, turning SQLite's full-disk and I/O errors into a
/// write failure naming the store (exit 73, docs/exit-codes.md; was exit 1 and "SQLite error 13
/// … COMMIT TRANSACTION" naming no file).
func storeWrite<T>(_ path: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as DatabaseError where [.SQLITE_FULL, .SQLITE_IOERR].contains(e.resultCode) {
        throw TraceError(.writeFailed, file: path, "cannot write the results store (SQLite: \(e.message ?? "\(e.resultCode)"); disk full?)")
    }
}
