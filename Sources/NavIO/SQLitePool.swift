import Foundation
import Synchronization

/// An SQLite database in WAL mode shared by threads: one writer connection, its writes
/// serialised, and reader connections reused across reads, each read in its own transaction (a
/// snapshot of the last commit), beside the writer and each other.
///
/// `synchronous = NORMAL`: in WAL mode a killed process loses no committed transaction.
public final class SQLitePool: Sendable {
    public let path: String
    private let writer: SQLiteConnection
    private let writeLock = NSLock()
    /// Reader connections not in use (at most `maximumIdleReaders` kept).
    private let idleReaders = Mutex<[SQLiteConnection]>([])
    private static let maximumIdleReaders = 8
    private let busyTimeoutMilliseconds: Int32

    /// Opens (creating) the database at `path` and puts it in WAL mode.
    ///
    /// - Throws: `SQLiteError` when it cannot be opened or is not a database.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 60_000) throws {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        writer = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try writer.execute(sql: "PRAGMA journal_mode = WAL")
        try writer.execute(sql: "PRAGMA synchronous = NORMAL")
    }

    /// Runs `body` in a write transaction (committed when it returns, rolled back when it throws).
    public func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        writeLock.lock()
        defer { writeLock.unlock() }
        return try writer.inTransaction { try body(writer) }
    }

    /// Runs `body` on the writer connection outside a transaction (`ATTACH`, `VACUUM`, migrations).
    public func writeWithoutTransaction<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        writeLock.lock()
        defer { writeLock.unlock() }
        return try body(writer)
    }

    /// Runs `body` in a read transaction on a reader connection: it sees the last commit before
    /// its first statement, whatever the writer commits meanwhile.
    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let reader = try idleReaders.withLock { $0.popLast() } ?? openReader()
        let result = try reader.inTransaction(immediate: false) { try body(reader) }
        idleReaders.withLock { if $0.count < Self.maximumIdleReaders { $0.append(reader) } }
        return result
    }

    /// A snapshot: the database as it is now, read from any thread until the snapshot is released.
    public func makeSnapshot() throws -> SQLiteSnapshot { try SQLiteSnapshot(openReader()) }

    private func openReader() throws -> SQLiteConnection {
        let c = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try c.execute(sql: "PRAGMA query_only = 1")
        return c
    }
}

/// One read transaction held open: every read sees the database as it was when the snapshot was
/// made. Reads from several threads are serialised.
public final class SQLiteSnapshot: Sendable {
    private let connection: SQLiteConnection
    private let lock = NSLock()

    init(_ connection: SQLiteConnection) throws {
        self.connection = connection
        try connection.execute(sql: "BEGIN DEFERRED")
        // A read starts the snapshot (BEGIN alone takes none).
        _ = try connection.firstRow(sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
    }

    deinit { try? connection.execute(sql: "ROLLBACK") }

    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}
