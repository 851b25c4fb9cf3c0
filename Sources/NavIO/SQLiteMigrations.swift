/// A database's schema as a list of migrations, each applied once in its own transaction and
/// recorded by its identifier in a table of the database.
public struct SQLiteMigrations: Sendable {
    /// The table recording the applied identifiers (one TEXT primary-key column `identifier`).
    public let table: String
    /// Identifiers and statements, in order.
    public let migrations: [(identifier: String, sql: String)]

    public init(table: String, _ migrations: [(identifier: String, sql: String)]) {
        self.table = table
        self.migrations = migrations
    }

    /// The identifiers, in order.
    public var identifiers: [String] { migrations.map(\.identifier) }

    /// Every identifier recorded in `db` (none when the table is missing), known here or not.
    public func appliedIdentifiers(_ db: SQLiteConnection) throws -> Set<String> {
        guard try db.tableExists(table) else { return [] }
        return Set(try db.strings(sql: "SELECT identifier FROM \"\(table)\""))
    }

    /// The known identifiers recorded in `db`, in migration order.
    public func applied(_ db: SQLiteConnection) throws -> [String] {
        let done = try appliedIdentifiers(db)
        return identifiers.filter(done.contains)
    }

    /// Whether `db` records a migration not known here (a newer program's).
    public func hasBeenSuperseded(_ db: SQLiteConnection) throws -> Bool {
        let known = Set(identifiers)
        return try appliedIdentifiers(db).contains { !known.contains($0) }
    }

    /// Applies the migrations `db` has not recorded, in order, each in its own transaction.
    public func migrate(_ db: SQLiteConnection) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \"\(table)\" (identifier TEXT NOT NULL PRIMARY KEY)")
        let done = try appliedIdentifiers(db)
        for m in migrations where !done.contains(m.identifier) {
            try db.inTransaction {
                try db.execute(sql: m.sql)
                try db.execute(sql: "INSERT INTO \"\(table)\"(identifier) VALUES (?)", arguments: [m.identifier])
            }
        }
    }
}
