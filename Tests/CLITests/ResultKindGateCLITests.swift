import Foundation
import Testing

/// The regression gate compares every result kind the baseline folder has: a calibration or a
/// proximity regression fails `compare` with exit 1, a JUnit failure naming the kind, route and
/// metric, and a Markdown headline counting it by kind; the three agree (issue 28, item 5).
@Suite(.serialized) struct ResultKindGateCLITests {
    /// A copy of Reports/baseline's gated files, `file`'s `metric` rows of the first route changed by `change`.
    func plant(_ file: String, metric: String, in dir: String, change: (Double) -> Double) throws -> String {
        let base = repoRoot + "/Reports/baseline"
        for f in ["metrics.csv", "closed-loop.csv", "calibration.csv", "proximity.csv"] {
            try? FileManager.default.removeItem(atPath: dir + "/" + f)
            try FileManager.default.copyItem(atPath: base + "/" + f, toPath: dir + "/" + f)
        }
        var lines = try String(contentsOfFile: base + "/" + file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        func fields(_ l: String) -> [String] { l.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let route = fields(lines[1])[0]
        for i in lines.indices.dropFirst() where fields(lines[i]).first == route && fields(lines[i]).dropLast(2).last == metric {
            var f = fields(lines[i])
            guard let v = Double(f[f.count - 2]), v.isFinite else { continue }
            f[f.count - 2] = String(change(v))
            lines[i] = f.joined(separator: ",")
        }
        try lines.joined(separator: "\n").write(toFile: dir + "/" + file, atomically: true, encoding: .utf8)
        return route
    }

    @Test(arguments: [
        ("calibration.csv", "calibration", "offset_error", 5.0),  // lower is better: 5° worse
        ("proximity.csv", "proximity", "class_accuracy", -0.2),  // higher is better: 0.2 worse
    ])
    func aKindRegressionFailsTheGateEverywhere(_ file: String, _ kind: String, _ metric: String, _ delta: Double) throws {
        let dir = NSTemporaryDirectory() + "nb-kindgate-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try plant(file, metric: metric, in: dir) { $0 }
        let same = try navbench(["compare", "Reports/baseline", dir], cwd: repoRoot)
        #expect(same.status == 0, "\(same.out.prefix(600))")
        #expect(same.out.contains("**0 regressed** (0 replay, 0 calibration, 0 proximity, 0 closed loop)"))
        let route = try plant(file, metric: metric, in: dir) { $0 + delta }
        let worse = try navbench(
            ["compare", "Reports/baseline", dir, "--junit", dir + "/junit.xml", "--markdown", dir + "/compare.md"], cwd: repoRoot)
        #expect(worse.status == 1)
        let counts = kind == "calibration" ? "1 calibration, 0 proximity" : "0 calibration, 1 proximity"
        let headline = try String(contentsOfFile: dir + "/compare.md", encoding: .utf8)
        #expect(headline.contains("**1 regressed** (0 replay, \(counts), 0 closed loop)"), "\(headline.prefix(600))")
        #expect(headline.contains("| **worse** | \(kind) · \(route) | \(metric) |"))
        let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
        #expect(junit.contains(" failures=\"1\" "))
        #expect(junit.components(separatedBy: "<failure ").count - 1 == 1)
        #expect(junit.contains("classname=\"navbench.compare.\(kind).\(route)\" name=\"\(metric)\""))
        // The kind's file missing from the current run: its every row missing, a regression.
        try FileManager.default.removeItem(atPath: dir + "/" + file)
        let missing = try navbench(["compare", "Reports/baseline", dir], cwd: repoRoot)
        #expect(missing.status == 1 && missing.out.contains("missing"))
    }
}
