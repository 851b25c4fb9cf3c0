import Foundation
import NavCore
import NavIO
import Testing

@testable import NavPipeline

/// An artifact is stored with the SHA-256 of its bytes (migration v8), and its result's checksum
/// covers that digest: the metrics table verifies a row without reading its artifacts' bytes, and
/// the bytes verify against their digest when a plot or a cell reads them.
@Suite struct ArtifactDigestTests {
    static let sweep = "sweep:\n  rdp_tolerance: [0.3, 1.0]\n  registration: [gravity-aligned, full]\n"

    func replay(_ dir: String) throws -> (spec: ExperimentSpec, plan: ExperimentPlan, store: ResultsStore) {
        let text = "name: t\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(dir)/out\n" + Self.sweep
        let spec = try ExperimentSpec.parse(text, file: "t.yaml")
        let plan = planExperiment(spec)
        _ = try runExperiment(spec, workers: 2, command: "test")
        return (spec, plan, try ResultsStore(path: experimentStorePath(spec)))
    }

    /// The digest column is SHA-256 of the bytes: FIPS 180-2's first example ("abc").
    @Test func theDigestIsSHA256OfTheBytes() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try ResultsStore(path: dir + "/s.sqlite")
        let writer = store.writer(batchSize: ResultsStore.batchSize)
        let key = String(repeating: "a", count: 64)
        try writer.add(
            StoredResult(
                key: key, kind: "k", index: 0, route: "r", session: "s", configuration: "c", seconds: 0, metrics: [Metric("m", 1, "m")],
                artifacts: ["x": Array("abc".utf8)]))
        try writer.flush()
        let digest = try store.pool.read { try $0.strings(sql: "SELECT sha256 FROM artifacts WHERE result_key = ?", arguments: [key]) }
        #expect(digest == ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"])
        let row = try #require(try store.read { try $0.result(key: key) })
        #expect(row.artifacts == ["x": Array("abc".utf8)])
        let withoutBytes = try #require(try store.read { try $0.result(key: key, artifacts: false) })
        #expect(withoutBytes.artifacts.isEmpty && withoutBytes.metrics == row.metrics)
    }

    /// An artifact's bytes edited in the file (same length, digest untouched): the row's metrics
    /// still verify, its bytes do not, so the report runs that plot run again and draws the
    /// plots of an untouched store.
    @Test func editedBytesAreRunAgainForThePlot() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let (_, plan, store) = try replay(dir)
        let plots = try FileManager.default.contentsOfDirectory(atPath: dir + "/out/plots").filter { $0.hasSuffix(".svg") }.sorted()
        let cold = try plots.map { try Data(contentsOf: URL(fileURLWithPath: dir + "/out/plots/" + $0)) }
        let victim = plan.jobs[1].key
        try store.pool.write { db in
            // Zero bytes of the same length; the digest stays.
            try db.execute(sql: "UPDATE artifacts SET data = zeroblob(length(data)) WHERE result_key = ?", arguments: [victim])
        }
        #expect(try store.read { try $0.result(key: victim) } == nil)
        #expect(try store.read { try $0.metrics(key: victim, kind: guidanceResultKind) } != nil)
        let recorder = PhaseRecorder()
        _ = try writeExperimentReport(
            plan, store: store, kinds: ExperimentKinds.standard.map { $0.plan(plan) }, failures: [], command: "test", facts: [:],
            progress: recorder.handler)
        #expect(recorder.steps("plot runs").map(\.total) == [1])
        #expect(try plots.map { try Data(contentsOf: URL(fileURLWithPath: dir + "/out/plots/" + $0)) } == cold)
    }

    /// A digest edited, or the artifact gone (migration v8 drops those stored before digests),
    /// fails the row: neither read returns it and the run is computed again.
    @Test(arguments: [
        "UPDATE artifacts SET sha256 = upper(sha256)", "UPDATE artifacts SET sha256 = substr(sha256, 2) || '0'", "DELETE FROM artifacts",
    ])
    func anEditedOrMissingDigestIsComputedAgain(_ edit: String) throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let (spec, plan, store) = try replay(dir)
        let victim = plan.jobs[2].key
        try store.pool.write { db in try db.execute(sql: edit + " WHERE result_key = ?", arguments: [victim]) }
        #expect(try store.read { try $0.result(key: victim) } == nil)
        #expect(try store.read { try $0.result(key: victim, artifacts: false) } == nil)
        let (done, _, computed) = try executeReplay(plan, storePath: experimentStorePath(spec), workers: 1)
        #expect(computed == 1 && done == plan.jobs.count)
        #expect(try store.read { try $0.result(key: victim) } != nil)
    }

    /// A store of migration v7 (artifacts without digests) opens migrated: the artifacts table
    /// is rebuilt with the digest before the bytes, the old artifacts are gone, their results are
    /// computed again, and the report is the one of a fresh store.
    @Test func aStoreOfV7IsMigratedAndItsArtifactResultsComputedAgain() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let (spec, plan, _) = try replay(dir)
        let metricsCSV = try String(contentsOfFile: dir + "/out/metrics.csv", encoding: .utf8)
        let path = experimentStorePath(spec)
        do {
            let db = try SQLiteConnection(path: path)
            try db.execute(
                sql: """
                    DROP TABLE artifacts;
                    CREATE TABLE "artifacts" ("result_key" TEXT NOT NULL REFERENCES "results"("key") ON DELETE CASCADE,
                    "name" TEXT NOT NULL, "data" BLOB NOT NULL, PRIMARY KEY ("result_key", "name")) WITHOUT ROWID;
                    INSERT INTO artifacts SELECT key, 'plot_paths', x'00' FROM results;
                    DELETE FROM grdb_migrations WHERE identifier = 'v8: artifact digests';
                    """)
        }
        let store = try ResultsStore(path: path)
        #expect(try store.pool.read { try $0.columns(in: "artifacts") } == ["result_key", "name", "sha256", "data"])
        #expect(try store.pool.read { try $0.strings(sql: "SELECT name FROM artifacts") }.isEmpty)
        let (done, _, computed) = try executeReplay(plan, storePath: path, workers: 2)
        #expect(computed == plan.jobs.count && done == plan.jobs.count)
        _ = try writeExperimentReport(plan, store: store, failures: [], command: "test", facts: [:])
        #expect(try String(contentsOfFile: dir + "/out/metrics.csv", encoding: .utf8) == metricsCSV)
    }
}
