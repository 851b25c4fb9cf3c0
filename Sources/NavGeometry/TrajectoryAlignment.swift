import NavCore

/// How an estimated trajectory is brought into the reference frame before APE/RPE.
public enum AlignmentMethod: String, Sendable, CaseIterable, Codable {
    /// No alignment (evo without `-a`).
    case none
    /// Umeyama rigid alignment of all associated positions (evo `-a`).
    case se3
    /// Umeyama similarity alignment, rotation + translation + scale (evo `-as`).
    case sim3
    /// Yaw about the up axis plus translation, gravity known (VIO / ARKit; not in evo).
    case yaw
    /// rpg_trajectory_evaluation's `posyaw`: `yaw`, except that aligning one pose
    /// (`count` 1) uses its orientation (rpg's `alignPositionYawSingle`), not positions.
    case posyaw
    /// First estimated pose onto first reference pose (evo `--align_origin`).
    case origin

    /// evo's title line for the alignment.
    public var title: String {
        switch self {
        case .none: return "(not aligned)"
        case .se3: return "(with SE(3) Umeyama alignment)"
        case .sim3: return "(with Sim(3) Umeyama alignment)"
        case .yaw: return "(with 4-DoF yaw + translation alignment about +y)"
        case .posyaw: return "(with rpg posyaw alignment about +y)"
        case .origin: return "(with origin alignment)"
        }
    }

    /// The title with the up axis of a yaw alignment named.
    public func title(upAxis: UpAxis) -> String {
        switch self {
        case .yaw: return "(with 4-DoF yaw + translation alignment about +\(upAxis.rawValue))"
        case .posyaw: return "(with rpg posyaw alignment about +\(upAxis.rawValue))"
        default: return title
        }
    }

    /// Whether the method rotates about a gravity axis only.
    public var isYawOnly: Bool { self == .yaw || self == .posyaw }
}

/// The transform that aligns `estimate` to `reference` (associated pose pairs, same count),
/// estimated from positions (`.se3`, `.sim3`, `.yaw`, `.posyaw`) or from the first poses
/// (`.origin`). Apply it with `Similarity3.apply(to:)`.
///
/// - `upAxis`: the gravity axis of `.yaw` / `.posyaw` (ARKit's y by default).
/// - `count`: align on the first `count` pairs only (evo's `--n_to_align`, rpg's
///   `n_aligned`); nil: all pairs. Ignored by `.origin` and `.none`.
///
/// - Throws: `AlignmentError` (count mismatch, too few or degenerate points).
/// - Complexity: O(n).
public func alignmentTransform(
    reference: [Pose], estimate: [Pose], method: AlignmentMethod,
    upAxis: UpAxis = .y, count: Int? = nil
) throws(AlignmentError) -> Similarity3 {
    guard reference.count == estimate.count else { throw .countMismatch(source: estimate.count, target: reference.count) }
    var reference = reference, estimate = estimate
    if let count, count < reference.count, method != .none, method != .origin {
        guard count >= 1 else { throw .tooFewPoints(count: count, needed: 1) }
        reference = Array(reference.prefix(count)); estimate = Array(estimate.prefix(count))
    }
    switch method {
    case .none:
        return .identity
    case .se3, .sim3:
        return try umeyamaAlignment(
            source: estimate.map(\.translation), target: reference.map(\.translation),
            withScale: method == .sim3)
    case .yaw:
        return try yawAlignment(source: estimate.map(\.translation), target: reference.map(\.translation), about: upAxis)
    case .posyaw:
        if count == 1, let p0 = estimate.first, let q0 = reference.first {
            return yawAlignment(estimateFirst: p0, referenceFirst: q0, about: upAxis)
        }
        return try yawAlignment(source: estimate.map(\.translation), target: reference.map(\.translation), about: upAxis)
    case .origin:
        guard let p0 = estimate.first, let q0 = reference.first else { throw .tooFewPoints(count: 0, needed: 1) }
        return originAlignment(estimateFirst: p0, referenceFirst: q0)
    }
}
