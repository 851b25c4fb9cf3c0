import Foundation
import NavCore
import NavIO
import Testing

@testable import NavPipeline

/// Guidance replay runs on the one engine (issue 27): one unit a job with the job's key,
/// index, labels and failure title; a shard's plan keeps its block of job indices; a job that
/// fails is one line that a merged report of two shards gives exactly as the unsharded run does.
@Suite struct GuidanceReplayKindTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// R2-turns' recording and both navigations, its own VIO and an estimator whose files are
    /// not trajectories (each run of it fails when it reads its file; no subprocess, so the suite
    /// runs beside the others).
    func spec(_ output: String) throws -> ExperimentSpec {
        let d = Self.root + "/Datasets"
        let folder = (output as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder + "/est", withIntermediateDirectories: true)
        for session in ["R2-turns_nav1", "R2-turns_nav2"] {
            try Data("not a trajectory\n".utf8).write(to: URL(fileURLWithPath: folder + "/est/\(session).tum"))
        }
        let yaml = """
            name: replay-kind
            inputs: [\(d)/R2-turns_recording.h5, \(d)/R2-turns_nav1.h5, \(d)/R2-turns_nav2.h5]
            output: \(output)
            estimators:
              broken: est/{session}.tum
            """
        // Estimate patterns are relative to the current directory; this library caller sets the folder.
        var s = try ExperimentSpec.parse(yaml, file: "spec.yaml")
        s.folder = folder
        return s
    }

    @Test func aUnitPerJobWithItsKeyAndTitle() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("navbench-replay-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = planExperiment(try spec(dir + "/out"))
        let units = GuidanceReplayKind().units(of: plan)
        #expect(units.count == plan.jobs.count && units.count == 4)
        for (u, job) in zip(units, plan.jobs) {
            #expect(u.key == job.key && u.index == job.index && u.input == job.navigation && u.pairedRecording == job.recording)
            #expect(u.title == "\(job.navigation) [\(job.configuration.label)]")
            #expect(u.route == "R2-turns" && u.configuration == job.configuration.label && u.parameters.isEmpty)
        }
        // Shard 2 of 3 of a shard's plan: its block of job indices, as shardRange gives it.
        let shardPlan = planExperiment(try spec(dir + "/out"), shard: 2, shards: 3)
        let planned = GuidanceReplayKind().plan(shardPlan)
        let mine = planned.shardUnits(planned.units, 2, 3)
        #expect(mine.map(\.index) == Array(shardRange(count: 4, shard: 2, shards: 3)))
    }

    @Test func aFailingRunIsTheSameLineMergedOrNot() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("navbench-replay-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var s = try spec(dir + "/whole")
        let whole = try runExperiment(s, workers: 2, command: "test")
        let broken = whole.failures.filter { $0.contains("[est=broken]") }
        #expect(broken.count == 2, "\(whole.failures)")
        #expect(whole.counts[kind: guidanceResultKind].done == 2 && whole.counts[kind: guidanceResultKind].computed == 2)
        s.output = dir + "/sharded"
        for k in 1...2 { _ = try runExperiment(s, workers: 1, shard: k, shards: 2, command: "test") }
        let merged = try mergeExperiment(s, command: "test")
        #expect(merged.failures.filter { $0.contains("[est=broken]") } == broken)
        for f in ["summary.md", "metrics.csv"] {
            let a = try String(contentsOfFile: dir + "/whole/" + f, encoding: .utf8)
            #expect(try String(contentsOfFile: dir + "/sharded/" + f, encoding: .utf8) == a, "\(f)")
        }
        // A rerun computes nothing and lists the failing runs again (a failure is not a result).
        let again = try runExperiment(try spec(dir + "/whole"), workers: 2, command: "test")
        #expect(again.counts.computed == 0 && again.failures.filter { $0.contains("[est=broken]") } == broken)
    }
}

/// The replay's part of the one engine, as the replay tests count it: runs present afterwards,
/// failure lines, runs computed.
func executeReplay(
    _ plan: ExperimentPlan, storePath: String, workers: Int, shard: Int = 1, shards: Int = 1
) throws -> (done: Int, failures: [String], computed: Int) {
    let c = try executeKinds(plan, kinds: [GuidanceReplayKind()], storePath: storePath, workers: workers, shard: shard, shards: shards)
    return (c.done, c.failures, c.computed)
}

/// The metrics of every replay run present in `store`, by job index.
func storedReplayMetrics(_ plan: ExperimentPlan, store: ResultsStore) throws -> [Int: [Metric]] {
    var out: [Int: [Metric]] = [:]
    for (u, outcome) in try storedOutcomes(of: GuidanceReplayKind().plan(plan), store: store).results {
        if let outcome { out[u.index] = outcome.metrics }
    }
    return out
}
