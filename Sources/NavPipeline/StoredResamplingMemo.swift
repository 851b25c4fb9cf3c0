import Foundation
import GRDB
import NavIO
import NavReport
import Synchronization

/// The report's resampling memo (`ResamplingMemo`) kept in the results store's
/// `resampling_memo` table: read whole when a report starts (one row per cell, comparison and
/// main effect: a few thousand rows of ≤ 32 bytes), consulted by the statistics from several
/// threads, then `save`d: the results computed in this report added, the rows it did not use
/// removed (a memo never outgrows one report).
///
/// A row is trusted only as far as the store is: its checksum (SHA-256 of key and result) must
/// verify and its result be 1 to 4 numbers, else it is ignored (computed again, replaced).
final class StoredResamplingMemo: ResamplingMemo {
    /// Results by digest, as read.
    private let stored: [String: [Double]]
    private let state = Mutex((added: [String: [Double]](), used: Set<String>()))

    /// The most numbers one result holds (both bootstrap intervals).
    static let maximumResultCount = 4
    /// Rows read from a store at most (≈ 200 bytes each in memory): a store edited to hold more
    /// cannot make a report allocate without bound; results past it are computed again.
    static let maximumRows = 2_000_000

    /// Reads the memo of `store` (empty when it has none).
    ///
    /// - Throws: `ResultsStoreError` when the store cannot be read.
    /// - Complexity: O(rows).
    init(store: ResultsStore) throws {
        var stored: [String: [Double]] = [:]
        do {
            try store.pool.read { db in
                // Bounded in SQL (nothing longer reaches Swift; at most `maximumRows` rows are read).
                let rows = try Row.fetchCursor(
                    db,
                    sql: "SELECT key, result, checksum FROM resampling_memo WHERE typeof(key) = 'text' AND length(key) = 64 "
                        + "AND typeof(result) = 'blob' AND length(result) <= \(8 * Self.maximumResultCount) AND typeof(checksum) = 'text' "
                        + "AND length(checksum) = 64 LIMIT \(Self.maximumRows)")
                while let row = try rows.next() {
                    guard let key = String.fromDatabaseValue(row[0] as DatabaseValue), let data = Data.fromDatabaseValue(row[1] as DatabaseValue),
                        let checksum = String.fromDatabaseValue(row[2] as DatabaseValue),
                        data.count % 8 == 0, (8...(8 * Self.maximumResultCount)).contains(data.count),
                        checksum == Self.checksum(key: key, data: data)
                    else { continue }
                    let bytes = [UInt8](data)
                    stored[key] = stride(from: 0, to: bytes.count, by: 8).map { bytes.littleEndianDouble(at: $0) }
                }
            }
        } catch { throw ResultsStoreError.unreadable(path: store.path, reason: "\(error)") }
        self.stored = stored
    }

    func lookup(_ key: ResamplingKey) -> [Double]? {
        guard let r = stored[key.digest] else { return nil }
        state.withLock { _ = $0.used.insert(key.digest) }
        return r
    }

    func record(_ key: ResamplingKey, _ result: [Double]) {
        guard (1...Self.maximumResultCount).contains(result.count) else { return }
        state.withLock { $0.added[key.digest] = result }
    }

    /// Results computed by this report (not read from the memo).
    var computed: Int { state.withLock { $0.added.count } }

    /// Leaves in the store exactly the results this report used or computed, in one transaction:
    /// nothing is written when it used every row and computed nothing (a cached rerun); otherwise
    /// the table is rewritten, which also drops rows the reader skipped (damaged, oversized).
    ///
    /// - Throws: `TraceError.writeFailed` when the store cannot be written (a full disk).
    /// - Complexity: O(rows kept) when anything changed.
    func save(to store: ResultsStore) throws {
        let (added, used) = state.withLock { ($0.added, $0.used) }
        try storeWrite(store.path) {
            try store.pool.write { db in
                let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM resampling_memo") ?? 0
                if added.isEmpty && rows == used.count { return }
                var kept = added
                for key in used where kept[key] == nil { kept[key] = stored[key] }
                try db.execute(sql: "DELETE FROM resampling_memo")
                for key in kept.keys.sorted() {
                    let data = Self.bytes(kept[key]!)
                    try db.execute(
                        sql: "INSERT INTO resampling_memo(key, result, checksum) VALUES (?, ?, ?)",
                        arguments: [key, data, Self.checksum(key: key, data: data)])
                }
            }
        }
    }

    /// The result's doubles, little-endian (`appendLittleEndian`, as the artifacts).
    static func bytes(_ result: [Double]) -> Data {
        var out: [UInt8] = []
        for v in result { out.appendLittleEndian(v) }
        return Data(out)
    }

    static func checksum(key: String, data: Data) -> String {
        var d = FieldDigest()
        d.add("resampling_memo")
        d.add(key)
        d.add([UInt8](data))
        return d.sha256
    }
}
