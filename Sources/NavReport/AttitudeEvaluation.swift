import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics

/// The streams of a trace file `navbench attitude` reads orientations from: the poses'
/// rotations of `groundtruth` and `vio`, and the orientation-only `imu/attitude`.
public let orientationStreamNames = ["groundtruth", "vio", "imu/attitude"]

/// Association and alignment of `navbench attitude`.
public struct AttitudeSettings: Sendable, Equatable {
    public var world: WorldAlignment
    /// Gravity axis of a yaw alignment; nil: auto (`resolveUpAxis`: a trace's +y).
    public var upAxis: UpAxis?
    public var body: BodyRotation
    /// Smallest excitation for which B is estimated beside W, radians (`OrientationAlignmentOptions`).
    public var minimumExcitation: Double
    public var association: AssociationMethod
    /// Seconds (evo's `--t_max_diff`).
    public var maxDifference: Double
    /// Seconds added to the estimate's stamps (evo's `--t_offset`).
    public var offset: Double

    public init(
        world: WorldAlignment = .none, upAxis: UpAxis? = nil, body: BodyRotation = .none, minimumExcitation: Double = .pi / 180,
        association: AssociationMethod = .nearest, maxDifference: Double = 0.01, offset: Double = 0
    ) {
        self.world = world; self.upAxis = upAxis; self.body = body; self.minimumExcitation = minimumExcitation
        self.association = association; self.maxDifference = maxDifference; self.offset = offset
    }
}

/// Reads the orientations of a source: a trace's `imu/attitude` (timestamps of `/imu`, zero
/// positions), or any stream or file `ape` reads (its poses' rotations). An HDF5 source with no
/// `stream` takes `defaultStream`.
///
/// - Throws: `TraceError` naming the file and object (a bad quaternion: `/imu/attitude`, its row
///   and the expected unit norm, from `readTrace`'s validation).
/// - Complexity: O(file size).
public func readOrientations(_ source: TrajectorySource, defaultStream: String) throws(TraceError) -> TrajectoryFile {
    let ext = (source.path as NSString).pathExtension.lowercased()
    let isTrace = source.format == .h5 || (source.format == nil && (ext == "h5" || ext == "hdf5"))
    let stream = source.stream ?? (isTrace ? defaultStream : nil)
    guard stream == "imu/attitude" else { return try source.read(defaultStream: stream) }
    let session = try readTrace(at: source.path, policy: source.readPolicy)
    guard let imu = session.imu else {
        throw TraceError(
            .missing, file: source.path, object: "/imu", "stream not found; expected /imu with an attitude dataset (or choose groundtruth or vio)")
    }
    guard let attitude = imu.attitude else {
        throw TraceError(.missing, file: source.path, object: "/imu/attitude", "dataset not found; expected (N, 4) quaternions (x, y, z, w)")
    }
    let trajectory: Trajectory
    do {
        trajectory = try Trajectory(timestamps: imu.timestamps, poses: attitude.map { Pose(rotation: $0.normalized, translation: .zero) })
    } catch {
        throw TraceError(.badTimestamps, file: source.path, object: "/imu/timestamps", error.description)
    }
    return TrajectoryFile(path: source.path, format: .h5, stream: "imu/attitude", trajectory: trajectory, hasTimestamps: true)
}

/// Result of `evaluateAttitude`.
public struct AttitudeReport: Sendable, Encodable {
    public var referencePath: String
    public var estimatePath: String
    /// The trace streams read (nil for other formats).
    public var referenceStream: String?
    public var estimateStream: String?
    /// As applied: `upAxis` resolved for a yaw alignment.
    public var settings: AttitudeSettings
    /// Why the up axis is what it is (nil without a yaw alignment).
    public var upAxisSource: String?
    public var result: OrientationErrors
    /// Associated pair indices into the reference and the estimate.
    public var referenceIndices: [Int]
    public var estimateIndices: [Int]

    public var pairs: Int { result.errors.count }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        let s = result.statistics, a = result.alignment
        try c.encode("attitude", forKey: AnyKey("metric"))
        try c.encode(referencePath, forKey: AnyKey("reference"))
        try c.encode(estimatePath, forKey: AnyKey("estimate"))
        try c.encode(referenceStream, forKey: AnyKey("reference_stream"))
        try c.encode(estimateStream, forKey: AnyKey("estimate_stream"))
        try c.encode(settings.world.rawValue, forKey: AnyKey("align"))
        try c.encode(settings.world == .yaw ? settings.upAxis?.rawValue : nil, forKey: AnyKey("up_axis"))
        try c.encode(settings.body.mode, forKey: AnyKey("body_rotation_mode"))
        try c.encode(settings.association.rawValue, forKey: AnyKey("association"))
        try c.encode(settings.maxDifference, forKey: AnyKey("max_diff"))
        try c.encode(settings.offset, forKey: AnyKey("t_offset"))
        try c.encode(pairs, forKey: AnyKey("pairs"))
        try c.encode("rotation_angle_deg", forKey: AnyKey("relation"))
        try c.encode("deg", forKey: AnyKey("unit"))
        for (name, v) in [("rmse", s.rmse), ("mean", s.mean), ("median", s.median), ("std", s.std), ("min", s.min), ("max", s.max), ("sse", s.sse)] {
            try c.encode(v, forKey: AnyKey(name))
        }
        try c.encode(RotationJSON(a.world), forKey: AnyKey("world_rotation"))
        try c.encode(RotationJSON(a.body), forKey: AnyKey("body_rotation"))
        try c.encode(a.excitation.map { $0 * 180 / .pi }, forKey: AnyKey("excitation_deg"))
        try c.encode(settings.minimumExcitation * 180 / .pi, forKey: AnyKey("min_excitation_deg"))
        try c.encode(a.iterations, forKey: AnyKey("iterations"))
    }

    /// evo-style text block: title, alignment, W and B, the statistics in degrees.
    public var text: String {
        let a = result.alignment
        var bodyWord: String
        switch settings.body {
        case .none: bodyWord = "none"
        case .given: bodyWord = "given"
        case .estimate: bodyWord = "estimated"
        }
        var out = "attitude error w.r.t. rotation angle in degrees (deg)\n"
        let world = settings.world == .yaw ? "yaw about \(settings.upAxis?.rawValue ?? "y")" : settings.world.rawValue
        out += "(world alignment: \(world); body rotation: \(bodyWord))\n"
        if let r = referenceStream, let e = estimateStream { out += "streams: reference \(r), estimate \(e)\n" }
        if let src = upAxisSource, let axis = settings.upAxis { out += "up axis: \(axis.rawValue) (\(src))\n" }
        if settings.world != .none { out += "world rotation W (estimate world → reference world): \(rotationText(a.world))\n" }
        if settings.body != .none { out += "body rotation B (reference body → estimate body): \(rotationText(a.body))\n" }
        if let x = a.excitation {
            out +=
                "body rotation excitation: \(fixed(x * 180 / .pi, 3)) deg (at least \(fixed(settings.minimumExcitation * 180 / .pi, 3)) deg), \(a.iterations) alternating steps\n"
        }
        out += "\n"
        let s = result.statistics
        for (name, v) in [("max", s.max), ("mean", s.mean), ("median", s.median), ("min", s.min), ("rmse", s.rmse), ("sse", s.sse), ("std", s.std)] {
            out += String(repeating: " ", count: max(0, 10 - name.count)) + name + "\t" + String(format: "%.6f", v) + "\n"
        }
        out += "     pairs\t\(pairs)\n"
        return out
    }
}

/// A rotation in the JSON: the quaternion in (w, x, y, z) order (w ≥ 0), axis and angle, matrix.
struct RotationJSON: Encodable {
    var quaternion_wxyz: [Double]
    var axis: [Double]
    var angle_deg: Double
    var matrix: [[Double]]
    init(_ q: Quaternion) {
        let u = q.normalized
        quaternion_wxyz = [u.w, u.x, u.y, u.z]
        let (axis, angle) = axisAngle(u)
        self.axis = [axis.x, axis.y, axis.z]
        angle_deg = angle * 180 / .pi
        matrix = u.rotationMatrix.map { $0.map { $0 + 0 } }  // no -0 in the JSON
    }
}

/// Unit axis and angle in [0, π] of a unit quaternion with w ≥ 0; the axis of the identity is (0, 0, 0).
private func axisAngle(_ q: Quaternion) -> (Vector3, Double) {
    let v = Vector3(q.x, q.y, q.z), s = v.norm
    guard s > 0 else { return (.zero, 0) }
    return (v / s, 2 * Double.atan2(y: s, x: q.w))
}

private func fixed(_ x: Double, _ digits: Int) -> String {
    let t = String(format: "%.\(digits)f", x)
    return t.hasPrefix("-") && t.dropFirst().allSatisfy { $0 == "0" || $0 == "." } ? String(t.dropFirst()) : t
}

private func rotationText(_ q: Quaternion) -> String {
    let u = q.normalized
    let (axis, angle) = axisAngle(u)
    let wxyz = [u.w, u.x, u.y, u.z].map { fixed($0, 6) }.joined(separator: " ")
    return
        "w x y z = \(wxyz); axis (\([axis.x, axis.y, axis.z].map { fixed($0, 6) }.joined(separator: ", "))), angle \(fixed(angle * 180 / .pi, 4)) deg"
}

/// `navbench attitude`: reads two orientation streams (a reference defaults to a trace's
/// `groundtruth`, an estimate to its `imu/attitude`), pairs them by timestamp as `ape` does,
/// aligns the estimate (a world rotation W on the left, a body rotation B on the right) and
/// summarises the error angles in degrees (`orientationErrors`).
///
/// - Throws: `EvaluationError` (`.input` naming the file and object, `.association`,
///   `.orientation` naming both files).
/// - Complexity: O(n + m) plus the association's cost.
public func evaluateAttitude(
    reference: TrajectorySource, estimate: TrajectorySource, settings: AttitudeSettings = AttitudeSettings()
) throws(EvaluationError) -> AttitudeReport {
    let ref: TrajectoryFile, est: TrajectoryFile
    do {
        ref = try readOrientations(reference, defaultStream: "groundtruth")
        est = try readOrientations(estimate, defaultStream: "imu/attitude")
    } catch { throw .input(error) }
    return try attitudeReport(reference: ref, estimate: est, settings: settings)
}

/// `evaluateAttitude` on orientation streams already read (the poses' rotations are used).
///
/// - Throws: `EvaluationError`.
/// - Complexity: O(n + m) plus the association's cost.
public func attitudeReport(reference ref: TrajectoryFile, estimate est: TrajectoryFile, settings: AttitudeSettings) throws(EvaluationError)
    -> AttitudeReport
{
    var settings = settings
    let associated: AssociatedTrajectories
    if ref.hasTimestamps && est.hasTimestamps {
        do {
            associated = try associate(
                reference: ref.trajectory, estimate: est.trajectory, method: settings.association, maxDifference: settings.maxDifference,
                offset: settings.offset, referenceName: ref.path, estimateName: est.path)
        } catch { throw .association(error) }
    } else {
        guard ref.trajectory.count == est.trajectory.count else {
            throw .pairing(
                "\(ref.path) has \(ref.trajectory.count) poses and \(est.path) \(est.trajectory.count): "
                    + "without timestamps (KITTI without --times) orientations are paired by index, so the counts must be equal")
        }
        let idx = Array(0..<ref.trajectory.count)
        associated = AssociatedTrajectories(
            referenceIndices: idx, estimateIndices: idx, reference: ref.trajectory.poses.values, estimate: est.trajectory.poses.values,
            referenceTimestamps: ref.trajectory.timestamps, estimateTimestamps: est.trajectory.timestamps)
    }
    var upAxisSource: String?
    if settings.world == .yaw {
        let (axis, source) = resolveUpAxis(settings.upAxis, reference: ref)
        settings.upAxis = axis
        upAxisSource = source
    }
    let options = OrientationAlignmentOptions(
        world: settings.world, upAxis: settings.upAxis ?? .y, body: settings.body, minimumExcitation: settings.minimumExcitation)
    let result: OrientationErrors
    do {
        result = try orientationErrors(
            reference: associated.reference.map(\.rotation), estimate: associated.estimate.map(\.rotation), options: options)
    } catch {
        if case let .notUnit(stream, i, norm) = error {
            // A pair's quaternion (the readers normalise theirs, so only a caller's own data gets here).
            let (file, row) = stream == "reference" ? (ref, associated.referenceIndices[i]) : (est, associated.estimateIndices[i])
            throw .input(
                TraceError(
                    .badValue, file: file.path, object: file.stream.map { "/\($0)" } ?? "orientation \(row + 1)",
                    "row \(row): quaternion norm \(formatNumber(norm)); expected a finite unit quaternion (x, y, z, w)"))
        }
        if case let .tooFewPairs(count, needed) = error {
            throw .orientation(
                reference: ref.path, estimate: est.path,
                .invalidOption(
                    "\(count) matched orientation pair\(count == 1 ? "" : "s") (max. time difference \(formatNumber(settings.maxDifference)) s, time offset \(formatNumber(settings.offset)) s); expected at least \(needed)"
                ))
        }
        throw .orientation(reference: ref.path, estimate: est.path, error)
    }
    return AttitudeReport(
        referencePath: ref.path, estimatePath: est.path, referenceStream: ref.stream, estimateStream: est.stream, settings: settings,
        upAxisSource: upAxisSource, result: result, referenceIndices: associated.referenceIndices, estimateIndices: associated.estimateIndices)
}
