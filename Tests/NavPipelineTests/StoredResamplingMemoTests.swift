import Foundation
import NavCore
import NavIO
import Testing

@testable import NavPipeline

/// The resampling memo kept in the results store: a cached rerun's report is the cold run's bytes
/// and draws nothing again (every row used, none added); a row whose result was edited is not
/// trusted (its checksum fails: computed again, replaced) and the report is still the same bytes.
@Suite struct StoredResamplingMemoTests {
    static let sweep = "sweep:\n  rdp_tolerance: [0.3, 1.0]\n  registration: [gravity-aligned, full]\n"

    func memoRows(_ path: String) throws -> [String: [UInt8]] {
        let rows = try SQLiteConnection(path: path).rows(sql: "SELECT key, result FROM resampling_memo")
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0].string ?? "", $0[1].bytes ?? []) })
    }

    @Test func aCachedRerunReadsTheMemoAndWritesTheSameReport() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = try ExperimentSpec.parse(
            "name: t\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(dir)/out\n" + Self.sweep, file: "t.yaml")
        _ = try runExperiment(spec, workers: 2, command: "test")
        let files = ["summary.md", "cells.csv", "comparisons.csv", "routes/R1-corridor.md"]
        func read() throws -> [String] { try files.map { try String(contentsOfFile: "\(dir)/out/\($0)", encoding: .utf8) } }
        let cold = try read()
        let storePath = experimentStorePath(spec)
        let rows = try memoRows(storePath)
        #expect(rows.count >= 4, "cells of the sweep's configurations are memoised")
        // A cached rerun: every row used (none removed), none added, the same report.
        _ = try runExperiment(spec, workers: 2, command: "test")
        #expect(try read() == cold)
        #expect(try memoRows(storePath) == rows)
        // An edited result (the checksum no longer verifies) is computed again and replaced.
        let victim = try #require(rows.keys.sorted().first)
        try SQLiteConnection(path: storePath).execute(
            sql: "UPDATE resampling_memo SET result = ? WHERE key = ?",
            arguments: [StoredResamplingMemo.bytes([Double](repeating: 1e9, count: rows[victim]!.count / 8)), victim])
        _ = try runExperiment(spec, workers: 2, command: "test")
        #expect(try read() == cold)
        #expect(try memoRows(storePath) == rows)
        // Rows a store was edited to hold (a 1 MiB result, a key of the wrong length, a number for
        // a checksum) are not read, do not change the report, and are gone after it.
        try SQLiteConnection(path: storePath).execute(
            sql: "INSERT INTO resampling_memo(key, result, checksum) VALUES (?, ?, ?), ('short', x'00', 'c'), (?, x'0000000000000000', 7)",
            arguments: [
                String(repeating: "a", count: 64), [UInt8](repeating: 0, count: 1 << 20), String(repeating: "b", count: 64),
                String(repeating: "c", count: 64),
            ])
        _ = try runExperiment(spec, workers: 2, command: "test")
        #expect(try read() == cold)
        #expect(try memoRows(storePath) == rows)
    }
}
