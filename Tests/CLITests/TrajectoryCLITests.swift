import Foundation
import Testing

/// `navbench ape`, `rpe`, `simplify`: output shape, evo's numbers, one-line errors.
@Suite(.serialized) struct TrajectoryCLITests {
    static let fx = "Tests/NavMetricsTests/Fixtures"
    static let ref = "\(fx)/tum-fr1-xyz/freiburg1_xyz-groundtruth.txt"
    static let est = "\(fx)/tum-fr1-xyz/freiburg1_xyz-rgbdslam.txt"

    func json(_ s: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(s.utf8)) }

    /// A negative time offset may follow `--t-offset` as its own argument, as evo's
    /// `--t_offset -0.013` (issue 31): the same output as the attached form; an option name there
    /// is still a one-line usage error.
    @Test func aDetachedNegativeTimeOffsetIsAValue() throws {
        let base = ["ape", "Tests/NavMetricsTests/Fixtures/tum-rpe/gt.tum", "Tests/NavMetricsTests/Fixtures/tum-rpe/est.tum", "--json"]
        let detached = try navbench(base + ["--t-offset", "-0.013"], cwd: repoRoot)
        let attached = try navbench(base + ["--t-offset=-0.013"], cwd: repoRoot)
        #expect(detached.status == 0 && detached.out == attached.out, "\(detached.err)")
        let none = try navbench(base, cwd: repoRoot)
        #expect(none.out != detached.out)
        let bad = try navbench(
            ["ape", "Tests/NavMetricsTests/Fixtures/tum-rpe/gt.tum", "Tests/NavMetricsTests/Fixtures/tum-rpe/est.tum", "--t-offset", "--json"],
            cwd: repoRoot)
        #expect(bad.status == 64 && bad.err.split(separator: "\n").count == 1, "\(bad.err)")
    }

    @Test func apeJSONHasEvoStatistics() throws {
        let r = try navbench(["ape", Self.ref, Self.est, "--align", "se3", "--json"], cwd: repoRoot)
        #expect(r.status == 0 && r.err == "")
        let o = try #require(try json(r.out) as? [String: Any])
        for k in ["rmse", "mean", "median", "std", "min", "max", "sse", "pairs"] { #expect(o[k] != nil, "\(k)") }
        #expect(o["pairs"] as? Int == 785)
        // evo 1.38.1: evo_ape tum gt est -a → rmse 0.013470088849733684
        #expect(abs((o["rmse"] as! Double) - 0.013470088849733684) < 1e-12)
    }

    @Test func apeTextLooksLikeEvo() throws {
        let r = try navbench(["ape", Self.ref, Self.est, "--align", "sim3", "--relation", "rotation_angle_deg"], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("APE w.r.t. rotation angle in degrees (deg)\n(with Sim(3) Umeyama alignment)\n\n       max\t"))
        #expect(r.out.contains("      rmse\t") && r.out.hasSuffix("     pairs\t785\n"))
    }

    @Test func rpeMetresAndSweep() throws {
        let r = try navbench(["rpe", Self.ref, Self.est, "--delta", "0.2", "--delta-unit", "m", "--json"], cwd: repoRoot)
        #expect(r.status == 0)
        let o = try #require(try json(r.out) as? [String: Any])
        #expect(o["pairs"] as? Int == 41)
        #expect(abs((o["rmse"] as! Double) - 0.01772389805918355) < 1e-12)
        let ref = try navbench(["rpe", Self.ref, Self.est, "--delta", "0.2", "--delta-unit", "m", "--pairing", "reference"], cwd: repoRoot)
        #expect(ref.status == 0 && ref.out.contains("(pairs: reference)"))
        let s = try navbench(["simplify", Self.ref, "--tolerance", "0.05", "--tolerance", "0.2", "--json"], cwd: repoRoot)
        #expect(s.status == 0)
        let arr = try #require(try json(s.out) as? [[String: Any]])
        #expect(arr.count == 2)
        for k in ["kept_indices", "kept", "max_deviation", "length_ratio", "tolerance"] { #expect(arr[0][k] != nil, "\(k)") }
        let one = try navbench(["simplify", Self.ref, "--tolerance", "0.3", "--plane", "xz", "--distance", "segment"], cwd: repoRoot)
        #expect(one.status == 0 && one.out.hasPrefix("tolerance 0.3 m (segment, xz): kept ") && one.out.contains("\nkept_indices: 0 "))
    }

    @Test func errorsAreOneLine() throws {
        let missing = try navbench(["ape", "nope.tum", Self.est], cwd: repoRoot)
        #expect(missing.status == 1)
        #expect(missing.err == "navbench: error: nope.tum: cannot open for reading (no such file or no permission)\n")
        let noPairs = try navbench(["ape", Self.ref, Self.est, "--t-offset", "500"], cwd: repoRoot)
        #expect(noPairs.status == 1)
        #expect(
            noPairs.err.hasPrefix(
                "navbench: error: found no matching timestamps between \(Self.ref) and \(Self.est) with max. time difference 0.01 s and time offset 500.0 s"
            ))
        #expect(noPairs.err.filter { $0 == "\n" }.count == 1)
        let badDelta = try navbench(["rpe", Self.ref, Self.est, "--delta", "1.5"], cwd: repoRoot)
        #expect(badDelta.status == 64 && badDelta.err.contains("--delta must be a whole number of frames"))
        let noTol = try navbench(["simplify", Self.ref], cwd: repoRoot)
        #expect(noTol.status == 64 && noTol.err.contains("--tolerance"))
    }
}
