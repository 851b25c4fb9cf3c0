// Row-major 3×3 rotation matrices as they appear in files (KITTI, ARKit logs, Clew routes):
// how far one is from a proper rotation, and the rotation when it is one.

/// How far a row-major 3×3 matrix is from a rotation: max |R·Rᵀ − I| and det R.
public func rotationDeviation(_ m: [[Double]]) -> (orthonormality: Double, determinant: Double) {
    var worst = 0.0
    for i in 0..<3 {
        for j in 0..<3 {
            let dot = m[i][0] * m[j][0] + m[i][1] * m[j][1] + m[i][2] * m[j][2]
            worst = max(worst, abs(dot - (i == j ? 1 : 0)))
        }
    }
    let det =
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    return (worst, det)
}

/// A rotation from a row-major 3×3 matrix when it is orthonormal within `tolerance`
/// (max |R·Rᵀ − I|) with det > 0; nil otherwise.
public func rotationFromMatrix(_ m: [[Double]], tolerance: Double) -> Quaternion? {
    guard m.allSatisfy({ $0.allSatisfy(\.isFinite) }) else { return nil }
    let (worst, det) = rotationDeviation(m)
    guard worst <= tolerance, det > 0 else { return nil }
    return Quaternion(rotationMatrix: m).normalized
}
