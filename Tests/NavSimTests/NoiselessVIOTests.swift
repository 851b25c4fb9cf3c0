import Foundation
import NavCore
import NavGeometry
import NavSynth
import Testing

@testable import NavGuidance
@testable import NavSim

/// A walk whose VIO drift has no random walk (`VIODrift.isNoiseless`) skips the drift's draws
/// (`advanceNoiseless`); the walk must be the one that draws them and multiplies them by zero:
/// every outcome and every pose the phone saw, outcome by outcome, over every profile, VIO
/// specs without noise (scale error, tracking loss, registration yaw, simulated registration),
/// open space, walls, stairs and a start written with negative zeros.
@Suite struct NoiselessVIOTests {
    static func scenarios() -> [ClosedLoopScenario] {
        var walls = openRoute("corridor", [(0, 0), (0, -14), (8, -14)])
        walls.floorPlan = FloorPlan.corridor(along: walls.trueRoute.keypoints.map(\.position), halfWidth: 1.0)
        let stairs = GuidanceRoute(positions: [Vector3(0, 1.3, 0), Vector3(0, 1.3, -6), Vector3(0, 4.3, -12), Vector3(6, 4.3, -12)])
        let zeros = GuidanceRoute(positions: [Vector3(-0.0, -0.0, -0.0), Vector3(-0.0, -0.0, -10), Vector3(10, -0.0, -10)])
        var sighted = openRoute("sighted", [(0, 0), (0, -10), (10, -10), (10, -20)])
        sighted.venueFromRoute = Pose(rotation: Quaternion(yaw: 0.3), translation: Vector3(2, 0, -1))
        sighted.trueRoute = GuidanceRoute(positions: sighted.route.keypoints.map { sighted.venueFromRoute.act(on: $0.position) })
        sighted.anchorPose = Pose(rotation: .identity, translation: Vector3(0, 1.3, 0))
        return [
            openRoute("turns", [(0, 0), (0, -12), (12, -12), (12, -20)]), walls,
            ClosedLoopScenario(routeID: "stairs", route: stairs, trueRoute: stairs),
            ClosedLoopScenario(routeID: "zeros", route: zeros, trueRoute: zeros), sighted,
        ]
    }

    /// Every scenario × profile × VIO spec of `specs` (the "sighted" scenario with a simulated
    /// gravity-aligned registration), with a label naming them.
    static func forEachSetting(
        _ specs: [String], _ body: (ClosedLoopScenario, ClosedLoopSettings, String) throws -> Void
    ) throws {
        for s in scenarios() {
            // The assumed profiles and the sighted one (no seeking, no over-rotation); the fitted
            // cane and guide-dog walkers differ from theirs only in speed, step length and turn rate.
            for name in ["ideal", "cane", "guide-dog", "sighted"] {
                for spec in specs {
                    var settings = ClosedLoopSettings(walker: NavigatorProfile.named(name)!, vioError: try VIOErrorSpec(parsing: spec))
                    if s.routeID == "sighted" { settings.registration = SimulatedRegistration(mode: .gravityAligned) }
                    try body(s, settings, "\(s.routeID), \(name), \(spec)")
                }
            }
        }
    }

    /// The outcome and the phone's poses of one walk, in text that tells −0 from +0 and NaN apart.
    static func walk(_ s: ClosedLoopScenario, _ settings: ClosedLoopSettings, run: Int, draws: Bool) -> String {
        var w = ClosedLoopWalker(s, walls: WallIndex.byFloor(s.floorPlan), settings: settings, seed: 11, run: run, recordPath: false)
        w.drawsNoiselessVIO = draws
        w.log = WalkLog()
        w.walk()
        let seen = (w.log?.seen ?? []).map { p in
            [p.translation.x, p.translation.y, p.translation.z, p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w]
                .map { String($0.bitPattern, radix: 16) }.joined(separator: ",")
        }
        return "\(w.outcome())\n" + seen.joined(separator: "\n")
    }

    @Test func skippingTheDrawsChangesNoOutcome() throws {
        let specs = ["none", "scale=0.05", "tracking_loss=1", "yaw_offset=4", "scale=0.03,tracking_loss=0.5,tracking_loss_seconds=1-3"]
        var walks = 0
        try Self.forEachSetting(specs) { s, settings, label in
            for run in 0..<4 {
                let skipped = Self.walk(s, settings, run: run, draws: false)
                let drawn = Self.walk(s, settings, run: run, draws: true)
                #expect(skipped == drawn, "\(label), run \(run)")
                walks += 1
            }
        }
        #expect(walks == 5 * 4 * 5 * 4)
        // Every spec above takes the path without draws; one with a random walk does not.
        var g = SeededRandom(seed: 1)
        for spec in specs {
            #expect(VIODrift(spec: try VIOErrorSpec(parsing: spec), start: .zero, lossWindow: (2, 3), rng: &g).isNoiseless, "\(spec)")
        }
        for spec in ["yaw_drift=0.5", "position_noise=0.05"] {
            #expect(!VIODrift(spec: try VIOErrorSpec(parsing: spec), start: .zero, lossWindow: (2, 3), rng: &g).isNoiseless, "\(spec)")
        }
    }
}

/// The engine's on-track and arrival tests without angles (`Direction.onTrackWithoutAngles`,
/// `GuidanceEngine.isAtTarget`) change no walk: every outcome and every event heard equal the
/// walks whose engine computes the direction for every test (`exactChecks`), over every
/// profile, VIO noise and scenario.
@Suite struct DirectionShortcutWalkTests {
    static func walk(_ s: ClosedLoopScenario, _ settings: ClosedLoopSettings, run: Int, exact: Bool) -> String {
        var w = ClosedLoopWalker(s, walls: WallIndex.byFloor(s.floorPlan), settings: settings, seed: 12, run: run, recordPath: false)
        w.engine.exactChecks = exact
        w.walk()
        return "\(w.outcome())\n" + w.engine.events.map { "\($0)" }.joined(separator: "\n")
    }

    @Test func shortcutsChangeNoWalk() throws {
        let specs = ["none", "synth", "yaw_drift=2,position_noise=0.2", "yaw_offset=6,scale=0.05"]
        var walks = 0
        try NoiselessVIOTests.forEachSetting(specs) { s, settings, label in
            var settings = settings
            for strict in [true, false] {
                settings.guidance.strictHaptic = strict
                for run in 0..<3 {
                    #expect(
                        Self.walk(s, settings, run: run, exact: false) == Self.walk(s, settings, run: run, exact: true),
                        "\(label), strict \(strict), run \(run)")
                    walks += 1
                }
            }
        }
        #expect(walks == 5 * 4 * 4 * 2 * 3)
    }
}
