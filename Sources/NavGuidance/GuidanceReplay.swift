import Foundation
import NavCore

/// One thing the navigator hears or feels.
public struct GuidanceEvent: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// Spoken direction toward the next keypoint (after arriving at one).
        case instruction
        /// A keypoint checked off (success haptic).
        case arrival
        /// On-track haptic pulse.
        case pulse
        /// "Bear left/right to get on track" (or "… to face the start").
        case correction
        /// The last keypoint reached: end of route.
        case arrived
    }

    public var time: Double
    public var kind: Kind
    public var text: String
    /// Target keypoint index when the event happened (the keypoint arrived at, for arrivals).
    public var keypoint: Int
    public var hour: Int?
    public var sector: Int?
    /// Horizontal distance to the target, metres (tenths).
    public var distance: Double?
    /// Angle to the target, radians, positive = right.
    public var angle: Double?
}

/// The state at one haptic check, kept for accuracy analysis.
public struct HapticCheck: Sendable, Equatable {
    public var time: Double
    public var target: Int
    public var onTrack: Bool
}

/// A replayed navigation: what the user was told and felt, and when.
public struct GuidanceTimeline: Sendable {
    public var start: Double
    public var end: Double
    public var events: [GuidanceEvent]
    public var checks: [HapticCheck]
    /// End-of-route haptic intensity max(0, 1 − horizontal distance to the end) at each check
    /// after arrival.
    public var endIntensity: [(time: Double, intensity: Double)]

    public var arrivalTime: Double? { events.first { $0.kind == .arrived }?.time }
    public var completed: Bool { arrivalTime != nil }
    /// Spoken messages: instructions and corrections.
    public var spoken: [GuidanceEvent] { events.filter { $0.kind == .instruction || $0.kind == .correction } }
}

/// Samples a pose stream as an app sees it: the latest pose at or before t.
public struct PoseSampler: Sendable {
    public let timestamps: [Double]
    public let poses: [Pose]
    public init(timestamps: [Double], poses: [Pose]) { self.timestamps = timestamps; self.poses = poses }

    /// - Complexity: O(log n).
    public func pose(at t: Double) -> Pose? {
        var lo = 0, hi = timestamps.count
        while lo < hi { let mid = (lo + hi) / 2; if timestamps[mid] <= t { lo = mid + 1 } else { hi = mid } }
        return lo == 0 ? nil : poses[lo - 1]
    }
}

/// Replays Clew's guidance along `route` for a pose stream in the route's frame, from `start`.
///
/// Two clocks, as in the app, on one grid of `hapticInterval` ticks: every `followInterval`
/// the arrival box of the target keypoint is tested (arrival → success haptic, next target,
/// spoken direction; last keypoint → "arrived" and the end-of-route haptic); every tick the
/// heading is tested (on track → a pulse at most every `pulseInterval`; off track for
/// `offTrackGracePeriod` and `directionGracePeriod` since the last direction → a correction,
/// repeated at most every `correctionInterval`, doubled toward the first keypoint).
///
/// - Complexity: O(duration / hapticInterval · log poses).
public func replayGuidance(
    route: GuidanceRoute, poses: PoseSampler, start: Double,
    parameters p: GuidanceParameters = GuidanceParameters()
) -> GuidanceTimeline {
    guard !route.keypoints.isEmpty, let lastPoseTime = poses.timestamps.last else {
        return GuidanceTimeline(start: start, end: start, events: [], checks: [], endIntensity: [])
    }
    var engine = GuidanceEngine(
        route: route, parameters: p, start: start,
        initialPosition: poses.pose(at: start)?.translation, recordChecks: true)
    var t = start
    while t <= lastPoseTime {
        t = engine.nextTime
        _ = engine.step(pose: poses.pose(at: t), time: t)
        if engine.finished { break }
    }
    return engine.timeline(end: min(t, lastPoseTime))
}

/// Clew's `setDirectionText`: direction words, stairs suffix, and the distance phrase.
func instruction(
    _ t: Double, _ d: Direction, target: Int, pose: Pose, previous: Vector3, route: GuidanceRoute,
    _ p: GuidanceParameters
) -> GuidanceEvent {
    let next = route.keypoints[target].position
    let horizontal = hypot(pose.translation.x - next.x, pose.translation.z - next.z)
    let rise = next.y - previous.y
    let slope = horizontal > 0 ? rise / horizontal : 0
    var text = p.sixSectorWording ? ClockFace.words(sector: d.sector) : ClockFace.words(hour: d.hour)
    if abs(rise) > p.stairsHeight && slope > p.stairsSlope {
        text += " and proceed upstairs"
    } else if abs(rise) > p.stairsHeight && slope < -p.stairsSlope {
        text += " and proceed downstairs"
    } else if p.announceDistance {
        text += ClockFace.distancePhrase(metres: d.distance, units: p.units)
    }
    return GuidanceEvent(
        time: t, kind: .instruction, text: text, keypoint: target, hour: d.hour, sector: d.sector, distance: d.distance, angle: d.angle)
}
