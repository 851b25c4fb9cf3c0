import Foundation
import NavCore
import NavIO
import NavReport
import NavSignal
import Testing

@testable import NavPipeline

/// `pdr:` in a spec: the step and turn detection section built from the store — the same bytes
/// unsharded, in 2 shards merged and on a cached rerun; equal to `navbench pdr`'s tables; a
/// session that is not an annotated walk does not apply; a bad value is refused at parsing.
@Suite(.serialized) struct WalkDetectionKindTests {
    func spec(_ out: String, _ pdr: String = "default") throws -> ExperimentSpec {
        try ExperimentSpec.parse(
            """
            name: walks
            inputs:
              - \(datasets)/real/weallwalk/*.h5
              - \(datasets)/R1-corridor_recording.h5
            output: \(out)
            pdr: \(pdr)
            """, file: "walks.yaml")
    }

    func read(_ folder: String, _ name: String) throws -> String {
        try String(contentsOfFile: (folder as NSString).appendingPathComponent(name), encoding: .utf8)
    }

    @Test func shardsMergeAndRerunGiveTheSameBytes() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        var s = try spec(dir + "/whole")
        let a = try runExperiment(s, workers: 2, command: "test")
        #expect(a.failures.isEmpty, "\(a.failures)")
        #expect(a.counts.byKind["pdr"]?.done == 7 && a.counts.byKind["pdr"]?.computed == 7)
        let again = try runExperiment(s, workers: 2, command: "test")
        #expect(again.counts.byKind["pdr"]?.computed == 0)
        s.output = dir + "/sharded"
        for k in 1...2 { _ = try runExperiment(s, workers: 1, shard: k, shards: 2, command: "test") }
        let merged = try mergeExperiment(s, command: "test")
        #expect(merged.failures.isEmpty, "\(merged.failures)")
        for f in ["summary.md", "pdr-steps.csv", "pdr-subjects.csv", "pdr-loso.csv", "pdr-turns.csv"] {
            #expect(try read(dir + "/sharded", f) == read(dir + "/whole", f), "\(f): 2 shards merged vs unsharded")
        }
        let summary = try read(dir + "/whole", "summary.md")
        #expect(
            summary.contains("## Step and turn detection on annotated walks")
                && summary.contains("- Step and turn detection — Caveats: 6 walks of 6 subjects"))

        // The same tables as `navbench pdr` computes from the walks themselves.
        let walks = try ["T1_ID2_1L_WC", "T1_ID3_1L_WC", "T1_ID1_1L_GD", "T1_ID4_1L_GD", "T1_ID11_1L_NA", "T1_ID12_1L_NA"].sorted().map {
            try annotatedWalk(readTrace(at: "\(datasets)/real/weallwalk/\($0).h5"), file: "\($0).h5")
        }
        let direct = walkDetectionReport(
            evaluateStepDetectors(walks, detectors: [StepDetector.chosenOnWeAllWalk]),
            turns: evaluateTurnDetectors(walks, detectors: [TurnDetector.chosenOnWeAllWalk]))
        #expect(try read(dir + "/whole", "pdr-subjects.csv") == direct.subjectsCSV)
        #expect(try read(dir + "/whole", "pdr-steps.csv") == direct.stepsCSV)
    }

    @Test func badValuesAreRefused() {
        #expect(throws: SpecError.self) { try spec("/tmp/x", "all") }
    }
}
