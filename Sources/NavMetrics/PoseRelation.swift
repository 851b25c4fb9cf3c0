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

/// A pose APE and RPE compose, in either representation: a quaternion `Pose` (TUM, EuRoC,
/// traces) or a `MatrixPose` whose rotation is the matrix a KITTI file printed. The metrics are
/// written once, generic over it, and specialised for each (same module).
protocol ErrorPose {
    var translation: Vector3 { get }
    /// The inverse evo takes: exact for a quaternion, the transpose (`se3_inverse`) for a printed matrix.
    var evoInverse: Self { get }
    static func * (a: Self, b: Self) -> Self
    /// |angle(R)|, radians in [0, π], as evo measures it.
    var rotationAngle: Double { get }
    /// ‖R − I₃‖_F.
    var rotationPartNorm: Double { get }
}

extension Pose: ErrorPose {
    var evoInverse: Pose { inverse }
    var rotationAngle: Double { NavMetrics.rotationAngle(rotation) }
    /// 2√2·|sin(θ/2)| = 2√2·‖v‖ for the unit quaternion (v, w) of R.
    var rotationPartNorm: Double {
        let q = rotation, n = q.norm
        let v = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot() / n
        return 2 * 2.0.squareRoot() * v
    }
}

extension MatrixPose: ErrorPose {
    var evoInverse: MatrixPose { transposeInverse }
    /// scipy's angle of the printed product (`evoRotationAngle`).
    var rotationAngle: Double { evoRotationAngle(linear) }
    /// On the product as it is (not re-orthonormalised), as evo.
    var rotationPartNorm: Double { (linear - .identity).frobeniusNorm }
}

/// The error value of an error pose E = (R_E, t_E) for a relation: ‖t_E‖; |angle(R_E)| in
/// radians or degrees; ‖R_E − I₃‖_F; ‖E − I₄‖_F = √(‖R_E − I₃‖_F² + ‖t_E‖²).
func errorValue<P: ErrorPose>(_ e: P, _ relation: PoseRelation) -> Double {
    switch relation {
    case .translationPart, .pointDistance, .pointDistanceErrorRatio:
        return e.translation.norm
    case .rotationAngleRad:
        return e.rotationAngle
    case .rotationAngleDeg:
        return e.rotationAngle * 180 / .pi
    case .rotationPart:
        return e.rotationPartNorm
    case .fullTransformation:
        let r = e.rotationPartNorm
        return (r * r + e.translation.dot(e.translation)).squareRoot()
    }
}
