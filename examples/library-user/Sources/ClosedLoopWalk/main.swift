// Virtual blind walkers follow Clew's guidance along a recorded route: navbench simulate.
import Foundation
import NavIO  // readTrace
import NavPipeline  // closedLoopScenario, venueFloorPlan, WallsMode, GuidanceOptions
import NavSim  // simulateWalks, ClosedLoopSettings, NavigatorProfile
import NavSynth  // VIOErrorSpec

func require(_ ok: Bool, _ what: String) { if !ok { print("FAIL: \(what)"); exit(1) } }

guard CommandLine.arguments.count == 2 else { print("usage: ClosedLoopWalk RECORDING.h5"); exit(2) }
let path = CommandLine.arguments[1], runs = 8
do {
    let recording = try readTrace(at: path), options = GuidanceOptions()
    let plan = try venueFloorPlan(recordingPath: path, session: recording)  // VENUE.floorplan.json beside it, or nil
    let scenario = try closedLoopScenario(recording: recording, options: options, walls: .venue, venuePlan: plan)
    let settings = ClosedLoopSettings(
        walker: try NavigatorProfile(parsing: "cane"), vioError: try VIOErrorSpec(parsing: "synth"),
        guidance: options.guidance)
    let result = simulateWalks(scenario, settings: settings, seed: 1, runs: runs)
    let a = result.aggregate
    print(
        "route \(scenario.routeID): \(scenario.route.keypoints.count) keypoints, \(plan == nil ? "corridor" : "venue floor plan"), \(scenario.floorPlan.walls.count) walls"
    )
    print(
        String(
            format: "success rate %.3f [95%% CI %.3f, %.3f] (n = %d); end-of-route error mean %.2f m; wall contacts %.1f",
            a.success_rate, a.success_rate_ci95[0], a.success_rate_ci95[1], a.runs, a.end_of_route_error, a.wall_contacts))
    require(result.outcomes.count == runs && a.runs == runs, "one outcome per run")
    require(result.outcomes.allSatisfy { $0.end_of_route_error.isFinite }, "every walker ends somewhere")
    require(simulateWalks(scenario, settings: settings, seed: 1, runs: runs).outcomes == result.outcomes, "the same seed walks the same")
} catch {
    print("FAIL: \(error)"); exit(1)
}
