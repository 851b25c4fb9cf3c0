import Foundation
import NavIO
import NavReport
import Synchronization

/// The report's resampling memo (`ResamplingMemo`) kept in the results store's
/// `resampling_memo` table, never held in memory (it has a row per cell, comparison and main
/// effect: ≈ 500 a route at 10 configurations, so holding it grew the report by routes ×
/// configurations): each lookup is one indexed read of a snapshot of the store taken when the
/// report starts (none when the memo is empty), from any thread; the rows a
/// report uses are marked `used` and the results it computes are written, both in batches of
/// `batchSize`; `save` writes the last batch and removes the rows the report did not use (a
/// memo never outgrows one report).
///
/// A row is trusted only as far as the store is: its checksum (SHA-256 of key and result) must
/// verify and its result be 1 to 4 numbers (bounded in SQL: nothing longer reaches Swift), else
/// it is ignored (computed again, replaced).
///
/// Memory: O(batch). Cost: one read per lookup, one write per batch, one per report for the marks.
final class StoredResamplingMemo: ResamplingMemo {
    private let store: ResultsStore
    /// The memo as the report found it, read without a transaction per lookup (one read
    /// transaction held for the report; nil when the memo was empty: a cold run looks nothing up).
    private let snapshot: SQLiteSnapshot?
    /// Marks and results not yet written, the count computed, and the first write error.
    private let state = Mutex((used: [String](), added: [(key: String, result: [Double])](), computed: 0, error: TraceError?.none))

    /// The most numbers one result holds (both bootstrap intervals).
    static let maximumResultCount = 4
    /// Marks and results written per transaction, in key order (the table is keyed by a digest:
    /// inserting a batch sorted touches each B-tree page once, not once per row).
    static let batchSize = 8192

    /// The memo of `store` (empty when it has none), its rows' marks cleared: this report marks
    /// the rows it uses.
    ///
    /// - Throws: `TraceError.writeFailed` for a full disk, `ResultsStoreError` when the store
    ///   cannot be written.
    init(store: ResultsStore) throws {
        self.store = store
        do {
            let rows = try storeWrite(store.path) {
                try store.pool.write { db in
                    try db.execute(sql: "UPDATE resampling_memo SET used = 0 WHERE used != 0")
                    return try db.firstRow(sql: "SELECT COUNT(*) FROM resampling_memo")?[0].integer ?? 0
                }
            }
            snapshot = rows == 0 ? nil : try store.pool.makeSnapshot()
        } catch let e as TraceError {
            throw e
        } catch { throw ResultsStoreError.unreadable(path: store.path, reason: "\(error)") }
    }

    func lookup(_ key: ResamplingKey) -> [Double]? {
        guard let snapshot else { return nil }
        let digest = key.digest
        let found = try? snapshot.read { db -> [Double]? in
            guard
                let row = try db.firstRow(
                    sql: "SELECT result, checksum FROM resampling_memo WHERE key = ? AND typeof(result) = 'blob' "
                        + "AND length(result) <= \(8 * Self.maximumResultCount) AND typeof(checksum) = 'text' AND length(checksum) = 64",
                    arguments: [digest], cached: true),
                let bytes = row[0].bytes, let checksum = row[1].string,
                bytes.count % 8 == 0, (8...(8 * Self.maximumResultCount)).contains(bytes.count),
                checksum == Self.checksum(key: digest, data: bytes)
            else { return nil }
            return stride(from: 0, to: bytes.count, by: 8).map { bytes.littleEndianDouble(at: $0) }
        }
        guard let result = found else { return nil }
        let batch = state.withLock { s -> (used: [String], added: [(key: String, result: [Double])])? in
            s.used.append(digest)
            return s.used.count + s.added.count >= Self.batchSize ? Self.take(&s) : nil
        }
        if let batch { write(batch) }
        return result
    }

    func record(_ key: ResamplingKey, _ result: [Double]) {
        guard (1...Self.maximumResultCount).contains(result.count) else { return }
        let batch = state.withLock { s -> (used: [String], added: [(key: String, result: [Double])])? in
            s.added.append((key.digest, result))
            s.computed += 1
            return s.used.count + s.added.count >= Self.batchSize ? Self.take(&s) : nil
        }
        if let batch { write(batch) }
    }

    /// Results computed by this report (not read from the memo).
    var computed: Int { state.withLock { $0.computed } }

    /// Writes the last batch, then removes the rows this report did not use or compute (stale
    /// results, and rows the reader skipped: damaged, oversized), in one transaction each.
    ///
    /// - Throws: `TraceError.writeFailed` naming the store when it cannot be written (a full
    ///   disk), this batch's or the first of a batch written earlier.
    /// - Complexity: O(rows) in SQLite.
    func save() throws {
        let batch = state.withLock { Self.take(&$0) }
        write(batch)
        // A batch's error as it was thrown (a full disk is `TraceError.writeFailed`, not an unreadable store).
        if let e = state.withLock({ $0.error }) { throw e }
        try storeWrite(store.path) {
            try store.pool.write { db in try db.execute(sql: "DELETE FROM resampling_memo WHERE used = 0") }
        }
    }

    /// The pending marks and results, taken out of `s`.
    private static func take(
        _ s: inout (used: [String], added: [(key: String, result: [Double])], computed: Int, error: TraceError?)
    ) -> (used: [String], added: [(key: String, result: [Double])]) {
        defer { s.used = []; s.added = [] }
        return (s.used, s.added)
    }

    /// Marks `used` and writes `added` (marked too) in one transaction; an error is kept for `save`.
    private func write(_ batch: (used: [String], added: [(key: String, result: [Double])])) {
        guard !batch.used.isEmpty || !batch.added.isEmpty else { return }
        do {
            try storeWrite(store.path) {
                try store.pool.write { db in
                    for key in batch.used.sorted() {
                        try db.execute(sql: "UPDATE resampling_memo SET used = 1 WHERE key = ?", arguments: [key], cached: true)
                    }
                    for (key, result) in batch.added.sorted(by: { $0.key < $1.key }) {
                        let data = Self.bytes(result)
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO resampling_memo(key, result, checksum, used) VALUES (?, ?, ?, 1)",
                            arguments: [key, data, Self.checksum(key: key, data: data)], cached: true)
                    }
                }
            }
        } catch {
            // One line naming the store: a full disk as `storeWrite` says it, anything else too.
            let e = error as? TraceError ?? TraceError(.writeFailed, file: store.path, "cannot write the resampling memo (\(error))")
            state.withLock { $0.error = $0.error ?? e }
        }
    }

    /// The result's doubles, little-endian (`appendLittleEndian`, as the artifacts).
    static func bytes(_ result: [Double]) -> [UInt8] {
        var out: [UInt8] = []
        for v in result { out.appendLittleEndian(v) }
        return out
    }

    static func checksum(key: String, data: [UInt8]) -> String {
        var d = FieldDigest()
        d.add("resampling_memo")
        d.add(key)
        d.add(data)
        return d.sha256
    }
}
