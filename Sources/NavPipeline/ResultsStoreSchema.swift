import Foundation
import GRDB
import NavCore
import NavIO

// The results store's schema: its limits, the values a row holds, the exact-value encoding, the
// GRDB records and migrations, and the row checksum (docs/experiments.md, "Results store").

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

extension CodingKey where Self: CaseIterable {
    /// The columns of a record, comma-separated, in declaration order.
    static var allColumns: String { allCases.map(\.stringValue).joined(separator: ", ") }
}

extension ResultRecord.CodingKeys: CaseIterable {}
extension MetricRecord.CodingKeys: CaseIterable {}
extension FailureRecord.CodingKeys: CaseIterable {}
extension ArtifactRecord.CodingKeys: CaseIterable {}

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
