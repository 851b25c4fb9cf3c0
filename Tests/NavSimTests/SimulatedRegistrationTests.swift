import Foundation
import NavCore
import NavGeometry
import NavSim
import Testing

/// Clew's registration simulated from anchor sightings (issue 30, item 6), against closed forms:
/// noiseless sightings give the true T_RN in both modes; gravity-aligned registration never tilts
/// (its error is a yaw and a translation); the error of one sighting is spread wider than that of
/// all of them (their consensus); "1" uses the first sighting of "all" (one stream).
@Suite struct SimulatedRegistrationTests {
    static let anchor = Pose(rotation: Quaternion(yaw: 0.7), translation: Vector3(2, 1.2, -3))
    static let truth = Pose(rotation: Quaternion(yaw: -0.4), translation: Vector3(5, 0, 1))  // T_NR

    func estimates(_ r: SimulatedRegistration, runs: Int) throws -> [Pose] {
        try (0..<runs).map { k in
            var g = SeededRandom(seed: UInt64(k), label: "t")
            return try r.estimate(anchorInRoute: Self.anchor, navigationFromRoute: Self.truth, rng: &g)
        }
    }

    /// The registration error as (yaw, horizontal position error at the anchor, tilt), radians and metres.
    func error(_ estimate: Pose) -> (yaw: Double, position: Double, tilt: Double) {
        let e = estimate * Self.truth  // T_RN,est · T_NR: identity when perfect
        let up = e.rotation.act(on: Vector3(0, 1, 0))
        let moved = e.act(on: Self.anchor.translation) - Self.anchor.translation
        return (abs(Angle.wrapToPi(e.rotation.normalized.yaw)), Double.hypot(moved.x, moved.z), Double.acos(min(1, up.y)))
    }

    @Test func noiselessSightingsGiveTheTruth() throws {
        for mode in RegistrationMode.allCases {
            var r = SimulatedRegistration(mode: mode)
            r.positionNoiseStd = 0
            r.rotationNoiseDegrees = 0
            for e in try estimates(r, runs: 3).map(error) {
                #expect(e.yaw < 1e-12 && e.position < 1e-12 && e.tilt < 1e-7, "\(mode): \(e)")
            }
        }
    }

    @Test func gravityAlignedNeverTiltsAndOneSightingErrsMoreThanAll() throws {
        let all = try estimates(SimulatedRegistration(mode: .gravityAligned), runs: 200).map(error)
        let one = try estimates(SimulatedRegistration(mode: .gravityAligned, sightings: 1), runs: 200).map(error)
        #expect(all.allSatisfy { $0.tilt < 1e-7 } && one.allSatisfy { $0.tilt < 1e-7 })
        let full = try estimates(SimulatedRegistration(mode: .full, sightings: 1), runs: 200).map(error)
        #expect(full.contains { $0.tilt > 1e-4 }, "full registration keeps the sighting's tilt")
        func rms(_ x: [Double]) -> Double { (x.map { $0 * $0 }.reduce(0, +) / Double(x.count)).squareRoot() }
        #expect(rms(one.map(\.yaw)) > 2 * rms(all.map(\.yaw)))
        #expect(rms(one.map(\.position)) > 2 * rms(all.map(\.position)))
        // The defaults are the recordings' sighting noise (SynthParameters): 0.5° per sighting gives
        // one sighting's yaw error of the order of 0.5°, not 5°.
        #expect(rms(one.map(\.yaw)) < 1.0 * .pi / 180 && rms(one.map(\.yaw)) > 0.05 * .pi / 180)
    }

    @Test func oneSightingIsTheFirstOfAll() throws {
        var first = SimulatedRegistration(mode: .full, sightings: 1)
        var g1 = SeededRandom(seed: 9, label: "t")
        let a = try first.estimate(anchorInRoute: Self.anchor, navigationFromRoute: Self.truth, rng: &g1)
        first.available = 1
        var g2 = SeededRandom(seed: 9, label: "t")
        let b = try first.estimate(anchorInRoute: Self.anchor, navigationFromRoute: Self.truth, rng: &g2)
        #expect(a == b)
    }
}
