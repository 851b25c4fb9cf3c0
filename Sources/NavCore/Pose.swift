/// A rigid transform T = (R, t) mapping points of a child frame into a parent
/// frame: p_parent = R·p_child + t. `T_AB` in the docs is `Pose` of B in A.
public struct Pose: Hashable, Sendable {
    public var rotation: Quaternion
    public var translation: Vector3

    @inlinable public init(rotation: Quaternion = .identity, translation: Vector3 = .zero) {
        self.rotation = rotation
        self.translation = translation
    }

    public static let identity = Pose()

    /// Composition T_AC = T_AB ∘ T_BC.
    @inlinable public static func * (a: Pose, b: Pose) -> Pose {
        Pose(rotation: a.rotation * b.rotation, translation: a.rotation.act(on: b.translation) + a.translation)
    }

    /// Inverse transform: (Rᵀ, −Rᵀt).
    @inlinable public var inverse: Pose {
        let r = rotation.conjugate
        return Pose(rotation: r, translation: -r.act(on: translation))
    }

    /// Applies the transform to a point.
    @inlinable public func act(on p: Vector3) -> Vector3 { rotation.act(on: p) + translation }

    /// Row-major 4×4 homogeneous matrix.
    public var matrix: [[Double]] {
        let r = rotation.rotationMatrix
        return [r[0] + [translation.x], r[1] + [translation.y], r[2] + [translation.z], [0, 0, 0, 1]]
    }

    public var isFinite: Bool { rotation.isFinite && translation.isFinite }
}
