import Foundation
import NavCore
import NavGeometry
import NavGuidance
import NavIO
import NavMetrics
import NavSignal

/// Longest VIO span (seconds) a guidance replay accepts: 4 hours, far beyond any navigation,
/// so the 0.01 s replay clock runs at most 1.44 million ticks.
public let maxGuidanceSpanSeconds: Double = 4 * 3600

/// Everything that can vary between guidance runs of one (recording, navigation) pair.
public struct GuidanceOptions: Sendable, Hashable, Codable {
    /// RDP tolerance (Clew's `pathWidth`), metres.
    public var rdpTolerance = 0.3
    public var rdpDistance = RDPDistance.line
    /// Crumbs every this many seconds (Clew's timer), or every VIO sample when nil.
    public var crumbInterval: Double? = 0.3
    public var registration = RegistrationMode.gravityAligned
    /// Anchor sightings of the navigation session used for registration: all when nil, else
    /// this many chosen by `seed`.
    public var anchorSightings: Int?
    public var seed: UInt64 = 1
    /// A filter spec applied to each VIO position axis before guidance ("none" or nil for none).
    public var positionFilter: String?
    /// The estimator whose trajectory replaces the navigation's VIO (`estimators:` of a spec);
    /// nil for the session's own (ARKit) VIO. Absent from `canonicalJSON` when nil.
    public var estimator: String?
    public var guidance = GuidanceParameters()

    public init() {}

    /// Sorted-key JSON: the options' identity in caches and reports.
    public var canonicalJSON: String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        return String(decoding: (try? enc.encode(self)) ?? Data(), as: UTF8.self)
    }
}

/// Why a guidance run could not be made: one line naming the session and what is missing.
public struct GuidanceJobError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ d: String) { description = d }
}

/// The outcome of replaying one navigation session along one recorded route.
public struct GuidanceRun: Sendable {
    public var routeID: String
    public var recordingID: String
    public var navigationID: String
    /// Keypoints in the recording frame R, and the same keypoints in the venue frame (truth).
    public var route: GuidanceRoute
    public var trueRoute: GuidanceRoute
    public var estimated: GuidanceTimeline
    public var truth: GuidanceTimeline
    /// Where navigation guided the user as estimated (mapped into the venue frame through the
    /// true recording registration) and where they truly walked, from the start of guidance.
    public var estimatedPath: [Vector3]
    public var truePath: [Vector3]
    /// The navigation session's time of each path sample (s).
    public var pathTimes: [Double]
    public var metrics: [Metric]
}

/// Samples poses every `interval` seconds as a timer would (latest pose at each tick).
func crumbs(_ timestamps: [Double], _ poses: [Pose], interval: Double?) -> (times: [Double], poses: [Pose]) {
    guard let interval, let first = timestamps.first, let last = timestamps.last else { return (timestamps, poses) }
    let sampler = PoseSampler(timestamps: timestamps, poses: poses)
    var t: [Double] = [], p: [Pose] = []
    var k = 0
    while true {
        let time = first + Double(k) * interval
        if time > last { break }
        if let pose = sampler.pose(at: time) { t.append(time); p.append(pose) }
        k += 1
    }
    return (t, p)
}

/// The true registration of a session frame onto the venue frame: the ground-truth pose at the
/// first VIO sample composed with the inverse VIO pose there, gravity-aligned (every session
/// frame is gravity-aligned in ARKit).
func trueSessionToVenue(_ s: Session, vio given: VIOStream? = nil) throws -> Pose {
    guard let vio = s.vio ?? given, let gt = s.groundTruth, let t0 = vio.timestamps.first else {
        throw GuidanceJobError("\(s.metadata.sessionID): needs vio and groundtruth streams")
    }
    let truth = PoseSampler(timestamps: gt.timestamps, poses: gt.poses)
    guard let g = truth.pose(at: t0) ?? gt.poses.first else { throw GuidanceJobError("\(s.metadata.sessionID): empty groundtruth") }
    return alignY(g * vio.poses[0].inverse)
}

/// Replays one navigation session along the route recorded in `recording` and measures it.
///
/// Route: crumbs of the recording's VIO (every `crumbInterval`), RDP → keypoints; the true
/// keypoints are the recording's ground truth at the same crumbs. Registration: T_RN from the
/// anchor sightings (the recording's first sighting as T_RA, the navigation's as T_NA).
/// Guidance starts at the last navigation sighting used.
///
/// Unless `force`, the first session must be a recording and the second a navigation of the
/// same `route_id`. `estimate` (an external VIO, `loadEstimate`) replaces the navigation's VIO
/// for guidance; the session's own VIO, when present, still gives the true registration of
/// its frame onto the venue. Either session's VIO may span at most `maxGuidanceSpanSeconds` (the replay
/// clock ticks every 0.01 s over it), checked before anything is replayed. An `exec:` position
/// filter is called with `pluginTimeout` seconds per call.
///
/// `names` are what errors name the two sessions by (the CLI passes their files); default their
/// session ids.
public func runGuidance(
    recording: Session, navigation: Session, options o: GuidanceOptions, force: Bool = false,
    estimate: VIOStream? = nil, pluginTimeout: Double = ExecPlugin.defaultTimeout,
    names: (recording: String, navigation: String)? = nil
) throws -> GuidanceRun {
    let rid = names?.recording ?? recording.metadata.sessionID, nid = names?.navigation ?? navigation.metadata.sessionID
    if !force {
        guard recording.metadata.kind == .recording else {
            throw GuidanceJobError(
                "\(escapedForMessage(rid)): session_kind is \(recording.metadata.kind.rawValue), expected recording as the first session (--force to override)"
            )
        }
        guard navigation.metadata.kind == .navigation else {
            throw GuidanceJobError(
                "\(escapedForMessage(nid)): session_kind is \(navigation.metadata.kind.rawValue), expected navigation as the second session (--force to override)"
            )
        }
        guard recording.metadata.routeID == navigation.metadata.routeID else {
            throw GuidanceJobError(
                "\(escapedForMessage(nid)): route_id \"\(escapedForMessage(navigation.metadata.routeID))\" differs from the recording's \"\(escapedForMessage(recording.metadata.routeID))\" (--force to override)"
            )
        }
    }
    for (s, id) in [(recording, rid), (navigation, nid)] {
        // VIO and ground truth together: the replay clock runs over both.
        let v = id == nid ? (estimate ?? s.vio) : s.vio
        let ends = [v?.timestamps.first, v?.timestamps.last, s.groundTruth?.timestamps.first, s.groundTruth?.timestamps.last].compactMap { $0 }
        if let a = ends.min(), let b = ends.max(), !(b - a <= maxGuidanceSpanSeconds) {
            throw GuidanceJobError(
                "\(escapedForMessage(id)): /vio and /groundtruth span \(b - a) s, more than the \(Int(maxGuidanceSpanSeconds)) s a guidance replay accepts"
            )
        }
    }
    guard let rvio = recording.vio, let rgt = recording.groundTruth else {
        throw GuidanceJobError("\(escapedForMessage(rid)): a recording needs vio and groundtruth streams")
    }
    guard let nvio = estimate ?? navigation.vio, let ngt = navigation.groundTruth else {
        throw GuidanceJobError("\(escapedForMessage(nid)): a navigation session needs vio and groundtruth streams")
    }
    guard let ra = recording.anchors, let firstRecordingSighting = ra.poses.first else {
        throw GuidanceJobError("\(escapedForMessage(rid)): no anchor sightings to register against")
    }
    guard let na = navigation.anchors, !na.poses.isEmpty else {
        throw GuidanceJobError("\(escapedForMessage(nid)): no anchor sightings: the session cannot be registered onto the route")
    }
    // Route.
    let c = crumbs(rvio.timestamps, rvio.poses, interval: o.crumbInterval)
    let kept = try ramerDouglasPeucker(c.poses.map(\.translation), tolerance: o.rdpTolerance, distance: o.rdpDistance)
    let trueSampler = PoseSampler(timestamps: rgt.timestamps, poses: rgt.poses)
    let route = GuidanceRoute(positions: kept.map { c.poses[$0].translation })
    let trueRoute = GuidanceRoute(positions: kept.map { (trueSampler.pose(at: c.times[$0]) ?? rgt.poses[0]).translation })
    // Registration.
    var chosen = Array(na.poses.indices)
    if let n = o.anchorSightings, n < chosen.count {
        var rng = SeededRandom(seed: o.seed, label: nid)
        chosen.shuffle(using: &rng)
        chosen = Array(chosen.prefix(max(1, n))).sorted()
    }
    let sightings = chosen.map { AnchorSighting(inRecording: firstRecordingSighting, inNavigation: na.poses[$0]) }
    let T_RN = try consensusRegistration(sightings, mode: o.registration).transform
    let start = chosen.map { na.timestamps[$0] }.max()!
    // Estimated poses in R, optionally smoothed.
    var estimatedPoses = nvio.poses.map { T_RN * $0 }
    if let spec = o.positionFilter, spec != "none" {
        let f = try FilterRegistry.filter(spec, pluginTimeout: pluginTimeout)  // built-in, registered or exec: plugin
        let fs = 1 / SamplingSummary(timestamps: nvio.timestamps).medianInterval
        let smoothed = try f.apply(vectors: estimatedPoses.map(\.translation), timestamps: nvio.timestamps, sampleRate: fs)
        for i in estimatedPoses.indices { estimatedPoses[i].translation = smoothed[i] }
    }
    let estimated = PoseSampler(timestamps: nvio.timestamps, poses: estimatedPoses)
    let truthPoses = PoseSampler(timestamps: ngt.timestamps, poses: ngt.poses)
    let p = o.guidance
    let timeline = replayGuidance(route: route, poses: estimated, start: start, parameters: p)
    let truthTimeline = replayGuidance(route: trueRoute, poses: truthPoses, start: start, parameters: p)
    var metrics = guidanceAccuracy(estimated: timeline, trueRoute: trueRoute, truth: truthPoses, truthTimeline: truthTimeline, parameters: p)

    // Registration and drift beside guidance.
    let T_VR = try trueSessionToVenue(recording), T_VN = try trueSessionToVenue(navigation, vio: estimate)
    let trueRN = T_VR.inverse * T_VN
    let keypointsInN = route.keypoints.map { T_RN.inverse.act(on: $0.position) }
    let reg = registrationAccuracy(estimated: T_RN, truth: trueRN, routePoints: keypointsInN)
    let stop = timeline.arrivalTime ?? timeline.end
    let window = nvio.timestamps.indices.filter { nvio.timestamps[$0] >= start && nvio.timestamps[$0] <= stop }
    let estimatedPath = window.map { T_VR.act(on: estimatedPoses[$0].translation) }
    let truePath = window.map { (truthPoses.pose(at: nvio.timestamps[$0]) ?? ngt.poses[0]).translation }
    let positionErrors = zip(estimatedPath, truePath).map { ($0 - $1).norm }
    let drift = try? endPointDrift(reference: truePath, estimate: estimatedPath)
    metrics += [
        Metric("registration_translation_error", reg.translationError, "m"),
        Metric("registration_yaw_error", abs(reg.yawErrorDegrees), "deg"),
        Metric("registration_induced_error_max", reg.maxInducedError, "m"),
        Metric(
            "position_error_rmse",
            positionErrors.isEmpty ? .nan : (positionErrors.reduce(0) { $0 + $1 * $1 } / Double(positionErrors.count)).squareRoot(), "m"),
        Metric("end_point_drift", drift?.drift ?? .nan, "fraction"),
        Metric("keypoints", Double(route.keypoints.count), "count"),
        Metric("route_length", trueRoute.length, "m"),
    ]
    return GuidanceRun(
        routeID: navigation.metadata.routeID, recordingID: rid, navigationID: nid, route: route, trueRoute: trueRoute,
        estimated: timeline, truth: truthTimeline, estimatedPath: estimatedPath, truePath: truePath,
        pathTimes: window.map { nvio.timestamps[$0] }, metrics: metrics)
}
