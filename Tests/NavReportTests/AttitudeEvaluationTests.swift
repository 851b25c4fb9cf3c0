import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import NavReport
import Testing

/// `evaluateAttitude` on the h5py-written traces of scripts/make_attitude_fixtures.py: a phone's
/// `imu/attitude` against motion-capture `groundtruth` (other body axes, a yaw offset, a clock
/// 0.25 s ahead): the pairs, W, B and statistics equal scipy's; the hostile copies are one line.
@Suite struct AttitudeEvaluationTests {
    static let folder =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/attitude/"
    static let session = folder + "attitude_session.h5"

    struct Expected: Decodable {
        struct Statistics: Decodable { var rmse, mean, median, std, min, max, sse: Double; var n: Int }
        var pairs: Int
        var firstPair: [Int]
        var expectedWorld, expectedBody: [Double]
        var statistics: Statistics
    }

    static func expected() throws -> Expected {
        let dec = JSONDecoder()
        dec.keyDecodingStrategy = .convertFromSnakeCase
        return try dec.decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "attitude_session.json")))
    }

    static let settings = AttitudeSettings(world: .yaw, body: .estimate, offset: 0.25)

    static func quaternion(_ v: [Double]) -> Quaternion { Quaternion(x: v[0], y: v[1], z: v[2], w: v[3]) }

    @Test func phoneAttitudeAgainstGroundTruthEqualsScipy() throws {
        let e = try Self.expected()
        let r = try evaluateAttitude(
            reference: TrajectorySource(path: Self.session), estimate: TrajectorySource(path: Self.session), settings: Self.settings)
        #expect(r.referenceStream == "groundtruth" && r.estimateStream == "imu/attitude")
        #expect(r.pairs == e.pairs && [r.referenceIndices[0], r.estimateIndices[0]] == e.firstPair)
        #expect(r.settings.upAxis == .y && r.upAxisSource == "auto: trace format convention, ARKit +y up")
        let s = r.result.statistics
        for (ours, scipy) in [
            (s.rmse, e.statistics.rmse), (s.mean, e.statistics.mean), (s.median, e.statistics.median), (s.std, e.statistics.std),
            (s.min, e.statistics.min), (s.max, e.statistics.max), (s.sse, e.statistics.sse),
        ] {
            #expect(abs(ours - scipy) <= 1e-9 * abs(scipy), "\(ours) vs scipy \(scipy)")
        }
        #expect((r.result.alignment.world.conjugate * Self.quaternion(e.expectedWorld)).normalized.angle <= 1e-9)
        #expect((r.result.alignment.body.conjugate * Self.quaternion(e.expectedBody)).normalized.angle <= 1e-9)
    }

    /// The time offset matters: without it the streams pair other instants (or none).
    @Test func withoutTheOffsetTheErrorIsLarger() throws {
        var settings = Self.settings
        settings.offset = 0
        let r = try evaluateAttitude(
            reference: TrajectorySource(path: Self.session), estimate: TrajectorySource(path: Self.session), settings: settings)
        #expect(r.result.statistics.rmse > 2 * (try Self.expected()).statistics.rmse)
    }

    @Test func hostileTracesAreOneLine() throws {
        func message(_ name: String, _ settings: AttitudeSettings = Self.settings) -> String {
            do {
                _ = try evaluateAttitude(
                    reference: TrajectorySource(path: Self.folder + name), estimate: TrajectorySource(path: Self.folder + name), settings: settings)
                return "accepted"
            } catch { return error.description }
        }
        let f = Self.folder
        #expect(
            message("attitude_nonunit.h5")
                == "\(f)attitude_nonunit.h5: /imu/attitude: expected unit quaternions (x, y, z, w) with |‖q‖−1| ≤ 1e-06; row 7 and 0 more deviate, worst by 0.1"
        )
        #expect(
            message("attitude_nan.h5")
                == "\(f)attitude_nan.h5: /imu/attitude: row 5: value nan is not finite (1 non-finite values); expected finite unit quaternions (x, y, z, w)"
        )
        #expect(
            message("attitude_one_axis.h5")
                == "\(f)attitude_one_axis.h5, \(f)attitude_one_axis.h5: body rotation not observable with --align yaw: the estimate's orientations turn about one axis (excitation 0 deg, below 1 deg); give B (--body-rotation w,x,y,z) or record turns about other axes"
        )
        var twoPairs = Self.settings
        twoPairs.offset = -4.7335
        #expect(
            message("attitude_session.h5", twoPairs)
                == "\(f)attitude_session.h5, \(f)attitude_session.h5: 2 matched orientation pairs (max. time difference 0.01 s, time offset -4.7335 s); expected at least 3"
        )
        #expect(message("attitude_session.h5", AttitudeSettings(world: .full)).hasPrefix("accepted"))
    }

    /// A caller's own orientations with a bad quaternion: the file, stream and row of the pair.
    @Test func aBadQuaternionInMemoryNamesItsRow() throws {
        let t = (0..<5).map { Double($0) }
        let good = try Trajectory(timestamps: t, poses: t.map { Pose(rotation: Quaternion(yaw: $0), translation: .zero) })
        var poses = good.poses.values
        poses[3].rotation = Quaternion(x: 0, y: 0, z: 0, w: 2)
        let bad = try Trajectory(timestamps: t, poses: poses)
        let ref = TrajectoryFile(path: "ref.h5", format: .h5, stream: "groundtruth", trajectory: good, hasTimestamps: true)
        let est = TrajectoryFile(path: "est.h5", format: .h5, stream: "imu/attitude", trajectory: bad, hasTimestamps: true)
        #expect(
            throws: EvaluationError.input(
                TraceError(
                    .badValue, file: "est.h5", object: "/imu/attitude", "row 3: quaternion norm 2; expected a finite unit quaternion (x, y, z, w)"))
        ) {
            try attitudeReport(reference: ref, estimate: est, settings: AttitudeSettings())
        }
    }
}
