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
        let up = Vector3(0, 1, 0)
        let x = delta.dot(kp.orientation), y = delta.dot(up), z = delta.dot(kp.orientation.cross(up))
        switch p.arrivalTest {
        case .faithful: atTarget = x <= depth && y <= height && z <= width
        case .symmetric: atTarget = abs(x) <= depth && abs(y) <= height && abs(z) <= width
        }
    }

    /// On track for a haptic pulse: lateral ratio below the tolerance or angle inside the cone.
    public func onTrack(_ p: GuidanceParameters) -> Bool {
        lateralRatio < p.lateralToleranceRatio || abs(angle) < p.coneHalfWidth
    }
}
