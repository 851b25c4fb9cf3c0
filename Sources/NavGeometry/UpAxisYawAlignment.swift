import NavCore
import RealModule

/// The gravity ("up") axis of a trajectory's frame: the axis 4-DoF (yaw) alignment rotates
/// about. ARKit and KITTI's camera frame: y (KITTI's is y-down, the same axis); TUM RGB-D
/// motion capture, EuRoC and rpg_trajectory_evaluation: z.
public enum UpAxis: String, Sendable, CaseIterable, Codable {
    case x, y, z

    /// The unit vector.
    public var vector: Vector3 {
        switch self {
        case .x: return Vector3(1, 0, 0)
        case .y: return Vector3(0, 1, 0)
        case .z: return Vector3(0, 0, 1)
        }
    }

    /// The two floor-plane components (u, v) with (u, v, up) right-handed: z → (x, y),
    /// x → (y, z), y → (z, x).
    @inlinable func plane(_ p: Vector3) -> (u: Double, v: Double) {
        switch self {
        case .x: return (p.y, p.z)
        case .y: return (p.z, p.x)
        case .z: return (p.x, p.y)
        }
    }
}

/// Rotation by θ about `axis` (right-hand rule): Rodrigues' formula for a coordinate axis.
///
/// - Complexity: O(1).
public func rotation(about axis: UpAxis, angle theta: Double) -> Matrix3 {
    let c = Double.cos(theta), s = Double.sin(theta)
    switch axis {
    case .x: return Matrix3(1, 0, 0, 0, c, -s, 0, s, c)
    case .y: return Matrix3(c, 0, s, 0, 1, 0, -s, 0, c)
    case .z: return Matrix3(c, -s, 0, s, c, 0, 0, 0, 1)
    }
}

/// 4-DoF alignment about any up axis: argmin_θ,t Σ‖y_i − (R_a(θ)·x_i + t)‖² with R_a(θ) a
/// rotation about `axis` (the generalisation of `yawAlignment`, which is `axis: .y`).
///
/// Closed form: with centred points and (u, v) the floor-plane components of `UpAxis.plane`,
/// Σ ỹ·R_a(θ)x̃ = A cos θ + B sin θ with A = Σ(x̃_u ỹ_u + x̃_v ỹ_v), B = Σ(x̃_u ỹ_v − x̃_v ỹ_u),
/// maximal at θ = atan2(B, A); t = μ_y − R_a(θ)·μ_x. This is rpg_trajectory_evaluation's
/// `align_umeyama(yaw_only=True)` (its get_best_yaw on the cross-covariance) for `axis: .z`.
///
/// Numerical contract: exact correspondences (≥ 2 points with distinct floor-plane
/// positions) are aligned to ~1e-12 (`UpAxisYawAlignmentTests`).
///
/// - Throws: `AlignmentError` (count mismatch, fewer than 2 pairs, non-finite, or all points
///   at one floor-plane position).
/// - Complexity: O(n).
public func yawAlignment(source x: [Vector3], target y: [Vector3], about axis: UpAxis) throws(AlignmentError) -> Similarity3 {
    guard x.count == y.count else { throw .countMismatch(source: x.count, target: y.count) }
    let n = x.count
    guard n >= 2 else { throw .tooFewPoints(count: n, needed: 2) }
    var sumX = Vector3.zero, sumY = Vector3.zero
    for i in 0..<n { sumX += x[i]; sumY += y[i] }
    let meanX = sumX / Double(n), meanY = sumY / Double(n)
    guard meanX.isFinite && meanY.isFinite else { throw .notFinite }
    var a = 0.0, b = 0.0
    for i in 0..<n {
        let px = axis.plane(x[i] - meanX), py = axis.plane(y[i] - meanY)
        a += px.u * py.u + px.v * py.v
        b += px.u * py.v - px.v * py.u
    }
    guard a != 0 || b != 0 else { throw .degenerate(singularValues: [0, 0, 0]) }
    let r = rotation(about: axis, angle: Double.atan2(y: b, x: a))
    return Similarity3(rotation: r, translation: meanY - r * meanX, scale: 1)
}

/// rpg_trajectory_evaluation's single-pose `posyaw` (`alignPositionYawSingle`, used when
/// one frame is aligned): the rotation about `axis` closest to R_ref·R_estᵀ of the first
/// pair (θ maximises tr(R_a(θ)ᵀ·R_ref·R_estᵀ)), and t = p_ref − R·p_est.
///
/// - Complexity: O(1).
public func yawAlignment(estimateFirst p: Pose, referenceFirst q: Pose, about axis: UpAxis) -> Similarity3 {
    let m = Matrix3(q.rotation) * Matrix3(p.rotation).transpose  // R_ref·R_estᵀ
    // tr(R_a(θ)ᵀ M) = cos θ (M_uu + M_vv) + sin θ (M_vu − M_uv).
    let (mu, mv): (Vector3, Vector3)
    switch axis {
    case .x: (mu, mv) = (m.row1, m.row2)
    case .y: (mu, mv) = (m.row2, m.row0)
    case .z: (mu, mv) = (m.row0, m.row1)
    }
    let a = axis.plane(mu).u + axis.plane(mv).v
    let b = axis.plane(mv).u - axis.plane(mu).v
    let r = rotation(about: axis, angle: Double.atan2(y: b, x: a))
    return Similarity3(rotation: r, translation: q.translation - r * p.translation, scale: 1)
}

/// The up axis told from a trajectory's positions: the coordinate axis with the smallest
/// spread (variance) of positions, when it is clearly smallest (below a quarter of the next
/// smallest: people and vehicles move mostly on a floor). nil when no axis stands out.
///
/// - Complexity: O(n).
public func inferUpAxis(_ positions: [Vector3]) -> UpAxis? {
    guard positions.count >= 3 else { return nil }
    var mean = Vector3.zero
    for p in positions { mean += p }
    mean = mean / Double(positions.count)
    var v = Vector3.zero
    for p in positions { let d = p - mean; v += d * d }
    let spreads: [(UpAxis, Double)] = [(.x, v.x), (.y, v.y), (.z, v.z)].sorted { $0.1 < $1.1 }
    guard spreads[1].1 > 0, spreads[0].1 < 0.25 * spreads[1].1 else { return nil }
    return spreads[0].0
}
