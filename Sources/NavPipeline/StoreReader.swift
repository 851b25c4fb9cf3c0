import Foundation
import NavCore
import NavIO

/// Reads results of a store inside one read transaction.
public struct StoreReader {
    let db: SQLiteConnection

    /// The result `key` with its metrics in their computed order, if present and its checksum
    /// verifies (nil otherwise: the unit is computed again). A row beyond the store's limits
    /// (`StoreLimits`) or of the wrong types is not returned: nothing longer reaches Swift.
    /// With `artifacts`, its artifacts' bytes are read too, each verified against its digest;
    /// without, the row verifies with the digests alone and `artifacts` is empty (the bytes'
    /// overflow pages are not read: the digest precedes them in the row).
    ///
    /// Complexity: O(m log n + a) for m metrics of n stored results and a artifact bytes read (three index lookups).
    public func result(key: String, artifacts withBytes: Bool = true) throws -> StoredResultRow? {
        let limits = ["route", "session", "configuration", "parameters", "note"].map { "length(\($0)) <= \(StoreLimits.label)" }
        guard
            let row = try db.firstRow(
                sql: "SELECT kind, route, session, configuration, parameters, note, checksum FROM results WHERE key = ? AND length(kind) <= "
                    + "\(StoreLimits.name) AND \(limits.joined(separator: " AND ")) AND length(checksum) = 64",
                arguments: [key], cached: true)
        else { return nil }
        var text: [String] = []
        for i in 0..<7 {
            guard let t = row[i].string else { return nil }
            text.append(t)
        }
        var metrics: [Metric] = []
        var refused = false
        // Bounded in SQL: a name or unit over the limit arrives as NULL (the result is refused
        // without its text reaching Swift), one row past the count limit refuses it too.
        try db.forEachRow(
            sql: "SELECT CASE WHEN length(name) <= \(StoreLimits.name) THEN name END, value, "
                + "CASE WHEN length(unit) <= \(StoreLimits.name) THEN unit END, exact FROM metrics WHERE result_key = ? "
                + "ORDER BY ordinal LIMIT \(StoreLimits.metricsPerRun + 1)",
            arguments: [key], cached: true
        ) { m in
            // Converted without trapping: a row of the wrong types (edited, damaged) is not a result.
            guard metrics.count < StoreLimits.metricsPerRun, let name = m[0].string, let unit = m[2].string,
                let value = ExactValue.decode(m[1], m[3])
            else {
                refused = true
                return false
            }
            metrics.append(Metric(name, value, unit))
            return true
        }
        if refused { return nil }
        var artifacts: [String: [UInt8]] = [:], digests: [String: String] = [:]
        // A digest not of 64 characters arrives as NULL; the bytes only when asked for.
        try db.forEachRow(
            sql: "SELECT name, CASE WHEN length(sha256) = 64 THEN sha256 END" + (withBytes ? ", data" : "")
                + " FROM artifacts WHERE result_key = ? AND length(name) <= \(StoreLimits.name) AND length(data) <= \(StoreLimits.artifactBytes)",
            arguments: [key], cached: true
        ) { a in
            guard let name = a[0].string, let digest = a[1].string else {
                refused = true
                return false
            }
            if withBytes {
                guard let data = a[2].bytes, artifactDigest(data) == digest else {
                    refused = true
                    return false
                }
                artifacts[name] = data
            }
            digests[name] = digest
            return true
        }
        if refused { return nil }
        let r = StoredResultRow(
            kind: text[0], route: text[1], session: text[2], configuration: text[3], parameters: text[4], note: text[5], metrics: metrics,
            artifacts: artifacts, artifactDigests: digests)
        let sum = resultChecksum(
            key: key, kind: r.kind, route: r.route, session: r.session, configuration: r.configuration, parameters: r.parameters,
            note: r.note, metrics: metrics, artifactDigests: digests)
        return sum == text[6] ? r : nil
    }

    /// The session label, metrics and artifact digests of unit `key` when its verified row is of
    /// kind `kind` (`result(key:artifacts:)` without the artifacts' bytes). Labels are the unit's
    /// as stored; the caller names the session of its plan.
    public func metrics(key: String, kind: String) throws -> (session: String, metrics: [Metric], artifactDigests: [String: String])? {
        guard let r = try result(key: key, artifacts: false), r.kind == kind else { return nil }
        return (r.session, r.metrics, r.artifactDigests)
    }

    /// The bytes of artifact `name` of unit `key` when they are within `StoreLimits` and verify
    /// against `digest`, the one the unit's verified row holds (`metrics(key:kind:)`); nil otherwise.
    ///
    /// Complexity: O(log n + bytes) for n stored artifacts (one index lookup).
    func artifact(key: String, name: String, digest: String) throws -> [UInt8]? {
        guard
            let row = try db.firstRow(
                sql: "SELECT data FROM artifacts WHERE result_key = ? AND name = ? AND sha256 = ? AND length(data) <= \(StoreLimits.artifactBytes)",
                arguments: [key, name, digest], cached: true),
            let data = row[0].bytes, artifactDigest(data) == digest
        else { return nil }
        return data
    }

    /// The failure message stored for unit `key`, if any (within `StoreLimits.message`).
    public func failure(key: String) throws -> String? {
        try db.firstRow(
            sql: "SELECT message FROM failures WHERE key = ? AND length(message) <= \(StoreLimits.message)", arguments: [key], cached: true)?[0]
            .string
    }
}
