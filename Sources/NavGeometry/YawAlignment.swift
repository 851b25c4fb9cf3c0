import NavCore
import RealModule

/// Rotation by `yaw` radians about +y (ARKit up): R_y(θ) = [[cos θ, 0, sin θ], [0, 1, 0], [−sin θ, 0, cos θ]].
///
/// The same rotation as `Quaternion(yaw:)`.
///
/// - Complexity: O(1).
@inlinable public func yawRotation(_ yaw: Double) -> Matrix3 {
    let c = Double.cos(yaw), s = Double.sin(yaw)
    return Matrix3(c, 0, s, 0, 1, 0, -s, 0, c)
}

/// The yaw θ of a rotation about +y, R = R_y(θ): `Quaternion.yaw`, the heading of the
/// rotated −z axis, atan2(R₀₂, R₂₂) for a pure yaw. Result in (−π, π].
///
/// - Complexity: O(1).
@inlinable public func yawAngle(of q: Quaternion) -> Double { Angle.wrapToPi(q.yaw) }

/// 4-DoF alignment with known gravity: the yaw about +y and the translation that take
/// `source` points onto `target` points in the least-squares sense,
/// argmin_θ,t Σ‖y_i − (R_y(θ)·x_i + t)‖².
///
/// VIO (ARKit, rpg_trajectory_evaluation's `posyaw`) observes roll and pitch through
/// gravity, so only yaw and position are unobservable: aligning them alone avoids hiding
/// a tilt error, as a full SE(3) alignment would.
///
/// Closed form: with centred points x̃ = x − μ_x, ỹ = y − μ_y,
/// A = Σ (x̃ₓ·ỹₓ + x̃_z·ỹ_z), B = Σ (x̃_z·ỹₓ − x̃ₓ·ỹ_z), θ = atan2(B, A), t = μ_y − R_y(θ)·μ_x
/// (the y components do not depend on θ). Derivation: Σ ỹ·R_y(θ)x̃ = A·cos θ + B·sin θ is maximal at θ = atan2(B, A).
///
/// Numerical contract: for exact correspondences (≥ 2 points with distinct floor-plane
/// positions) θ and t are recovered to ~1e-12 (`YawAlignmentTests`).
///
/// - Throws: `AlignmentError.tooFewPoints` for fewer than 2 pairs, `.degenerate` when all
///   points share one floor-plane position (A = B = 0, yaw undetermined).
/// - Complexity: O(n).
public func yawAlignment(source x: [Vector3], target y: [Vector3]) throws(AlignmentError) -> Similarity3 {
    // The general form with the floor plane (z, x): A and B are the same two products summed
    // (addition commutes exactly) and R_y is the same matrix, so results are bit-identical.
    try yawAlignment(source: x, target: y, about: .y)
}
