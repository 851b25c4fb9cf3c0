import Foundation
import Testing

@testable import NavPipeline

/// A cold run draws its plots from the runs it computed (`SampledRuns`) instead of running the
/// plot sample again: the plots are the bytes a report re-running the sample writes.
@Suite struct PlotSampleReuseTests {
    @Test func keptRunsDrawTheSamePlotsAsReRuns() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let text =
            "name: t\ninputs:\n  - \(datasets)/R1-corridor_*.h5\noutput: \(dir)/out\nsweep:\n  rdp_tolerance: [0.3, 1.0]\n  registration: [gravity-aligned, full]\n"
        let spec = try ExperimentSpec.parse(text, file: "t.yaml")
        let plan = planExperiment(spec)
        // Every run of this small sweep is in the plot sample, so a cold run keeps them all.
        let sampled = SampledRuns(plan)
        #expect(sampled.wanted == Set(plan.jobs.map(\.index)))
        _ = try runExperiment(spec, workers: 2, command: "test")
        let plots = try FileManager.default.contentsOfDirectory(atPath: dir + "/out/plots").filter {
            $0.hasSuffix("-paths.svg") || $0.hasSuffix("-error-cdf.svg")
        }.sorted()
        #expect(plots.count == 2)
        let cold = try plots.map { try String(contentsOfFile: dir + "/out/plots/" + $0, encoding: .utf8) }
        // The paths plot draws walked paths (polylines), not just the route.
        #expect(cold[1].components(separatedBy: "<polyline").count > 3)
        // The same report from the store alone: the sample is run again.
        for p in plots { try FileManager.default.removeItem(atPath: dir + "/out/plots/" + p) }
        _ = try writeExperimentReport(plan, store: ResultsStore(path: experimentStorePath(spec)), failures: [], command: "test", facts: [:])
        let rerun = try plots.map { try String(contentsOfFile: dir + "/out/plots/" + $0, encoding: .utf8) }
        #expect(cold == rerun)
        // And a run keeps exactly the sample's computed runs.
        let again = SampledRuns(plan)
        try? FileManager.default.removeItem(atPath: dir + "/again")
        _ = try executeJobs(plan, storePath: dir + "/again/results.sqlite", workers: 2, shard: 1, shards: 1, progress: nil, sampled: again)
        let kept = again.take()
        #expect(Set(kept.keys) == again.wanted)
        #expect(kept.values.allSatisfy { !$0.truePath.isEmpty && !$0.positionErrors.isEmpty })
        #expect(again.take().isEmpty)  // taken out: the report frees them
    }
}
