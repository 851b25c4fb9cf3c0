import NavCore

/// evo's origin alignment (`PosePath3D.align_origin`): the rigid transform that moves the
/// estimate's first pose onto the reference's first pose, T = Q₀·P₀⁻¹, applied on the left
/// to every estimated pose (P_i ↦ T·P_i).
///
/// The result depends on one pose only, so it shows drift from the start (what a user of a
/// navigation aid experiences) rather than the best global fit.
///
/// - Complexity: O(1).
public func originAlignment(estimateFirst p0: Pose, referenceFirst q0: Pose) -> Similarity3 {
    Similarity3(q0 * p0.inverse)
}
