import RealModule

/// Spherical linear interpolation between unit quaternions (Shoemake 1985):
/// slerp(q₀, q₁; f) = sin((1−f)·Ω)/sin Ω · q₀ + sin(f·Ω)/sin Ω · q₁, cos Ω = q₀·q₁,
/// along the shorter arc (q₁ is negated when q₀·q₁ < 0).
///
/// Conventions as evo's `quaternion_slerp` (used by its interpolating association): inputs
/// are normalised; f = 0 returns q₀ and f = 1 returns q₁ exactly; when the two rotations
/// are within 4·ε of each other q₀ is returned. The result is renormalised.
///
/// Numerical contract: the rotation angle between the result and q₀ is f·Ω to ~1e-15 rad.
///
/// - Complexity: O(1).
public func slerp(_ a: Quaternion, _ b: Quaternion, fraction f: Double) -> Quaternion {
    let q0 = a.unit
    var q1 = b.unit
    if f == 0 { return q0 }
    if f == 1 { return q1 }
    var d = q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w
    if abs(abs(d) - 1) < 4 * Double.ulpOfOne { return q0 }
    if d < 0 {
        d = -d
        q1 = Quaternion(x: -q1.x, y: -q1.y, z: -q1.z, w: -q1.w)
    }
    let omega = Double.acos(min(1, d))
    if abs(omega) < 4 * Double.ulpOfOne { return q0 }
    let inv = 1 / Double.sin(omega)
    let s0 = Double.sin((1 - f) * omega) * inv, s1 = Double.sin(f * omega) * inv
    return Quaternion(
        x: s0 * q0.x + s1 * q1.x, y: s0 * q0.y + s1 * q1.y,
        z: s0 * q0.z + s1 * q1.z, w: s0 * q0.w + s1 * q1.w
    ).unit
}
