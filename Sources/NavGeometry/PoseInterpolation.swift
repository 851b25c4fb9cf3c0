import NavCore
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
    let q0 = unit(a)
    var q1 = unit(b)
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
    return unit(Quaternion(x: s0 * q0.x + s1 * q1.x, y: s0 * q0.y + s1 * q1.y,
                           z: s0 * q0.z + s1 * q1.z, w: s0 * q0.w + s1 * q1.w))
}

/// Unit-norm copy keeping the sign (unlike `Quaternion.normalized`, which forces w ≥ 0).
@inlinable func unit(_ q: Quaternion) -> Quaternion {
    let n = q.norm
    return Quaternion(x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n)
}

/// Interpolates a pose: linear in position, `slerp` in orientation, at fraction f ∈ [0, 1]
/// (values outside extrapolate linearly and along the great circle).
///
/// - Complexity: O(1).
public func interpolatePose(_ a: Pose, _ b: Pose, fraction f: Double) -> Pose {
    Pose(rotation: slerp(a.rotation, b.rotation, fraction: f),
         translation: a.translation + f * (b.translation - a.translation))
}

/// Poses of `trajectory` at the given times: lerp/slerp between the two samples that
/// bracket each time, as evo's `PoseTrajectory3D.interpolate(timestamps, extrapolate=False)`:
/// segment k = the first sample with t_k ≥ t (clamped to 1…n−1), fraction clamped to
/// [0, 1] so times outside the trajectory get its first or last pose.
///
/// - Precondition on data: `trajectory` has at least two poses (callers check; a
///   single-pose trajectory returns that pose for every time).
/// - Complexity: O(m log n) for m times (one binary search each).
public func interpolate(_ trajectory: Trajectory, at times: [Double]) -> [Pose] {
    let stamps = trajectory.timestamps
    let poses = trajectory.poses.values
    let n = stamps.count
    if n == 0 { return [] }
    if n == 1 { return Array(repeating: poses[0], count: times.count) }
    var out: [Pose] = []
    out.reserveCapacity(times.count)
    for t in times {
        // searchsorted(side="left"): first k with stamps[k] >= t.
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if stamps[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        let k = min(max(lo, 1), n - 1)
        let dt = stamps[k] - stamps[k - 1]
        var f = dt > 0 ? (t - stamps[k - 1]) / dt : 0
        f = min(max(f, 0), 1)
        out.append(interpolatePose(poses[k - 1], poses[k], fraction: f))
    }
    return out
}
