import Foundation
import Testing

/// `navbench attitude`: a phone's imu/attitude against motion-capture ground truth in one trace
/// (scripts/make_attitude_fixtures.py; the numbers are scipy's, AttitudeEvaluationTests), the
/// whole text output, the JSON keys, and one-line errors.
@Suite struct AttitudeCLITests {
    static let folder = "Tests/NavReportTests/Fixtures/attitude"
    static let session = "\(folder)/attitude_session.h5"
    static let arguments = ["attitude", session, session, "--align", "yaw", "--body-rotation", "estimate", "--t-offset", "0.25"]

    @Test func wholeTextOutput() throws {
        let r = try navbench(Self.arguments, cwd: repoRoot)
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        #expect(
            r.out == """
                attitude error w.r.t. rotation angle in degrees (deg)
                (world alignment: yaw about y; body rotation: estimated)
                streams: reference groundtruth, estimate imu/attitude
                up axis: y (auto: trace format convention, ARKit +y up)
                world rotation W (estimate world → reference world): w x y z = 0.861161 0.000000 -0.508332 0.000000; axis (0.000000, -1.000000, 0.000000), angle 61.1056 deg
                body rotation B (reference body → estimate body): w x y z = 0.013037 0.005893 0.699771 -0.714224; axis (0.005893, 0.699831, -0.714284), angle 178.5060 deg
                body rotation excitation: 17.356 deg (at least 1.000 deg), 239 alternating steps

                       max\t2.056914
                      mean\t0.777689
                    median\t0.734766
                       min\t0.140253
                      rmse\t0.841698
                       sse\t283.382220
                       std\t0.321955
                     pairs\t400

                """)
    }

    @Test func jsonKeysAndValues() throws {
        let r = try navbench(Self.arguments + ["--json"], cwd: repoRoot)
        #expect(r.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(
            Set(o.keys) == [
                "metric", "reference", "estimate", "reference_stream", "estimate_stream", "align", "up_axis", "body_rotation_mode", "association",
                "max_diff", "t_offset", "pairs", "relation", "unit", "rmse", "mean", "median", "std", "min", "max", "sse", "world_rotation",
                "body_rotation", "excitation_deg", "min_excitation_deg", "iterations",
            ])
        // scipy (attitude_session.json): rmse 0.84169801621 to 11 decimals.
        #expect(abs((o["rmse"] as? Double ?? 0) - 0.84169801621) < 1e-10)
        let body = try #require(o["body_rotation"] as? [String: Any])
        let q = try #require(body["quaternion_wxyz"] as? [Double])
        #expect(zip(q, [0.01303714199, 0.00589276292, 0.69977122442, -0.71422373368]).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test func oneLineErrors() throws {
        let f = Self.folder
        let oneAxis = try navbench(
            [
                "attitude", "\(f)/attitude_one_axis.h5", "\(f)/attitude_one_axis.h5", "--align", "full", "--body-rotation", "estimate", "--t-offset",
                "0.25",
            ],
            cwd: repoRoot)
        #expect(oneAxis.status == 1)
        #expect(
            oneAxis.err
                == "navbench: error: \(f)/attitude_one_axis.h5, \(f)/attitude_one_axis.h5: body rotation not observable with --align full: the estimate's orientations turn about one axis (excitation 0 deg, below 1 deg); give B (--body-rotation w,x,y,z) or record turns about other axes\n"
        )
        let nonUnit = try navbench(["attitude", "\(f)/attitude_nonunit.h5", "\(f)/attitude_nonunit.h5"], cwd: repoRoot)
        #expect(
            nonUnit.status == 1
                && nonUnit.err
                    == "navbench: error: \(f)/attitude_nonunit.h5: /imu/attitude: expected unit quaternions (x, y, z, w) with |‖q‖−1| ≤ 1e-06; row 7 and 0 more deviate, worst by 0.1\n"
        )
        let badBody = try navbench(["attitude", Self.session, Self.session, "--body-rotation", "1,0,0"], cwd: repoRoot)
        #expect(badBody.status == 64 && badBody.err.contains("--body-rotation must be none, estimate or a unit quaternion w,x,y,z"))
        let badStream = try navbench(["attitude", Self.session, Self.session, "--est-stream", "attitude"], cwd: repoRoot)
        #expect(badStream.status == 64 && badStream.err.contains("--est-stream must be groundtruth, vio, imu/attitude, got attitude"))
        let given = try navbench(
            [
                "attitude", Self.session, Self.session, "--align", "yaw", "--body-rotation", "0.013037,0.005893,0.699771,-0.714224", "--t-offset",
                "0.25",
            ],
            cwd: repoRoot)
        #expect(given.status == 0 && given.out.contains("(world alignment: yaw about y; body rotation: given)\n"))
    }
}
