import Foundation
import NavPipeline
import Testing

/// A report shows the sections its spec asked for: a spec of aids only (no `sweep`, no navigation
/// session among its inputs, as Experiments/real.yaml) opens with its aid section, not with
/// "0 routes, 0 configurations … No runs." and an empty guidance statistics section.
@Suite struct ReportSectionsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func anAidsOnlySpecHasNoGuidanceSections() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = try ExperimentSpec.parse(
            """
            name: aids-only
            inputs: \(Self.root)/Datasets/real/coremotion-data-logger/*.h5
            output: \(dir)/out
            calibration: [mean, circmean]
            """, file: "aids.yaml")
        let outcome = try runExperiment(spec, workers: 1, command: "test")
        let md = try String(contentsOfFile: dir + "/out/summary.md", encoding: .utf8)
        #expect(outcome.plan.jobs.isEmpty)
        for absent in ["0 routes", "No runs.", "varies no dimension", "Configurations:", "## Overall"] {
            #expect(!md.contains(absent), "summary.md contains '\(absent)'")
        }
        let headings = md.split(separator: "\n").filter { $0.hasPrefix("## ") }
        #expect(headings == ["## Findings", "## Heading calibration", "## Failed inputs", "## Inputs"], "\(headings)")
    }

    @Test func aSweepWithoutRunsStillSaysSo() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = try ExperimentSpec.parse(
            """
            name: sweep-no-runs
            inputs: \(Self.root)/Datasets/real/coremotion-data-logger/*.h5
            output: \(dir)/out
            sweep:
              rdp_tolerance: [0.3, 0.6]
            """, file: "sweep.yaml")
        _ = try runExperiment(spec, workers: 1, command: "test")
        let md = try String(contentsOfFile: dir + "/out/summary.md", encoding: .utf8)
        #expect(md.contains("0 routes, 0 configurations, 0 navigation runs"))
    }
}
