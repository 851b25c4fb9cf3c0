import Foundation
import NavCore
import NavSynth
import Testing

@testable import NavGuidance
@testable import NavSim

/// Common random numbers in the closed loop: a walker draws the same numbers for the same
/// spoken direction whatever happened before it, so two settings that differ in one event
/// (one more "Bear left", a turn under 22.5° that needs no turn error) still pair their later
/// turns run by run.
@Suite struct CommonRandomNumbersTests {
    static let deg = Double.pi / 180
    static let scenario = openRoute("crn", [(0, 0), (0, -10), (10, -10), (10, -20)])

    static func event(_ kind: GuidanceEvent.Kind, keypoint: Int, degrees: Double) -> GuidanceEvent {
        GuidanceEvent(
            time: 0, kind: kind, text: "", keypoint: keypoint, hour: ClockFace.hour(angle: degrees * deg),
            sector: ClockFace.sector(angle: degrees * deg), distance: 5, angle: degrees * deg)
    }

    /// The reaction time and the executed turn (radians, + = right) of the instruction toward
    /// keypoint 2, after the walker has heard `before` (each acted on before the next).
    static func instructionToKeypoint2(after before: [GuidanceEvent], run: Int) -> (reaction: Double, turn: Double) {
        var w = ClosedLoopWalker(
            scenario, walls: [:], settings: ClosedLoopSettings(walker: NavigatorProfile.named("cane")!),
            seed: 5, run: run, recordPath: false)
        w.mode = .walking
        for e in before {
            w.hear(e, deg: deg)
            w.t += 10
            w.act()
        }
        w.t = 1000
        w.hear(event(.instruction, keypoint: 2, degrees: 50), deg: deg)
        let reaction = w.pending[0].due - 1000
        w.t = 2000
        let yawBefore = w.yaw
        w.act()
        return (reaction, yawBefore - w.turnTarget)
    }

    @Test func aTurnDrawsTheSameNumbersWhateverWasHeardBefore() {
        for run in 0..<20 {
            let alone = Self.instructionToKeypoint2(after: [], run: run)
            // The cane's turns of 50° (spoken 2 o'clock, 60°) carry a turn error and a reaction time.
            #expect(abs(alone.turn - (60 + 17.4) * Self.deg) < 4 * 4 * Self.deg)
            #expect(alone.reaction > 0)
            let variants: [[GuidanceEvent]] = [
                [Self.event(.correction, keypoint: 1, degrees: 40)],
                [Self.event(.correction, keypoint: 1, degrees: -40), Self.event(.correction, keypoint: 1, degrees: 40)],
                [Self.event(.instruction, keypoint: 1, degrees: 2)],  // 12 o'clock: no turn error needed
                [Self.event(.instruction, keypoint: 1, degrees: 50)],
            ]
            for before in variants {
                let other = Self.instructionToKeypoint2(after: before, run: run)
                #expect(
                    other.reaction == alone.reaction, "run \(run), after \(before.map(\.kind)): reaction \(other.reaction) s vs \(alone.reaction) s")
                #expect(
                    other.turn == alone.turn, "run \(run), after \(before.map(\.kind)): turn \(other.turn / Self.deg)° vs \(alone.turn / Self.deg)°")
            }
        }
        // Different runs draw different numbers (the streams are per run).
        #expect(Set((0..<20).map { Self.instructionToKeypoint2(after: [], run: $0).turn }).count == 20)
    }

    /// Settings that differ by nothing the walk can feel give the same runs: a registration yaw
    /// error of 10⁻⁹ ° changes no outcome of the cane walkers.
    @Test func aNegligibleSettingChangeKeepsEveryRun() throws {
        let route = MonotoneSuccessTests.route
        let walker = NavigatorProfile.named("cane")!
        let a = simulateWalks(route, settings: ClosedLoopSettings(walker: walker), seed: 3, runs: 100).outcomes
        let b = simulateWalks(
            route, settings: ClosedLoopSettings(walker: walker, vioError: try VIOErrorSpec(parsing: "yaw_offset=1e-9")),
            seed: 3, runs: 100
        ).outcomes
        #expect(
            zip(a, b).filter {
                $0.success == $1.success && $0.corrections == $1.corrections && abs($0.end_of_route_error - $1.end_of_route_error) < 1e-6
            }.count == 100)
    }
}
