import NavCore

/// A pose whose rotation is a 3×3 matrix as a file printed it: a rotation only to the printed
/// digits (KITTI's `%e` keeps 7), never re-orthonormalised. evo composes such poses as 4×4
/// matrices and inverts them with the transpose (`lie.se3_inverse`); the error poses of APE and
/// RPE on KITTI files are these products, so navbench computes them the same way to give evo's
/// numbers (a quaternion made from each matrix differs by up to 2e-6 on KITTI 00's RMSE).
///
/// Complexity: every operation is O(1).
public struct MatrixPose: Hashable, Sendable {
    /// The linear part (a rotation to the printed digits), row-major.
    public var linear: Matrix3
    public var translation: Vector3

    public init(linear: Matrix3, translation: Vector3) {
        self.linear = linear; self.translation = translation
    }

    /// A pose whose rotation is a quaternion, as a matrix (`Matrix3(q)` of the normalised quaternion).
    public init(_ pose: Pose) {
        self.init(linear: Matrix3(pose.rotation.normalized), translation: pose.translation)
    }

    /// Composition T_AC = T_AB · T_BC of the 4×4 matrices.
    public static func * (a: MatrixPose, b: MatrixPose) -> MatrixPose {
        MatrixPose(linear: a.linear * b.linear, translation: a.linear * b.translation + a.translation)
    }

    /// evo's `se3_inverse`: (Lᵀ, −Lᵀ·t), the inverse when L is a rotation.
    public var transposeInverse: MatrixPose {
        let lt = linear.transpose
        return MatrixPose(linear: lt, translation: -(lt * translation))
    }

    /// The inverse of the 4×4 matrix: (L⁻¹, −L⁻¹·t), L⁻¹ = cof(L)ᵀ / det L (the KITTI devkit
    /// inverts its matrices in general, `Matrix::inv`, not by transposing). Not finite when
    /// det L = 0 (no printed rotation is singular: the readers check det > 0).
    public var inverse: MatrixPose {
        let l = linear
        let cofactor = Matrix3(rows: l.row1.cross(l.row2), l.row2.cross(l.row0), l.row0.cross(l.row1))
        let inv = (1 / l.determinant) * cofactor.transpose
        return MatrixPose(linear: inv, translation: -(inv * translation))
    }

    /// The pose moved by an alignment as evo moves it (`scale` then `transform`): the
    /// translation scaled by s, then T_a·P: (R_a·L, R_a·(s·t) + t_a).
    public func aligned(by a: Similarity3) -> MatrixPose {
        MatrixPose(linear: a.rotation * linear, translation: a.act(on: translation))
    }

    /// evo's `align_origin` of `estimate` onto `reference`: T = Q₀·P₀⁻¹ (the transpose
    /// inverse), then T·P for every pose. Empty when either is empty.
    public static func originAligned(_ estimate: [MatrixPose], onto reference: [MatrixPose]) -> [MatrixPose] {
        guard let p0 = estimate.first, let q0 = reference.first else { return [] }
        let t = q0 * p0.transposeInverse
        return estimate.map { t * $0 }
    }
}
