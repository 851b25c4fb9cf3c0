import NavCore
import NavGeometry
import RealModule

/// Which part of an error pose E is measured (evo's `PoseRelation`, same names).
public enum PoseRelation: String, Sendable, CaseIterable, Codable {
    /// ‖t_E‖ (for APE evo uses ‖p_est − p_ref‖, the same norm), metres.
    case translationPart = "translation_part"
    /// |angle(R_E)| = ‖log R_E‖, degrees.
    case rotationAngleDeg = "rotation_angle_deg"
    /// |angle(R_E)|, radians.
    case rotationAngleRad = "rotation_angle_rad"
    /// ‖R_E − I₃‖_F, unitless.
    case rotationPart = "rotation_part"
    /// ‖E − I₄‖_F, unitless (mixes metres and radians; evo warns against it in papers).
    case fullTransformation = "full_transformation"
    /// APE: ‖p_est − p_ref‖; RPE: | ‖Δp_ref‖ − ‖Δp_est‖ |, metres.
    case pointDistance = "point_distance"
    /// RPE only: | ‖Δp_ref‖ − ‖Δp_est‖ | / ‖Δp_ref‖ · 100, percent (pairs with ‖Δp_ref‖ = 0 dropped).
    case pointDistanceErrorRatio = "point_distance_error_ratio"

    /// evo's unit name of the error values.
    public var unit: String {
        switch self {
        case .translationPart, .pointDistance: return "m"
        case .rotationAngleDeg: return "deg"
        case .rotationAngleRad: return "rad"
        case .rotationPart, .fullTransformation: return "none"
        case .pointDistanceErrorRatio: return "%"
        }
    }

    /// evo's title words ("translation part", …).
    public var title: String {
        switch self {
        case .translationPart: return "translation part"
        case .rotationAngleDeg: return "rotation angle in degrees"
        case .rotationAngleRad: return "rotation angle in radians"
        case .rotationPart: return "rotation part"
        case .fullTransformation: return "full transformation"
        case .pointDistance: return "point distance"
        case .pointDistanceErrorRatio: return "point distance error ratio"
        }
    }
}

/// Why a metric cannot be computed.
public enum MetricError: Error, Equatable, Sendable, CustomStringConvertible {
    case noErrors
    case nonFinite(index: Int, value: Double)
    case countMismatch(reference: Int, estimate: Int)
    case unsupportedRelation(PoseRelation, metric: String)
    case invalidDelta(String)
    case noPairs(String)
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .noErrors: return "no error values to summarise (no pose pairs)"
        case let .nonFinite(i, v): return "error value \(i) is not finite (\(v))"
        case let .countMismatch(r, e): return "reference and estimate must have the same number of poses, found \(r) and \(e)"
        case let .unsupportedRelation(r, m): return "\(m) does not support the pose relation \(r.rawValue)"
        case let .invalidDelta(s): return "invalid delta: \(s)"
        case let .noPairs(s): return s
        case let .invalidArgument(s): return s
        }
    }
}

/// Rotation angle of a unit quaternion, radians in [0, π]: 2·atan2(‖v‖, |w|).
/// Accurate for small angles (unlike acos((tr R − 1)/2)); the value of scipy's
/// `Rotation.as_rotvec` norm that evo uses.
@inlinable func rotationAngle(_ q: Quaternion) -> Double {
    let n = q.norm
    let v = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot() / n
    return 2 * Double.atan2(y: v, x: abs(q.w) / n)
}

/// The error value of an error pose E = (R_E, t_E) for a relation (not the point relations).
///
/// ‖R_E − I‖_F = 2√2·|sin(θ/2)| = 2√2·‖v‖ for the unit quaternion (v, w) of R_E;
/// ‖E − I₄‖_F = √(‖R_E − I‖_F² + ‖t_E‖²).
@inlinable func errorValue(_ e: Pose, _ relation: PoseRelation) -> Double {
    switch relation {
    case .translationPart, .pointDistance, .pointDistanceErrorRatio:
        return e.translation.norm
    case .rotationAngleRad:
        return rotationAngle(e.rotation)
    case .rotationAngleDeg:
        return rotationAngle(e.rotation) * 180 / .pi
    case .rotationPart:
        return rotationPartNorm(e.rotation)
    case .fullTransformation:
        let r = rotationPartNorm(e.rotation)
        return (r * r + e.translation.dot(e.translation)).squareRoot()
    }
}

@inlinable func rotationPartNorm(_ q: Quaternion) -> Double {
    let n = q.norm
    let v = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot() / n
    return 2 * 2.0.squareRoot() * v
}

/// The error value of an error pose whose rotation is a printed matrix (`MatrixPose`, KITTI),
/// as evo computes it on the 4×4 matrix: ‖t_E‖; the rotation angle of `evoRotationAngle`;
/// ‖L_E − I₃‖_F; ‖E − I₄‖_F = √(‖L_E − I₃‖_F² + ‖t_E‖²).
@inlinable func errorValue(_ e: MatrixPose, _ relation: PoseRelation) -> Double {
    switch relation {
    case .translationPart, .pointDistance, .pointDistanceErrorRatio:
        return e.translation.norm
    case .rotationAngleRad:
        return evoRotationAngle(e.linear)
    case .rotationAngleDeg:
        return evoRotationAngle(e.linear) * 180 / .pi
    case .rotationPart:
        return (e.linear - .identity).frobeniusNorm
    case .fullTransformation:
        let d = e.linear - .identity
        let r2 = d.row0.dot(d.row0) + d.row1.dot(d.row1) + d.row2.dot(d.row2)
        return (r2 + e.translation.dot(e.translation)).squareRoot()
    }
}
