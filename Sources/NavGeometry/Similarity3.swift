import NavCore

/// A similarity transform x ↦ s·R·x + t (Sim(3)); with s = 1 a rigid transform (SE(3)).
///
/// Applied to a pose the way evo applies an alignment: the pose's translation is scaled
/// first, then the rigid part acts on the left, so T' = (R, t)·(R_i, s·t_i).
public struct Similarity3: Hashable, Sendable {
    public var rotation: Matrix3
    public var translation: Vector3
    public var scale: Double

    public init(rotation: Matrix3 = .identity, translation: Vector3 = .zero, scale: Double = 1) {
        self.rotation = rotation; self.translation = translation; self.scale = scale
    }

    public static let identity = Similarity3()

    /// The rigid transform of a pose (scale 1).
    public init(_ pose: Pose) {
        self.init(rotation: Matrix3(pose.rotation), translation: pose.translation, scale: 1)
    }

    /// s·R·p + t.
    ///
    /// - Complexity: O(1).
    @inlinable public func act(on p: Vector3) -> Vector3 { rotation * (scale * p) + translation }

    /// (R·R_i, R·(s·t_i) + t): the pose expressed in the target frame.
    ///
    /// - Complexity: O(1).
    public func apply(to pose: Pose) -> Pose {
        Pose(rotation: (rotationQuaternion * pose.rotation), translation: act(on: pose.translation))
    }

    /// Applies to every pose; the rotation is converted to a quaternion once.
    ///
    /// - Complexity: O(n).
    public func apply(to poses: [Pose]) -> [Pose] {
        let q = rotationQuaternion
        let r = rotation, s = scale, t = translation
        return poses.map { Pose(rotation: q * $0.rotation, translation: r * (s * $0.translation) + t) }
    }

    /// Unit quaternion of `rotation`.
    public var rotationQuaternion: Quaternion { rotation.quaternion }

    /// Rigid part as a `Pose` (scale dropped).
    public var rigidPose: Pose { Pose(rotation: rotationQuaternion, translation: translation) }

    /// Row-major 4×4 matrix [s·R t; 0 1] (evo's `sim3`).
    public var matrix: [[Double]] {
        let m = scale * rotation
        return [
            [m.row0.x, m.row0.y, m.row0.z, translation.x],
            [m.row1.x, m.row1.y, m.row1.z, translation.y],
            [m.row2.x, m.row2.y, m.row2.z, translation.z],
            [0, 0, 0, 1],
        ]
    }
}

/// Why an alignment cannot be computed.
public enum AlignmentError: Error, Equatable, Sendable, CustomStringConvertible {
    case countMismatch(source: Int, target: Int)
    case tooFewPoints(count: Int, needed: Int)
    /// The cross-covariance has fewer than two singular values above machine epsilon
    /// (all points on a line, or all equal): the rotation is not determined.
    case degenerate(singularValues: [Double])
    case notFinite

    public var description: String {
        switch self {
        case let .countMismatch(s, t):
            return "alignment needs one target point per source point, found \(s) and \(t)"
        case let .tooFewPoints(c, n):
            return "alignment needs at least \(n) point pairs, found \(c)"
        case let .degenerate(sv):
            return "degenerate point sets (covariance singular values \(sv.map { String($0) }.joined(separator: ", "))): "
                + "the points are collinear or identical, so the rotation is not determined"
        case .notFinite:
            return "alignment input contains a non-finite coordinate"
        }
    }
}
