import NavCore
import NavGeometry
import Testing

/// T_RN = T_RA · T_NA⁻¹, gravity-aligned variant, consensus over many sightings with Clew's
/// rejection thresholds, and the update filter.
@Suite struct AnchorRegistrationTests {
    static let truth = Pose(rotation: Quaternion(yaw: 0.7), translation: Vector3(4, -0.2, 9))

    /// The anchor seen in N at `inNav`: in R it is T_RN·T_NA.
    func sighting(_ inNav: Pose, truth: Pose = truth) -> AnchorSighting {
        AnchorSighting(inRecording: truth * inNav, inNavigation: inNav)
    }

    @Test func singleSightingFullAndGravityAligned() {
        var rng = SeededRandom(seed: 41)
        for _ in 0..<50 {
            let a = Pose(rotation: randomRotation(&rng), translation: randomVector(&rng, scale: 3))
            let s = sighting(a)
            let full = registration(s, mode: .full)
            #expect((full.translation - Self.truth.translation).norm < 1e-12)
            #expect(angleBetween(full.rotation, Self.truth.rotation) < 1e-7)
            // Gravity aligned: a pure yaw; with a yaw-only truth it equals the truth too.
            let g = registration(s, mode: .gravityAligned)
            #expect((g.rotation.act(on: Vector3(0, 1, 0)) - Vector3(0, 1, 0)).norm < 1e-12)
            #expect((g.translation - Self.truth.translation).norm < 1e-9)
        }
    }

    @Test func gravityAlignedIgnoresATiltedDetection() {
        // The detection in N is tilted by 3° (a bad image-anchor pose): the full registration
        // tilts the whole route, the gravity-aligned one does not.
        let a = Pose(rotation: Quaternion(yaw: 0.2), translation: Vector3(1, 1.5, -2))
        var s = sighting(a)
        s.inNavigation.rotation = s.inNavigation.rotation * Quaternion(axis: Vector3(1, 0, 0), angle: 3 * .pi / 180)
        let full = registration(s, mode: .full), g = registration(s, mode: .gravityAligned)
        let farPoint = Vector3(0, 0, -30)
        #expect((full.act(on: farPoint) - Self.truth.act(on: farPoint)).norm > 1)
        #expect((g.rotation.act(on: Vector3(0, 1, 0)) - Vector3(0, 1, 0)).norm < 1e-12)
    }

    @Test func consensusRejectsOutliersLikeClew() throws {
        var rng = SeededRandom(seed: 42)
        var sightings: [AnchorSighting] = []
        for _ in 0..<12 {
            let a = Pose(rotation: Quaternion(yaw: rng.uniform(-1, 1)), translation: randomVector(&rng, scale: 2))
            var s = sighting(a)
            s.inNavigation.rotation = s.inNavigation.rotation * Quaternion(yaw: rng.gaussian(mean: 0, std: 0.003))
            sightings.append(s)
        }
        // Two implausible detections: 1.5 rad off, and 10 m off.
        sightings.append(
            sighting(Pose(translation: Vector3(0, 0, -1)), truth: Pose(rotation: Quaternion(yaw: 0.7 + 1.5), translation: Self.truth.translation)))
        sightings.append(
            sighting(
                Pose(translation: Vector3(0, 0, -1)),
                truth: Pose(rotation: Self.truth.rotation, translation: Self.truth.translation + Vector3(10, 0, 0))))
        let c = try consensusRegistration(sightings)
        #expect(c.rejected == [12, 13])
        #expect(c.inliers.count == 12)
        #expect(!c.usedCircularMeanFallback)
        #expect(abs(Angle.wrapToPi(yawAngle(of: c.transform.rotation) - 0.7)) < 0.005)
        #expect((c.transform.translation - Self.truth.translation).norm < 0.05)
    }

    @Test func circularMeanFallbackWhenNoBinRepeats() throws {
        // Three yaws in three different 0.02 rad bins around ±π: the fallback must wrap.
        let yaws = [Double.pi - 0.05, -Double.pi + 0.05, Double.pi - 0.01]
        let sightings = yaws.map { y in AnchorSighting(inRecording: Pose(rotation: Quaternion(yaw: y), translation: .zero), inNavigation: .identity) }
        let c = try consensusRegistration(sightings)
        #expect(c.usedCircularMeanFallback)
        #expect(abs(Angle.wrapToPi(c.consensusYaw - (Double.pi - 0.01 / 3))) < 1e-3)
        #expect(c.rejected.isEmpty)
        #expect(throws: AnchorRegistrationError.noSightings) { try consensusRegistration([]) }
        #expect(abs(circularMean([0.1, -0.1, 2 * .pi])) < 1e-12)
    }

    @Test func updateFilterThresholds() {
        let current = Pose(rotation: Quaternion(yaw: 0.5), translation: Vector3(1, 0, 1))
        #expect(filterRegistrationUpdate(current: nil, proposed: current) == .accept)
        #expect(
            filterRegistrationUpdate(current: current, proposed: Pose(rotation: Quaternion(yaw: 0.503), translation: Vector3(1.02, 0, 1))) == .ignore)
        #expect(filterRegistrationUpdate(current: current, proposed: Pose(rotation: Quaternion(yaw: 0.6), translation: Vector3(1, 0, 1))) == .accept)
        #expect(filterRegistrationUpdate(current: current, proposed: Pose(rotation: Quaternion(yaw: 1.6), translation: Vector3(1, 0, 1))) == .reject)
        #expect(filterRegistrationUpdate(current: current, proposed: Pose(rotation: Quaternion(yaw: 0.5), translation: Vector3(9, 0, 1))) == .reject)
    }
}
