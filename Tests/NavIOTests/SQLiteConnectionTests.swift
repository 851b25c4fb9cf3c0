import Foundation
import NavTestSupport
import Testing

@testable import NavIO

/// SQLite's C API through `SQLiteConnection`, `SQLitePool` and `SQLiteMigrations`, checked against
/// SQLite's documented behaviour (https://sqlite.org/datatype3.html, /c3ref/bind_blob.html,
/// /lang_transaction.html, /wal.html).
@Suite struct SQLiteConnectionTests {
    /// Each storage class comes back as it was bound, in a column without affinity; a NaN is
    /// bound as NULL (SQLite has no NaN), an empty blob is not NULL.
    @Test func valuesComeBackAsBound() throws {
        let dir = temporaryFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = try SQLiteConnection(path: dir + "/v.sqlite")
        try db.execute(sql: "CREATE TABLE t(i INTEGER PRIMARY KEY, v)")
        let values: [SQLiteValue] = [
            .null, .integer(.min), .integer(.max), .real(-0.5), .real(.infinity), .text(""), .text("a\u{0}b é 🦯"), .blob([]),
            .blob([0, 255, 0]),
        ]
        for (i, v) in values.enumerated() { try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [i, v], cached: true) }
        let back = try db.rows(sql: "SELECT v FROM t ORDER BY i").map { $0[0] }
        #expect(back == values)
        #expect(try db.firstRow(sql: "SELECT typeof(v) FROM t WHERE i = 7")?[0] == .text("blob"))
        try db.execute(sql: "INSERT INTO t VALUES (100, ?)", arguments: [Double.nan])
        #expect(try db.firstRow(sql: "SELECT v FROM t WHERE i = 100")?[0] == .null)
        // SQLite's own conversions: text read as bytes, a UTF-8 blob read as text, invalid UTF-8 as no text.
        #expect(SQLiteValue.text("é").bytes == [0xC3, 0xA9])
        #expect(SQLiteValue.blob([0x61]).string == "a")
        #expect(SQLiteValue.blob([0xFF]).string == nil)
    }

    /// A database at its size limit fails with SQLITE_FULL (13), the code the results store turns
    /// into a write failure naming its file; the transaction is rolled back whole.
    @Test func aFullDatabaseIsSQLiteFullAndRolledBack() throws {
        let dir = temporaryFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = try SQLiteConnection(path: dir + "/full.sqlite")
        try db.execute(sql: "CREATE TABLE t(v BLOB); PRAGMA max_page_count = 8")
        do {
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t VALUES (x'00')")
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [[UInt8](repeating: 1, count: 100_000)])
            }
            Issue.record("a 100 kB blob fitted in 8 pages")
        } catch let e as SQLiteError {
            #expect(e.code == SQLiteError.full && e.code == 13)
            #expect(!e.description.contains("\n"))
        }
        #expect(try db.firstRow(sql: "SELECT COUNT(*) FROM t")?[0] == .integer(0))
    }

    /// Several statements run in order; a failing one names its SQL.
    @Test func scriptsRunAndErrorsNameTheStatement() throws {
        let dir = temporaryFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = try SQLiteConnection(path: dir + "/s.sqlite")
        try db.execute(sql: "CREATE TABLE a(x); INSERT INTO a VALUES (1); INSERT INTO a VALUES (2); -- done")
        #expect(try db.strings(sql: "SELECT group_concat(x) FROM a") == ["1,2"])
        #expect(try db.columns(in: "a") == ["x"])
        #expect(try db.tableExists("a") && !db.tableExists("b"))
        #expect(throws: SQLiteError.self) { try db.execute(sql: "SELECT * FROM b") }
        do { try db.execute(sql: "SELECT * FROM b") } catch let e as SQLiteError {
            #expect(e.description == "SQLite error 1: no such table: b - while executing `SELECT * FROM b`")
        }
        // A statement over several lines (a migration's) is named on one line.
        do { try db.execute(sql: "SELECT *\n    FROM b\n") } catch let e as SQLiteError {
            #expect(e.description == "SQLite error 1: no such table: b - while executing `SELECT * FROM b`")
        }
    }

    /// A snapshot keeps reading the database as it was when made (WAL), a new read sees the
    /// commit; a write that throws leaves nothing.
    @Test func poolReadsAreSnapshots() throws {
        let dir = temporaryFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let pool = try SQLitePool(path: dir + "/p.sqlite")
        try pool.write { try $0.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (1)") }
        let snapshot = try pool.makeSnapshot()
        try pool.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try pool.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (3)")
                throw Stop()
            }
        }
        #expect(try snapshot.read { try $0.strings(sql: "SELECT group_concat(v) FROM t") } == ["1"])
        #expect(try pool.read { try $0.strings(sql: "SELECT group_concat(v) FROM t") } == ["1,2"])
        #expect(try pool.read { try $0.strings(sql: "PRAGMA journal_mode") } == ["wal"])
        #expect(throws: SQLiteError.self) { try pool.read { try $0.execute(sql: "INSERT INTO t VALUES (4)") } }
    }

    /// Migrations run once each, in order; a database recording one unknown here is superseded,
    /// and erasing its schema leaves no table.
    @Test func migrationsRunOnceAndKnowTheirOwn() throws {
        let dir = temporaryFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = try SQLiteConnection(path: dir + "/m.sqlite")
        let m = SQLiteMigrations(table: "migrations", [("one", "CREATE TABLE a(x)"), ("two", "INSERT INTO a VALUES (1)")])
        #expect(try m.applied(db).isEmpty)
        try m.migrate(db)
        try m.migrate(db)
        #expect(try m.applied(db) == ["one", "two"])
        #expect(try db.firstRow(sql: "SELECT COUNT(*) FROM a")?[0] == .integer(1))
        #expect(try !m.hasBeenSuperseded(db))
        try db.execute(sql: "INSERT INTO migrations VALUES ('three'); CREATE VIEW v AS SELECT x FROM a")
        #expect(try m.hasBeenSuperseded(db))
        try db.eraseSchema()
        #expect(try db.strings(sql: "SELECT name FROM sqlite_master").isEmpty)
    }
}
