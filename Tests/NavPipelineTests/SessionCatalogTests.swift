import Foundation
import NavCore
import NavIO
import NavPipeline
import Synchronization
import Testing

/// The experiment's inputs are loaded route by route and released (`SessionCatalog`): what keeps
/// peak memory flat in the number of routes.
/// Calls of a generator, by session name.
final class GeneratorCalls: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    func count(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
    var all: [String: Int] { counts.withLock { $0 } }
}

@Suite struct SessionCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// A catalog of `count` generated sessions whose generator counts its calls by name.
    /// `delay`: seconds each making takes, so that requests of one name overlap.
    func generated(_ count: Int, capacity: Int, calls: GeneratorCalls, delay: Double = 0) -> SessionCatalog {
        var entries: [String: SessionCatalog.Entry] = [:]
        for i in 0..<count {
            let name = "s\(i)"
            let metadata = SessionMetadata(kind: .navigation, sessionID: name, routeID: "R\(i)", venue: "", device: "")
            entries[name] = SessionCatalog.Entry(
                metadata: metadata, streams: [.vio],
                source: .generated({
                    calls.count(name)
                    if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                    return Session(
                        metadata: metadata, vio: VIOStream(timestamps: [0, 1], poses: [.identity, .identity], trackingState: [.normal, .normal]))
                }))
        }
        return SessionCatalog(entries: entries, capacity: capacity)
    }

    @Test func holdsAtMostItsCapacityAndReloadsWhatItReleased() throws {
        let calls = GeneratorCalls()
        let catalog = generated(6, capacity: 2, calls: calls)
        for name in catalog.names {
            _ = try catalog.session(name)
            _ = try catalog.session(name)  // held: not made again
            #expect(catalog.heldCount <= 2)
        }
        #expect(calls.all.values.allSatisfy { $0 == 1 })
        _ = try catalog.session("s0")  // released long ago: made again
        #expect(calls.all["s0"] == 2)
        _ = try catalog.session("s5")  // among the two most recent: still held
        #expect(calls.all["s5"] == 1)
    }

    @Test func aSessionAskedForByManyWorkersAtOnceIsLoadedOnce() throws {
        let calls = GeneratorCalls()
        // Each making takes 50 ms: 8 workers asking for 3 names at once overlap on every name.
        let catalog = generated(3, capacity: 4, calls: calls, delay: 0.05)
        forEachConcurrently(64, workers: 8) { i in
            _ = try? catalog.session("s\(i % 3)")
            return .next
        }
        #expect(calls.all == ["s0": 1, "s1": 1, "s2": 1])
    }

    @Test func unknownNamesAreRefusedInOneLine() {
        let catalog = SessionCatalog(sessions: [:])
        #expect(throws: CatalogError(name: "nope\n.h5")) { try catalog.session("nope\n.h5") }
        #expect(CatalogError(name: "nope\n.h5").description == "nope\\n.h5: not an input of this experiment")
    }

    @Test func planningChecksEveryInputAndHoldsNone() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        for f in ["R2-turns_recording.h5", "R2-turns_nav1.h5"] {
            try FileManager.default.copyItem(atPath: Self.root + "/Datasets/" + f, toPath: dir + "/" + f)
        }
        let spec = try ExperimentSpec.parse("name: c\ninputs: \(dir)/*.h5\noutput: \(dir)/out\n", file: "c.yaml")
        let plan = planExperiment(spec)
        #expect(plan.failures.isEmpty)
        #expect(plan.jobs.count == 1)
        #expect(plan.inputs.heldCount == 0)  // checked in full, then released
        let nav = dir + "/R2-turns_nav1.h5"
        #expect(plan.inputs.entries[nav]?.streams?.isSuperset(of: [.vio, .anchors]) == true)
        let loaded = try plan.session(nav)
        #expect(loaded.vio?.poses.count == (try readTrace(at: nav)).vio?.poses.count)
        #expect(plan.inputs.heldCount == 1)
    }

    @Test func anInputChangedAfterPlanningIsRefused() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        for f in ["R2-turns_recording.h5", "R2-turns_nav1.h5"] {
            try FileManager.default.copyItem(atPath: Self.root + "/Datasets/" + f, toPath: dir + "/" + f)
        }
        let spec = try ExperimentSpec.parse("name: c\ninputs: \(dir)/*.h5\noutput: \(dir)/out\n", file: "c.yaml")
        let plan = planExperiment(spec)
        let nav = dir + "/R2-turns_nav1.h5"
        // Another recording in its place (same format, other bytes).
        try FileManager.default.removeItem(atPath: nav)
        try FileManager.default.copyItem(atPath: Self.root + "/Datasets/R2-turns_nav2.h5", toPath: nav)
        #expect(throws: InputChangedError.self) { try plan.session(nav) }
        do { _ = try plan.session(nav) } catch {
            #expect("\(error)".hasPrefix("\(nav): changed since the experiment was planned"))
        }
        // The job that needs it fails with that line (executeJobs lists it and the run goes on).
        #expect(throws: InputChangedError.self) { try runJob(plan.jobs[0], plan: plan) }
    }
}
