import Foundation
import NavCore
import NavIO

/// Where an external estimated trajectory (a researcher's own VIO) comes from: a TUM, KITTI
/// (with a times file), EuRoC or trace-format HDF5 file (`/vio` unless `stream` names another),
/// and the clock offset that maps its stamps onto the session's.
///
/// **Frame contract** (docs/extending.md): the estimate must be expressed in the navigation
/// session's own frame — the frame in which the session's anchor sightings were recorded — in
/// ARKit's convention (right-handed, metres, +y up against gravity), with stamps on the
/// session's clock after `timeOffset` seconds are added. What can be detected is refused with
/// one line (`checkFrameContract`): no time overlap with the session, a vertical axis that
/// moves like a horizontal one (a z-up estimate).
public struct EstimateSource: Sendable, Hashable, Codable {
    public var path: String
    public var format: TrajectoryFormat?
    public var stream: String?
    public var timesPath: String?
    /// Seconds added to every stamp of the estimate (t_session = t_estimate + timeOffset).
    public var timeOffset: Double

    public init(path: String, format: TrajectoryFormat? = nil, stream: String? = nil, timesPath: String? = nil, timeOffset: Double = 0) {
        self.path = path; self.format = format; self.stream = stream; self.timesPath = timesPath; self.timeOffset = timeOffset
    }
}

/// Reads an external estimate, shifts its clock and checks it against `navigation`'s frame
/// contract; the result replaces the session's VIO in `runGuidance(…, estimate:)`.
///
/// - Throws: `TraceError` (unreadable file) or `GuidanceJobError` (frame contract), one line each.
/// - Complexity: O(file size + n).
public func loadEstimate(_ source: EstimateSource, for navigation: Session, readPolicy: HDF5ReadPolicy = .standard) throws -> VIOStream {
    let stream = source.stream ?? ((source.format == .h5 || source.path.lowercased().hasSuffix(".h5")) ? "vio" : nil)
    let file = try readTrajectory(at: source.path, format: source.format, stream: stream, timesPath: source.timesPath, policy: readPolicy)
    guard file.hasTimestamps else {
        throw GuidanceJobError("\(escapedForMessage(source.path)): the estimate has no timestamps (a KITTI file needs --vio-times)")
    }
    guard source.timeOffset.isFinite else {
        throw GuidanceJobError("\(escapedForMessage(source.path)): --t-offset \(source.timeOffset): expected a finite number of seconds")
    }
    let t = file.trajectory.timestamps.map { $0 + source.timeOffset }
    let estimate = VIOStream(
        timestamps: t, poses: file.trajectory.poses.values,
        trackingState: Array(repeating: .normal, count: t.count))
    try checkFrameContract(estimate, navigation: navigation, name: source.path)
    return estimate
}

/// The detectable violations of the frame contract, as one line naming `name`:
/// - fewer than two poses, or no time overlap with the session's ground truth;
/// - a z-up estimate: its y axis spans more than 2 m beyond the vertical span of the session's
///   ground truth and at least half its horizontal span (walking indoors barely moves vertically).
///
/// - Complexity: O(n).
public func checkFrameContract(_ estimate: VIOStream, navigation: Session, name: String) throws {
    let file = escapedForMessage(name), sid = escapedForMessage(navigation.metadata.sessionID)
    guard estimate.timestamps.count >= 2, let a = estimate.timestamps.first, let b = estimate.timestamps.last else {
        throw GuidanceJobError("\(file): the estimate has \(estimate.timestamps.count) poses, expected at least 2")
    }
    guard let gt = navigation.groundTruth, let c = gt.timestamps.first, let d = gt.timestamps.last else {
        throw GuidanceJobError("\(sid): a navigation session needs a groundtruth stream to measure an estimate against")
    }
    if b < c || a > d {
        throw GuidanceJobError(
            "\(file): no time overlap: the estimate spans \(twoDecimals(a))…\(twoDecimals(b)) s, session \(sid) \(twoDecimals(c))…\(twoDecimals(d)) s (expected stamps on the session's clock; --t-offset shifts them)"
        )
    }
    func span(_ v: [Double]) -> Double { (v.max() ?? 0) - (v.min() ?? 0) }
    let p = estimate.poses.map(\.translation)
    let up = span(p.map(\.y)), horizontal = max(span(p.map(\.x)), span(p.map(\.z)))
    let trueUp = span(gt.poses.map(\.translation.y))
    if up > trueUp + 2, up >= 0.5 * horizontal {
        throw GuidanceJobError(
            "\(file): the estimate's y axis spans \(twoDecimals(up)) m but the session's ground truth only \(twoDecimals(trueUp)) m vertically: expected ARKit's frame (+y up, metres); is the estimate z-up?"
        )
    }
}

private func twoDecimals(_ x: Double) -> String { String(format: "%.2f", x) }

/// `vio` with the same rotation about the vertical (+y) axis through its first position, growing
/// at `degreesPerSecond` from its first stamp: a VIO with extra yaw drift. Position and
/// orientation are both rotated (p' = R_y(θ(t))·(p − p₀) + p₀, q' = q_y(θ(t))·q, θ(t) = ω·(t − t₀)).
///
/// - Complexity: O(n).
public func addingYawDrift(_ vio: VIOStream, degreesPerSecond: Double) -> VIOStream {
    guard let t0 = vio.timestamps.first, let p0 = vio.poses.first?.translation else { return vio }
    var out = vio
    for i in vio.poses.indices {
        let q = Quaternion(yaw: degreesPerSecond * .pi / 180 * (vio.timestamps[i] - t0))
        let r = Pose(rotation: q)
        out.poses[i] = Pose(rotation: q * vio.poses[i].rotation, translation: r.act(on: vio.poses[i].translation - p0) + p0)
    }
    return out
}
