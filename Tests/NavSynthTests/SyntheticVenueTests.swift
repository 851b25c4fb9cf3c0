import Foundation
import NavCore
import NavSynth
import Testing

/// Physical checks of the generator against closed forms and the documented parameters.
@Suite struct SyntheticVenueTests {
    static let sessions = synthesizeVenue(seed: 2024)
    let p = SynthParameters()

    @Test func venueLayout() {
        #expect(Self.sessions.count == SynthRoute.venueRoutes.count * 4)
        for route in SynthRoute.venueRoutes {
            let mine = Self.sessions.filter { $0.session.metadata.routeID == route.id }
            #expect(mine.filter { $0.session.metadata.kind == .recording }.count == 1)
            #expect(mine.filter { $0.session.metadata.kind == .navigation }.count == 3)
        }
    }

    @Test func deterministic() {
        let again = synthesizeVenue(seed: 2024)
        for (a, b) in zip(Self.sessions, again) {
            #expect(a.session.imu?.accelerometer == b.session.imu?.accelerometer)
            #expect(a.session.vio?.poses == b.session.vio?.poses)
            #expect(a.session.ble?.rssi == b.session.ble?.rssi)
        }
        #expect(synthesizeVenue(seed: 2025)[0].session.imu?.accelerometer != Self.sessions[0].session.imu?.accelerometer)
    }

    @Test func timeAxesAreValid() throws {
        for s in Self.sessions.map(\.session) {
            try validateTimestamps(s.imu!.timestamps)
            try validateTimestamps(s.vio!.timestamps)
            try validateTimestamps(s.groundTruth!.timestamps)
            try validateTimestamps(s.ble!.timestamps, order: .nonDecreasing)
        }
    }

    /// Mean horizontal speed while walking lies in the documented 1.0–1.4 m/s (±10 % for wander).
    @Test func walkingSpeed() throws {
        for s in Self.sessions.map(\.session) {
            let gt = s.groundTruth!
            var distance = 0.0, time = 0.0
            for i in 1..<gt.poses.count {
                let step = gt.poses[i].translation - gt.poses[i - 1].translation
                let dt = gt.timestamps[i] - gt.timestamps[i - 1]
                if step.horizontalNorm / dt > 0.5 { distance += step.horizontalNorm; time += dt }
            }
            let speed = distance / time
            #expect(speed > 0.9 && speed < 1.55, "\(s.metadata.sessionID): \(speed) m/s")
        }
    }

    /// The step cadence (1.8–2 Hz) is the strongest frequency of the vertical specific force
    /// while walking: a direct DFT scan from 0.5 to 5 Hz in 0.01 Hz steps.
    @Test func cadenceVisibleInAccelerometer() {
        for s in Self.sessions.prefix(4).map(\.session) {
            let imu = s.imu!
            let start = Int(p.standStartSeconds * p.imuRate) + 200
            let end = imu.timestamps.count - Int(p.standEndSeconds * p.imuRate) - 100
            let magnitude = imu.accelerometer[start..<end].map(\.norm)
            let mean = magnitude.reduce(0, +) / Double(magnitude.count)
            var best = (f: 0.0, power: 0.0)
            for k in 50...500 {
                let f = Double(k) / 100
                var re = 0.0, im = 0.0
                for (i, x) in magnitude.enumerated() {
                    let phase = 2 * Double.pi * f * Double(i) / p.imuRate
                    re += (x - mean) * cos(phase); im += (x - mean) * sin(phase)
                }
                if re * re + im * im > best.power { best = (f, re * re + im * im) }
            }
            #expect(best.f >= 1.75 && best.f <= 2.05, "\(s.metadata.sessionID): \(best.f) Hz")
        }
    }

    @Test func staircaseClimbsOneFloor() throws {
        let stairs = Self.sessions.first { $0.session.metadata.routeID == "R3-stairs" }!.session
        let y = stairs.groundTruth!.poses.map(\.translation.y)
        #expect(y.max()! - y.min()! > 3.0)
        #expect(stairs.groundTruth!.floor!.first == 0)
        #expect(stairs.groundTruth!.floor!.last == 1)
    }

    /// Anchor model: T_VN = T_VA · T_NA⁻¹ from the first sighting maps the VIO pose at that
    /// time onto the true pose (up to detection noise and the drift accumulated so far).
    @Test func anchorSightingsRegisterTheSession() throws {
        for (index, route) in SynthRoute.venueRoutes.enumerated() {
            for s in Self.sessions.map(\.session) where s.metadata.routeID == route.id {
                let anchors = s.anchors!
                #expect(!anchors.poses.isEmpty)
                #expect(anchors.anchorID.allSatisfy { $0 == Int32(index) })
                let t = anchors.timestamps[0]
                let T_VN = anchorPose(of: route) * anchors.poses[0].inverse
                let vioIndex = s.vio!.timestamps.lastIndex { $0 <= t }!
                let gtIndex = s.groundTruth!.timestamps.firstIndex { $0 >= t }!
                let mapped = T_VN.act(on: s.vio!.poses[vioIndex].translation)
                let truth = s.groundTruth!.poses[gtIndex].translation
                #expect((mapped - truth).norm < 0.1, "\(s.metadata.sessionID): \((mapped - truth).norm) m")
            }
        }
    }

    /// VIO drifts: its path differs from the truth's, but by a few per cent at most.
    @Test func vioDriftsModestly() throws {
        var relative: [Double] = []
        for s in Self.sessions.map(\.session) {
            let vioLength = try Trajectory(timestamps: s.vio!.timestamps, poses: s.vio!.poses).pathLength
            let gtLength = try s.groundTruth!.trajectory.pathLength
            relative.append(abs(vioLength - gtLength) / gtLength)
        }
        #expect(relative.max()! < 0.15)
        #expect(relative.contains { $0 > 0.003 })
        #expect(Self.sessions.contains { $0.session.vio!.trackingState.contains(.limited) })
    }

    /// Past the critical pitch the compass reports the opposite heading; otherwise it is close
    /// to the truth away from disturbances.
    @Test func compassFlipsAtCriticalPitch() throws {
        var flipped = 0, checked = 0
        for s in Self.sessions.map(\.session) {
            let c = s.compass!, gt = s.groundTruth!
            for (i, t) in c.timestamps.enumerated() {
                let j = Int((t * p.groundTruthRate).rounded())
                let q = gt.poses[min(j, gt.poses.count - 1)].rotation
                let f = q.act(on: Vector3(0, 0, -1))
                let pitch = asin(max(-1, min(1, f.y))) * 180 / .pi
                let trueHeading = atan2(f.x, -f.z) * 180 / .pi
                let error = abs(Angle(degrees: c.heading[i] - trueHeading).wrappedToPi.degrees)
                guard c.accuracy![i] < 10 else { continue }  // disturbed samples deflect by tens of degrees
                if abs(pitch) > p.criticalPitchDegrees + 2 {
                    flipped += 1; #expect(error > 155)
                } else if abs(pitch) < p.criticalPitchDegrees - 2 {
                    checked += 1; #expect(error < 25)
                }
            }
        }
        #expect(flipped > 0)
        #expect(checked > 100)
    }

    /// RSSI against log10(true distance): least-squares slope ≈ −10·n (n = 2), intercept ≈ RSSI(1 m).
    @Test func bleFollowsLogDistance() {
        var xs: [Double] = [], ys: [Double] = []
        for s in Self.sessions.map(\.session) {
            let ble = s.ble!, gt = s.groundTruth!
            for i in ble.rssi.indices {
                let j = Int((ble.timestamps[i] * p.groundTruthRate).rounded())
                let d = (ble.beacons[Int(ble.beaconIndex[i])].position! - gt.poses[j].translation).norm
                xs.append(log10(max(0.1, d))); ys.append(ble.rssi[i])
            }
        }
        let n = Double(xs.count)
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for (x, y) in zip(xs, ys) { sxy += (x - mx) * (y - my); sxx += (x - mx) * (x - mx) }
        let slope = sxy / sxx
        // Sensitivity censoring flattens the far end a little: allow ±4 dB/decade.
        #expect(abs(slope - (-10 * p.pathLossExponent)) < 4, "slope \(slope)")
        #expect(abs((my - slope * mx) - p.rssiAtOneMetre) < 5)
        #expect(ys.allSatisfy { $0 == $0.rounded() && $0 >= p.bleSensitivity })
    }

    @Test func locationFixesCarryFloors() {
        let stairs = Self.sessions.first { $0.session.metadata.routeID == "R3-stairs" }!.session
        let floors = stairs.location!.floor
        #expect(floors.contains(0) && floors.contains(1))
        #expect(stairs.location!.latitude.allSatisfy { abs($0 - p.originLatitude) < 0.001 })
    }

    @Test func generatorParametersAreStamped() throws {
        let json = Self.sessions[0].session.metadata.generator
        let obj = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        #expect(obj["seed"] as? Int == 2024)
        let params = obj["parameters"] as! [String: Any]
        #expect(params["pathLossExponent"] as? Double == 2)
    }
}
