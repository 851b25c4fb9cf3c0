import RealModule

/// A rotation quaternion `w + xi + yj + zk` (Hamilton convention, active rotation).
///
/// Storage order in files is (x, y, z, w), as in TUM, scipy and ROS. A
/// `Quaternion` that represents a rotation has unit norm; `normalized` restores it.
public struct Quaternion: Hashable, Sendable, CustomStringConvertible {
    public var x: Double, y: Double, z: Double, w: Double

    @inlinable public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x; self.y = y; self.z = z; self.w = w
    }

    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

    /// Rotation by `angle` about the unit `axis`: q = (sin(θ/2)·axis, cos(θ/2)).
    public init(axis: Vector3, angle: Double) {
        let n = axis.norm
        let s = Double.sin(angle / 2) / (n > 0 ? n : 1)
        self.init(x: axis.x * s, y: axis.y * s, z: axis.z * s, w: Double.cos(angle / 2))
    }

    /// Rotation about +y (up) by `yaw` radians: the yaw of an ARKit frame.
    public init(yaw: Double) { self.init(axis: Vector3(0, 1, 0), angle: yaw) }

    /// Rotation from a 3×3 matrix given row-major (Shepperd's method).
    public init(rotationMatrix m: [[Double]]) {
        let trace = m[0][0] + m[1][1] + m[2][2]
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(
                x: (m[2][1] - m[1][2]) / s, y: (m[0][2] - m[2][0]) / s,
                z: (m[1][0] - m[0][1]) / s, w: s / 4)
        } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
            let s = (1 + m[0][0] - m[1][1] - m[2][2]).squareRoot() * 2
            self.init(
                x: s / 4, y: (m[0][1] + m[1][0]) / s,
                z: (m[0][2] + m[2][0]) / s, w: (m[2][1] - m[1][2]) / s)
        } else if m[1][1] > m[2][2] {
            let s = (1 + m[1][1] - m[0][0] - m[2][2]).squareRoot() * 2
            self.init(
                x: (m[0][1] + m[1][0]) / s, y: s / 4,
                z: (m[1][2] + m[2][1]) / s, w: (m[0][2] - m[2][0]) / s)
        } else {
            let s = (1 + m[2][2] - m[0][0] - m[1][1]).squareRoot() * 2
            self.init(
                x: (m[0][2] + m[2][0]) / s, y: (m[1][2] + m[2][1]) / s,
                z: s / 4, w: (m[1][0] - m[0][1]) / s)
        }
    }

    @inlinable public var norm: Double { (x * x + y * y + z * z + w * w).squareRoot() }

    /// Unit-norm copy with w ≥ 0 (the canonical sign of the double cover).
    public var normalized: Quaternion {
        let n = norm
        let s = w < 0 ? -1 / n : 1 / n
        return Quaternion(x: x * s, y: y * s, z: z * s, w: w * s)
    }

    /// Unit-norm copy keeping the sign (`q / ‖q‖`; `normalized` also forces w ≥ 0).
    @inlinable public var unit: Quaternion {
        let n = norm
        return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
    }

    /// `unit` when the norm is finite and within `tolerance` of 1, else nil (a wrong column or
    /// component order in a file, a zero quaternion).
    public func unit(tolerance: Double) -> Quaternion? {
        let n = norm
        guard n.isFinite, abs(n - 1) <= tolerance else { return nil }
        return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
    }

    /// Conjugate; the inverse of a unit quaternion.
    @inlinable public var conjugate: Quaternion { Quaternion(x: -x, y: -y, z: -z, w: w) }

    /// Hamilton product `a·b` (apply b, then a).
    @inlinable public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
    }

    /// Rotates `v`: q·v·q* (assumes unit norm).
    @inlinable public func act(on v: Vector3) -> Vector3 {
        let u = Vector3(x, y, z)
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// Row-major rotation matrix of a unit quaternion.
    public var rotationMatrix: [[Double]] {
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    }

    /// Rotation angle in [0, π] of a unit quaternion: 2·atan2(‖v‖, |w|).
    public var angle: Double { 2 * Double.atan2(y: Vector3(x, y, z).norm, x: Swift.abs(w)) }

    /// Yaw about +y of the rotated −z axis (an ARKit camera's viewing direction),
    /// measured as `atan2(−f.x, −f.z)` so that identity has yaw 0.
    public var yaw: Double {
        let f = act(on: Vector3(0, 0, -1))
        return Double.atan2(y: -f.x, x: -f.z)
    }

    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite && w.isFinite }

    public var description: String { "(x: \(x), y: \(y), z: \(z), w: \(w))" }
}
