import NavCore

/// Clew's `alignY`: gravity-aligns a transform by rotating its y-column (the body's up
/// axis expressed in the world) onto world up (+y), keeping the translation.
///
/// R' = R_min·R, where R_min is the shortest-arc rotation taking u = R·ŷ onto ŷ (axis u × ŷ,
/// angle acos(u·ŷ)); t' = t. The result is a pure rotation about +y (its y-column is ŷ), so
/// `alignY(T)` keeps only the yaw and the 3-D position of T. Clew and Clew Maps apply it to
/// anchor poses before registering sessions (T_RN = alignY(T_RA)·alignY(T_NA)⁻¹).
///
/// Numerical contract: the returned rotation maps ŷ to ŷ within 1e-15 and is unit; for a
/// rotation that is already a yaw the input is returned to ~1e-16. When u = −ŷ (the body is
/// upside down) the shortest arc is not unique: navbench rotates by π about the body's own
/// x axis (horizontal in that case), a documented choice Clew leaves undefined.
///
/// - Complexity: O(1).
public func alignY(_ pose: Pose) -> Pose {
    let q = pose.rotation.normalized
    let up = Vector3(0, 1, 0)
    let u = q.act(on: up)
    let c = u.dot(up)
    let minimal: Quaternion
    if c < -1 + 1e-12 {
        let axis = q.act(on: Vector3(1, 0, 0))
        minimal = Quaternion(axis: Vector3(axis.x, 0, axis.z), angle: .pi)
    } else {
        // Shortest arc u → ŷ: q = normalise(1 + u·ŷ, u × ŷ) (half-angle form, no trigonometry).
        let v = u.cross(up)
        minimal = Quaternion(x: v.x, y: v.y, z: v.z, w: 1 + c).normalized
    }
    var r = (minimal * q).normalized
    // The product is a yaw up to rounding; drop the rounding in x and z so it is exactly one.
    r = Quaternion(x: 0, y: r.y, z: 0, w: r.w).normalized
    return Pose(rotation: r, translation: pose.translation)
}
