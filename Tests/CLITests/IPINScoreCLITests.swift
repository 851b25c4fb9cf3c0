import Foundation
import Testing

/// `navbench score --protocol ipin` (issue 31, item 6): the IPIN 2023 Track 3 evaluation against
/// pymap3d + numpy on two trials the project generates (scripts/make_ipin_fixtures.py): normal
/// column order, and latitude/longitude swapped in the estimate file.
@Suite struct IPINScoreCLITests {
    static let fixtures = repoRoot + "/Tests/NavMetricsTests/Fixtures/ipin"

    struct Expected: Decodable {
        struct Case: Decodable {
            var name: String, points: Int, reference_points: Int, ipin_score_m: Double, mean_m: Double, rmse_m: Double, median_m: Double
            var p95_m: Double, floor_hit_rate: Double, mpe_xy_m: Double, errors_m: [Double], swapped: Bool
        }
        var cases: [Case]
    }

    /// Every JSON value equals the reference within 1e-8 m (or exactly, for counts), per point too:
    /// both convert through Earth-centred coordinates of ≈ 6.4e6 m, whose rounding (≈ 1e-9 m
    /// each) is what the two implementations may differ by.
    @Test func equalsTheOrganisersDefinitionComputedIndependently() throws {
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/expected.json")))
        #expect(expected.cases.count == 2)
        for c in expected.cases {
            let r = try navbench(
                ["score", "--protocol", "ipin", Self.fixtures + "/\(c.name).csv", Self.fixtures + "/\(c.name).est", "--json"], cwd: repoRoot)
            #expect(r.status == 0, "\(r.err)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
            #expect(json["points"] as? Int == c.points && json["reference_points"] as? Int == c.reference_points)
            #expect(json["swapped_coordinates"] as? Bool == c.swapped)
            for (key, value) in [
                ("ipin_score_m", c.ipin_score_m), ("mean_m", c.mean_m), ("rmse_m", c.rmse_m), ("median_m", c.median_m), ("p95_m", c.p95_m),
                ("floor_hit_rate", c.floor_hit_rate), ("mpe_xy_m", c.mpe_xy_m),
            ] {
                let got = try #require(json[key] as? Double, "\(c.name) \(key)")
                #expect(abs(got - value) <= 1e-8 * max(1, abs(value)), "\(c.name) \(key): \(got) vs \(value)")
            }
            let errors = try #require(json["errors_m"] as? [Double])
            #expect(errors.count == c.errors_m.count)
            for (a, b) in zip(errors, c.errors_m) { #expect(abs(a - b) <= 1e-8 * max(1, b), "\(c.name): \(a) vs \(b)") }
        }
    }

    /// Text output names the score; a reference point without an estimate, a non-number and a
    /// trajectory flag are one error line each.
    @Test func textAndErrors() throws {
        let ok = try navbench(["score", "--protocol", "ipin", Self.fixtures + "/museum.csv", Self.fixtures + "/museum.est"], cwd: repoRoot)
        #expect(ok.status == 0 && ok.out.contains("IPIN score (third quartile)"), "\(ok.out)\(ok.err)")
        let dir = NSTemporaryDirectory() + "navbench-ipin-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "1,11.1,49.4,0,1\n".write(toFile: dir + "/gt.csv", atomically: true, encoding: .utf8)
        try "0,0,0,0,0,0,0\n0,0,0,0,0,0,0\n5,0,0,0,11.1,49.4,0\n".write(toFile: dir + "/late.est", atomically: true, encoding: .utf8)
        let late = try navbench(["score", "--protocol", "ipin", dir + "/gt.csv", dir + "/late.est"], cwd: repoRoot)
        #expect(late.status == 1 && late.err.contains("reference point 1 at t = 1.0 s has no estimate"), "\(late.err)")
        try "0\n0\n1,0,0,0,eleven,49.4,0\n".write(toFile: dir + "/bad.est", atomically: true, encoding: .utf8)
        let bad = try navbench(["score", "--protocol", "ipin", dir + "/gt.csv", dir + "/bad.est"], cwd: repoRoot)
        #expect(bad.status == 1 && bad.err.contains("line 3, column 5") && bad.err.split(separator: "\n").count == 1, "\(bad.err)")
        // A NUL inside a number is no number (Swift's Double(_:) read "49\0.46" as 49; issue 50, item 12).
        try "0\n0\n1,0,0,0,11.1,49\u{0}.46,0\n".write(toFile: dir + "/nul.est", atomically: true, encoding: .utf8)
        let nul = try navbench(["score", "--protocol", "ipin", dir + "/gt.csv", dir + "/nul.est"], cwd: repoRoot)
        #expect(nul.status == 1 && nul.err.contains("line 3, column 6"), "\(nul.err)")
        let flag = try navbench(["score", "--protocol", "ipin", dir + "/gt.csv", dir + "/late.est", "--align", "se3"], cwd: repoRoot)
        #expect(flag.status == 64 && flag.err.split(separator: "\n").count == 1, "\(flag.err)")
    }
}
