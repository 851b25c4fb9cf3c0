import Foundation
import NavCore
import NavReport
import Testing

@testable import NavPipeline

/// The replay's report writes the configuration × metric heat map beside the box plots (issue 51):
/// the SVG file, its line in summary.md after the comparisons with the baseline, its text
/// alternative the SVG's `<title>`, its rows the summary's configurations; none without a sweep.
@Suite struct ReplayHeatMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func spec(_ output: String, sweep: Bool) throws -> ExperimentSpec {
        let d = Self.root + "/Datasets"
        let yaml = """
            name: heat-map
            inputs: [\(d)/R2-turns_recording.h5, \(d)/R2-turns_nav1.h5, \(d)/R2-turns_nav2.h5]
            output: \(output)
            """ + (sweep ? "\nsweep:\n  rdp_tolerance: [0.3, 1.0]\n" : "\n")
            + "metrics: [cross_track_rmse, on_track_precision]\n"
        return try ExperimentSpec.parse(yaml, file: (output as NSString).deletingLastPathComponent + "/spec.yaml")
    }

    @Test func theSweepsReportShowsTheHeatMap() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("navbench-heatmap-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        _ = try runExperiment(try spec(dir + "/sweep", sweep: true), workers: 2, command: "test")
        let svg = try String(contentsOfFile: dir + "/sweep/plots/heatmap-configuration-metric.svg", encoding: .utf8)
        let summary = try String(contentsOfFile: dir + "/sweep/summary.md", encoding: .utf8)
        let line = try #require(summary.split(separator: "\n").first { $0.hasSuffix("](plots/heatmap-configuration-metric.svg)") })
        let alt = String(line.dropFirst(2).dropLast("](plots/heatmap-configuration-metric.svg)".count))
        #expect(alt.hasPrefix("Configuration × metric heat map, all routes, against tol=0.3"))
        #expect(svg.contains("<title>\(xmlEscaped(markdownPlainText(alt)))</title>"))
        // After the comparisons with the baseline, before the main effects.
        let against = try #require(summary.range(of: "Against tol=0.3")), map = try #require(summary.range(of: String(line)))
        let effects = try #require(summary.range(of: "## Main effects"))
        #expect(against.upperBound < map.lowerBound && map.upperBound < effects.lowerBound)
        // Rows: the baseline, then the other configuration, with the two metrics' columns.
        #expect(svg.contains(">tol=0.3</text>") && svg.contains(">tol=1</text>"))
        #expect(svg.contains(">cross_track_rmse (m)</text>") && svg.contains(">on_track_precision (fraction)</text>"))
        #expect(svg.components(separatedBy: " ref</text>").count - 1 == 2)
        // The report page inlines it.
        let page = try String(contentsOfFile: dir + "/sweep/report.html", encoding: .utf8)
        #expect(page.contains("<svg role=\"img\" aria-label=\"\(xmlEscaped(markdownPlainText(alt)))\""))
        // One configuration: nothing to compare, no heat map.
        _ = try runExperiment(try spec(dir + "/single", sweep: false), workers: 2, command: "test")
        #expect(!FileManager.default.fileExists(atPath: dir + "/single/plots/heatmap-configuration-metric.svg"))
        #expect(!(try String(contentsOfFile: dir + "/single/summary.md", encoding: .utf8)).contains("heat map"))
    }
}
