import Foundation
import NavCore
import NavGuidance
import NavIO
import NavPipeline
import NavSim
import NavSynth
import Testing

@Suite struct ClosedLoopJobTests {
    /// The ideal walker without VIO error succeeds on every bundled route, and its true path
    /// stays within the intermediate arrival box's half width (2 m) of the true keypoint polyline.
    @Test(arguments: ["R1-corridor", "R2-turns", "R3-stairs"])
    func idealWalkerSucceedsOnBundledRoutes(route: String) throws {
        let rec = try readTrace(at: datasets + "/\(route)_recording.h5")
        let s = try closedLoopScenario(recording: rec, options: GuidanceOptions(), walls: .corridor(halfWidth: 1.25))
        let r = simulateWalks(s, settings: ClosedLoopSettings(), seed: 1, runs: 3, samplePaths: 3)
        #expect(r.aggregate.success_rate == 1)
        let worst = r.samplePaths.flatMap { $0 }.map { s.trueRoute.distanceToRoute($0) }.max() ?? .infinity
        #expect(worst <= GuidanceParameters().targetWidth, "farthest from the keypoint polyline: \(worst) m")
    }
}
