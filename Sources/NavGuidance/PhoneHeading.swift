import Foundation
import NavCore

/// Clew's geometry of guidance: the phone's heading and the angle to a target.
public enum PhoneHeading {
    /// Yaw of the phone (radians) as Clew computes it from an ARKit camera pose: the camera's
    /// z-axis (column 2) projected on the floor, or its x-axis (column 0, the long axis) when
    /// that one is more horizontal — when the phone is flatter than 45°:
    /// ψ = atan2(v.x, v.z). Both axes point back toward the user, so ψ is the direction
    /// *from* the phone's front *to* the user.
    public static func yaw(_ pose: Pose) -> Double {
        let v = floorAxis(pose)
        return atan2(v.x, v.z)
    }

    /// The camera axis `yaw` projects on the floor (column 2 of the rotation matrix, or column 0
    /// when that one is more horizontal): ψ = atan2(v.x, v.z), so (sin ψ, cos ψ) is (v.x, v.z)
    /// normalised.
    @inline(__always)
    static func floorAxis(_ pose: Pose) -> Vector3 {
        // Columns 0 and 2 of the rotation matrix (the same expressions as
        // `Quaternion.rotationMatrix`, without allocating it: this runs every tick).
        let q = pose.rotation
        let (qx, qy, qz, qw) = (q.x, q.y, q.z, q.w)
        let z = Vector3(2 * (qx * qz + qy * qw), 2 * (qy * qz - qx * qw), 1 - 2 * (qx * qx + qy * qy))
        let x = Vector3(1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qz * qw), 2 * (qx * qz - qy * qw))
        return abs(z.y) < abs(x.y) ? z : x
    }

    /// Clew's `getAngleDiff`: both angles normalised to (−π, π] through atan2(sin, cos), then
    /// the difference taken the short way round.
    public static func angleDifference(_ a1: Double, _ a2: Double) -> Double {
        angleDifference(sine: sin(a1), cosine: cos(a1), a2)
    }

    /// `angleDifference(a1, a2)` given sin a1 and cos a1 (a caller that has them already: the
    /// same bits, one sine and one cosine fewer).
    public static func angleDifference(sine s1: Double, cosine c1: Double, _ a2: Double) -> Double {
        let a = atan2(s1, c1), b = atan2(sin(a2), cos(a2))
        let d1 = a - b
        var d2 = 2 * Double.pi - abs(d1)
        if d1 > 0 { d2 = -d2 }
        return abs(d1) < abs(d2) ? d1 : d2
    }
}
