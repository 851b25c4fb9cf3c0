import Foundation
import Testing

@testable import NavPipeline

/// A key metric (`metrics:`) that no run emits is a failure naming it and the metrics the runs
/// did emit (issue 50, item 18), not a silently missing column; the report's tables stay whole.
@Suite struct KeyMetricTests {
    @Test func aMetricNoRunEmitsIsAFailure() throws {
        let dir = NSTemporaryDirectory() + "navbench-keymetric-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let root = PluginTests.root
        let spec = try ExperimentSpec.parse(
            """
            name: km
            inputs: [\(root)/Datasets/R2-turns_recording.h5, \(root)/Datasets/R2-turns_nav1.h5]
            output: \(dir)
            metrics: [cross_track_rmse, no_such_metric]
            sweep:
              rdp_tolerance: [0.3, 0.6]
            """, file: "km.yaml")
        let outcome = try runExperiment(spec, workers: 1, command: "test")
        let failures = outcome.report?.failures ?? []
        #expect(failures.count == 1, "\(failures)")
        #expect(failures.first?.hasPrefix("metrics: no_such_metric: no run emitted it; the runs emitted instructions, ") == true)
        #expect(failures.first?.contains(", cross_track_rmse, ") == true)
        let summary = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        for line in summary.split(separator: "\n") where line.hasPrefix("|") {
            #expect(!line.contains("no_such_metric"), "\(line)")
        }
    }
}
