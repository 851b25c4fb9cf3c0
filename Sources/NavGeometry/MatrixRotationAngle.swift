import NavCore
import RealModule

// The rotation angle of a 3×3 matrix that is a rotation only to the digits it was printed
// with (KITTI poses, and every product of them), as evo reads it: `lie.so3_log_angle(R)`, the
// norm of scipy's `Rotation.from_matrix(R).as_rotvec()` (scipy 1.17). A normalised quaternion
// made first (as `Quaternion(rotationMatrix:)`) drops the matrix's departure from a rotation
// differently and differs from evo by up to 3e-4 relative on KITTI 00's smallest relative
// rotations (issue 31).

/// Whether scipy treats `m` as orthogonal (and converts it without orthogonalising it):
/// every entry of M·Mᵀ within 10⁻¹² + 10⁻⁵·|δᵢⱼ| of the identity's (numpy's `isclose`
/// with `atol` 10⁻¹² and its default `rtol`).
func scipyDeemsOrthogonal(_ m: Matrix3) -> Bool {
    let r = [m.row0, m.row1, m.row2]
    for i in 0..<3 {
        for j in 0..<3 {
            let identity = i == j ? 1.0 : 0.0
            guard abs(r[i].dot(r[j]) - identity) <= 1e-12 + 1e-5 * identity else { return false }
        }
    }
    return true
}

/// The rotation angle of `m` as evo measures it (`so3_log_angle`): the nearest rotation when
/// scipy deems `m` not orthogonal (`scipyDeemsOrthogonal`, `nearestRotation`), its quaternion
/// by Markley's method (the largest of m₀₀, m₁₁, m₂₂ and the trace chooses the formula;
/// normalised; w ≥ 0), and the norm of its rotation vector, 2·atan2(‖v‖, w)/sin(θ/2)·‖v‖ (the
/// Taylor series 2 + θ²/12 + 7θ⁴/2880 for θ ≤ 10⁻³), radians in [0, π]. NaN when no rotation
/// is near (det ≤ 0 or a non-finite entry).
///
/// Numerical contract: equal to evo 1.38.1 with scipy 1.17.1 within 1e-9 relative on the
/// KITTI fixtures (`scripts/make_evo_kitti_fixtures.py`).
///
/// - Complexity: O(1).
public func evoRotationAngle(_ m: Matrix3) -> Double {
    let orthogonal = scipyDeemsOrthogonal(m)
    guard let r = orthogonal ? m : nearestRotation(m) else { return .nan }
    let trace = r.row0.x + r.row1.y + r.row2.z
    let decision = [r.row0.x, r.row1.y, r.row2.z, trace]
    var choice = 0
    for k in 1..<4 where decision[k] > decision[choice] { choice = k }  // numpy argmax: first maximum
    var q: (x: Double, y: Double, z: Double, w: Double)
    switch choice {
    case 0: q = (1 - trace + 2 * r.row0.x, r.row1.x + r.row0.y, r.row2.x + r.row0.z, r.row2.y - r.row1.z)
    case 1: q = (r.row1.x + r.row0.y, 1 - trace + 2 * r.row1.y, r.row2.y + r.row1.z, r.row0.z - r.row2.x)
    case 2: q = (r.row2.x + r.row0.z, r.row2.y + r.row1.z, 1 - trace + 2 * r.row2.z, r.row1.x - r.row0.y)
    default: q = (r.row2.y - r.row1.z, r.row0.z - r.row2.x, r.row1.x - r.row0.y, 1 + trace)
    }
    let norm = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).squareRoot()
    q = (q.x / norm, q.y / norm, q.z / norm, q.w / norm)
    let w = abs(q.w)  // the canonical sign (w ≥ 0); ‖v‖ does not depend on it
    let v = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
    let angle = 2 * Double.atan2(y: v, x: w)
    let angle2 = angle * angle
    let scale = angle <= 1e-3 ? 2 + angle2 / 12 + 7 * angle2 * angle2 / 2880 : angle / Double.sin(angle / 2)
    return scale * v
}
