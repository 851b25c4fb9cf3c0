import Foundation
import GRDB
import NavCore
import NavIO

/// Reads results of a store inside one read transaction.
public struct StoreReader {
    let db: Database

    /// The result `key` with its metrics in their computed order, if present and its checksum
    /// verifies (nil otherwise: the unit is computed again). A row beyond the store's limits
    /// (`StoreLimits`) or of the wrong types is not returned: nothing longer reaches Swift.
    ///
    /// Complexity: O(m log n) for m metrics of n stored results (two index lookups).
    public func result(key: String) throws -> StoredResultRow? {
        let limits = ["route", "session", "configuration", "parameters", "note"].map { "length(\($0)) <= \(StoreLimits.label)" }
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT kind, route, session, configuration, parameters, note, checksum FROM results WHERE key = ? AND length(kind) <= "
                        + "\(StoreLimits.name) AND \(limits.joined(separator: " AND ")) AND length(checksum) = 64"),
                arguments: [key])
        else { return nil }
        var text: [String] = []
        for i in 0..<7 {
            guard let t = String.fromDatabaseValue(row[i] as DatabaseValue) else { return nil }
            text.append(t)
        }
        var metrics: [Metric] = []
        // Bounded in SQL: a name or unit over the limit arrives as NULL (the result is refused
        // without its text reaching Swift), one row past the count limit refuses it too.
        let cursor = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT CASE WHEN length(name) <= \(StoreLimits.name) THEN name END, value, "
                    + "CASE WHEN length(unit) <= \(StoreLimits.name) THEN unit END, exact FROM metrics WHERE result_key = ? "
                    + "ORDER BY ordinal LIMIT \(StoreLimits.metricsPerRun + 1)"),
            arguments: [key])
        while let m = try cursor.next() {
            guard metrics.count < StoreLimits.metricsPerRun else { return nil }
            // Converted without trapping: a row of the wrong types (edited, damaged) is not a result.
            guard let name = String.fromDatabaseValue(m[0] as DatabaseValue), let unit = String.fromDatabaseValue(m[2] as DatabaseValue),
                let value = ExactValue.decode(m[1], m[3])
            else { return nil }
            metrics.append(Metric(name, value, unit))
        }
        var artifacts: [String: [UInt8]] = [:]
        let artifactCursor = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT name, data FROM artifacts WHERE result_key = ? AND length(name) <= \(StoreLimits.name) "
                    + "AND length(data) <= \(StoreLimits.artifactBytes)"),
            arguments: [key])
        while let a = try artifactCursor.next() {
            guard let name = String.fromDatabaseValue(a[0] as DatabaseValue), let data = Data.fromDatabaseValue(a[1] as DatabaseValue) else {
                return nil
            }
            artifacts[name] = [UInt8](data)
        }
        let r = StoredResultRow(
            kind: text[0], route: text[1], session: text[2], configuration: text[3], parameters: text[4], note: text[5], metrics: metrics,
            artifacts: artifacts)
        let sum = resultChecksum(
            key: key, kind: r.kind, route: r.route, session: r.session, configuration: r.configuration, parameters: r.parameters,
            note: r.note, metrics: metrics, artifacts: artifacts)
        return sum == text[6] ? r : nil
    }

    /// The session label and metrics of unit `key` when its verified row is of kind `kind`
    /// (`result(key:)`). Labels are the unit's as stored; the caller names the session of its plan.
    public func metrics(key: String, kind: String) throws -> (session: String, metrics: [Metric])? {
        guard let r = try result(key: key), r.kind == kind else { return nil }
        return (r.session, r.metrics)
    }

    /// The names of the artifacts stored for unit `key` (not verified: `result(key:)` verifies them).
    func artifactNames(key: String) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT name FROM artifacts WHERE result_key = ? AND length(name) <= \(StoreLimits.name)"),
            arguments: [key])
    }

    /// The failure message stored for unit `key`, if any (within `StoreLimits.message`).
    public func failure(key: String) throws -> String? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT message FROM failures WHERE key = ? AND length(message) <= \(StoreLimits.message)"),
            arguments: [key]
        ).flatMap { String.fromDatabaseValue($0[0] as DatabaseValue) }
    }
}
