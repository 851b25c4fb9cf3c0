import Foundation
import NavCore

/// Where a keypoint is relative to the phone (Clew's `DirectionInfo`).
public struct Direction: Sendable, Equatable {
    /// Horizontal distance, metres, rounded to tenths.
    public var distance: Double
    /// Angle from the phone's heading to the keypoint, radians, positive = to the right.
    public var angle: Double
    public var hour: Int
    public var sector: Int
    /// Lateral distance at which the phone's current heading crosses the keypoint's plane,
    /// divided by the box width; ∞ when the heading points away from it.
    public var lateralRatio: Double
    public var atTarget: Bool

    /// Computes the direction from `pose` to keypoint `k` of `route`.
    ///
    /// delta = p − kp; box coordinates x = delta·o (along the route, o toward the previous
    /// keypoint), y = delta·ŷ, z = delta·(o × ŷ); bearing = atan2(p.x − kp.x, p.z − kp.z);
    /// angle = angleDifference(phone yaw, bearing).
    public init(from pose: Pose, to k: Int, of route: GuidanceRoute, parameters p: GuidanceParameters) {
        let kp = route.keypoints[k]
        let last = k == route.keypoints.count - 1
        let depth = last ? p.lastTargetDepth : p.targetDepth
        let height = last ? p.lastTargetHeight : p.targetHeight
        let width = last ? p.lastTargetWidth : p.targetWidth
        let yaw = PhoneHeading.yaw(pose)
        let sinYaw = sin(yaw), cosYaw = cos(yaw)
        let heading = Vector3(sinYaw, 0, cosYaw)
        let delta = pose.translation - kp.position
        let bearing = atan2(pose.translation.x - kp.position.x, pose.translation.z - kp.position.z)
        angle = PhoneHeading.angleDifference(sine: sinYaw, cosine: cosYaw, bearing)
        hour = ClockFace.hour(angle: angle)
        sector = ClockFace.sector(angle: angle)
        distance = (10 * Vector3(delta.x, 0, delta.z).norm).rounded() / 10
        let along = kp.orientation.dot(heading)
        if along <= 0 {
            lateralRatio = .infinity
        } else {
            lateralRatio = (-heading * (delta.dot(kp.orientation) / along) + delta).norm / width
        }
        atTarget = Self.isAtTarget(delta: delta, keypoint: kp, depth: depth, height: height, width: width, test: p.arrivalTest)
    }

    /// Whether `position` is inside the arrival box of keypoint `k`: the `atTarget` of a
    /// direction from any pose at that position (the box test does not use the heading).
    public static func isAtTarget(_ position: Vector3, keypoint k: Int, of route: GuidanceRoute, parameters p: GuidanceParameters) -> Bool {
        let kp = route.keypoints[k]
        let last = k == route.keypoints.count - 1
        return isAtTarget(
            delta: position - kp.position, keypoint: kp, depth: last ? p.lastTargetDepth : p.targetDepth,
            height: last ? p.lastTargetHeight : p.targetHeight, width: last ? p.lastTargetWidth : p.targetWidth, test: p.arrivalTest)
    }

    /// Clew's box test on delta = p − kp: x = delta·o, y = delta·ŷ, z = delta·(o × ŷ).
    @inline(__always)
    static func isAtTarget(
        delta: Vector3, keypoint kp: Keypoint, depth: Double, height: Double, width: Double, test: GuidanceParameters.ArrivalTest
    ) -> Bool {
        let up = Vector3(0, 1, 0)
        let x = delta.dot(kp.orientation), y = delta.dot(up), z = delta.dot(kp.orientation.cross(up))
        switch test {
        case .faithful: return x <= depth && y <= height && z <= width
        case .symmetric: return abs(x) <= depth && abs(y) <= height && abs(z) <= width
        }
    }

    /// `Direction(from: pose, to: k, …).onTrack(p)` decided without a trigonometric call when
    /// the answer is certain, nil when only the exact computation can tell.
    ///
    /// The exact test compares the lateral ratio with `lateralToleranceRatio` and |angle| with
    /// `coneHalfWidth`, from the heading (sin ψ, cos ψ) with ψ = atan2(v.x, v.z) (`PhoneHeading`)
    /// and the bearing of delta. Here the heading is v's horizontal part normalised, the same
    /// unit vector up to ~1e-15 (libm's atan2, sin and cos are within an ulp or two), written so
    /// that |v| cancels: the crossing offset is delta − v·(delta·o)/(o·v), compared by its square
    /// with (tolerance · width ± margin)², and cos(angle) = (v·delta)/(|v||delta|) by its square
    /// with (cos(coneHalfWidth) ± 1e-9)². Each test answers only when its value lies farther from
    /// its threshold than 10⁴ times a bound on the difference between the two computations
    /// (1e-9 · the scale of the value, over the obliquity of the heading to the keypoint plane
    /// for the lateral ratio); else, and for non-finite input, a zero axis, a heading within
    /// 1e-6 of the keypoint plane or delta within 1e-100 of zero, nil. `GuidanceEngine` then
    /// computes the direction (`DirectionShortcutTests` compare both over adversarial and random
    /// poses and walks).
    ///
    /// - Complexity: O(1), no square root, one division, no atan2, sin or cos.
    /// - Parameter coneCosine: cos(`p.coneHalfWidth`) (computed when nil; a caller checking
    ///   many poses passes it).
    static func onTrackWithoutAngles(
        _ pose: Pose, keypoint kp: Keypoint, last: Bool, parameters p: GuidanceParameters, coneCosine: Double? = nil
    ) -> Bool? {
        let v = PhoneHeading.floorAxis(pose)
        let o = kp.orientation
        let width = last ? p.lastTargetWidth : p.targetWidth
        let tolerance = p.lateralToleranceRatio
        let delta = pose.translation - kp.position
        // No square root and one division on the way to an answer: the heading is v/|v|, and
        // both tests are written so that |v| cancels or compare squares.
        let vv = v.x * v.x + v.z * v.z
        guard vv > 1e-200, vv.isFinite, delta.x.isFinite, delta.y.isFinite, delta.z.isFinite, o.x.isFinite, o.y.isFinite, o.z.isFinite,
            width > 0, width.isFinite, tolerance.isFinite
        else { return nil }
        // Sums of magnitudes stand for norms in the bounds (never smaller: the margins only grow).
        let oNorm = abs(o.x) + abs(o.y) + abs(o.z), vNorm = abs(v.x) + abs(v.z)
        let deltaNorm = abs(delta.x) + abs(delta.y) + abs(delta.z)
        // along = o·heading = ov/|v|; the crossing offset r = delta − heading·(delta·o)/along
        // = delta − v·(delta·o)/ov.
        let ov = o.x * v.x + o.z * v.z
        var lateralOnTrack: Bool?
        if ov < -1e-6 * oNorm * vNorm {
            lateralOnTrack = false  // the heading points away from the plane: ratio ∞
        } else if ov > 1e-6 * oNorm * vNorm {
            let w = delta.dot(o)
            let s = w / ov
            let rx = delta.x - v.x * s, rz = delta.z - v.z * s
            let r2 = rx * rx + delta.y * delta.y + rz * rz
            // |t| = |w|/along ≤ |w|·vNorm/ov and |o|/along ≤ oNorm·vNorm/ov; a margin in metres.
            let margin = 1e-9 * (1 + deltaNorm + abs(w) * vNorm / ov) * (1 + oNorm * vNorm / ov)
            let edge = tolerance * width
            guard r2.isFinite, margin.isFinite, edge.isFinite else { return nil }
            if r2 > (edge + margin) * (edge + margin) {
                lateralOnTrack = false
            } else if edge > margin && r2 < (edge - margin) * (edge - margin) {
                lateralOnTrack = true
            }
        }
        if lateralOnTrack == true { return true }
        // Angle to the bearing of delta (the exact test runs it only when the ratio says no):
        // cos(angle) = P/√N against c = cos(coneHalfWidth), by squares.
        let uu = delta.x * delta.x + delta.z * delta.z
        let cone = p.coneHalfWidth
        guard uu > 1e-200, cone > 0, cone < .pi / 2 else { return nil }
        let c = coneCosine ?? cos(cone)
        let dot = v.x * delta.x + v.z * delta.z, nn = vv * uu
        guard c > 1e-6, nn.isFinite, (dot * dot).isFinite else { return nil }
        // On track by the angle whatever the ratio; off by it, as the ratio says (if it says).
        if dot > 0 && dot * dot > (c + 1e-9) * (c + 1e-9) * nn { return true }
        if dot <= 0 || dot * dot < (c - 1e-9) * (c - 1e-9) * nn { return lateralOnTrack == false ? false : nil }
        return nil
    }

    /// On track for a haptic pulse: lateral ratio below the tolerance or angle inside the cone.
    public func onTrack(_ p: GuidanceParameters) -> Bool {
        lateralRatio < p.lateralToleranceRatio || abs(angle) < p.coneHalfWidth
    }
}
