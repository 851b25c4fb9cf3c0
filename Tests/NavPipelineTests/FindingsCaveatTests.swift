import Foundation
import NavReport
import Testing

@testable import NavPipeline

/// The Findings open with one line of what to read them with (issue 52, item 7): synthetic
/// recordings counted from the inputs' metadata, the replay's completion from `metrics.csv`
/// (read back here, not from the caveat's own arithmetic) and its n of navigation sessions.
@Suite struct FindingsCaveatTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func theFindingsOpenWithTheCaveatLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("navbench-caveat-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = try ExperimentSpec.parse(
            """
            name: caveat
            inputs: [\(Self.root)/Datasets/R2-turns_*.h5]
            output: \(dir)/out
            sweep: {rdp_tolerance: [0.3, 1]}
            metrics: [completed, end_of_route_error]
            """, file: "s.yaml")
        _ = try runExperiment(spec, workers: 2, command: "test")
        let summary = try String(contentsOfFile: dir + "/out/summary.md", encoding: .utf8)
        let lines = summary.split(separator: "\n").map(String.init)
        let findings = try #require(lines.firstIndex(of: "## Findings"))
        let first = try #require(lines[(findings + 1)...].first { $0.hasPrefix("- ") })
        // Independent of the caveat: metrics.csv's completed column.
        let completed = try MetricsTable.read(dir + "/out/metrics.csv").rows.filter { $0.metric == "completed" }
        let done = completed.filter { $0.value == 1 }.count
        let sessions = Set(completed.map(\.session)).count
        #expect(sessions == 3)
        var expected = "- **Read with care:** 4 of the 4 recordings are synthetic"
        if Double(done) < 0.9 * Double(completed.count) {
            expected += String(format: "; %.0f %%", 100 * Double(done) / Double(completed.count)) + " of the \(completed.count) replayed runs"
        }
        #expect(first.hasPrefix(expected), "\(first)")
        #expect(first.hasSuffix("the replay rests on n = 3 navigation sessions: wide intervals."), "\(first)")
        #expect(!first.contains("closed-loop"))
    }
}
