import Foundation
import NavCore
import NavSynth
import Testing

@testable import NavGuidance
@testable import NavSim

/// Mechanistic turns (issue 30, item 3; Ahmetovic et al., PerCom 2019): the over-rotation is the
/// turn rate × the stop delay. Closed forms: with no spread it equals the fixed-offset model with
/// that product as both over-rotations, walk by walk; the executed over-rotation of the same
/// draw doubles with the turn rate, where the fixed-offset model's does not move.
@Suite struct MechanisticTurnsTests {
    static let deg = Double.pi / 180

    @Test func withoutSpreadItIsTheFixedOffsetOfRateTimesDelay() throws {
        let mechanistic = try NavigatorProfile(parsing: "cane:mechanistic_turns=1,stop_reaction_time=0.25,stop_reaction_time_std=0,turn_rate=90")
        let fixed = try NavigatorProfile(
            parsing: "cane:over_rotation_slight=22.5,over_rotation_ample=22.5,over_rotation_slight_std=0,over_rotation_ample_std=0,turn_rate=90")
        #expect(mechanistic.mechanisticTurns && !fixed.mechanisticTurns)
        let route = MonotoneSuccessTests.route
        let a = simulateWalks(route, settings: ClosedLoopSettings(walker: mechanistic), seed: 4, runs: 40).outcomes
        let b = simulateWalks(route, settings: ClosedLoopSettings(walker: fixed), seed: 4, runs: 40).outcomes
        #expect(a == b)
        // And it is not the default model: the published offsets with their spread walk otherwise.
        let cane = simulateWalks(route, settings: ClosedLoopSettings(walker: NavigatorProfile.named("cane")!), seed: 4, runs: 40).outcomes
        #expect(cane != a)
    }

    /// The executed turn of one instruction (commanded 60°, spoken 2 o'clock) by a walker.
    static func executedTurn(_ walker: NavigatorProfile, run: Int) -> Double {
        var w = ClosedLoopWalker(
            CommonRandomNumbersTests.scenario, walls: [:], settings: ClosedLoopSettings(walker: walker), seed: 5, run: run, recordPath: false)
        w.mode = .walking
        w.t = 1000
        w.hear(CommonRandomNumbersTests.event(.instruction, keypoint: 2, degrees: 50), deg: deg)
        w.t = 2000
        let before = w.yaw
        w.act()
        return before - w.turnTarget
    }

    @Test func theOverRotationScalesWithTheTurnRateOnlyWhenMechanistic() throws {
        for run in 0..<10 {
            let slow = Self.executedTurn(try NavigatorProfile(parsing: "cane:mechanistic_turns=1,turn_rate=90"), run: run) - 60 * Self.deg
            let fast = Self.executedTurn(try NavigatorProfile(parsing: "cane:mechanistic_turns=1,turn_rate=180"), run: run) - 60 * Self.deg
            #expect(slow > 0 && abs(fast - 2 * slow) < 1e-12, "run \(run): \(slow / Self.deg)° at 90°/s, \(fast / Self.deg)° at 180°/s")
            // The default delay reproduces the published mean at 90°/s: 17.4° ± 4.0° (its draws within 4 sd).
            #expect(abs(slow / Self.deg - 17.4) < 4 * 4.0)
            let fixedSlow = Self.executedTurn(try NavigatorProfile(parsing: "cane:turn_rate=90"), run: run)
            let fixedFast = Self.executedTurn(try NavigatorProfile(parsing: "cane:turn_rate=180"), run: run)
            #expect(fixedSlow == fixedFast)
        }
        #expect(throws: NavigatorProfileError.self) { try NavigatorProfile(parsing: "cane:mechanistic_turns=2") }
    }
}
