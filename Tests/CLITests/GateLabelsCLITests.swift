import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `navbench compare` on a constructed pair (3 sessions × 2 configurations a route, seed 1: the
/// per-row rule decides): a mixed row (the mean better, two runs worse), a clear improvement, a
/// plain regression and one of a run with a hostile session name (issue 52, item 4).
@Suite(.serialized) struct GateLabelsCLITests {
    static let hostile = "s|1<b>`x\ny"

    /// metrics.csv text: for each (route, metric, unit), six values over sessions × configurations a, b.
    static func csv(_ series: [(route: String, metric: String, unit: String, values: [Double])]) -> String {
        var text = "route,session,configuration,seed,metric,value,unit\n"
        for s in series {
            let sessions = s.route == "R2" ? [hostile, "nav2", "nav3"] : ["nav1", "nav2", "nav3"]
            for (i, v) in s.values.enumerated() {
                let session = "\"" + sessions[i / 2].replacingOccurrences(of: "\"", with: "\"\"") + "\""
                text += "\(s.route),\(session),\(i % 2 == 0 ? "a" : "b"),1,\(s.metric),\(v),\(s.unit)\n"
            }
        }
        return text
    }

    @Test func labelsRunsExitStatusAndJUnitAgree() throws {
        let dir = NSTemporaryDirectory() + "nb-labels-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let base = Self.csv([
            ("R1", "false_arrivals", "count", [1, 1, 1, 1, 0, 0]), ("R1", "end_point_drift", "m", [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
            ("R2", "end_point_drift", "m", [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]), ("R2", "cross_track_rmse", "m", [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]),
        ])
        let now = Self.csv([
            ("R1", "false_arrivals", "count", [0, 0, 0, 0, 1, 1]), ("R1", "end_point_drift", "m", [0.4, 0.4, 0.4, 0.4, 0.4, 0.4]),
            ("R2", "end_point_drift", "m", [0.5, 0.5, 0.51, 0.5, 0.5, 0.5]), ("R2", "cross_track_rmse", "m", [0.3, 0.2, 0.2, 0.2, 0.2, 0.2]),
        ])
        try base.write(toFile: dir + "/base.csv", atomically: true, encoding: .utf8)
        try now.write(toFile: dir + "/now.csv", atomically: true, encoding: .utf8)
        let r = try navbench(["compare", dir + "/base.csv", dir + "/now.csv", "--junit", dir + "/junit.xml"], cwd: repoRoot)
        #expect(r.status == 1)
        let body = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n")
        let expected = """
            4 gated metrics (route × metric) over 24 rows: **3 regressed**, 1 moved without regressing (1 better), 0 unchanged; 1 of the regressions **mixed** (runs worse, the mean better).

            \(try #require(r.out.split(separator: "\n").first { $0.hasPrefix("A metric regresses") }))

            | | route | metric | n | baseline mean | current mean | difference | 95 % CI | tolerance | why |
            |---|---|---|---:|---:|---:|---:|---|---|---|
            | **mixed** | R1 | false_arrivals | 3 | 0.666667 | 0.333333 | -0.333333 count | [–, –] | 0.5 + 0·\\|b\\| | not paired (3 units < 5): per-row tolerance rule; worse in 2 runs: nav3 [a, seed 1]: 0 → 1; nav3 [b, seed 1]: 0 → 1. better in 4 runs: nav1 [a, seed 1]: 1 → 0; nav1 [b, seed 1]: 1 → 0; nav2 [a, seed 1]: 1 → 0; nav2 [b, seed 1]: 1 → 0 |
            | **worse** | R2 | end_point_drift | 3 | 0.5 | 0.501667 | 0.00166667 m | [–, –] | 1e-06 + 1e-06·\\|b\\| | not paired (3 units < 5): per-row tolerance rule; worse in 1 run: nav2 [a, seed 1]: 0.5 → 0.51 |
            | **worse** | R2 | cross_track_rmse | 3 | 0.2 | 0.216667 | 0.0166667 m | [–, –] | 1e-06 + 1e-06·\\|b\\| | not paired (3 units < 5): per-row tolerance rule; worse in 1 run: s\\|1\\<b\\>\\`x\\\\ny [a, seed 1]: 0.2 → 0.3 |
            | better | R1 | end_point_drift | 3 | 0.5 | 0.4 | -0.1 m | [–, –] | 1e-06 + 1e-06·\\|b\\| | not paired (3 units < 5): per-row tolerance rule; better in 6 runs: nav1 [a, seed 1]: 0.5 → 0.4; nav1 [b, seed 1]: 0.5 → 0.4; nav2 [a, seed 1]: 0.5 → 0.4; nav2 [b, seed 1]: 0.5 → 0.4; nav3 [a, seed 1]: 0.5 → 0.4; and 1 more |

            """
        #expect(body == expected)
        // JUnit: failures = the regressions (mixed included), better in system-out, names escaped.
        let xml = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
        #expect(xml.contains("tests=\"4\" failures=\"3\""))
        #expect(!xml.contains("<b>") && xml.contains("s|1&lt;b&gt;`x\\ny [a, seed 1]: 0.2 → 0.3"))
        let doc = try XMLDocument(data: Data(xml.utf8))
        let failed = try doc.nodes(forXPath: "//testcase[failure]").compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        #expect(failed == ["false_arrivals", "end_point_drift", "cross_track_rmse"])
        let verdicts = try doc.nodes(forXPath: "//testcase/system-out").compactMap { $0.stringValue?.split(separator: "\n").first.map(String.init) }
        #expect(verdicts == ["verdict: mixed", "verdict: better", "verdict: worse", "verdict: worse"])
    }
}
