import NavCore
import NavMetrics
import Testing

/// KITTI-style segment drift with lengths from path fractions (rpg_trajectory_evaluation).
@Suite struct SegmentDriftTests {
    /// A 100 m straight walk along −z sampled every 0.1 m.
    static let reference: [Pose] = (0...1000).map { Pose(translation: Vector3(0, 0, -0.1 * Double($0))) }

    @Test func scaleErrorIsDriftInPercent() throws {
        let est = Self.reference.map { Pose(rotation: $0.rotation, translation: 1.02 * $0.translation) }
        let lengths = pathFractionLengths(pathLength: 100)
        #expect(lengths == [10, 20, 30, 40, 50])
        let drift = try segmentDrift(reference: Self.reference, estimate: est, lengths: lengths)
        for d in drift {
            // The end frame is the first with D_j > D_i + L: one 0.1 m step past L.
            #expect(abs(d.translationPercent - 2 * (d.length + 0.1) / d.length) < 1e-6, "\(d.length)")
            #expect(d.rotationDegreesPerMetre < 1e-9)
            #expect(d.segments > 0)
        }
    }

    @Test func yawAnchoringSeesTiltTheSE3OneHides() throws {
        // The estimate is pitched by 1° everywhere but moves like the reference in its own frame:
        // SE(3) anchoring (KITTI) sees no rotation drift over the segment; yaw anchoring (rpg
        // posyaw) compares absolute tilt, so 1° shows up.
        let tilt = Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 180)
        let est = Self.reference.map { Pose(rotation: tilt, translation: $0.translation) }
        let se3 = try segmentDrift(reference: Self.reference, estimate: est, lengths: [10], anchoring: .se3)
        let yaw = try segmentDrift(reference: Self.reference, estimate: est, lengths: [10], anchoring: .yaw)
        #expect(se3[0].rotationDegreesPerMetre < 1e-9)
        #expect(abs(yaw[0].rotationDegreesPerMetre * 10 - 1) < 1e-9)  // 1° over L = 10 m
        #expect(throws: MetricError.self) { try segmentDrift(reference: Self.reference, estimate: est, lengths: [0]) }
    }

    @Test func shortPathsKeepFractions() {
        #expect(pathFractionLengths(pathLength: 8, fractions: [0.1, 0.5]) == [0.8, 4])
    }
}
