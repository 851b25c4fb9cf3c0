import Foundation
import NavCore
import Testing

@testable import NavGuidance

/// `Direction.onTrackWithoutAngles` answers only what `Direction.onTrack` answers: over random
/// poses, and over poses placed at the thresholds (the angle at the cone's edge, the lateral
/// ratio at its tolerance, the heading along the keypoint plane) and nudged by 1e-15 … 1e-6.
@Suite struct DirectionShortcutTests {
    static let route = GuidanceRoute(positions: [Vector3(0, 1.3, 0), Vector3(0, 1.3, -12), Vector3(9, 1.3, -12), Vector3(9, 1.3, -30)])
    static let tilt = Quaternion(axis: Vector3(1, 0, 0), angle: -10 * Double.pi / 180) * Quaternion(axis: Vector3(0, 0, 1), angle: -.pi / 2)

    /// The phone held as the walker holds it, its yaw ψ (walking direction (−sin ψ, −cos ψ)).
    static func pose(yaw: Double, at p: Vector3, tilt: Quaternion = tilt) -> Pose {
        Pose(rotation: Quaternion(yaw: yaw) * tilt, translation: p)
    }

    /// Checks one pose against every keypoint and both haptic settings; returns (decided, asked).
    @discardableResult
    static func agree(_ pose: Pose, _ note: @autoclosure () -> String) -> (Int, Int) {
        var decided = 0, asked = 0
        for strict in [false, true] {
            var p = GuidanceParameters()
            p.strictHaptic = strict
            for k in route.keypoints.indices {
                asked += 1
                guard
                    let quick = Direction.onTrackWithoutAngles(
                        pose, keypoint: route.keypoints[k], last: k == route.keypoints.count - 1, parameters: p)
                else { continue }
                decided += 1
                let exact = Direction(from: pose, to: k, of: route, parameters: p).onTrack(p)
                #expect(quick == exact, "\(note()), keypoint \(k), strict \(strict)")
            }
        }
        return (decided, asked)
    }

    @Test func randomPosesAgree() {
        var g = SeededRandom(seed: 33)
        var decided = 0, asked = 0
        for i in 0..<20_000 {
            let p = Vector3(g.uniform(-20, 30), 1.3 + g.uniform(-1, 1), g.uniform(-40, 10))
            let tilt =
                i % 3 == 0
                ? Quaternion(axis: Vector3(g.uniform(-1, 1), g.uniform(-1, 1), g.uniform(-1, 1)), angle: g.uniform(-.pi, .pi)) : Self.tilt
            let (d, a) = Self.agree(Self.pose(yaw: g.uniform(-.pi, .pi), at: p, tilt: tilt), "pose \(i)")
            decided += d
            asked += a
        }
        // The shortcut decides almost everything (else it would not save anything).
        #expect(Double(decided) > 0.99 * Double(asked), "\(decided) of \(asked)")
    }

    @Test func posesAtTheThresholdsAgree() {
        let nudges = [0.0, 1e-15, -1e-15, 1e-13, -1e-13, 1e-11, -1e-11, 1e-9, -1e-9, 1e-8, -1e-8, 1e-7, -1e-7, 1e-6, -1e-6]
        var g = SeededRandom(seed: 34)
        var nearEdge = (decided: 0, asked: 0), lateralEdges = 0
        for strict in [false, true] {
            var params = GuidanceParameters()
            params.strictHaptic = strict
            for case_ in 0..<200 {
                let k = Int(g.next() % UInt64(Self.route.keypoints.count))
                let kp = Self.route.keypoints[k]
                let p = kp.position + Vector3(g.uniform(-15, 15), 0, g.uniform(-15, 15))
                // The yaw whose angle to the keypoint is at the cone's edge (Newton on ψ: the
                // angle moves one for one with it).
                var yaw = g.uniform(-.pi, .pi)
                let sign = g.next() % 2 == 0 ? 1.0 : -1.0
                func angle(_ y: Double) -> Double { Direction(from: Self.pose(yaw: y, at: p), to: k, of: Self.route, parameters: params).angle }
                for _ in 0..<8 {
                    let slope = (angle(yaw + 1e-6) - angle(yaw)) / 1e-6
                    guard slope.isFinite, abs(slope) > 0.1 else { break }
                    yaw -= (angle(yaw) - sign * params.coneHalfWidth) / slope
                }
                for n in nudges {
                    Self.agree(Self.pose(yaw: yaw + n, at: p), "cone edge, case \(case_), nudge \(n)")
                    let d = Direction(from: Self.pose(yaw: yaw + n, at: p), to: k, of: Self.route, parameters: params)
                    if abs(n) <= 1e-11 && d.lateralRatio >= params.lateralToleranceRatio * 1.01 {
                        nearEdge.asked += 1
                        let quick = Direction.onTrackWithoutAngles(
                            Self.pose(yaw: yaw + n, at: p), keypoint: kp, last: k == Self.route.keypoints.count - 1, parameters: params)
                        if quick != nil { nearEdge.decided += 1 }
                    }
                }
                // The position whose lateral ratio is at the tolerance: along the keypoint plane's
                // lateral axis from where the heading crosses it.
                let yaw2 = g.uniform(-.pi, .pi)
                var q = p
                let lateral = kp.orientation.cross(Vector3(0, 1, 0))
                for _ in 0..<30 {
                    let d = Direction(from: Self.pose(yaw: yaw2, at: q), to: k, of: Self.route, parameters: params)
                    guard d.lateralRatio.isFinite else { break }
                    let width = k == Self.route.keypoints.count - 1 ? params.lastTargetWidth : params.targetWidth
                    // Moving by s along the lateral axis moves the crossing by about s.
                    let step = (d.lateralRatio - params.lateralToleranceRatio) * width
                    let test = Direction(from: Self.pose(yaw: yaw2, at: q + lateral * 1e-3), to: k, of: Self.route, parameters: params)
                    let slope = (test.lateralRatio - d.lateralRatio) / 1e-3
                    guard slope.isFinite, slope != 0 else { break }
                    q = q - lateral * (step / width / slope)
                }
                let atEdge = Direction(from: Self.pose(yaw: yaw2, at: q), to: k, of: Self.route, parameters: params).lateralRatio
                if abs(atEdge - params.lateralToleranceRatio) < 1e-9 { lateralEdges += 1 }
                for n in nudges { Self.agree(Self.pose(yaw: yaw2, at: q + lateral * n), "lateral edge, case \(case_), nudge \(n)") }
                // The heading along the keypoint plane (the ratio's denominator near zero).
                let plane = Double.atan2(y: -kp.orientation.x, x: -kp.orientation.z) + .pi / 2
                for n in nudges { Self.agree(Self.pose(yaw: plane + n, at: p, tilt: .identity), "plane, case \(case_), nudge \(n)") }
            }
        }
        // The poses do sit at the edge: there the shortcut leaves some tests to the direction.
        #expect(nearEdge.asked > 100 && nearEdge.decided == 0, "\(nearEdge)")
        #expect(lateralEdges > 100, "lateral ratios placed at the tolerance: \(lateralEdges) of 400")
    }

    @Test func degenerateInputIsLeftToTheDirection() {
        let kp = Self.route.keypoints[1]
        let p = GuidanceParameters()
        for pose in [Self.pose(yaw: 0.3, at: Vector3(.nan, 0, 0)), Self.pose(yaw: 0.3, at: Vector3(1e300, 0, 1e300))] {
            #expect(Direction.onTrackWithoutAngles(pose, keypoint: kp, last: false, parameters: p) == nil, "\(pose)")
        }
        // At the keypoint, with a degenerate rotation, far away: the same answer when decided.
        Self.agree(Self.pose(yaw: 0.3, at: kp.position), "at the keypoint")
        Self.agree(Pose(rotation: Quaternion(x: 0, y: 0, z: 0, w: 0), translation: .zero), "zero quaternion")
        Self.agree(Self.pose(yaw: 0.3, at: Vector3(1e8, 1.3, -1e8)), "far")
    }
}
