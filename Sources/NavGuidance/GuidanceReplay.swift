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
public func replayGuidance(route: GuidanceRoute, poses: PoseSampler, start: Double,
                           parameters p: GuidanceParameters = GuidanceParameters()) -> GuidanceTimeline {
    var events: [GuidanceEvent] = []
    var checks: [HapticCheck] = []
    var intensity: [(Double, Double)] = []
    guard !route.keypoints.isEmpty, let lastPoseTime = poses.timestamps.last else {
        return GuidanceTimeline(start: start, end: start, events: [], checks: [], endIntensity: [])
    }
    let followEvery = max(1, Int((p.followInterval / p.hapticInterval).rounded()))
    var target = 0
    var previousKeypoint = poses.pose(at: start)?.translation ?? route.keypoints[0].position
    var lastDirection = start           // Clew sets this when navigation starts: no early corrections
    var lastPulse = start
    var offTrackSince: Double?
    var lastCorrection: Double?
    var arrivedAt: Double?
    var k = 0
    var t = start
    while t <= lastPoseTime {
        k += 1
        t = start + Double(k) * p.hapticInterval
        guard let pose = poses.pose(at: t) else { continue }
        if let arrivedAt {
            if t > arrivedAt + p.endOfRouteSeconds { break }
            let end = route.keypoints.last!.position
            intensity.append((t, max(0, 1 - hypot(pose.translation.x - end.x, pose.translation.z - end.z))))
            continue
        }
        // followCrumb
        if k % followEvery == 0 {
            let d = Direction(from: pose, to: target, of: route, parameters: p)
            if d.atTarget {
                if target < route.keypoints.count - 1 {
                    events.append(GuidanceEvent(time: t, kind: .arrival, text: "", keypoint: target, hour: d.hour, sector: d.sector, distance: d.distance, angle: d.angle))
                    previousKeypoint = route.keypoints[target].position
                    target += 1
                    let next = Direction(from: pose, to: target, of: route, parameters: p)
                    events.append(instruction(t, next, target: target, pose: pose, previous: previousKeypoint, route: route, p))
                    lastDirection = t
                } else {
                    events.append(GuidanceEvent(time: t, kind: .arrived, text: "", keypoint: target, hour: d.hour, sector: d.sector, distance: d.distance, angle: d.angle))
                    arrivedAt = t
                    continue
                }
            }
        }
        // getHapticFeedback
        let d = Direction(from: pose, to: target, of: route, parameters: p)
        let onTrack = d.onTrack(p)
        checks.append(HapticCheck(time: t, target: target, onTrack: onTrack))
        if onTrack {
            offTrackSince = nil
            lastCorrection = nil
            if t - lastPulse > p.pulseInterval {
                events.append(GuidanceEvent(time: t, kind: .pulse, text: "", keypoint: target, hour: d.hour, sector: d.sector, distance: d.distance, angle: d.angle))
                lastPulse = t
            }
        } else {
            if offTrackSince == nil { offTrackSince = t }
            if t - lastDirection > p.directionGracePeriod, t - offTrackSince! > p.offTrackGracePeriod {
                let multiplier = target == 0 ? 2.0 : 1.0
                if lastCorrection == nil || t - lastCorrection! > p.correctionInterval * multiplier {
                    lastCorrection = t
                    let side = d.angle > 0 ? "right" : "left"
                    let text = target == 0 ? "Bear \(side) to face the start" : "Bear \(side) to get on track"
                    events.append(GuidanceEvent(time: t, kind: .correction, text: text, keypoint: target, hour: d.hour, sector: d.sector, distance: d.distance, angle: d.angle))
                }
            }
        }
    }
    return GuidanceTimeline(start: start, end: min(t, lastPoseTime), events: events, checks: checks, endIntensity: intensity)
}

/// Clew's `setDirectionText`: direction words, stairs suffix, and the distance phrase.
func instruction(_ t: Double, _ d: Direction, target: Int, pose: Pose, previous: Vector3, route: GuidanceRoute,
                 _ p: GuidanceParameters) -> GuidanceEvent {
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
    return GuidanceEvent(time: t, kind: .instruction, text: text, keypoint: target, hour: d.hour, sector: d.sector, distance: d.distance, angle: d.angle)
}
