import Foundation
import NavCore
import NavIO

/// A fixed rotation r of a stream's body (device) frame: the orientation of the trace's body
/// frame written in the source's device frame, q_device_body (R(r)'s columns are the trace body
/// axes in device coordinates). It turns the body side of orientations and the body-frame
/// vectors (accelerometer, gyroscope, magnetometer):
///
///     q_trace = q_world_device ⊗ r          (device → world, composed with body → device)
///     v_trace = R(r)ᵀ · v_device            (the same vector, in the trace body's axes)
///
/// so q_trace · v_trace = q_world_device · v_device: a vector's world direction is unchanged.
/// CoreMotion's device axes (x right, y top, z out of the screen) become ARKit's camera axes as
/// navbench uses them (x toward the bottom edge, y right, z out of the screen) with r = −90°
/// about z (`coreMotionBodyToARKitCamera`): R(r)ᵀ maps (x, y, z) to (−y, x, z).
///
/// The matrix R(r) is built once from r (entries within 1e-12 of 0 or ±1 set to them, so axis
/// permutations are exact) and r is recomputed from it (Shepperd's method, w ≥ 0).
///
/// - Complexity: O(1) per vector or orientation.
/// - Reference: Hamilton quaternions, active rotations (Solà, "Quaternion kinematics for the
///   error-state Kalman filter", 2017, §2–3); docs/importers.md, "Frames".
public struct BodyRotation: Sendable, Equatable {
    /// r = q_device_body, unit, w ≥ 0.
    public let quaternion: Quaternion
    /// R(r)ᵀ: `vectorChange.apply(v_device)` is v_trace.
    public let vectorChange: FrameChange

    /// From r (any sign; normalised). The caller checks that it is near unit length.
    public init(quaternion r: Quaternion) {
        let m = Self.snapped(r.unit.rotationMatrix)
        quaternion = Quaternion(rotationMatrix: m).normalized
        vectorChange = FrameChange(matrix: (0..<3).map { i in (0..<3).map { j in m[j][i] } })
    }

    /// Rotation by `angleDegrees` about `axis` (any non-zero length), right-handed.
    public init(axis: Vector3, angleDegrees: Double) {
        self.init(quaternion: Quaternion(axis: axis / axis.norm, angle: angleDegrees * .pi / 180))
    }

    public static let identity = BodyRotation(quaternion: .identity)

    /// q ⊗ r, normalised (w ≥ 0).
    public func applyToOrientation(_ q: Quaternion) -> Quaternion { (q * quaternion).normalized }

    /// R(r)ᵀ · v.
    public func apply(_ v: Vector3) -> Vector3 { vectorChange.apply(v) }

    private static func snapped(_ m: [[Double]]) -> [[Double]] {
        m.map { row in
            row.map { e in
                for target in [-1.0, 0, 1] where abs(e - target) < 1e-12 { return target }
                return e
            }
        }
    }
}

/// CoreMotion device axes (x right, y top, z out of the screen) → ARKit's camera axes as navbench
/// uses them (x toward the bottom edge, y right, z out of the screen): r = −90° about z, so
/// v_ARKit = (−y, x, z)_CoreMotion. Used by `coremotion-logger`, `weallwalk` and `ios-logger`.
public let coreMotionBodyToARKitCamera = BodyRotation(axis: Vector3(0, 0, 1), angleDegrees: -90)
