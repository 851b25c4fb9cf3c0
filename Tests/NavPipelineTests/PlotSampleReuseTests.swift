import Foundation
import NavCore
import NavIO
import Synchronization
import Testing

@testable import NavPipeline

/// The run phase stores the paths of the plot sample's runs (`ReplayPlotPaths`), so a report
/// (a cold run's, a cached rerun's, a merge's) draws its plots from the store and runs nothing
/// again; the plots are the bytes a report re-running the sample writes.
@Suite struct PlotSampleReuseTests {
    static let sweep = "sweep:\n  rdp_tolerance: [0.3, 1.0]\n  registration: [gravity-aligned, full]\n"

    func plotFiles(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder + "/plots").filter {
            $0.hasSuffix("-paths.svg") || $0.hasSuffix("-error-cdf.svg")
        }.sorted()
    }

    @Test func storedPathsDrawTheSamePlotsAsReRuns() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = "name: t\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(dir)/out\n" + Self.sweep
        let spec = try ExperimentSpec.parse(text, file: "t.yaml")
        let plan = planExperiment(spec)
        // Every run of this small sweep is in the plot sample: each is stored with its paths.
        #expect(Set(PlotSample.ofWholePlan(plan).indices) == Set(plan.jobs.map(\.index)))
        _ = try runExperiment(spec, workers: 2, command: "test")
        let store = try ResultsStore(path: experimentStorePath(spec))
        for job in plan.jobs {
            let row = try #require(try store.read { try $0.result(key: job.key) })
            let paths = try #require(row.artifacts[ReplayPlotPaths.artifactName].flatMap { ReplayPlotPaths(bytes: $0) })
            #expect(!paths.truePath.isEmpty && !paths.positionErrors.isEmpty)
        }
        let plots = try plotFiles(dir + "/out")
        #expect(plots.count == 2)
        let cold = try plots.map { try String(contentsOfFile: dir + "/out/plots/" + $0, encoding: .utf8) }
        // The paths plot draws walked paths (polylines), not just the route.
        #expect(cold[1].components(separatedBy: "<polyline").count > 3)
        // A report from the store runs no plot run again.
        let recorder = PhaseRecorder()
        _ = try writeExperimentReport(
            plan, store: store, kinds: ExperimentKinds.standard.map { $0.plan(plan) }, failures: [], command: "test", facts: [:],
            progress: recorder.handler)
        #expect(!recorder.phases.contains("plot runs"))
        // Without the stored paths (a store of a navbench before them) the sample is run again,
        // and the plots are the same bytes: the stored paths are exactly the computed ones.
        try Self.dropStoredPaths(plan, spec: spec, store: store)
        for p in plots { try FileManager.default.removeItem(atPath: dir + "/out/plots/" + p) }
        let rerunRecorder = PhaseRecorder()
        _ = try writeExperimentReport(
            plan, store: try ResultsStore(path: experimentStorePath(spec)), kinds: ExperimentKinds.standard.map { $0.plan(plan) }, failures: [],
            command: "test", facts: [:],
            progress: rerunRecorder.handler)
        #expect(rerunRecorder.phases.contains("plot runs"))
        let rerun = try plots.map { try String(contentsOfFile: dir + "/out/plots/" + $0, encoding: .utf8) }
        #expect(cold == rerun)
    }

    /// Makes the store one of a navbench before stored paths: the `plot_paths` artifacts
    /// deleted, each row's checksum what it is without them.
    static func dropStoredPaths(_ plan: ExperimentPlan, spec: ExperimentSpec, store: ResultsStore) throws {
        let rows = try plan.jobs.map { job in (job.key, try #require(try store.read { try $0.result(key: job.key) })) }
        let db = try SQLiteConnection(path: experimentStorePath(spec))
        try db.inTransaction {
            try db.execute(sql: "DELETE FROM artifacts WHERE name = ?", arguments: [ReplayPlotPaths.artifactName])
            // The rows' checksums covered the artifacts: the checksums a store without paths has.
            for (key, r) in rows {
                let sum = resultChecksum(
                    key: key, kind: r.kind, route: r.route, session: r.session, configuration: r.configuration,
                    parameters: r.parameters, note: r.note, metrics: r.metrics)
                try db.execute(sql: "UPDATE results SET checksum = ? WHERE key = ?", arguments: [sum, key])
            }
        }
    }

    /// Routes' files are written on the cores side by side: with two routes to re-run, the
    /// progress still counts each re-run once, 1, 2, … up to the sample's size, and the files
    /// are those of the cold run.
    @Test func reRunsAcrossRoutesCountOnceEach() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = "name: t\ninputs:\n  - \(datasets)/R1-corridor_*.h5\n  - \(datasets)/R2-turns_*.h5\noutput: \(dir)/out\n" + Self.sweep
        let spec = try ExperimentSpec.parse(text, file: "t.yaml")
        let plan = planExperiment(spec)
        _ = try runExperiment(spec, workers: 2, command: "test")
        let plots = try plotFiles(dir + "/out")
        #expect(plots.count == 4)
        let cold = try plots.map { try String(contentsOfFile: dir + "/out/plots/" + $0, encoding: .utf8) }
        let routeCSVs = try ["R1-corridor", "R2-turns"].map { try String(contentsOfFile: dir + "/out/routes/\($0).csv", encoding: .utf8) }
        try Self.dropStoredPaths(plan, spec: spec, store: try ResultsStore(path: experimentStorePath(spec)))
        try FileManager.default.removeItem(atPath: dir + "/out/plots")
        try FileManager.default.removeItem(atPath: dir + "/out/routes")
        let recorder = PhaseRecorder()
        _ = try writeExperimentReport(
            plan, store: try ResultsStore(path: experimentStorePath(spec)), kinds: ExperimentKinds.standard.map { $0.plan(plan) }, failures: [],
            command: "test", facts: [:],
            progress: recorder.handler)
        let counted = recorder.steps("plot runs")
        let sampled = PlotSample.ofWholePlan(plan).indices.count
        #expect(sampled > 0 && counted.map(\.done) == Array(1...sampled) && counted.allSatisfy { $0.total == sampled })
        #expect(try plots.map { try String(contentsOfFile: dir + "/out/plots/" + $0, encoding: .utf8) } == cold)
        #expect(try ["R1-corridor", "R2-turns"].map { try String(contentsOfFile: dir + "/out/routes/\($0).csv", encoding: .utf8) } == routeCSVs)
    }

    /// Shards store their part of the sample; the merged store has all of it, and the merge's
    /// report runs nothing again and equals the unsharded one.
    @Test func mergeDrawsFromTheShardsPaths() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        func spec(_ out: String) throws -> ExperimentSpec {
            try ExperimentSpec.parse("name: t\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(out)\n" + Self.sweep, file: "t.yaml")
        }
        let whole = try spec(dir + "/whole"), sharded = try spec(dir + "/sharded")
        _ = try runExperiment(whole, workers: 2, command: "test")
        for k in 1...2 { _ = try runExperiment(sharded, workers: 1, shard: k, shards: 2, command: "test") }
        _ = try mergeExperiment(sharded, command: "test")
        let plan = planExperiment(sharded)
        let store = try ResultsStore(path: experimentStorePath(sharded))
        let recorder = PhaseRecorder()
        _ = try writeExperimentReport(
            plan, store: store, kinds: ExperimentKinds.standard.map { $0.plan(plan) }, failures: [], command: "test", facts: [:],
            progress: recorder.handler)
        #expect(!recorder.phases.contains("plot runs"))
        for p in try plotFiles(dir + "/whole") {
            let a = try String(contentsOfFile: dir + "/whole/plots/" + p, encoding: .utf8)
            let b = try String(contentsOfFile: dir + "/sharded/plots/" + p, encoding: .utf8)
            #expect(a == b, "\(p)")
        }
    }

    /// The encoding keeps every value's bits (NaN, −0, infinities) and refuses damaged bytes.
    @Test func pathsRoundTripExactlyAndDamageIsRefused() throws {
        let result = JobResult(
            route: "r", session: "s", configuration: "c", parameters: [], metrics: [],
            truePath: [[1.5, -0.0], [.infinity, 3]], estimatedPath: [[.nan, 2]], route2D: [[0, 1], [-2.5, 4]],
            positionErrors: [0.1, .leastNonzeroMagnitude, -.infinity])
        let paths = ReplayPlotPaths(result)
        let bytes = try #require(paths.bytes(limit: 1 << 20))
        let back = try #require(ReplayPlotPaths(bytes: bytes))
        #expect(back.truePath[0][1].sign == .minus && back.truePath[0][1] == 0)
        #expect(back.estimatedPath[0][0].isNaN)
        #expect(back.positionErrors.map(\.bitPattern) == paths.positionErrors.map(\.bitPattern))
        let backBits: [UInt64] = back.truePath.joined().map(\.bitPattern), pathBits: [UInt64] = paths.truePath.joined().map(\.bitPattern)
        #expect(backBits == pathBits)
        // Without the walked paths: those left empty, the route and the errors the same bits.
        let unwalked = try #require(ReplayPlotPaths(bytes: bytes, walkedPaths: false))
        #expect(unwalked.truePath.isEmpty && unwalked.estimatedPath.isEmpty && unwalked.route2D == paths.route2D)
        #expect(unwalked.positionErrors.map(\.bitPattern) == paths.positionErrors.map(\.bitPattern))
        #expect(ReplayPlotPaths(bytes: Array(bytes.dropLast()), walkedPaths: false) == nil)
        #expect(ReplayPlotPaths(bytes: Array(bytes.dropLast())) == nil)
        #expect(ReplayPlotPaths(bytes: bytes + [0]) == nil)
        #expect(ReplayPlotPaths(bytes: [255, 255, 255, 255] + bytes.dropFirst(4)) == nil)
        #expect(paths.bytes(limit: bytes.count - 1) == nil)
    }
}

/// The phases a progress handler was called with.
final class PhaseRecorder: Sendable {
    private let seen = Mutex([WorkProgress]())
    var phases: Set<String> { Set(seen.withLock { $0.map(\.phase) }) }
    /// What a phase reported, in the order of the calls.
    func steps(_ phase: String) -> [WorkProgress] { seen.withLock { $0.filter { $0.phase == phase } } }
    var handler: ProgressHandler { { [self] p in seen.withLock { $0.append(p) } } }
}
