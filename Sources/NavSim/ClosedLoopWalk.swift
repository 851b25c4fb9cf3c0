import Foundation
import NavCore
import NavGeometry
import NavGuidance
import NavStatistics
import NavSynth

/// Where a closed-loop walk happens: the route the phone guides along (route frame R), the same
/// keypoints in the venue frame V (truth), how R sits in V, the anchor, and the walls.
public struct ClosedLoopScenario: Sendable {
    public var routeID: String
    /// Keypoints as the phone knows them (frame R).
    public var route: GuidanceRoute
    /// The same keypoints in the venue frame (where the walker truly is).
    public var trueRoute: GuidanceRoute
    /// T_VR: maps route-frame points into the venue frame (what a perfect registration gives).
    public var venueFromRoute: Pose
    /// The anchor's position in R: the pivot of a registration yaw error.
    public var anchor: Vector3
    /// Walls in V (empty: open space).
    public var floorPlan: FloorPlan
    /// T_RA: the anchor's pose in R as the recording saw it (nil: the recording has no anchor
    /// sightings); what a simulated registration (`ClosedLoopSettings.registration`) sights.
    public var anchorPose: Pose?

    public init(
        routeID: String, route: GuidanceRoute, trueRoute: GuidanceRoute, venueFromRoute: Pose = .identity,
        anchor: Vector3? = nil, floorPlan: FloorPlan = .openSpace, anchorPose: Pose? = nil
    ) {
        self.routeID = routeID; self.route = route; self.trueRoute = trueRoute; self.venueFromRoute = venueFromRoute
        self.anchor = anchor ?? anchorPose?.translation ?? route.keypoints.first?.position ?? .zero
        self.floorPlan = floorPlan
        self.anchorPose = anchorPose
    }
}

/// What varies between closed-loop configurations.
public struct ClosedLoopSettings: Sendable, Hashable {
    public var walker: NavigatorProfile
    public var vioError: VIOErrorSpec
    public var guidance: GuidanceParameters
    /// The estimated pose is updated every this many seconds (ARKit frames the app sees).
    public var vioInterval = 0.04
    /// Clew's registration simulated from anchor sightings (nil: a perfect registration, whose
    /// only error is `vioError`'s `yaw_offset`).
    public var registration: SimulatedRegistration?

    public init(
        walker: NavigatorProfile = NavigatorProfile(), vioError: VIOErrorSpec = .none,
        guidance: GuidanceParameters = GuidanceParameters(), registration: SimulatedRegistration? = nil
    ) {
        self.walker = walker; self.vioError = vioError; self.guidance = guidance; self.registration = registration
    }
}

/// The outcome of one closed-loop walk (definitions in docs/guidance.md, "Closed-loop outcomes").
public struct WalkOutcome: Sendable, Equatable, Codable {
    public var run: Int
    /// "Arrived" declared and the true position within 2 m (`success`) / 1 m (`success_1m`) of the
    /// true destination. Clew's last arrival box (1 m deep, 1 m wide) alone admits up to √2 m.
    public var success: Bool
    public var success_1m: Bool
    /// The distance (m) from the true destination within which an arrival counts as `success`.
    public static let successRadius = 2.0
    public var arrived: Bool
    /// The time limit ran out before "arrived".
    public var lost: Bool
    /// Horizontal distance from where the walker stops (or is when lost) to the true destination, m.
    public var end_of_route_error: Double
    /// Fraction of keypoints checked off (intermediate arrivals and the final "arrived").
    public var completion: Double
    /// True walked path length / true route length.
    public var path_length_ratio: Double
    /// From the start of guidance to "arrived", s (nil when not arrived).
    public var time_to_complete: Double?
    public var instructions: Int
    public var corrections: Int
    public var pulses: Int
    public var wall_contacts: Int
    public var false_arrivals: Int
    public var missed_arrivals: Int
    /// Success weighted by path length (Anderson et al. 2018): success · l / max(p, l), with l the
    /// true route's length (the path Clew guides along) and p the walked length; 0 without success.
    public var spl: Double
    /// Percent preferred walking speed: walked length / time from the start of guidance to the
    /// end of the walk, over the profile's `speed`, × 100.
    public var ppws: Double
    /// Deviation from the route: mean and 95th percentile (linear interpolation) of the walker's
    /// 3-D distance to the true keypoint polyline, sampled every 0.1 s while it walks, turns or seeks, m.
    public var route_deviation_mean: Double
    public var route_deviation_p95: Double
    /// How closely the walk follows the route (Ilharco et al. 2019): nDTW = exp(−DTW / (d_th · N))
    /// of the true path and the true route, both resampled every `fidelitySpacing` m of
    /// horizontal arc length (N route points), d_th = 2 m (the success distance); SDTW = success · nDTW.
    public var ndtw: Double
    public var sdtw: Double

    enum CodingKeys: String, CodingKey {
        case run, success, success_1m, arrived, lost, end_of_route_error, completion, path_length_ratio, time_to_complete,
            instructions, corrections, pulses, wall_contacts, false_arrivals, missed_arrivals, spl, ppws, route_deviation_mean,
            route_deviation_p95, ndtw, sdtw
    }

    /// The spacing both paths are resampled at before DTW, m.
    public static let fidelitySpacing = 0.5
    /// nDTW's d_th, m: the success distance.
    public static let fidelityThreshold = 2.0

    /// Every key always present (`time_to_complete` null when not arrived).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(run, forKey: .run); try c.encode(success, forKey: .success); try c.encode(success_1m, forKey: .success_1m)
        try c.encode(arrived, forKey: .arrived); try c.encode(lost, forKey: .lost)
        try c.encode(end_of_route_error, forKey: .end_of_route_error); try c.encode(completion, forKey: .completion)
        try c.encode(path_length_ratio, forKey: .path_length_ratio); try c.encode(time_to_complete, forKey: .time_to_complete)
        try c.encode(instructions, forKey: .instructions); try c.encode(corrections, forKey: .corrections)
        try c.encode(pulses, forKey: .pulses); try c.encode(wall_contacts, forKey: .wall_contacts)
        try c.encode(false_arrivals, forKey: .false_arrivals); try c.encode(missed_arrivals, forKey: .missed_arrivals)
        try c.encode(spl, forKey: .spl); try c.encode(ppws, forKey: .ppws)
        try c.encode(route_deviation_mean, forKey: .route_deviation_mean); try c.encode(route_deviation_p95, forKey: .route_deviation_p95)
        try c.encode(ndtw, forKey: .ndtw); try c.encode(sdtw, forKey: .sdtw)
    }
}

/// One walk with (optionally) its true path sampled every 0.1 s and its log.
public struct WalkTrace: Sendable {
    public var outcome: WalkOutcome
    public var path: [Vector3]
    /// What a lab would have logged of the walk (`simulateWalk(…, recordLog: true)`), else nil.
    public var log: WalkLog?
}

/// A simulated walk as logged: the walker's true pose at t = 0 and after every tick (the
/// ground truth of a navigation session), and what the phone saw (its pose in the route frame)
/// at t = 0, at every VIO update and at the last tick (the session's VIO). Replaying Clew's
/// guidance on `seen` from t = 0 gives the events the walker heard, tick by tick.
public struct WalkLog: Sendable {
    public var truthTimes: [Double] = []
    public var truth: [Pose] = []
    public var seenTimes: [Double] = []
    public var seen: [Pose] = []
    /// What Clew's engine said and vibrated during the walk (what a replay on `seen` must give).
    public var heard: [GuidanceEvent] = []
    /// The walker's heading ψ at each `truthTimes` entry, radians, never wrapped (a turn of 720°
    /// reads as one): what a pocket phone's rate about gravity integrates to.
    public var headings: [Double] = []
    /// What an annotator would mark (docs/navigator.md, "The simulated walk measured as a real
    /// one"): the time of each step, each wall contact (from touching to leaving the wall), and
    /// each stop to seek the pulse, each turn on a spoken instruction over 22.5° — from hearing it to the end of the rotation,
    /// with the turn the walker understood (radians, + = right).
    public var stepTimes: [Double] = []
    public var wallContacts: [(start: Double, end: Double)] = []
    /// Stops to sweep for Clew's on-track pulse (seeking), from stopping to walking on.
    public var seeking: [(start: Double, end: Double)] = []
    public var turns: [(start: Double, end: Double, commanded: Double)] = []
}

/// Simulates one blind walker guided by Clew along `scenario`: the walker (`NavigatorProfile`)
/// moves in the venue frame; the phone sees the true pose through the VIO drift and the
/// registration error (`VIOErrorSpec`) and drives `GuidanceEngine`; the walker reacts to what
/// the engine says and vibrates. Random numbers come from streams named by seed, route and run
/// (`walker-steps`, `walker-turns`, `walker-instructions/K` per keypoint K, `walker-corrections`, `walker-gait`,
/// `vio`; docs/navigator.md), so two settings share them run by run (common random numbers).
///
/// - Complexity: O(duration / hapticInterval · (1 + walls)).
public func simulateWalk(
    _ s: ClosedLoopScenario, settings: ClosedLoopSettings, seed: UInt64, run: Int,
    recordPath: Bool = false, recordLog: Bool = false
) -> WalkTrace {
    simulateWalk(
        s, walls: WallIndex.byFloor(s.floorPlan), settings: settings, seed: seed, run: run, recordPath: recordPath, recordLog: recordLog)
}

/// `simulateWalk` with the scenario's walls already indexed (`WallIndex.byFloor(s.floorPlan)`).
func simulateWalk(
    _ s: ClosedLoopScenario, walls: [Int: WallIndex], settings: ClosedLoopSettings, seed: UInt64, run: Int,
    recordPath: Bool, recordLog: Bool = false
) -> WalkTrace {
    var walker = ClosedLoopWalker(s, walls: walls, settings: settings, seed: seed, run: run, recordPath: recordPath)
    if recordLog { walker.log = WalkLog() }
    walker.walk()
    if recordLog { walker.log?.heard = walker.engine.events }
    return WalkTrace(outcome: walker.outcome(), path: walker.path, log: walker.log)
}

/// The state of one closed-loop walk (see `simulateWalk`).
struct ClosedLoopWalker {
    /// Longest walk simulated, seconds: a walker still walking then is lost.
    static let maximumSeconds = 7200.0
    enum Mode { case waiting, walking, turning, seeking, stopped }
    /// `turn(commanded, error, instruction)`: the commanded turn (radians, + = right), the standard
    /// normal of its turn error, drawn when the direction was heard, and whether it answers a
    /// spoken instruction (whose end a log marks).
    enum Action { case turn(Double, Double, Bool), stopSeeking, stop }

    let s: ClosedLoopScenario
    let w: NavigatorProfile
    let p: GuidanceParameters
    let dt: Double
    var engine: GuidanceEngine
    var stepRNG: SeededRandom, turnRNG: SeededRandom, correctionRNG: SeededRandom, vioRNG: SeededRandom
    /// Step lengths' variability (`stepTimeCV`): drawn only when it is above 0.
    var gaitRNG: SeededRandom
    let seed: UInt64
    /// `walker-instructions/ROUTE/RUN`: the label of the per-keypoint streams of spoken directions.
    let instructionLabel: String
    var drift: VIODrift
    let seenFromVenue: Pose  // E · T_RV
    let tilt: Quaternion
    let followEvery: Int
    let vioEvery: Int
    let timeLimit: Double
    let bias: Double
    let stepStd: Double
    let flatRoute: Bool
    let recordPath: Bool
    /// The floor plan's walls indexed per floor (`WallIndex`): a step tests only nearby walls.
    let wallsByFloor: [Int: WallIndex]
    /// `wallsByFloor`'s entry for the floor of the height whose bits are `floorWallsHeight` (nil:
    /// none looked up yet). Unretained: `wallsByFloor` owns it for the walk (a retain and a
    /// release a tick otherwise).
    var floorWalls: Unmanaged<WallIndex>?
    var floorWallsHeight: UInt64?, floorWallsFloor: Int?
    /// A box of the floor no wall is near (`WallIndex.freeBox`): a step inside it meets no wall,
    /// which `move` would find too. nil when none is known; `freeBoxWait` ticks pass before the
    /// next is looked for after one too small for the step.
    var freeBox: WallFreeBox?
    var freeBoxWait = 0
    /// Look for free boxes (`WallIndex.freeBox`); tests compare walks without them.
    var usesFreeBoxes = true
    /// Compare every candidate's `hypot` in `updateHeight`; tests compare walks with it.
    var exactHeights = false

    var x: Double, z: Double, y: Double
    var yaw: Double  // phone yaw ψ (ARKit convention): walking direction (−sin ψ, −cos ψ)
    var dirX = 0.0, dirZ = 0.0
    var mode = Mode.waiting
    var turnTarget = 0.0
    var seekCentre = 0.0, seekAmplitude = 0.0, seekSign = 1.0
    var pending: [(due: Double, action: Action)] = []
    var stepProgress = 0.0
    /// The length of the step under way, m (`stepLength` unless `stepTimeCV` > 0).
    var stepUnderWay = 0.0
    /// A turn made while walking (`steerBelowDegrees`): the heading it rotates to, nil when none.
    var steerTarget: Double?
    /// A logged instruction's turn has begun: the rotation under way answers it (a correction or
    /// a sweep that starts meanwhile ends it first), so that rotation's end is the turn's end.
    var loggedTurnUnderWay = false
    var lastPulseFelt = 0.0, lastHeard = 0.0
    var vioLast: Vector3
    var seen: Pose
    var inContact = false
    var wasSeeking = false
    var contacts = 0
    var pathLength = 0.0
    var falseArrivals = 0
    var trueReached: [Bool]
    var stoppedAt: Double?
    var lost = false
    var t = 0.0
    var path: [Vector3] = []
    /// Distances to the true route, every 10 ticks while moving (route deviation).
    var deviations: [Double] = []
    /// The true position at the start, every 10 ticks while moving, and at the end (nDTW).
    var trail: [Vector3] = []
    var heightSegment = 0
    /// The walk's log, when one is kept (`WalkLog`).
    var log: WalkLog?
    /// Draw the noiseless drift's normals anyway (`VIODrift.advance`): the reference the tests
    /// compare `advanceNoiseless` with.
    var drawsNoiselessVIO = false

    init(_ s: ClosedLoopScenario, walls: [Int: WallIndex], settings: ClosedLoopSettings, seed: UInt64, run: Int, recordPath: Bool) {
        self.s = s
        w = settings.walker
        p = settings.guidance
        dt = p.hapticInterval
        self.recordPath = recordPath
        wallsByFloor = walls
        let label = "\(s.routeID)/\(run)"
        stepRNG = SeededRandom(seed: seed, label: "walker-steps/" + label)
        turnRNG = SeededRandom(seed: seed, label: "walker-turns/" + label)
        // Spoken directions draw from a stream per keypoint and corrections from their own, so a
        // run that hears one more or one fewer "Bear left" (or turns by less than 22.5°) still
        // draws the same numbers for every later turn (common random numbers across settings).
        correctionRNG = SeededRandom(seed: seed, label: "walker-corrections/" + label)
        self.seed = seed
        instructionLabel = "walker-instructions/" + label
        vioRNG = SeededRandom(seed: seed, label: "vio/" + label)
        gaitRNG = SeededRandom(seed: seed, label: "walker-gait/" + label)
        let deg = Double.pi / 180
        bias = (w.stepBiasMeanDegrees + w.stepBiasStdDegrees * stepRNG.gaussian()) * deg
        stepStd = w.stepDirectionStdDegrees * deg
        let kps = s.trueRoute.keypoints
        let start = kps.first?.position ?? .zero
        (x, y, z) = (start.x, start.y, start.z)
        // Face the first keypoint at least 0.5 m away, with the initial orientation error.
        var ahead = kps.first { Double.hypot($0.position.x - start.x, $0.position.z - start.z) > 0.5 }?.position ?? start + Vector3(0, 0, -1)
        ahead.y = start.y
        yaw = Double.atan2(y: -(ahead.x - start.x), x: -(ahead.z - start.z)) + turnRNG.gaussian() * w.initialOrientationStdDegrees * deg
        tilt = Quaternion(axis: Vector3(1, 0, 0), angle: -10 * deg) * Quaternion(axis: Vector3(0, 0, 1), angle: -.pi / 2)
        // What the phone sees: registration yaw error δ about the anchor, after T_RN — the true
        // T_RV, or the one Clew estimates from simulated sightings of the anchor.
        let delta = settings.vioError.yawOffsetDegrees * deg
        let qd = Quaternion(yaw: delta)
        let err = Pose(rotation: qd, translation: s.anchor - qd.act(on: s.anchor))
        var routeFromNavigation = s.venueFromRoute.inverse
        if let r = settings.registration {
            var g = SeededRandom(seed: seed, label: "registration/" + label)
            // The sightings are finite (finite poses, finite noise), so the estimate cannot fail;
            // were it to, the truth is kept rather than a NaN pose.
            routeFromNavigation =
                (try? r.estimate(
                    anchorInRoute: s.anchorPose ?? Pose(rotation: .identity, translation: s.anchor), navigationFromRoute: s.venueFromRoute,
                    rng: &g)) ?? routeFromNavigation
        }
        seenFromVenue = err * routeFromNavigation
        followEvery = max(1, Int((p.followInterval / p.hapticInterval).rounded()))
        vioEvery = max(1, Int((settings.vioInterval / p.hapticInterval).rounded()))
        let length = s.trueRoute.length
        // Never more than two simulated hours: a walker that slow is lost, whatever the route.
        timeLimit = min(w.lostTimeFactor * length / w.speed + w.lostTimeMarginSeconds, ClosedLoopWalker.maximumSeconds)
        let expected = length / w.speed
        drift = VIODrift(spec: settings.vioError, start: start, lossWindow: (2, max(3, expected - 4)), rng: &vioRNG)
        vioLast = start
        let ys = kps.map(\.position.y)
        flatRoute = (ys.max() ?? 0) - (ys.min() ?? 0) < 0.5
        trueReached = Array(repeating: false, count: kps.count)
        stepUnderWay = w.stepLength
        if w.stepTimeCV > 0 { stepUnderWay = w.stepLength * max(0.5, 1 + w.stepTimeCV * gaitRNG.gaussian()) }
        let firstSeen = seenFromVenue * Pose(rotation: Quaternion(yaw: yaw) * tilt, translation: start)
        seen = firstSeen
        engine = GuidanceEngine(route: s.route, parameters: p, start: 0, initialPosition: firstSeen.translation, recordChecks: false)
        updateDirection()
        if recordPath { path.append(Vector3(x, y, z)) }
        trail.append(Vector3(x, y, z))
    }

    mutating func updateDirection() { dirX = -Double.sin(yaw); dirZ = -Double.cos(yaw) }

    var truePose: Pose { Pose(rotation: Quaternion(yaw: yaw) * tilt, translation: Vector3(x, y, z)) }

    mutating func walk() {
        let deg = Double.pi / 180
        logTruth(); logSeen()
        // engine.tick modulo vioEvery and followEvery, counted (a division each tick cost more).
        var vioPhase = engine.tick % vioEvery, followPhase = engine.tick % followEvery
        while mode != .stopped {
            t = engine.nextTime
            move()
            if vioPhase == vioEvery - 1 { updateEstimate() }
            if followPhase == followEvery - 1, engine.target < trueReached.count, !engine.completed {
                // The true pose in the true box of the current target (for missed arrivals).
                if Direction.isAtTarget(Vector3(x, y, z), keypoint: engine.target, of: s.trueRoute, parameters: p) {
                    trueReached[engine.target] = true
                }
            }
            let step = engine.step(pose: seen, time: t)
            vioPhase = vioPhase == vioEvery - 1 ? 0 : vioPhase + 1
            followPhase = followPhase == followEvery - 1 ? 0 : followPhase + 1
            for i in step.newEvents { hear(engine.events[i], deg: deg) }
            act()
            if mode == .waiting && t >= w.startWaitSeconds { mode = .walking; lastPulseFelt = t; lastHeard = t }
            if mode == .walking && w.seekAfterSeconds > 0 && t - lastPulseFelt > w.seekAfterSeconds && t - lastHeard > w.seekAfterSeconds {
                mode = .seeking; seekCentre = yaw; seekAmplitude = 30 * deg; seekSign = 1; steerTarget = nil
                if loggedTurnUnderWay { endLoggedTurn() }
            }
            if mode != .stopped && t > timeLimit { lost = true; mode = .stopped }
            if recordPath && engine.tick % 10 == 0 { path.append(Vector3(x, y, z)) }
            if log != nil {
                logTruth()
                if mode == .seeking {
                    if wasSeeking { log!.seeking[log!.seeking.count - 1].end = t } else { log!.seeking.append((t, t)) }
                }
                wasSeeking = mode == .seeking
            }
            if engine.tick % 10 == 0 && mode != .waiting && mode != .stopped {
                deviations.append(s.trueRoute.distanceToRoute(Vector3(x, y, z)))
                trail.append(Vector3(x, y, z))
            }
        }
        trail.append(Vector3(x, y, z))
        if recordPath { path.append(Vector3(x, y, z)) }
        if let last = log?.seenTimes.last, last < t { logSeen() }
    }

    /// Logs the true pose at `t` (when a log is kept).
    mutating func logTruth() {
        guard log != nil else { return }
        log!.truthTimes.append(t)
        log!.truth.append(truePose)
        log!.headings.append(yaw)
    }

    /// Logs what the phone sees at `t` (when a log is kept).
    mutating func logSeen() {
        guard log != nil else { return }
        log!.seenTimes.append(t)
        log!.seen.append(seen)
    }

    /// One tick of motion.
    mutating func move() {
        let deg = Double.pi / 180
        switch mode {
        case .waiting, .stopped:
            return
        case .turning:
            let rate = w.turnRateDegreesPerSecond * deg * dt
            let remaining = Angle.wrapToPi(turnTarget - yaw)
            if rate <= 0 || abs(remaining) <= rate {
                yaw = turnTarget; mode = .walking; lastPulseFelt = t; lastHeard = t
                if loggedTurnUnderWay { endLoggedTurn() }
            } else {
                yaw += remaining > 0 ? rate : -rate
            }
            updateDirection()
            return
        case .seeking:
            yaw += seekSign * w.seekRateDegreesPerSecond * deg * dt
            if seekSign * Angle.wrapToPi(yaw - seekCentre) >= seekAmplitude {
                seekSign = -seekSign
                if seekSign > 0 { seekAmplitude = min(.pi, seekAmplitude + 30 * deg) }
            }
            updateDirection()
            return
        case .walking:
            let d = w.speed * dt
            stepProgress += d
            if let target = steerTarget {
                let rate = w.steerRateDegreesPerSecond * deg * dt, remaining = Angle.wrapToPi(target - yaw)
                if abs(remaining) <= rate {
                    yaw = target; steerTarget = nil
                    if loggedTurnUnderWay { endLoggedTurn() }
                } else {
                    yaw += remaining > 0 ? rate : -rate
                }
                updateDirection()
            }
            if stepProgress >= stepUnderWay {
                stepProgress -= stepUnderWay
                if w.stepTimeCV > 0 { stepUnderWay = w.stepLength * max(0.5, 1 + w.stepTimeCV * gaitRNG.gaussian()) }
                log?.stepTimes.append(t)
                // Kallie et al.: each step's direction error (bias + variable) turns the heading;
                // positive = to the right, i.e. a smaller ψ.
                yaw -= bias + stepStd * stepRNG.gaussian()
                updateDirection()
            }
            // Open space (no walls on any floor): no floor to find. The floor's index is looked up
            // again only when the walker's height moved (stairs).
            if !wallsByFloor.isEmpty, y.bitPattern != floorWallsHeight {
                floorWallsHeight = y.bitPattern
                let floor = s.floorPlan.floor(phoneAt: y)
                if floor != floorWallsFloor {
                    floorWalls = wallsByFloor[floor].map(Unmanaged.passUnretained)
                    floorWallsFloor = floor
                    freeBox = nil
                }
            }
            let (sx, sz) = (d * dirX, d * dirZ)
            var m = (x: x + sx, z: z + sz, contact: false)
            if let walls = floorWalls, !stepIsInFreeBox(walls, dx: sx, dz: sz) {
                m = walls._withUnsafeGuaranteedRef { $0.move(x: x, z: z, dx: sx, dz: sz) }
            }
            pathLength += Double.hypot(m.x - x, m.z - z)
            x = m.x; z = m.z
            if m.contact && !inContact {
                contacts += 1
                log?.wallContacts.append((t, t))
            }
            if m.contact, let last = log?.wallContacts.indices.last { log!.wallContacts[last].end = t }
            inContact = m.contact
            if !flatRoute { updateHeight() }
        }
    }

    /// Whether the step (dx, dz) from (x, z) lies in the floor's free box, looking for a new box
    /// when it leaves the last one (at most every `freeBoxRetryTicks` ticks near a wall).
    mutating func stepIsInFreeBox(_ walls: Unmanaged<WallIndex>, dx: Double, dz: Double) -> Bool {
        if let box = freeBox, box.contains(x: x, z: z, dx: dx, dz: dz) { return true }
        freeBox = nil
        guard usesFreeBoxes else { return false }
        if freeBoxWait > 0 {
            freeBoxWait -= 1
            return false
        }
        let box = walls._withUnsafeGuaranteedRef { $0.freeBox(x: x, z: z, reach: Self.freeBoxReach) }
        guard let box, box.contains(x: x, z: z, dx: dx, dz: dz) else {
            freeBoxWait = Self.freeBoxRetryTicks
            return false
        }
        freeBox = box
        return true
    }

    /// The half side of the free boxes looked for, m, and the ticks between two looks near a wall.
    static let freeBoxReach = 0.5, freeBoxRetryTicks = 8

    /// Height of the walker: that of the nearest point of the true route (stairs), searched
    /// among the segments next to the last one so floors above do not capture the walker.
    ///
    /// The nearest is the first least `hypot` of the offsets. When the least sum of squares is
    /// below every other by more than 10⁻¹² of it, that segment is the one (the sum's relative
    /// error is under 5·10⁻¹⁶, glibc's `hypot` is within one ulp), so no `hypot` is computed;
    /// otherwise, or for sums near underflow, they decide as before (`exactHeights`).
    mutating func updateHeight() {
        let k = s.trueRoute.keypoints
        guard k.count > 1 else { return }
        let first = max(0, heightSegment - 1), last = min(k.count - 2, heightSegment + 1)
        // The walker's offset from segment i's nearest point, and that point's height.
        @inline(__always) func nearestPoint(_ i: Int) -> (ox: Double, oz: Double, height: Double) {
            let a = k[i].position, b = k[i + 1].position
            let abx = b.x - a.x, abz = b.z - a.z
            let l2 = abx * abx + abz * abz
            let f = l2 > 0 ? min(1, max(0, ((x - a.x) * abx + (z - a.z) * abz) / l2)) : 0
            return (a.x + f * abx - x, a.z + f * abz - z, a.y + f * (b.y - a.y))
        }
        var least = Double.infinity, second = Double.infinity, bestY = y, bestSeg = heightSegment, nan = false
        for i in first...last {
            let p = nearestPoint(i)
            let square = p.ox * p.ox + p.oz * p.oz
            if square < least {
                second = least; least = square; bestY = p.height; bestSeg = i
            } else if square < second {
                second = square
            } else if square.isNaN {
                nan = true
            }
        }
        if exactHeights || nan || !(least >= 1e-280 && least.isFinite && least < second * (1 - 1e-12)) {
            var best = Double.infinity
            bestY = y; bestSeg = heightSegment
            for i in first...last {
                let p = nearestPoint(i)
                let d = Double.hypot(p.ox, p.oz)
                if d < best { best = d; bestY = p.height; bestSeg = i }
            }
        }
        let old = y
        y = bestY
        heightSegment = bestSeg
        pathLength += abs(y - old)
    }

    /// Ends the logged turns still open (their rotation just finished, or was cut short).
    mutating func endLoggedTurn() {
        loggedTurnUnderWay = false
        guard log != nil else { return }
        for i in log!.turns.indices where log!.turns[i].end.isNaN { log!.turns[i].end = t }
    }

    /// The phone's estimate: VIO drift on the true motion, then registration.
    mutating func updateEstimate() {
        let now = Vector3(x, y, z)
        // A noiseless drift draws nothing (nothing reads the `vio` stream after the drift's
        // own draws): 4 normals per update were a fifth of a cane walk without VIO error.
        if drift.isNoiseless && !drawsNoiselessVIO {
            drift.advanceNoiseless(trueStep: now - vioLast, time: t)
        } else {
            drift.advance(trueStep: now - vioLast, time: t, dt: Double(vioEvery) * dt, rng: &vioRNG)
        }
        vioLast = now
        // The phone's rotation as seen (E·T_RV · R_y(ψ + drift) · tilt), computed again only when
        // ψ + drift moved: a walker walking straight keeps it between steps (the same bits).
        let seenYaw = yaw + drift.yawDrift
        if seenRotation?.yaw.bitPattern != seenYaw.bitPattern {
            seenRotation = (seenYaw, seenFromVenue.rotation * (Quaternion(yaw: seenYaw) * tilt))
        }
        // `seenFromVenue * estimated` (Pose.*) with the rotation kept.
        seen = Pose(rotation: seenRotation!.rotation, translation: seenFromVenue.rotation.act(on: drift.estimate) + seenFromVenue.translation)
        logSeen()
    }

    /// The rotation `updateEstimate` last composed, with the yaw it was composed for.
    var seenRotation: (yaw: Double, rotation: Quaternion)?

    /// A reaction time to speech from its standard normal `u`.
    func reaction(_ u: Double) -> Double { max(0, w.speechReactionSeconds + w.speechReactionStdSeconds * u) }

    /// The standard normals (reaction time, turn error) of a spoken direction: from the stream
    /// of its keypoint for an instruction, the next two of the corrections' stream otherwise.
    /// Always two per event, whatever the turn, so streams stay aligned across settings.
    mutating func draws(_ e: GuidanceEvent) -> (reaction: Double, turn: Double) {
        if e.kind == .instruction {
            var g = SeededRandom(seed: seed, label: instructionLabel + "/\(e.keypoint)")
            return (g.gaussian(), g.gaussian())
        }
        return (correctionRNG.gaussian(), correctionRNG.gaussian())
    }

    mutating func hear(_ e: GuidanceEvent, deg: Double) {
        switch e.kind {
        case .instruction, .correction:
            let c = w.commandedTurn(e, sixSectorWording: p.sixSectorWording), u = draws(e)
            pending.append((t + reaction(u.reaction), .turn(c, u.turn, e.kind == .instruction)))
            // One turn per manoeuvre: a direction heard before the last one was carried out joins it.
            if e.kind == .instruction && abs(c) > 22.5 * deg && (log?.turns.last.map { !$0.end.isNaN } ?? true) { log?.turns.append((t, .nan, c)) }
        case .pulse:
            lastPulseFelt = t
            if mode == .seeking { pending.append((t + w.hapticReactionSeconds, .stopSeeking)) }
        case .arrival:
            if !Direction.isAtTarget(Vector3(x, y, z), keypoint: e.keypoint, of: s.trueRoute, parameters: p) { falseArrivals += 1 }
        case .arrived:
            if !Direction.isAtTarget(Vector3(x, y, z), keypoint: e.keypoint, of: s.trueRoute, parameters: p) { falseArrivals += 1 }
            pending.append((t + w.hapticReactionSeconds, .stop))
        }
    }

    /// Executes the actions whose reaction time has passed, in order.
    mutating func act() {
        guard !pending.isEmpty else { return }
        let deg = Double.pi / 180
        while let i = pending.firstIndex(where: { $0.due <= t }) {
            let a = pending.remove(at: i).action
            switch a {
            case .stop:
                mode = .stopped
                stoppedAt = t
                pending.removeAll()
                return
            case .stopSeeking:
                if mode == .seeking { mode = .walking; lastPulseFelt = t; lastHeard = t }
            case .turn(let c, let u, let instruction):
                if log != nil {
                    if instruction { loggedTurnUnderWay = true } else if loggedTurnUnderWay { endLoggedTurn() }
                }
                var turn = c
                let m = abs(c)
                if m > 22.5 * deg {
                    let over: Double
                    if w.mechanisticTurns {
                        // Rotating on for the stop delay (Ahmetovic et al., PerCom 2019): rate × delay.
                        over = w.turnRateDegreesPerSecond * max(0, w.stopReactionSeconds + w.stopReactionStdSeconds * u)
                    } else {
                        let (mean, sd) =
                            m <= 60 * deg
                            ? (w.overRotationSlightDegrees, w.overRotationSlightStdDegrees)
                            : (w.overRotationAmpleDegrees, w.overRotationAmpleStdDegrees)
                        over = mean + sd * u
                    }
                    turn = (c > 0 ? 1 : -1) * max(0, m + over * deg)
                }
                turnTarget = yaw - turn
                lastHeard = t
                if w.turnRateDegreesPerSecond > 0 && abs(turn) < w.steerBelowDegrees * deg {
                    // Steered while walking: the walk goes on (a sweep for the pulse ends).
                    steerTarget = turnTarget
                    if mode != .walking { mode = .walking; lastPulseFelt = t }
                } else if w.turnRateDegreesPerSecond <= 0 {
                    yaw = turnTarget; updateDirection(); mode = .walking; lastPulseFelt = t
                    if loggedTurnUnderWay { endLoggedTurn() }
                } else {
                    mode = .turning
                    steerTarget = nil
                }
            }
        }
    }

    func outcome() -> WalkOutcome {
        let k = s.trueRoute.keypoints
        let end = k.last?.position ?? .zero
        let err = Double.hypot(x - end.x, z - end.z)
        let arrived = engine.completed
        // One pass over the events, counting by kind (no filtered copies of them).
        var arrivals = Set<Int>()
        var instructions = 0, corrections = 0, pulses = 0
        for e in engine.events {
            switch e.kind {
            case .arrival, .arrived: arrivals.insert(e.keypoint)
            case .instruction: instructions += 1
            case .correction: corrections += 1
            case .pulse: pulses += 1
            }
        }
        let missed = trueReached.indices.filter { trueReached[$0] && !arrivals.contains($0) }.count
        let length = s.trueRoute.length
        let success = arrived && !lost && err <= WalkOutcome.successRadius
        let elapsed = t - engine.start
        var sample = deviations
        let p95 = sample.isEmpty ? Double.nan : Statistics.quantilesBySelection(&sample, [0.95])[0]
        let spacing = WalkOutcome.fidelitySpacing
        let ndtw = normalizedDynamicTimeWarping(
            walk: resampledByArcLength(trail, spacing: spacing), route: resampledByArcLength(k.map(\.position), spacing: spacing),
            threshold: WalkOutcome.fidelityThreshold)
        return WalkOutcome(
            run: 0, success: success, success_1m: arrived && !lost && err <= 1, arrived: arrived, lost: lost,
            end_of_route_error: err, completion: k.isEmpty ? 0 : Double(arrivals.count) / Double(k.count),
            path_length_ratio: length > 0 ? pathLength / length : .nan,
            time_to_complete: engine.arrivedAt.map { $0 - engine.start },
            instructions: instructions, corrections: corrections, pulses: pulses,
            wall_contacts: contacts, false_arrivals: falseArrivals, missed_arrivals: missed,
            spl: success ? length / max(pathLength, length) : 0,
            ppws: elapsed > 0 && w.speed > 0 ? 100 * (pathLength / elapsed) / w.speed : .nan,
            route_deviation_mean: deviations.isEmpty ? .nan : deviations.reduce(0, +) / Double(deviations.count),
            route_deviation_p95: p95, ndtw: ndtw, sdtw: success ? ndtw : 0)
    }
}

/// Many walkers on one scenario with one setting: per-run outcomes and their aggregate.
public struct ClosedLoopResult: Sendable {
    public var outcomes: [WalkOutcome]
    /// True paths of the first `samplePaths` runs.
    public var samplePaths: [[Vector3]]
    public var aggregate: ClosedLoopAggregate
}

/// Aggregate of closed-loop runs: the success rate with its Wilson 95 % interval
/// (NavStatistics' `WilsonInterval`, as statsmodels) and the mean end-of-route error with its
/// Student t 95 % interval (`StudentTInterval`, as scipy).
public struct ClosedLoopAggregate: Sendable, Equatable, Codable {
    public var runs: Int
    public var success_rate: Double
    public var success_rate_ci95: [Double]
    public var success_rate_1m: Double
    public var arrived_rate: Double
    public var lost_rate: Double
    public var end_of_route_error: Double
    public var end_of_route_error_ci95: [Double]
    public var end_of_route_error_median: Double
    public var completion: Double
    public var path_length_ratio: Double
    public var time_to_complete: Double?
    public var corrections: Double
    public var pulses: Double
    public var wall_contacts: Double
    public var false_arrivals: Double
    public var missed_arrivals: Double
    /// Means over walkers of the field's outcome measures (`WalkOutcome`), SPL, PPWS and the mean
    /// route deviation with their Student t 95 % intervals.
    public var spl: Double
    public var spl_ci95: [Double]
    public var ppws: Double
    public var ppws_ci95: [Double]
    public var route_deviation_mean: Double
    public var route_deviation_mean_ci95: [Double]
    public var route_deviation_p95: Double
    /// Means over walkers of nDTW and SDTW with their Student t 95 % intervals.
    public var ndtw: Double
    public var ndtw_ci95: [Double]
    public var sdtw: Double
    public var sdtw_ci95: [Double]

    public init(_ o: [WalkOutcome]) {
        let n = Double(o.count)
        let mean = Statistics.mean
        /// The t interval; one walker's error is its own interval (no spread to estimate).
        func ci(_ xs: [Double]) -> [Double] {
            guard xs.count > 1 else { let m = mean(xs); return [m, m] }
            let t = StudentTInterval(xs)
            return [t.low, t.high]
        }
        runs = o.count
        let successes = o.filter(\.success).count
        success_rate = n > 0 ? Double(successes) / n : .nan
        let wilson = WilsonInterval(successes: successes, trials: o.count)
        success_rate_ci95 = [wilson.low, wilson.high]
        success_rate_1m = n > 0 ? Double(o.filter(\.success_1m).count) / n : .nan
        arrived_rate = n > 0 ? Double(o.filter(\.arrived).count) / n : .nan
        lost_rate = n > 0 ? Double(o.filter(\.lost).count) / n : .nan
        let errors = o.map(\.end_of_route_error)
        end_of_route_error = mean(errors)
        end_of_route_error_ci95 = ci(errors)
        let sorted = errors.sorted()
        end_of_route_error_median =
            sorted.isEmpty
            ? .nan
            : sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        completion = mean(o.map(\.completion))
        path_length_ratio = mean(o.map(\.path_length_ratio))
        let times = o.compactMap(\.time_to_complete)
        time_to_complete = times.isEmpty ? nil : mean(times)
        corrections = mean(o.map { Double($0.corrections) })
        pulses = mean(o.map { Double($0.pulses) })
        wall_contacts = mean(o.map { Double($0.wall_contacts) })
        false_arrivals = mean(o.map { Double($0.false_arrivals) })
        missed_arrivals = mean(o.map { Double($0.missed_arrivals) })
        let spls = o.map(\.spl), speeds = o.map(\.ppws).filter(\.isFinite)
        let deviations = o.map(\.route_deviation_mean).filter(\.isFinite)
        spl = mean(spls)
        spl_ci95 = ci(spls)
        ppws = mean(speeds)
        ppws_ci95 = ci(speeds)
        route_deviation_mean = mean(deviations)
        route_deviation_mean_ci95 = ci(deviations)
        route_deviation_p95 = mean(o.map(\.route_deviation_p95).filter(\.isFinite))
        let fidelity = o.map(\.ndtw).filter(\.isFinite), successful = o.map(\.sdtw).filter(\.isFinite)
        ndtw = mean(fidelity)
        ndtw_ci95 = ci(fidelity)
        sdtw = mean(successful)
        sdtw_ci95 = ci(successful)
    }
}

/// Runs `runs` walkers (run indices 0..<runs) and aggregates them.
///
/// - Complexity: O(runs · duration / hapticInterval · (1 + walls near each step)) (`WallIndex`).
public func simulateWalks(
    _ s: ClosedLoopScenario, settings: ClosedLoopSettings, seed: UInt64, runs: Int,
    samplePaths: Int = 0
) -> ClosedLoopResult {
    var outcomes: [WalkOutcome] = [], paths: [[Vector3]] = []
    let walls = WallIndex.byFloor(s.floorPlan)
    for r in 0..<max(0, runs) {
        let trace = simulateWalk(s, walls: walls, settings: settings, seed: seed, run: r, recordPath: r < samplePaths)
        var o = trace.outcome
        o.run = r
        outcomes.append(o)
        if r < samplePaths { paths.append(trace.path) }
    }
    return ClosedLoopResult(outcomes: outcomes, samplePaths: paths, aggregate: ClosedLoopAggregate(outcomes))
}

extension NavigatorProfile {
    /// The turn this walker makes on hearing a spoken direction, radians, positive = right,
    /// before its turn error (`overRotation…`, turns over 22.5°): the event's exact angle when
    /// `exactAngles`; otherwise the spoken hour (30° each, 6 o'clock = 180°) or sector
    /// (`sixSectorWording`) of an instruction, and `bearDegrees` toward the side of a correction.
    /// Zero for events that are not spoken directions.
    public func commandedTurn(_ e: GuidanceEvent, sixSectorWording: Bool) -> Double {
        let deg = Double.pi / 180
        switch e.kind {
        case .instruction:
            if exactAngles { return e.angle ?? 0 }
            if sixSectorWording { return [0, 0, 45, 90, 180, -90, -45][max(0, min(6, e.sector ?? 1))] * deg }
            let h = (e.hour ?? 12) % 12
            return (h <= 6 ? Double(h) : Double(h - 12)) * 30 * deg
        case .correction:
            return exactAngles ? (e.angle ?? 0) : ((e.angle ?? 0) > 0 ? 1 : -1) * bearDegrees * deg
        case .arrival, .pulse, .arrived:
            return 0
        }
    }
}
