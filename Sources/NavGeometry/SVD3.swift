import NavCore

/// Singular value decomposition A = U·diag(σ)·Vᵀ of a 3×3 matrix.
///
/// Algorithm: one-sided Jacobi (Hestenes 1958; Demmel & Veselić 1992). Plane rotations
/// applied on the right orthogonalise the columns of A·V; the column norms are the singular
/// values, the normalised columns are U. One-sided Jacobi is backward stable and computes
/// small singular values to high relative accuracy, and needs no iteration count tuning
/// for a 3×3 matrix (it converges quadratically; a cap of 30 sweeps is never reached in
/// practice).
///
/// Numerical contract (checked in `SVD3Tests` on random, rank-deficient and
/// nearly-repeated cases):
/// - σ₀ ≥ σ₁ ≥ σ₂ ≥ 0, sorted descending;
/// - U and V are orthogonal: ‖UᵀU − I‖, ‖VᵀV − I‖ ≤ 1e-14 (det U, det V may be ±1);
/// - ‖U·diag(σ)·Vᵀ − A‖_F ≤ 1e-14·‖A‖_F;
/// - for rank-deficient A the columns of U belonging to zero singular values are completed
///   to an orthonormal basis (by cross products), so U is always orthogonal.
///
/// - Complexity: O(1) (at most 30 sweeps of 3 rotations).
public struct SVD3: Sendable, Equatable {
    public var u: Matrix3
    public var singularValues: Vector3
    public var v: Matrix3

    public init(_ a: Matrix3) {
        // Columns of W = A·V and of V, rotated in place.
        var w = [a.column0, a.column1, a.column2]
        var vc = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]
        let eps = Double.ulpOfOne
        for _ in 0..<30 {
            var rotated = false
            for (p, q) in [(0, 1), (0, 2), (1, 2)] {
                let alpha = w[p].dot(w[p]), beta = w[q].dot(w[q]), gamma = w[p].dot(w[q])
                // Skip when the columns are already orthogonal to working precision.
                if gamma == 0 || abs(gamma) <= eps * (alpha * beta).squareRoot() { continue }
                rotated = true
                // Jacobi rotation that zeroes the (p, q) entry of WᵀW (Golub & Van Loan §8.5).
                let zeta = (beta - alpha) / (2 * gamma)
                let t = (zeta >= 0 ? 1.0 : -1.0) / (abs(zeta) + (1 + zeta * zeta).squareRoot())
                let c = 1 / (1 + t * t).squareRoot(), s = c * t
                let wp = w[p], wq = w[q]
                w[p] = c * wp - s * wq
                w[q] = s * wp + c * wq
                let vp = vc[p], vq = vc[q]
                vc[p] = c * vp - s * vq
                vc[q] = s * vp + c * vq
            }
            if !rotated { break }
        }
        var sigma = w.map(\.norm)
        // Sort descending, permuting the columns of W and V alike.
        var order = [0, 1, 2]
        order.sort { sigma[$0] > sigma[$1] || (sigma[$0] == sigma[$1] && $0 < $1) }
        w = order.map { w[$0] }
        vc = order.map { vc[$0] }
        sigma = order.map { sigma[$0] }
        // Left singular vectors; complete the basis where σ is zero relative to σ₀.
        let tiny = max(sigma[0], Double.leastNormalMagnitude) * 8 * eps
        var uc = [Vector3](repeating: .zero, count: 3)
        var rank = 0
        for k in 0..<3 where sigma[k] > tiny {
            uc[k] = w[k] / sigma[k]
            rank += 1
        }
        if rank == 0 {
            uc = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]
        } else {
            if rank == 1 {
                // Any unit vector orthogonal to u₀: cross with the axis least aligned with it.
                let a = uc[0]
                let axis =
                    abs(a.x) <= abs(a.y) && abs(a.x) <= abs(a.z)
                    ? Vector3(1, 0, 0)
                    : (abs(a.y) <= abs(a.z) ? Vector3(0, 1, 0) : Vector3(0, 0, 1))
                let c = a.cross(axis)
                uc[1] = c / c.norm
            }
            if rank <= 2 {
                let c = uc[0].cross(uc[1])
                uc[2] = c / c.norm
            }
            // Re-orthogonalise u₁, u₂ against earlier columns (Gram–Schmidt, one pass) so that
            // U is orthogonal to working precision even when σ₁/σ₀ is tiny.
            for k in 1..<3 {
                var x = uc[k]
                for j in 0..<k { x -= x.dot(uc[j]) * uc[j] }
                uc[k] = x / x.norm
            }
        }
        u = Matrix3(columns: uc[0], uc[1], uc[2])
        v = Matrix3(columns: vc[0], vc[1], vc[2])
        singularValues = Vector3(sigma[0], sigma[1], sigma[2])
    }

    /// U·diag(σ)·Vᵀ.
    public var reconstructed: Matrix3 { u * Matrix3.diagonal(singularValues) * v.transpose }
}
