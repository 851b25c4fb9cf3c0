import Foundation
import NavCore
import RealModule

/// A generated session with its suggested file name.
public struct SynthesizedSession: Sendable {
    public var fileName: String
    public var session: Session
}

/// Generates the synthetic venue: for every route one recording session and
/// `navigationSessionsPerRoute` navigation sessions, each with ground truth.
///
/// Deterministic: the same seed and parameters give the same sessions, bit for bit,
/// on every platform (SplitMix64 streams named per session; no unordered iteration).
///
/// - Parameter floorPlan: the venue's walls (the building venue): navigation sessions then walk
///   their own line bounded by them (`SynthParameters.navigationLineStd`).
public func synthesizeVenue(
    seed: UInt64, parameters p: SynthParameters = SynthParameters(),
    routes: [SynthRoute] = SynthRoute.venueRoutes, floorPlan: FloorPlan? = nil
) -> [SynthesizedSession] {
    var out: [SynthesizedSession] = []
    for (routeIndex, route) in routes.enumerated() {
        let kinds: [(SessionKind, String)] =
            [(.recording, "recording")]
            + (1...max(1, p.navigationSessionsPerRoute)).map { (.navigation, "nav\($0)") }
        for (kind, label) in kinds {
            let id = "\(route.id)_\(label)"
            var rng = SeededRandom(seed: seed, label: id)
            let s = synthesizeSession(
                id: id, kind: kind, route: route, anchorID: Int32(routeIndex),
                seed: seed, parameters: p, floorPlan: floorPlan, rng: &rng)
            out.append(SynthesizedSession(fileName: id + ".h5", session: s))
        }
    }
    return out
}

/// Canonical JSON of the parameters, as stored in each file's `generator` attribute.
public func generatorJSON(seed: UInt64, parameters: SynthParameters, route: SynthRoute) -> String {
    struct Stamp: Encodable {
        var generator = "navbench synth"
        var seed: UInt64
        var parameters: SynthParameters
        var route_waypoints: [[Double]]
        var route_pauses: [SynthPause]?
        var route_speed_changes: [SynthSpeedChange]?
    }
    let enc = JSONEncoder()
    enc.outputFormatting = [.sortedKeys]
    let stamp = Stamp(
        seed: seed, parameters: parameters, route_waypoints: route.waypoints.map { [$0.x, $0.y, $0.z] },
        route_pauses: route.pauses.isEmpty ? nil : route.pauses,
        route_speed_changes: route.speedChanges.isEmpty ? nil : route.speedChanges)
    return String(decoding: (try? enc.encode(stamp)) ?? Data(), as: UTF8.self)
}

// MARK: - One session

/// Pose of the anchor of a route in the venue frame: on a wall 1 m ahead of the
/// start at 1.2 m height, facing back toward the start (its +z toward the walker).
public func anchorPose(of route: SynthRoute) -> Pose {
    let a = route.waypoints[0], b = route.waypoints[1]
    var d = b - a; d.y = 0; d /= d.norm
    let yaw = Double.atan2(y: -d.x, x: -d.z) + .pi  // +z of the anchor points back at the walker
    return Pose(rotation: Quaternion(yaw: yaw), translation: a + d + Vector3(0, 1.2, 0))
}

func synthesizeSession(
    id: String, kind: SessionKind, route: SynthRoute, anchorID: Int32, seed: UInt64,
    parameters p: SynthParameters, floorPlan: FloorPlan? = nil, rng: inout SeededRandom
) -> Session {
    let dt = 1 / p.imuRate
    let speed = rng.uniform(p.walkingSpeedRange[0], p.walkingSpeedRange[1])
    let cadence = rng.uniform(p.cadenceRange[0], p.cadenceRange[1])
    let lateralStd = kind == .recording ? p.lateralStdRecording : p.lateralStdNavigation

    // Centre line by arc length.
    let wp = route.waypoints
    var cumulative = [0.0]
    for i in 1..<wp.count { cumulative.append(cumulative[i - 1] + (wp[i] - wp[i - 1]).norm) }
    let length = cumulative.last!
    func centre(_ s: Double) -> (Vector3, Vector3) {
        var k = 1
        while k < wp.count - 1 && cumulative[k] < s { k += 1 }
        let seg = wp[k] - wp[k - 1]
        let f = min(1, max(0, (s - cumulative[k - 1]) / (cumulative[k] - cumulative[k - 1])))
        var dir = seg; dir.y = 0
        return (wp[k - 1] + f * seg, dir / dir.norm)
    }

    // 1. Arc length over time: stand, walk (1 s ramp), stand.
    var sAlong: [Double] = [], walking: [Bool] = []
    var s = 0.0, t = 0.0
    let rampSeconds = 1.0
    var walkStart = -1.0
    var pauseUntil = -1.0, nextPause = 0
    while true {
        if t < p.standStartSeconds || s >= length || t < pauseUntil {
            walking.append(false)
        } else {
            if walkStart < 0 { walkStart = t }
            let ramp = min(1, (t - walkStart) / rampSeconds)
            let v = route.speedChanges.isEmpty ? speed : speed * route.speedFactor(at: s)
            s = min(length, s + v * ramp * (1 + 0.08 * Double.sin(2 * .pi * cadence * t)) * dt)
            walking.append(true)
            if nextPause < route.pauses.count && s >= route.pauses[nextPause].at {
                // Stand, then start again with the same 1 s ramp.
                pauseUntil = t + route.pauses[nextPause].seconds
                walkStart = pauseUntil
                nextPause += 1
            }
        }
        sAlong.append(s)
        t += dt
        if s >= length {
            let endStand = Int((p.standEndSeconds * p.imuRate).rounded())
            for _ in 0..<endStand { sAlong.append(length); walking.append(false) }
            break
        }
    }
    let n = sAlong.count
    let times = (0..<n).map { Double($0) * dt }

    // 2. Positions: centre line + lateral wander, corners rounded, bob while walking.
    let a = Double.exp(-dt / p.lateralTimeConstant)
    var lateral = rng.gaussian() * lateralStd * 0.5
    var raw: [Vector3] = []
    raw.reserveCapacity(n)
    // A walker's own line (navigation sessions in a floor plan; the recording too where
    // `recordingLineStd` is set): its own random stream, so the other draws of the session do not move.
    let lineStd = kind == .navigation ? p.navigationLineStd : p.recordingLineStd
    let ownLine = floorPlan.flatMap { plan in
        lineStd.map {
            NavigatorLine(
                plan: plan, centre: centre, length: length, std: $0,
                timeConstant: p.navigationLineTimeConstant ?? 8,
                margin: p.navigationWallMargin ?? 0.4, dt: dt,
                rng: SeededRandom(seed: seed, label: id + "/line"))
        }
    }
    var line = ownLine
    for i in 0..<n {
        // The wander evolves only while walking, so a standing walker stands still.
        if walking[i] { lateral = a * lateral + rng.gaussian() * lateralStd * (1 - a * a).squareRoot() }
        let (c, d) = centre(sAlong[i])
        let offset = line == nil ? lateral : line!.offset(adding: lateral, at: sAlong[i], walking: walking[i])
        raw.append(c + offset * Vector3(-d.z, 0, d.x))
    }
    let half = Int(p.cornerSmoothingSeconds * p.imuRate / 2)
    // Two passes of a boxcar (a triangular kernel) keep velocity continuous, so the
    // accelerometer sees bounded accelerations at corners and from the wander.
    var position = movingAverage(movingAverage(raw, halfWidth: half), halfWidth: half)
    let envelope = movingAverage(movingAverage(walking.map { Vector3($0 ? 1 : 0, 0, 0) }, halfWidth: 25), halfWidth: 25).map(\.x)
    var bobPhase = 0.0
    for i in 0..<n {
        bobPhase += 2 * .pi * cadence * dt  // runs always; the smooth envelope switches the bob on and off
        position[i].y += 1.3 + envelope[i] * p.bobAmplitude * Double.sin(bobPhase)  // phone held 1.3 m above the floor
    }

    // 3. Orientation: yaw from travel direction, sway, pitch (with lowered-phone episodes).
    var yaw = [Double](repeating: 0, count: n)
    let (_, d0) = centre(0)
    var lastYaw = Double.atan2(y: -d0.x, x: -d0.z)
    for i in 0..<n {
        let j = min(n - 1, i + 5), k = max(0, i - 5)
        let v = position[j] - position[k]
        if Double.hypot(v.x, v.z) > 0.02 {
            // Turn toward the travel direction with a 0.25 s lag (wrapped), never jump.
            let target = Double.atan2(y: -v.x, x: -v.z)
            lastYaw += Angle.wrapToPi(target - lastYaw) * (1 - Double.exp(-dt / 0.25))
        }
        yaw[i] = lastYaw
    }
    let episodes = Int(rng.uniform() * Double(p.lowerPhoneEpisodesMax + 1))
    var lowered = [Bool](repeating: false, count: n)
    for _ in 0..<episodes {
        let start = Int(rng.uniform(p.standStartSeconds + 3, max(p.standStartSeconds + 4, times[n - 1] - 4)) * p.imuRate)
        let len = Int(p.lowerPhoneSeconds * p.imuRate)
        for i in max(0, start)..<min(n, start + len) { lowered[i] = true }
    }
    var pitch = [Double](repeating: p.holdPitchDegrees * .pi / 180, count: n)
    let target = lowered.map { $0 ? p.lowerPhonePitchDegrees * .pi / 180 : p.holdPitchDegrees * .pi / 180 }
    for i in 1..<n { pitch[i] = pitch[i - 1] + (target[i] - pitch[i - 1]) * (1 - Double.exp(-dt / 0.5)) }
    var orientation: [Quaternion] = []
    orientation.reserveCapacity(n)
    let portraitRoll = Quaternion(axis: Vector3(0, 0, 1), angle: -.pi / 2)
    var sway = 0.0
    for i in 0..<n {
        if walking[i] { sway += .pi * cadence * dt }
        let swayYaw = walking[i] ? 0.03 * Double.sin(sway) : 0
        // ARKit's camera frame is fixed to the device's landscape orientation: with the phone
        // held in portrait its +x axis runs along the long axis toward the bottom edge, −z out
        // of the back camera. Hence the final −90° roll about the viewing axis.
        let q =
            Quaternion(yaw: Angle.wrapToPi(yaw[i] + swayYaw)) * Quaternion(axis: Vector3(1, 0, 0), angle: pitch[i])
            * portraitRoll
        orientation.append(q.normalized)
    }
    let truth = zip(orientation, position).map { Pose(rotation: $0, translation: $1) }

    // 4. IMU from the truth: specific force and body rate in the device frame.
    let g = Vector3(0, 9.80665, 0)
    let gyroBias = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * p.gyroscopeBiasStd
    let attitudeYawRef = rng.uniform(-.pi, .pi)
    let earth = Vector3(0, -p.earthFieldVertical, -p.earthFieldHorizontal)
    var accel: [Vector3] = [], gyro: [Vector3] = [], attitude: [Quaternion] = [], mag: [Vector3] = []
    for i in 0..<n {
        let ip = max(1, min(n - 2, i))
        let acc = (position[ip + 1] - 2 * position[ip] + position[ip - 1]) / (dt * dt)
        let q = orientation[i]
        accel.append(q.conjugate.act(on: acc + g) + gaussian3(&rng, p.accelerometerNoiseStd))
        let qa = orientation[max(0, i - 1)], qb = orientation[min(n - 1, i + 1)]
        var rel = qa.conjugate * qb
        if rel.w < 0 { rel = Quaternion(x: -rel.x, y: -rel.y, z: -rel.z, w: -rel.w) }
        let span = Double(min(n - 1, i + 1) - max(0, i - 1)) * dt
        gyro.append(2 * Vector3(rel.x, rel.y, rel.z) / span + gyroBias + gaussian3(&rng, p.gyroscopeNoiseStd))
        let noise = Quaternion(
            axis: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()),
            angle: p.attitudeNoiseDegrees * .pi / 180 * abs(rng.gaussian()))
        attitude.append((Quaternion(yaw: attitudeYawRef) * q * noise).normalized)
        mag.append(q.conjugate.act(on: earth + disturbance(at: position[i], p)) + gaussian3(&rng, p.magnetometerNoiseStd))
    }
    let imu = IMUStream(timestamps: times, accelerometer: accel, gyroscope: gyro, attitude: attitude, magnetometer: mag)

    // 5. Compass: true heading, deflected by disturbances, noisy, flipped past the critical pitch.
    let compassStep = Int(p.imuRate / p.compassRate)
    var ct: [Double] = [], heading: [Double] = [], accuracy: [Double] = []
    for i in stride(from: 0, to: n, by: compassStep) {
        let f = orientation[i].act(on: Vector3(0, 0, -1))
        let trueHeading = Double.atan2(y: f.x, x: -f.z)
        let field = earth + disturbance(at: position[i], p)
        let deflection = Double.atan2(y: field.x, x: -field.z)  // where the needle points, east of true north
        var h = trueHeading - deflection + rng.gaussian() * p.compassNoiseDegrees * .pi / 180
        if abs(pitch[i]) * 180 / .pi > p.criticalPitchDegrees { h += .pi }
        ct.append(times[i])
        heading.append(Angle(radians: h).compassDegrees)
        accuracy.append((abs(deflection) * 180 / .pi > 5 ? 20 : 5) + abs(rng.gaussian()) * 2)
    }
    let compass = CompassStream(timestamps: ct, heading: heading, accuracy: accuracy)

    // 6. VIO in the session frame N (origin and yaw of the phone at start), with drift.
    let startPose = Pose(rotation: Quaternion(yaw: orientation[0].yaw), translation: position[0])
    let toN = startPose.inverse
    let vioStep = Int(p.imuRate / p.vioRate)
    var drift = VIODrift(
        spec: VIOErrorSpec(synth: p), start: .zero,
        lossWindow: (p.standStartSeconds + 2, max(p.standStartSeconds + 3, times[n - 1] - 4)), rng: &rng)
    var vt: [Double] = [], vposes: [Pose] = [], vstate: [TrackingState] = []
    var previousTrue = (toN * truth[0]).translation
    let vdt = Double(vioStep) * dt
    var estimateAtIMU = [Pose](repeating: .identity, count: n)  // estimated pose held between VIO ticks
    for i in stride(from: 0, to: n, by: vioStep) {
        let tn = toN * truth[i]
        let step = tn.translation - previousTrue
        previousTrue = tn.translation
        let lost = drift.advance(trueStep: step, time: times[i], dt: vdt, rng: &rng)
        let yawDrift = drift.yawDrift, estimate = drift.estimate
        let noise = Quaternion(
            axis: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()),
            angle: p.vioOrientationNoiseDegrees * .pi / 180 * abs(rng.gaussian()))
        let pose = Pose(rotation: (Quaternion(yaw: yawDrift) * tn.rotation * noise).normalized, translation: estimate)
        vt.append(times[i]); vposes.append(pose)
        vstate.append(lost || times[i] < 0.3 ? .limited : .normal)
        for j in i..<min(n, i + vioStep) { estimateAtIMU[j] = pose }
    }
    let vio = VIOStream(timestamps: vt, poses: vposes, trackingState: vstate)

    // 7. Anchor sightings while standing at the start: T_NA = T_N,dev(est) · T_V,dev⁻¹ · T_VA · noise.
    let anchorInVenue = anchorPose(of: route)
    let anchorStep = Int(p.imuRate / p.anchorSightingRate)
    var at: [Double] = [], aid: [Int32] = [], aposes: [Pose] = []
    for i in stride(from: Int(0.5 * p.imuRate), to: Int((p.standStartSeconds - 0.5) * p.imuRate), by: anchorStep) {
        guard rng.bernoulli(p.anchorDetectionProbability) else { continue }
        let noise = anchorSightingNoise(&rng, rotationDegrees: p.anchorRotationNoiseDegrees, positionStd: p.anchorPositionNoiseStd)
        var pose = estimateAtIMU[i] * truth[i].inverse * anchorInVenue * noise
        pose.rotation = pose.rotation.normalized
        at.append(times[i]); aid.append(anchorID); aposes.append(pose)
    }
    let anchors = AnchorStream(timestamps: at, anchorID: aid, poses: aposes)

    // 8. BLE scans: log-distance path loss, shadowing (OU per beacon), fading, misses.
    let beacons = p.beaconPositions.enumerated().map { k, b in
        Beacon(uuid: p.beaconUUID, major: 1, minor: Int32(k + 1), position: Vector3(b[0], b[1], b[2]))
    }
    let bleStep = Int(p.imuRate / p.bleScanRate)
    var shadow = beacons.map { _ in rng.gaussian() * p.shadowingStd }
    let sa = Double.exp(-1 / p.bleScanRate / p.shadowingTimeConstant)
    var bt: [Double] = [], bidx: [Int32] = [], brssi: [Double] = []
    for i in stride(from: 0, to: n, by: bleStep) {
        for (k, b) in beacons.enumerated() {
            shadow[k] = sa * shadow[k] + rng.gaussian() * p.shadowingStd * (1 - sa * sa).squareRoot()
            let d = max(0.1, (b.position! - position[i]).norm)
            let rssi =
                (p.rssiAtOneMetre - 10 * p.pathLossExponent * Double.log10(d) + shadow[k]
                + rng.gaussian() * p.fastFadingStd).rounded()
            let missed = rng.bernoulli(p.missedScanProbability)
            if missed || rssi < p.bleSensitivity { continue }
            bt.append(times[i]); bidx.append(Int32(k)); brssi.append(rssi)
        }
    }
    let ble = BLEStream(timestamps: bt, beaconIndex: bidx, rssi: brssi, beacons: beacons)

    // 9. Location fixes with floor numbers.
    let locStep = Int(p.imuRate / p.locationRate)
    let metresPerDegreeLat = 111_320.0
    let metresPerDegreeLon = 111_320.0 * Double.cos(p.originLatitude * .pi / 180)
    var lt: [Double] = [], lat: [Double] = [], lon: [Double] = [], alt: [Double] = [], acc: [Double] = [], fl: [Int32] = []
    func floorOf(_ y: Double) -> Int32 { Int32((y / p.floorHeight).rounded()) }  // nearest storey
    for i in stride(from: 0, to: n, by: locStep) {
        let east = position[i].x + rng.gaussian() * p.locationNoiseStd
        let north = -position[i].z + rng.gaussian() * p.locationNoiseStd
        lt.append(times[i])
        lat.append(p.originLatitude + north / metresPerDegreeLat)
        lon.append(p.originLongitude + east / metresPerDegreeLon)
        alt.append(p.originAltitude + position[i].y + rng.gaussian() * p.altitudeNoiseStd)
        acc.append(p.locationNoiseStd * 2.5 + abs(rng.gaussian()))
        var f = floorOf(position[i].y - 1.3)
        if rng.bernoulli(p.floorErrorProbability) { f += rng.bernoulli(0.5) ? 1 : -1 }
        fl.append(f)
    }
    let location = LocationStream(
        timestamps: lt, latitude: lat, longitude: lon, altitude: alt,
        horizontalAccuracy: acc, floor: fl)

    // 10. Ground truth in the venue frame.
    let gtStep = Int(p.imuRate / p.groundTruthRate)
    let gtIdx = Array(stride(from: 0, to: n, by: gtStep))
    let groundTruth = GroundTruthStream(
        timestamps: gtIdx.map { times[$0] }, poses: gtIdx.map { truth[$0] },
        floor: gtIdx.map { floorOf(position[$0].y - 1.3) })

    let metadata = SessionMetadata(
        kind: kind, sessionID: id, routeID: route.id, venue: p.venue,
        device: "synthetic phone (navbench synth)",
        generator: generatorJSON(seed: seed, parameters: p, route: route))
    return Session(
        metadata: metadata, imu: imu, compass: compass, ble: ble, vio: vio, anchors: anchors,
        location: location, groundTruth: groundTruth)
}

/// The error of one anchor sighting, applied on the right of the true T_NA (the synthesised
/// sessions' sightings and the closed loop's simulated registration, `SimulatedRegistration`):
/// a rotation about a uniformly random axis by `rotationDegrees` · |z| and a translation
/// N(0, `positionStd`²) per axis, drawn in that order (7 standard normals).
public func anchorSightingNoise(_ rng: inout SeededRandom, rotationDegrees: Double, positionStd: Double) -> Pose {
    Pose(
        rotation: Quaternion(
            axis: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()), angle: rotationDegrees * .pi / 180 * abs(rng.gaussian())),
        translation: gaussian3(&rng, positionStd))
}

private func gaussian3(_ rng: inout SeededRandom, _ std: Double) -> Vector3 {
    Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * std
}

/// Disturbance field at `p`: each spot adds a field of the given strength at 1 m, falling off
/// as 1/r³ (a dipole's magnitude), pointing east–west so that it deflects the compass.
func disturbance(at p: Vector3, _ params: SynthParameters) -> Vector3 {
    var b = Vector3.zero
    for d in params.disturbances {
        let r = max(0.5, Double.hypot(p.x - d[0], p.z - d[1]))
        b += Vector3(d[2] / (r * r * r), 0, 0)
    }
    return b
}

/// Centred moving average with edge replication; window 2·halfWidth + 1.
///
/// - Complexity: O(n) (running sum).
func movingAverage(_ x: [Vector3], halfWidth: Int) -> [Vector3] {
    guard halfWidth > 0, !x.isEmpty else { return x }
    let n = x.count, w = 2 * halfWidth + 1
    func at(_ i: Int) -> Vector3 { x[min(n - 1, max(0, i))] }
    var sum = Vector3.zero
    for i in -halfWidth...halfWidth { sum += at(i) }
    var out = [Vector3](repeating: .zero, count: n)
    for i in 0..<n {
        out[i] = sum / Double(w)
        sum += at(i + halfWidth + 1) - at(i - halfWidth)
    }
    return out
}
