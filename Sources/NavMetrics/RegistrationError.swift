import NavCore
import NavGeometry
import RealModule

/// How wrong a registration T_RN is, against the true one, and what that does along a route.
public struct RegistrationAccuracy: Sendable, Equatable, Codable {
    /// ‖t_est − t_true‖, metres (the error at the navigation frame's origin).
    public var translationError: Double
    /// Signed yaw error wrap(yaw(R_est) − yaw(R_true)), degrees in (−180, 180].
    public var yawErrorDegrees: Double
    /// Full rotation angle of R_true⁻¹·R_est, degrees (includes tilt for 6-DoF registrations).
    public var rotationErrorDegrees: Double
    /// ‖T_est·x − T_true·x‖ for each route point x (navigation frame), metres: the error the
    /// registration alone induces where the user walks.
    public var inducedErrors: [Double]
    public var maxInducedError: Double
    public var meanInducedError: Double
}

/// Registration error of an estimated T_RN against ground truth and the error it induces at
/// `routePoints` (navigation-frame positions, e.g. the route's keypoints mapped into N).
///
/// The induced error of a pure yaw error δ about a vertical axis through the point c where
/// both registrations agree (the anchor) is, at horizontal distance d from c,
/// ‖R_y(δ)(x − c) − (x − c)‖ = 2·d·sin(|δ|/2) (`yawInducedDisplacement`): a 2° anchor error is
/// 1.7 m at 50 m. The general formula used here needs no such assumption.
///
/// - Complexity: O(m) for m route points.
public func registrationAccuracy(estimated: Pose, truth: Pose, routePoints: [Vector3] = []) -> RegistrationAccuracy {
    let induced = routePoints.map { (estimated.act(on: $0) - truth.act(on: $0)).norm }
    let yaw = Angle.wrapToPi(yawAngle(of: estimated.rotation.normalized) - yawAngle(of: truth.rotation.normalized))
    return RegistrationAccuracy(
        translationError: (estimated.translation - truth.translation).norm,
        yawErrorDegrees: yaw * 180 / .pi,
        rotationErrorDegrees: rotationAngle(truth.rotation.conjugate * estimated.rotation) * 180 / .pi,
        inducedErrors: induced,
        maxInducedError: induced.max() ?? 0,
        meanInducedError: induced.isEmpty ? 0 : induced.reduce(0, +) / Double(induced.count))
}

/// Chord length 2·d·sin(|δ|/2): how far a point at distance d from the rotation axis moves
/// under a rotation by δ radians (yaw error at the anchor → position error on the route).
///
/// - Complexity: O(1).
@inlinable public func yawInducedDisplacement(distance d: Double, yawError delta: Double) -> Double {
    2 * d * Double.sin(abs(delta) / 2)
}
