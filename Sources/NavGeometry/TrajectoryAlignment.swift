import NavCore

/// How an estimated trajectory is brought into the reference frame before APE/RPE.
public enum AlignmentMethod: String, Sendable, CaseIterable, Codable {
    /// No alignment (evo without `-a`).
    case none
    /// Umeyama rigid alignment of all associated positions (evo `-a`).
    case se3
    /// Umeyama similarity alignment, rotation + translation + scale (evo `-as`).
    case sim3
    /// Yaw about +y plus translation, gravity known (VIO / ARKit; not in evo).
    case yaw
    /// First estimated pose onto first reference pose (evo `--align_origin`).
    case origin

    /// evo's title line for the alignment.
    public var title: String {
        switch self {
        case .none: return "(not aligned)"
        case .se3: return "(with SE(3) Umeyama alignment)"
        case .sim3: return "(with Sim(3) Umeyama alignment)"
        case .yaw: return "(with 4-DoF yaw + translation alignment about +y)"
        case .origin: return "(with origin alignment)"
        }
    }
}

/// The transform that aligns `estimate` to `reference` (associated pose pairs, same count),
/// estimated from positions (`.se3`, `.sim3`, `.yaw`) or from the first poses (`.origin`).
/// Apply it with `Similarity3.apply(to:)`.
///
/// - Throws: `AlignmentError` (count mismatch, too few or degenerate points).
/// - Complexity: O(n).
public func alignmentTransform(reference: [Pose], estimate: [Pose], method: AlignmentMethod) throws(AlignmentError) -> Similarity3 {
    guard reference.count == estimate.count else { throw .countMismatch(source: estimate.count, target: reference.count) }
    switch method {
    case .none:
        return .identity
    case .se3, .sim3:
        return try umeyamaAlignment(source: estimate.map(\.translation), target: reference.map(\.translation),
                                    withScale: method == .sim3)
    case .yaw:
        return try yawAlignment(source: estimate.map(\.translation), target: reference.map(\.translation))
    case .origin:
        guard let p0 = estimate.first, let q0 = reference.first else { throw .tooFewPoints(count: 0, needed: 1) }
        return originAlignment(estimateFirst: p0, referenceFirst: q0)
    }
}
