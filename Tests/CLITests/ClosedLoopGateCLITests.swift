import Foundation
import Testing

/// The regression gate compares the closed loop: a run folder whose `closed-loop.csv` is the
/// baseline's passes; a planted regression (one cell's success rate below its baseline
/// interval, or its mean end-of-route error above it, or the file missing) fails with exit 1
/// and is named; a change inside the interval passes.
@Suite(.serialized) struct ClosedLoopGateCLITests {
    @Test func plantedClosedLoopRegressionFailsTheGate() throws {
        let dir = NSTemporaryDirectory() + "nb-clgate-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let base = repoRoot + "/Reports/baseline"
        let csv = try String(contentsOfFile: base + "/closed-loop.csv", encoding: .utf8)
        for f in ["metrics.csv", "calibration.csv", "proximity.csv"] {
            try FileManager.default.copyItem(atPath: base + "/" + f, toPath: dir + "/" + f)
        }
        func write(_ lines: [String]) throws {
            try lines.joined(separator: "\n").write(toFile: dir + "/closed-loop.csv", atomically: true, encoding: .utf8)
        }
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try write(lines)
        let same = try navbench(["compare", "Reports/baseline", dir], cwd: repoRoot)
        #expect(same.status == 0, "\(same.err)")
        #expect(
            same.out.contains("## Closed loop") && same.out.contains(": 0 regressed.")
                && same.out.contains("**0 regressed** (0 replay, 0 calibration, 0 proximity, 0 closed loop)"))
        // The first cell with a success rate between 0.2 and 0.9 and its interval.
        func fields(_ l: String) -> [String] { l.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        func cell(_ l: String) -> String { fields(l).dropLast(3).joined(separator: ",") }
        func value(_ c: String, _ m: String) -> (Int, Double)? {
            guard let i = lines.firstIndex(where: { cell($0) == c && fields($0).dropLast(2).last == m }) else { return nil }
            return (i, Double(fields(lines[i]).dropLast().last!)!)
        }
        let row = try #require(
            lines.first { fields($0).dropLast(2).last == "success_rate" && (0.2...0.9).contains(Double(fields($0).dropLast().last!) ?? -1) })
        let c = cell(row)
        let (si, rate) = try #require(value(c, "success_rate"))
        let (_, low) = try #require(value(c, "success_rate_ci_low"))
        func planted(_ i: Int, _ v: Double) -> [String] {
            var l = lines
            var f = fields(l[i])
            f[f.count - 2] = String(v)
            l[i] = f.joined(separator: ",")
            return l
        }
        // Inside the interval: passes.
        try write(planted(si, (rate + low) / 2))
        #expect(try navbench(["compare", "Reports/baseline", dir], cwd: repoRoot).status == 0)
        // Below it: fails, named.
        try write(planted(si, low - 0.05))
        let worse = try navbench(
            ["compare", "Reports/baseline", dir, "--junit", dir + "/junit.xml", "--markdown", dir + "/compare.md"], cwd: repoRoot)
        #expect(worse.status == 1)
        #expect(worse.out.contains(": 1 regressed.") && worse.out.contains("| success_rate |"))
        // Exit status, Markdown headline and JUnit agree (issue 28, item 1: the headline said 0 and JUnit failures="0").
        let headline = try String(contentsOfFile: dir + "/compare.md", encoding: .utf8)
        #expect(headline.contains("**1 regressed** (0 replay, 0 calibration, 0 proximity, 1 closed loop)"), "\(headline.prefix(400))")
        let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
        let cellName = fields(row)[2]
        #expect(junit.contains(" failures=\"1\" "))
        #expect(junit.components(separatedBy: "<failure ").count - 1 == 1)
        #expect(junit.contains("classname=\"navbench.compare.closed-loop.\(fields(row)[0])\" name=\"\(cellName) · success_rate\""))
        let testcases = junit.components(separatedBy: "<testcase ").count - 1
        #expect(junit.contains("<testsuite name=") && junit.contains(" tests=\"\(testcases)\" "))
        // Mean end-of-route error above its interval: fails.
        let (ei, _) = try #require(value(c, "end_of_route_error"))
        let (_, high) = try #require(value(c, "end_of_route_error_ci_high"))
        try write(planted(ei, high + 0.5))
        let farther = try navbench(["compare", "Reports/baseline", dir], cwd: repoRoot)
        #expect(farther.status == 1 && farther.out.contains("| end_of_route_error |"))
        // No closed-loop.csv in the current run: every cell missing.
        try FileManager.default.removeItem(atPath: dir + "/closed-loop.csv")
        let missing = try navbench(["compare", "Reports/baseline", dir], cwd: repoRoot)
        #expect(missing.status == 1 && missing.out.contains("missing"))
    }
}
