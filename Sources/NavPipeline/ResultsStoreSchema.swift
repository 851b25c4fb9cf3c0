import Foundation
import NavCore
import NavIO

// The results store's schema: its limits, the values a row holds, the exact-value encoding, the
// columns and migrations, and the row checksum (docs/experiments.md, "Results store").

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
    /// Its artifacts by name (verified with the row: their digests are in its checksum); empty
    /// when read without them (`StoreReader.result(key:artifacts:)`).
    public var artifacts: [String: [UInt8]] = [:]
    /// Its artifacts' digests by name (`artifactDigest`), verified with the row.
    public var artifactDigests: [String: String] = [:]
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
    static func decode(_ value: SQLiteValue, _ exact: SQLiteValue) -> Double? {
        let v: Double?
        switch value {
        case .null: v = nil
        case .real(let d): v = d
        case .integer(let i): v = Double(i)
        default: return nil
        }
        let e: Int64?
        switch exact {
        case .null: e = nil
        case .integer(let i): e = i
        default: return nil
        }
        return decode(value: v, exact: e)
    }
}

/// The columns of each table, in order, as `INSERT … SELECT` lists them.
enum StoreColumns {
    static let results =
        "key, kind, unit_index, route, session, configuration, parameters, recording_sha256, navigation_sha256, navbench_version, seconds, note, checksum"
    static let metrics = "result_key, ordinal, name, value, unit, exact"
    static let artifacts = "result_key, name, sha256, data"
    static let failures = "key, kind, unit_index, input, configuration, message"
}

/// The store's migrations, recorded in `grdb_migrations` (the table GRDB kept them in: a store
/// written before navbench used SQLite's C API opens unchanged). A store made before them
/// (schema 3: `runs`, `closed_loop_cells`) is emptied by the first (it is a cache of results,
/// recomputable from the inputs); a store with a migration this navbench does not know is emptied
/// and rebuilt the same way.
let resultsStoreMigrations = SQLiteMigrations(
    table: "grdb_migrations",
    [
        (
            "v4: one results table for every kind",
            ["metrics", "failures", "runs", "configurations", "inputs", "closed_loop_cells", "meta", "results"].map { "DROP TABLE IF EXISTS \($0);" }
                .joined()
                    + """
                    CREATE TABLE "meta" ("name" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);
                    CREATE TABLE "inputs" ("path" TEXT PRIMARY KEY NOT NULL, "sha256" TEXT NOT NULL);
                    CREATE TABLE "configurations" ("label" TEXT PRIMARY KEY NOT NULL, "options" TEXT NOT NULL, "parameters" TEXT NOT NULL);
                    CREATE TABLE "results" ("key" TEXT PRIMARY KEY NOT NULL, "kind" TEXT NOT NULL, "unit_index" INTEGER NOT NULL, \
                    "route" TEXT NOT NULL, "session" TEXT NOT NULL, "configuration" TEXT NOT NULL, "parameters" TEXT NOT NULL, \
                    "recording_sha256" TEXT NOT NULL, "navigation_sha256" TEXT NOT NULL, "navbench_version" TEXT NOT NULL, \
                    "seconds" DOUBLE NOT NULL, "note" TEXT NOT NULL, "checksum" TEXT NOT NULL);
                    CREATE INDEX "results_by_cell" ON "results"("kind", "route", "configuration");
                    CREATE TABLE "metrics" ("result_key" TEXT NOT NULL REFERENCES "results"("key") ON DELETE CASCADE, \
                    "ordinal" INTEGER NOT NULL, "name" TEXT NOT NULL, "value" DOUBLE, "unit" TEXT NOT NULL, "exact" INTEGER, \
                    PRIMARY KEY ("result_key", "ordinal")) WITHOUT ROWID;
                    CREATE INDEX "metrics_by_name" ON "metrics"("name", "value");
                    CREATE TABLE "failures" ("key" TEXT PRIMARY KEY NOT NULL, "kind" TEXT NOT NULL, "unit_index" INTEGER NOT NULL, \
                    "input" TEXT NOT NULL, "configuration" TEXT NOT NULL, "message" TEXT NOT NULL);
                    """
        ),
        (
            "v5: artifacts",
            """
            CREATE TABLE "artifacts" ("result_key" TEXT NOT NULL REFERENCES "results"("key") ON DELETE CASCADE, \
            "name" TEXT NOT NULL, "data" BLOB NOT NULL, PRIMARY KEY ("result_key", "name")) WITHOUT ROWID;
            """
        ),
        (
            "v6: resampling memo",
            """
            CREATE TABLE "resampling_memo" ("key" TEXT PRIMARY KEY NOT NULL, "result" BLOB NOT NULL, "checksum" TEXT NOT NULL) WITHOUT ROWID;
            """
        ),
        ("v7: resampling memo rows marked used", #"ALTER TABLE "resampling_memo" ADD COLUMN "used" INTEGER NOT NULL DEFAULT 0"#),
        // The digest before the bytes, so that a row is read to its digest without its bytes'
        // overflow pages; a rowid table, so that a lookup compares (key, name) in its index, not
        // whole rows (a WITHOUT ROWID key holds the row, and a seek read every blob it passed).
        // Artifacts stored before it are dropped: their results no longer verify and are computed again.
        (
            "v8: artifact digests",
            """
            DROP TABLE "artifacts";
            CREATE TABLE "artifacts" ("result_key" TEXT NOT NULL REFERENCES "results"("key") ON DELETE CASCADE, \
            "name" TEXT NOT NULL, "sha256" TEXT NOT NULL, "data" BLOB NOT NULL, PRIMARY KEY ("result_key", "name"));
            """
        ),
    ])

/// SHA-256 of everything a report reads from a stored result (not its timing): fields
/// length-prefixed, numbers as their IEEE 754 bits (every NaN as one pattern). A row edited by
/// hand or damaged no longer matches and is computed again. Artifacts, when a result has any,
/// follow in name order (count, then each name and the SHA-256 of its bytes, `artifactDigest`,
/// which the artifacts table keeps beside them): a row verifies without reading its artifacts'
/// bytes, and the bytes verify against their digest when they are read. A result without
/// artifacts has the checksum it had before the artifacts table.
func resultChecksum(
    key: String, kind: String, route: String, session: String, configuration: String, parameters: String, note: String, metrics: [Metric],
    artifactDigests: [String: String] = [:]
) -> String {
    var d = FieldDigest()
    for s in [key, kind, route, session, configuration, parameters, note] { d.add(s) }
    d.add(UInt64(metrics.count))
    for m in metrics { d.add(m.name); d.add(m.value.isNaN ? Double.nan.bitPattern : m.value.bitPattern); d.add(m.unit) }
    if !artifactDigests.isEmpty {
        d.add(UInt64(artifactDigests.count))
        for (name, digest) in artifactDigests.sorted(by: { $0.key < $1.key }) { d.add(name); d.add(digest) }
    }
    return d.sha256
}

/// The digest of an artifact's bytes in the store and in its result's checksum: SHA-256, lowercase hex.
func artifactDigest(_ bytes: [UInt8]) -> String { sha256Hex(of: bytes) }

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
