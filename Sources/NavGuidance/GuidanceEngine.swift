import Foundation
import NavCore

/// Clew's guidance as a stepping engine: the state of the app between two ticks and one
/// `step(pose:time:)` per tick of `hapticInterval`. The replay of a recorded walk
/// (`replayGuidance`) and the closed-loop walker (`simulateWalk`) drive the same engine.
///
/// Two clocks on one grid, as in the app: every `followInterval` (every
/// `followEvery`-th tick) the arrival box of the target keypoint is tested (arrival → success
/// haptic, next target, spoken direction; last keypoint → "arrived" and the end-of-route
/// haptic); every tick the heading is tested (on track → a pulse at most every
/// `pulseInterval`; off track for `offTrackGracePeriod` and `directionGracePeriod` since the
/// last direction → a correction, repeated at most every `correctionInterval`, doubled toward
/// the first keypoint).
///
/// Events accumulate in `events`; a step reports the range it appended, so a driver reads
/// what it heard without a per-tick allocation.
///
/// - Complexity: O(1) per step: at most two `Direction` computations; none when the on-track
///   test is certain without angles (`Direction.onTrackWithoutAngles`) and nothing is said, nor
///   when the pose and target are those of the previous computation (compared bit for bit).
public struct GuidanceEngine: Sendable {
    public let route: GuidanceRoute
    public let parameters: GuidanceParameters
    public let start: Double
    /// Record the 100 Hz haptic checks (for accuracy analysis); off for fast closed loops.
    public var recordChecks: Bool
    public private(set) var events: [GuidanceEvent] = []
    public private(set) var checks: [HapticCheck] = []
    public private(set) var endIntensity: [(time: Double, intensity: Double)] = []
    /// Index of the keypoint the user is guided to.
    public private(set) var target = 0
    /// Ticks stepped so far (including ticks without a pose).
    public private(set) var tick = 0
    public private(set) var arrivedAt: Double?
    /// The end-of-route haptic is over: nothing more happens.
    public private(set) var finished = false
    let followEvery: Int
    /// tick modulo followEvery, counted with the ticks.
    var followPhase = 0
    var previousKeypoint: Vector3
    var lastDirection: Double
    var lastPulse: Double
    var offTrackSince: Double?
    var lastCorrection: Double?
    /// The last direction computed: a driver that holds its pose between ticks (the closed
    /// loop updates it at the VIO rate) gets it again without recomputing (same inputs, same bits).
    var memo: (pose: Pose, target: Int, direction: Direction)?
    /// The last on-track test decided without angles (`Direction.onTrackWithoutAngles`), by
    /// pose (bit for bit) and target: `decided` nil when the direction had to decide.
    var quickPose = Pose.identity, quickTarget = -1
    var quickDecided: Bool?
    /// Always compute the direction for the on-track test and the arrival test (tests compare
    /// the shortcuts with it).
    var exactChecks = false
    /// cos(coneHalfWidth), for the on-track test without angles.
    let coneCosine: Double

    /// What one tick produced.
    public struct Step: Sendable, Equatable {
        /// Indices into `events` appended by this step.
        public var newEvents: Range<Int>
        /// The on-track test of this tick (nil when no haptic check ran).
        public var onTrack: Bool?
    }

    /// - Parameters:
    ///   - initialPosition: the user's position when guidance starts (Clew's previous keypoint
    ///     for the stairs test of the first direction); the first keypoint when nil.
    public init(
        route: GuidanceRoute, parameters: GuidanceParameters = GuidanceParameters(), start: Double,
        initialPosition: Vector3?, recordChecks: Bool = true
    ) {
        self.route = route
        self.parameters = parameters
        self.start = start
        self.recordChecks = recordChecks
        followEvery = max(1, Int((parameters.followInterval / parameters.hapticInterval).rounded()))
        coneCosine = cos(parameters.coneHalfWidth)
        previousKeypoint = initialPosition ?? route.keypoints.first?.position ?? .zero
        lastDirection = start  // Clew sets this when navigation starts: no early corrections
        lastPulse = start
        if route.keypoints.isEmpty { finished = true }
    }

    /// `Direction(from: pose, to: k, …)`, reused when pose (bit for bit) and `k` are those of the
    /// last call.
    mutating func direction(_ pose: Pose, _ k: Int) -> Direction {
        if let m = memo, m.target == k, samePose(m.pose, pose) { return m.direction }
        let d = Direction(from: pose, to: k, of: route, parameters: parameters)
        memo = (pose, k, d)
        return d
    }

    /// The on-track test of this tick's haptic check: `Direction.onTrack`, decided without
    /// angles when that is certain (the same answer), from the direction otherwise.
    @inline(__always)
    mutating func isOnTrack(_ pose: Pose, _ k: Int) -> Bool {
        // The pose held since the last tick (3 ticks in 4 of a closed loop): the answer kept.
        if !exactChecks, quickTarget == k, samePose(quickPose, pose), let d = quickDecided { return d }
        return isOnTrackComputed(pose, k)
    }

    @inline(never)
    mutating func isOnTrackComputed(_ pose: Pose, _ k: Int) -> Bool {
        if !exactChecks && !(quickTarget == k && samePose(quickPose, pose)) {
            let d = Direction.onTrackWithoutAngles(
                pose, keypoint: route.keypoints[k], last: k == route.keypoints.count - 1, parameters: parameters,
                coneCosine: coneCosine)
            (quickPose, quickTarget, quickDecided) = (pose, k, d)
            if let d { return d }
        }
        return direction(pose, k).onTrack(parameters)
    }

    /// Whether the pose is in the arrival box of keypoint `k` (`Direction.atTarget`, which does
    /// not need the heading's angles).
    func isAtTarget(_ pose: Pose, _ k: Int) -> Bool {
        if let m = memo, m.target == k, samePose(m.pose, pose) { return m.direction.atTarget }
        return Direction.isAtTarget(pose.translation, keypoint: k, of: route, parameters: parameters)
    }

    /// Time of the next tick: start + (tick + 1) · hapticInterval.
    public var nextTime: Double { start + Double(tick + 1) * parameters.hapticInterval }

    /// The end-of-route haptic has run its `endOfRouteSeconds`, or the route is empty.
    public var completed: Bool { arrivedAt != nil }

    /// Advances one tick at `time` (the driver passes `nextTime`) with the pose the app sees,
    /// or nil when it has none yet (the tick still counts).
    public mutating func step(pose: Pose?, time t: Double) -> Step {
        tick += 1
        followPhase = followPhase == followEvery - 1 ? 0 : followPhase + 1
        let first = events.count
        guard !finished, let pose else { return Step(newEvents: first..<first, onTrack: nil) }
        let p = parameters
        if let arrivedAt {
            if t > arrivedAt + p.endOfRouteSeconds { finished = true; return Step(newEvents: first..<first, onTrack: nil) }
            let end = route.keypoints.last!.position
            endIntensity.append((t, max(0, 1 - hypot(pose.translation.x - end.x, pose.translation.z - end.z))))
            return Step(newEvents: first..<first, onTrack: nil)
        }
        // followCrumb
        if followPhase == 0 {
            if exactChecks ? direction(pose, target).atTarget : isAtTarget(pose, target) {
                let d = direction(pose, target)
                if target < route.keypoints.count - 1 {
                    events.append(
                        GuidanceEvent(
                            time: t, kind: .arrival, text: "", keypoint: target, hour: d.hour, sector: d.sector, distance: d.distance, angle: d.angle)
                    )
                    previousKeypoint = route.keypoints[target].position
                    target += 1
                    let next = direction(pose, target)
                    events.append(instruction(t, next, target: target, pose: pose, previous: previousKeypoint, route: route, p))
                    lastDirection = t
                } else {
                    events.append(
                        GuidanceEvent(
                            time: t, kind: .arrived, text: "", keypoint: target, hour: d.hour, sector: d.sector, distance: d.distance, angle: d.angle)
                    )
                    arrivedAt = t
                    return Step(newEvents: first..<events.count, onTrack: nil)
                }
            }
        }
        // getHapticFeedback: the direction itself only when the test needs it or an event is said.
        let onTrack = isOnTrack(pose, target)
        if recordChecks { checks.append(HapticCheck(time: t, target: target, onTrack: onTrack)) }
        if onTrack {
            offTrackSince = nil
            lastCorrection = nil
            if t - lastPulse > p.pulseInterval {
                let d = direction(pose, target)
                events.append(
                    GuidanceEvent(
                        time: t, kind: .pulse, text: "", keypoint: target, hour: d.hour, sector: d.sector, distance: d.distance, angle: d.angle))
                lastPulse = t
            }
        } else {
            if offTrackSince == nil { offTrackSince = t }
            if t - lastDirection > p.directionGracePeriod, t - offTrackSince! > p.offTrackGracePeriod {
                let multiplier = target == 0 ? 2.0 : 1.0
                if lastCorrection == nil || t - lastCorrection! > p.correctionInterval * multiplier {
                    lastCorrection = t
                    let d = direction(pose, target)
                    let side = d.angle > 0 ? "right" : "left"
                    let text = target == 0 ? "Bear \(side) to face the start" : "Bear \(side) to get on track"
                    events.append(
                        GuidanceEvent(
                            time: t, kind: .correction, text: text, keypoint: target, hour: d.hour, sector: d.sector, distance: d.distance,
                            angle: d.angle))
                }
            }
        }
        return Step(newEvents: first..<events.count, onTrack: onTrack)
    }

    /// The timeline so far, ending at `end`.
    public func timeline(end: Double) -> GuidanceTimeline {
        GuidanceTimeline(start: start, end: end, events: events, checks: checks, endIntensity: endIntensity)
    }
}

/// Bitwise equality of two poses (−0 ≠ +0, NaN = NaN of the same bits): what makes a memoised
/// computation return exactly what recomputing would.
func samePose(_ a: Pose, _ b: Pose) -> Bool {
    a.translation.x.bitPattern == b.translation.x.bitPattern && a.translation.y.bitPattern == b.translation.y.bitPattern
        && a.translation.z.bitPattern == b.translation.z.bitPattern && a.rotation.x.bitPattern == b.rotation.x.bitPattern
        && a.rotation.y.bitPattern == b.rotation.y.bitPattern && a.rotation.z.bitPattern == b.rotation.z.bitPattern
        && a.rotation.w.bitPattern == b.rotation.w.bitPattern
}
