import Foundation
import Testing

/// The spec examples of the docs run as written: a newcomer copies them literally.
@Suite(.serialized) struct DocsCLITests {
    /// The first ```yaml block after `heading` in a doc.
    static func yamlBlock(_ doc: String, after heading: String) throws -> String {
        let text = try String(contentsOfFile: repoRoot + "/" + doc, encoding: .utf8)
        let start = try #require(text.range(of: heading))
        let open = try #require(text.range(of: "```yaml\n", range: start.upperBound..<text.endIndex))
        let close = try #require(text.range(of: "```", range: open.upperBound..<text.endIndex))
        return String(text[open.upperBound..<close.lowerBound])
    }

    @Test func experimentSpecOfTheDocsParses() throws {
        let spec = try Self.yamlBlock("docs/experiments.md", after: "## Spec (YAML)")
        let dir = NSTemporaryDirectory() + "navbench-docs-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try spec.write(toFile: dir + "/spec.yaml", atomically: true, encoding: .utf8)
        let r = try navbench(["run", dir + "/spec.yaml", "--print-config"], cwd: repoRoot)
        #expect(r.status == 0 && r.err == "", "\(r.err)")
    }

    @Test func statisticsSettingsOfTheDocsParseOnTheDefaultSpec() throws {
        let settings = try Self.yamlBlock("docs/statistics.md", after: "## Settings: `statistics:`")
        let spec = try String(contentsOfFile: repoRoot + "/Experiments/default.yaml", encoding: .utf8) + "\n" + settings
        let dir = NSTemporaryDirectory() + "navbench-docs-st-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try spec.write(toFile: dir + "/spec.yaml", atomically: true, encoding: .utf8)
        let r = try navbench(["run", dir + "/spec.yaml", "--print-config"], cwd: repoRoot)
        #expect(r.status == 0 && r.err == "", "\(r.err)")
    }
}
