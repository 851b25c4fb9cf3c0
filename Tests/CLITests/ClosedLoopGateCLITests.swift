import Foundation
import Testing

/// The regression gate compares the closed loop: a run folder whose `closed-loop.csv` is the
/// baseline's passes; a planted regression (issue 28: one cell's success rate from 0.9 to 0.2, or
/// its mean end-of-route error far above its interval, or the file missing) fails with exit 1
/// and is named; a change of a few walkers (the noise of another seed) passes.
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
        // The first cell with a success rate of at least 0.75 (0.2 is then a regression, two walkers fewer not).
        func fields(_ l: String) -> [String] { l.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        func cell(_ l: String) -> String { fields(l).dropLast(3).joined(separator: ",") }
        func value(_ c: String, _ m: String) -> (Int, Double)? {
            guard let i = lines.firstIndex(where: { cell($0) == c && fields($0).dropLast(2).last == m }) else { return nil }
            return (i, Double(fields(lines[i]).dropLast().last!)!)
        }
        let row = try #require(
            lines.first { fields($0).dropLast(2).last == "success_rate" && (0.75...1).contains(Double(fields($0).dropLast().last!) ?? -1) })
        let c = cell(row)
        let (si, rate) = try #require(value(c, "success_rate"))
        let (_, runs) = try #require(value(c, "runs"))
        func planted(_ i: Int, _ v: Double) -> [String] {
            var l = lines
            var f = fields(l[i])
            f[f.count - 2] = String(v)
            l[i] = f.joined(separator: ",")
            return l
        }
        // Two walkers fewer arrive (Fisher's exact test: far from significant after Holm): passes.
        try write(planted(si, rate - 2 / runs))
        #expect(try navbench(["compare", "Reports/baseline", dir], cwd: repoRoot).status == 0)
        // Down to 0.2 (issue 28's planted regression): fails, named.
        try write(planted(si, 0.2))
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
        // Every walker's end-of-route error larger by 5 half-widths of the cell's interval (the mean and its
        // interval moved; t ≈ 5·t₀.₉₇₅/√2 ≈ 7): fails (Welch's t test, Holm over the 144 values).
        let (_, error) = try #require(value(c, "end_of_route_error"))
        let (_, high) = try #require(value(c, "end_of_route_error_ci_high"))
        var shifted = lines
        for m in ["end_of_route_error", "end_of_route_error_ci_low", "end_of_route_error_ci_high"] {
            let (i, v) = try #require(value(c, m))
            var f = fields(shifted[i])
            f[f.count - 2] = String(v + 5 * (high - error))
            shifted[i] = f.joined(separator: ",")
        }
        try write(shifted)
        let farther = try navbench(["compare", "Reports/baseline", dir], cwd: repoRoot)
        #expect(farther.status == 1 && farther.out.contains("| end_of_route_error |"))
        // No closed-loop.csv in the current run: every cell missing.
        try FileManager.default.removeItem(atPath: dir + "/closed-loop.csv")
        let missing = try navbench(["compare", "Reports/baseline", dir], cwd: repoRoot)
        #expect(missing.status == 1 && missing.out.contains("missing"))
    }
}
