import CSQLite
import Foundation

// One connection to an SQLite database through SQLite's C API: statements with bound arguments,
// rows read as SQLite stored them, transactions, cached statements. The results store's layer
// (NavPipeline) uses it through `SQLitePool`; nothing here knows that store's schema.

/// A value as SQLite stores it: one of its five storage classes.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// A TEXT value, or a BLOB holding valid UTF-8 (SQLite's own conversion); nil otherwise.
    public var string: String? {
        switch self {
        case .text(let s): return s
        case .blob(let b): return String(bytes: b, encoding: .utf8)
        default: return nil
        }
    }

    /// A BLOB's bytes, or a TEXT value's UTF-8 (SQLite's own conversion); nil otherwise.
    public var bytes: [UInt8]? {
        switch self {
        case .blob(let b): return b
        case .text(let s): return Array(s.utf8)
        default: return nil
        }
    }

    /// A REAL value, or an INTEGER one converted; nil otherwise.
    public var double: Double? {
        switch self {
        case .real(let d): return d
        case .integer(let i): return Double(i)
        default: return nil
        }
    }

    /// An INTEGER value; nil for every other class (no conversion).
    public var integer: Int64? { if case .integer(let i) = self { i } else { nil } }
}

/// A Swift value bound to a statement's parameter.
public protocol SQLiteBindable: Sendable {
    var sqliteValue: SQLiteValue { get }
}

extension SQLiteValue: SQLiteBindable { public var sqliteValue: SQLiteValue { self } }
extension String: SQLiteBindable { public var sqliteValue: SQLiteValue { .text(self) } }
extension Int: SQLiteBindable { public var sqliteValue: SQLiteValue { .integer(Int64(self)) } }
extension Int64: SQLiteBindable { public var sqliteValue: SQLiteValue { .integer(self) } }
extension Double: SQLiteBindable { public var sqliteValue: SQLiteValue { .real(self) } }
extension Array: SQLiteBindable where Element == UInt8 { public var sqliteValue: SQLiteValue { .blob(self) } }
extension Optional: SQLiteBindable where Wrapped: SQLiteBindable { public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null } }

/// An SQLite error: its result code, SQLite's message and the statement that failed.
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// SQLite's extended result code (`SQLITE_IOERR_WRITE`, …).
    public var extendedCode: Int32
    public var message: String
    public var sql: String?

    /// The primary result code (`SQLITE_FULL`, `SQLITE_IOERR`, …).
    public var code: Int32 { extendedCode & 0xff }

    /// `SQLITE_FULL`: the disk (or the database's size limit) is full.
    public static let full = SQLITE_FULL
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    public static let ioError = SQLITE_IOERR

    public var description: String {
        // One line: a statement's line breaks and indentation (a migration's) as single spaces;
        // SQLite's message can quote names from the file, escaped as every message's text is.
        let statement = sql.map { escapedForMessage($0.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }
        return "SQLite error \(code): \(escapedForMessage(message, limit: 400))" + (statement.map { " - while executing `\($0)`" } ?? "")
    }
}

/// A row of a query, valid only inside the call that receives it.
public struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    /// Columns of the row.
    public var count: Int { Int(sqlite3_column_count(statement)) }

    /// Column `i` (0-based) as stored.
    public subscript(_ i: Int) -> SQLiteValue {
        let c = Int32(i)
        switch sqlite3_column_type(statement, c) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, c))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, c))
        case SQLITE_TEXT:
            let n = Int(sqlite3_column_bytes(statement, c))
            guard let p = sqlite3_column_text(statement, c), n > 0 else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(statement, c))
            guard let p = sqlite3_column_blob(statement, c), n > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: p, count: n)))
        default: return .null
        }
    }

    /// Every column, in order.
    public var values: [SQLiteValue] { (0..<count).map { self[$0] } }
}

/// SQLite's `SQLITE_TRANSIENT`: the library copies a bound text or blob before the call returns.
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One open SQLite database connection.
///
/// Not for concurrent use: one thread at a time, its owner serialising the calls (`SQLitePool`
/// holds a lock around each). Foreign keys are enforced; a locked database is waited for up to
/// the busy timeout.
public final class SQLiteConnection: @unchecked Sendable {
    public let path: String
    private let handle: OpaquePointer
    /// Prepared statements by their SQL (`cached: true`), reset after each use.
    private var cache: [String: OpaquePointer] = [:]

    /// Opens `path` (creating it unless `readOnly`).
    ///
    /// - Throws: `SQLiteError` when SQLite cannot open it.
    public init(path: String, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 60_000) throws {
        self.path = path
        var h: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &h, flags, nil)
        guard rc == SQLITE_OK, let h else {
            let message = h.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(h)
            throw SQLiteError(extendedCode: rc, message: message, sql: nil)
        }
        handle = h
        sqlite3_extended_result_codes(h, 1)
        sqlite3_busy_timeout(h, busyTimeoutMilliseconds)
        do { try execute(sql: "PRAGMA foreign_keys = ON") } catch {
            sqlite3_close_v2(h)
            throw error
        }
    }

    deinit {
        for s in cache.values { sqlite3_finalize(s) }
        sqlite3_close_v2(handle)
    }

    private func error(_ rc: Int32, _ sql: String?) -> SQLiteError {
        // With extended result codes on, `rc` is already the extended code.
        SQLiteError(extendedCode: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs `sql` with `arguments` bound to its parameters in order; several statements
    /// separated by semicolons when there are neither arguments nor caching.
    public func execute(sql: String, arguments: [any SQLiteBindable] = [], cached: Bool = false) throws {
        if arguments.isEmpty && !cached {
            try sql.withCString { start in
                var next: UnsafePointer<CChar>? = start
                while let tail = next, tail.pointee != 0 {
                    var statement: OpaquePointer?
                    let rc = sqlite3_prepare_v2(handle, tail, -1, &statement, &next)
                    guard rc == SQLITE_OK else { throw error(rc, sql) }
                    guard let statement else { continue }  // only a comment or white space was left
                    defer { sqlite3_finalize(statement) }
                    while try step(statement, sql) {}
                }
            }
        } else {
            try forEachRow(sql: sql, arguments: arguments, cached: cached) { _ in true }
        }
    }

    /// Calls `body` with each row of `sql` until it returns false.
    ///
    /// - Parameter cached: keep the prepared statement for the next call with the same SQL.
    public func forEachRow(sql: String, arguments: [any SQLiteBindable] = [], cached: Bool = false, _ body: (SQLiteRow) throws -> Bool) throws {
        let statement = try prepare(sql, cached: cached)
        defer {
            if cached {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            } else {
                sqlite3_finalize(statement)
            }
        }
        for (i, a) in arguments.enumerated() { try bind(a.sqliteValue, at: Int32(i + 1), statement, sql) }
        while try step(statement, sql) {
            guard try body(SQLiteRow(statement: statement)) else { return }
        }
    }

    /// Every row of `sql`.
    public func rows(sql: String, arguments: [any SQLiteBindable] = [], cached: Bool = false) throws -> [[SQLiteValue]] {
        var out: [[SQLiteValue]] = []
        try forEachRow(sql: sql, arguments: arguments, cached: cached) {
            out.append($0.values); return true
        }
        return out
    }

    /// The first row of `sql`, if any.
    public func firstRow(sql: String, arguments: [any SQLiteBindable] = [], cached: Bool = false) throws -> [SQLiteValue]? {
        var out: [SQLiteValue]?
        try forEachRow(sql: sql, arguments: arguments, cached: cached) {
            out = $0.values; return false
        }
        return out
    }

    /// The first column of every row whose value is text (`SQLiteValue.string`).
    public func strings(sql: String, arguments: [any SQLiteBindable] = []) throws -> [String] {
        var out: [String] = []
        try forEachRow(sql: sql, arguments: arguments) { row in
            if let s = row[0].string { out.append(s) }
            return true
        }
        return out
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether the database has a table named `name`.
    public func tableExists(_ name: String) throws -> Bool {
        try firstRow(sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name]) != nil
    }

    /// The columns of table `table`, in order (`PRAGMA table_info`).
    public func columns(in table: String) throws -> [String] {
        try strings(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
    }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE` takes the write lock at once; deferred
    /// otherwise): committed when it returns, rolled back when it or the commit throws.
    public func inTransaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try execute(sql: immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let result = try body()
            try execute(sql: "COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute(sql: "ROLLBACK") }
            throw error
        }
    }

    /// Drops every table, view and trigger (their indexes with them), then vacuums: an empty
    /// database in the same file, for a cache whose schema this program does not know.
    public func eraseSchema() throws {
        try execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? execute(sql: "PRAGMA foreign_keys = ON") }
        try inTransaction {
            let objects = try rows(
                sql: "SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger', 'table') AND name NOT LIKE 'sqlite_%'")
            for o in objects {
                guard let type = o[0].string, let name = o[1].string else { continue }
                try execute(sql: "DROP \(type.uppercased()) IF EXISTS \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
            }
        }
        try execute(sql: "VACUUM")
    }

    private func prepare(_ sql: String, cached: Bool) throws -> OpaquePointer {
        if cached, let s = cache[sql] { return s }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc == SQLITE_OK ? SQLITE_MISUSE : rc, sql) }
        if cached { cache[sql] = statement }
        return statement
    }

    private func bind(_ value: SQLiteValue, at i: Int32, _ statement: OpaquePointer, _ sql: String) throws {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(statement, i)
        case .integer(let v): rc = sqlite3_bind_int64(statement, i, v)
        case .real(let v): rc = sqlite3_bind_double(statement, i, v)
        case .text(let s) where s.isEmpty:
            rc = sqlite3_bind_text64(statement, i, "", 0, transient, UInt8(SQLITE_UTF8))
        case .text(let s):
            var s = s
            rc = s.withUTF8 { u in
                u.withMemoryRebound(to: CChar.self) { c in
                    sqlite3_bind_text64(statement, i, c.baseAddress, UInt64(c.count), transient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let b) where b.isEmpty:
            rc = sqlite3_bind_zeroblob(statement, i, 0)  // a NULL pointer would bind NULL, not an empty blob
        case .blob(let b):
            rc = b.withUnsafeBytes { u in sqlite3_bind_blob64(statement, i, u.baseAddress, UInt64(u.count), transient) }
        }
        guard rc == SQLITE_OK else { throw error(rc, sql) }
    }

    /// One step: true when a row is ready, false when the statement is done.
    private func step(_ statement: OpaquePointer, _ sql: String) throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let rc: throw error(rc, sql)
        }
    }
}
