import NavCore

/// The rotation nearest to `m` in the Frobenius norm: the orthogonal factor of its polar
/// decomposition (U·Vᵀ of its SVD, what scipy orthogonalises with), by Newton's iteration
/// X₀ = M, X_{k+1} = (X_k + X_k⁻ᵀ)/2 (Higham 1986, quadratic convergence; X⁻ᵀ = cof(X)/det X),
/// stopped when no entry changes by more than 4·10⁻¹⁶ or after 60 steps. Nil when det M ≤ 0 or
/// a value is not finite (no rotation is near).
///
/// - Complexity: O(1): at most 60 steps of 3×3 arithmetic (3–4 for a matrix printed to 7 digits).
public func nearestRotation(_ m: Matrix3) -> Matrix3? {
    guard m.rows.allSatisfy({ $0.allSatisfy(\.isFinite) }), m.determinant > 0 else { return nil }
    var x = m
    for _ in 0..<60 {
        let det = x.determinant
        guard det.isFinite, det > 0 else { return nil }
        // Cofactor matrix: row i of cof(X) is the cross product of the other two rows.
        let cofactor = Matrix3(rows: x.row1.cross(x.row2), x.row2.cross(x.row0), x.row0.cross(x.row1))
        let next = 0.5 * (x + (1 / det) * cofactor)
        let d = next - x
        let change = [d.row0, d.row1, d.row2].map { max(abs($0.x), abs($0.y), abs($0.z)) }.max() ?? 0
        x = next
        if change <= 4e-16 { break }
    }
    return x
}
