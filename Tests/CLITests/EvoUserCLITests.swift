import Foundation
import Testing

/// The evo user's daily options (issue 15): duplicate stamps, offsets, yaw about any up axis,
/// saved results, plots, res, drift and score, as exact output where it is short.
@Suite(.serialized) struct EvoUserCLITests {
    static let dup = "Tests/NavMetricsTests/Fixtures/duplicates"

    @Test func duplicateStampsWarnOnceWithTheCount() throws {
        let r = try navbench(["ape", "\(Self.dup)/tum_groundtruth.tum.gz", "\(Self.dup)/tum_estimate.tum", "--align", "se3"], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(r.err == """
            navbench: warning: \(Self.dup)/tum_groundtruth.tum.gz: 12 duplicate timestamps (a pose with its predecessor's stamp); kept and associated as evo does
            navbench: warning: \(Self.dup)/tum_estimate.tum: 3 duplicate timestamps (a pose with its predecessor's stamp); kept and associated as evo does

            """)
        #expect(r.out.hasPrefix("APE w.r.t. translation part (m)\n(with SE(3) Umeyama alignment)\n\n"))
        #expect(r.out.hasSuffix("     pairs\t702\n"))
    }

    @Test func estimateOffsetReportsOffsetAndPeak() throws {
        let r = try navbench(["rpe", "\(Self.dup)/euroc_groundtruth.csv", "\(Self.dup)/euroc_estimate.tum", "--estimate-t-offset", "--json"], cwd: repoRoot)
        #expect(r.status == 0)
        let o = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        let e = o["t_offset_estimate"] as! [String: Any]
        #expect(abs(e["offset"] as! Double) < 0.02)
        #expect(e["peak_correlation"] as! Double > 0.3)
        #expect(o["t_offset"] as! Double == e["offset"] as! Double)
    }

    @Test func offsetFlagsConflict() throws {
        let r = try navbench(["ape", "a.tum", "b.tum", "--estimate-t-offset", "--t-offset", "0.1"], cwd: repoRoot)
        #expect(r.status != 0)
        #expect(r.err.contains("--estimate-t-offset finds the offset itself; drop --t-offset"))
    }
}
