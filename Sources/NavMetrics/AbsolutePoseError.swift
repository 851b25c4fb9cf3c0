import NavCore
import NavGeometry

/// Absolute pose error per associated pose pair (evo's `metrics.APE`).
///
/// E_i = P_est,i⁻¹ · Q_ref,i (Kümmerle et al. 2009 notation, as evo); the value per pair is
/// the chosen part of E_i (`PoseRelation`). `.translationPart` and `.pointDistance` are
/// ‖p_est,i − p_ref,i‖ (evo computes them on positions directly; it equals ‖t_E‖).
/// Alignment is applied beforehand (see `alignEstimate`).
///
/// Numerical contract: equal to evo 1.38.1 within 1e-9 relative on the committed fixtures
/// (evo composes 4×4 matrices; navbench composes quaternions; both are exact to rounding).
///
/// - Throws: `MetricError.countMismatch`, or `.unsupportedRelation` for
///   `.pointDistanceErrorRatio` (an RPE-only relation).
/// - Complexity: O(n).
public func absolutePoseErrors(reference: [Pose], estimate: [Pose], relation: PoseRelation) throws(MetricError) -> [Double] {
    try poseErrors(reference: reference, estimate: estimate, relation: relation)
}

/// Absolute pose error per pose pair of poses whose rotations are printed matrices (KITTI):
/// E_i = P_est,i⁻¹ · Q_ref,i with evo's transpose inverse, the value as evo computes it on the
/// 4×4 matrix (`errorValue`). `.translationPart` and `.pointDistance` are
/// ‖p_est,i − p_ref,i‖, as for quaternion poses.
///
/// Numerical contract: equal to evo 1.38.1 within 1e-9 relative on the KITTI fixtures
/// (`scripts/make_evo_kitti_fixtures.py`).
///
/// - Throws: as `absolutePoseErrors(reference:estimate:relation:)`.
/// - Complexity: O(n).
public func absolutePoseErrors(reference: [MatrixPose], estimate: [MatrixPose], relation: PoseRelation) throws(MetricError) -> [Double] {
    try poseErrors(reference: reference, estimate: estimate, relation: relation)
}

/// APE in either representation (`ErrorPose`): E_i = P_est,i⁻¹ · Q_ref,i, positions for the point relations.
func poseErrors<P: ErrorPose>(reference: [P], estimate: [P], relation: PoseRelation) throws(MetricError) -> [Double] {
    guard reference.count == estimate.count else { throw .countMismatch(reference: reference.count, estimate: estimate.count) }
    switch relation {
    case .pointDistanceErrorRatio:
        throw .unsupportedRelation(relation, metric: "APE")
    case .translationPart, .pointDistance:
        return zip(estimate, reference).map { ($0.translation - $1.translation).norm }
    default:
        return zip(estimate, reference).map { errorValue($0.evoInverse * $1, relation) }
    }
}
