import NavCore

/// Least-squares similarity (Sim(3)) or rigid (SE(3)) transform taking `source` points onto
/// `target` points: argmin Σ‖y_i − (s·R·x_i + t)‖² (Umeyama 1991, "Least-squares estimation
/// of transformation parameters between two point patterns", IEEE PAMI 13(4)).
///
/// Closed form, with the equation numbers of the paper:
/// - means μ_x, μ_y (eq. 34, 35); variance σ_x² = (1/n)·Σ‖x_i − μ_x‖² (eq. 36);
/// - cross-covariance Σ_xy = (1/n)·Σ (y_i − μ_y)(x_i − μ_x)ᵀ (eq. 38), SVD Σ_xy = U·D·Vᵀ (`SVD3`);
/// - S = I, or diag(1, 1, −1) when det U·det V < 0 (eq. 43, keeps det R = +1);
/// - R = U·S·Vᵀ (eq. 40); s = tr(D·S)/σ_x² with scale, else 1 (eq. 42); t = μ_y − s·R·μ_x (eq. 41).
///
/// This is the estimator of evo's `geometry.umeyama_alignment` and `PosePath3D.align`
/// (same degeneracy rule: fewer than two singular values above machine epsilon throws).
///
/// Numerical contract: for exact correspondences y = s·R·x + t of ≥ 3 non-collinear points,
/// R, t and s are recovered to ~1e-12 relative (`UmeyamaTests`).
///
/// - Throws: `AlignmentError` on count mismatch, fewer than 3 pairs, non-finite input or
///   degenerate (collinear / identical) points.
/// - Complexity: O(n), two passes over the points.
public func umeyamaAlignment(source x: [Vector3], target y: [Vector3], withScale: Bool) throws(AlignmentError) -> Similarity3 {
    guard x.count == y.count else { throw .countMismatch(source: x.count, target: y.count) }
    let n = x.count
    guard n >= 3 else { throw .tooFewPoints(count: n, needed: 3) }
    var sumX = Vector3.zero, sumY = Vector3.zero
    for i in 0..<n { sumX += x[i]; sumY += y[i] }
    let meanX = sumX / Double(n), meanY = sumY / Double(n)
    guard meanX.isFinite && meanY.isFinite else { throw .notFinite }
    // Accumulate Σ (y−μy)(x−μx)ᵀ row by row and Σ‖x−μx‖².
    var c0 = Vector3.zero, c1 = Vector3.zero, c2 = Vector3.zero
    var varianceSum = 0.0
    for i in 0..<n {
        let dx = x[i] - meanX, dy = y[i] - meanY
        c0 += dy.x * dx; c1 += dy.y * dx; c2 += dy.z * dx
        varianceSum += dx.dot(dx)
    }
    let inv = 1 / Double(n)
    let covariance = Matrix3(rows: inv * c0, inv * c1, inv * c2)
    let sigmaX = inv * varianceSum
    let svd = SVD3(covariance)
    let d = svd.singularValues
    let aboveEps = [d.x, d.y, d.z].filter { $0 > Double.ulpOfOne }.count
    guard aboveEps >= 2 else { throw .degenerate(singularValues: [d.x, d.y, d.z]) }
    var s = Vector3(1, 1, 1)
    if svd.u.determinant * svd.v.determinant < 0 { s.z = -1 }
    let r = svd.u * Matrix3.diagonal(s) * svd.v.transpose
    let scale = withScale ? (d * s).sum() / sigmaX : 1
    let t = meanY - scale * (r * meanX)
    return Similarity3(rotation: r, translation: t, scale: scale)
}
