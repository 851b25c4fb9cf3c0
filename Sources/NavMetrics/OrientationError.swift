import NavCore

/// Orientation errors of an estimated orientation stream against a reference, after alignment.
public struct OrientationErrors: Sendable, Equatable {
    /// W and B as estimated or given (`alignOrientations`).
    public var alignment: OrientationAlignment
    /// θ_i per pair, degrees in [0, 180].
    public var errors: [Double]
    /// evo's statistics of `errors` (rmse, mean, median, std, min, max, sse, count), degrees.
    public var statistics: ErrorStatistics
}

/// The orientation error of pair i: θ_i = the angle of R_ref,i⁻¹ · W · R_est,i · B in degrees,
/// in [0, 180] (2·atan2(‖v‖, |w|) of the quaternion product, accurate near 0 and 180; the
/// norm of scipy's `as_rotvec`, as evo's `rotation_angle_deg`).
///
/// Conventions: rotations are active, body → world (p_world = R·p_body); W turns the
/// estimate's world into the reference's and B the reference's body axes into the estimate's,
/// so W·R_est,i·B is the estimate as a reference-body → reference-world rotation.
///
/// - Complexity: O(n).
public func orientationErrorAngles(reference: [Quaternion], estimate: [Quaternion], alignment: OrientationAlignment) -> [Double] {
    zip(reference, estimate).map { q, p in rotationAngle(q.conjugate * alignment.world * p * alignment.body) * 180 / .pi }
}

/// Aligns two orientation streams paired by index (`alignOrientations`: a world rotation W on
/// the left, a body rotation B on the right, by chordal least squares) and summarises the
/// error angles (`orientationErrorAngles`) with evo's statistics (`ErrorStatistics`).
///
/// Reference: the chordal L2 mean of rotations (Hartley, Trumpf, Dai & Li 2013, "Rotation
/// averaging", §5.3); the hand-eye start of Park & Martin 1994.
///
/// - Throws: `OrientationAlignmentError` (see `alignOrientations`).
/// - Complexity: O(n) plus the alignment's steps (O(1) each).
public func orientationErrors(
    reference: [Quaternion], estimate: [Quaternion], options: OrientationAlignmentOptions = OrientationAlignmentOptions()
) throws(OrientationAlignmentError) -> OrientationErrors {
    let alignment = try alignOrientations(reference: reference, estimate: estimate, options: options)
    let errors = orientationErrorAngles(reference: reference, estimate: estimate, alignment: alignment)
    do {
        return OrientationErrors(alignment: alignment, errors: errors, statistics: try ErrorStatistics(errors))
    } catch { throw .statistics(error) }
}
