import ArgumentParser
import Foundation
import NavCore
import NavGuidance
import NavPipeline
import NavSim
import NavSynth

struct BenchSimulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Closed-loop walker runs per second on one core: a straight route of --length metres at the guidance tick (0.01 s).")

    @Option(help: "Route length, m.") var length: Double = 30
    @Option(help: "Walkers per timed repeat.") var runs: Int = 2000
    @Option(help: "Timed repeats.") var repeats: Int = 5
    @Option(name: .customLong(SweepDimension.walker.flag), help: ArgumentHelp(SweepDimension.walker.help))
    var walker: String = SweepDimension.walker.defaultValue
    @Option(name: .customLong(SweepDimension.vioError.flag), help: ArgumentHelp(SweepDimension.vioError.help))
    var vioError: String = SweepDimension.vioError.defaultValue
    @Option(name: .customLong(SweepDimension.walls.flag), help: ArgumentHelp(SweepDimension.walls.help))
    var walls: String = SweepDimension.walls.defaultValue

    func validate() throws {
        guard length.isFinite, (1...10_000).contains(length) else { throw ValidationError("--length \(length): expected 1…10000 m") }
        guard (1...1_000_000).contains(runs) else { throw ValidationError("--runs \(runs): expected 1…1000000") }
        try checkRepeats(repeats)
        _ = try parsed()
    }

    func parsed() throws -> (NavigatorProfile, VIOErrorSpec, WallsMode) {
        do { return try parseWalkSettings(walker: walker, vioError: vioError, walls: walls) } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() throws {
        let (profile, vio, wallsMode) = try parsed()
        let points = stride(from: 0.0, through: length, by: 0.3).map { Vector3(0, 1.3, -$0) }
        let route = GuidanceRoute(positions: [points.first!, points.last!])
        let plan: FloorPlan
        if case .corridor(let w) = wallsMode { plan = FloorPlan.corridor(along: points, halfWidth: w) } else { plan = .openSpace }
        let scenario = ClosedLoopScenario(routeID: "bench", route: route, trueRoute: route, floorPlan: plan)
        let settings = ClosedLoopSettings(walker: profile, vioError: vio)
        var ticks = 0.0, success = 0.0
        let (m, _) = medianSeconds(repeats: repeats) {
            let r = simulateWalks(scenario, settings: settings, seed: 1, runs: runs)
            ticks = r.outcomes.reduce(0) { $0 + ($1.time_to_complete ?? 0) } / 0.01
            success = r.aggregate.success_rate
        }
        print(
            try jsonLine([
                "id": "navbench_simulate", "route_m": length, "walker": walker, "vio_error": vio.canonical, "runs": runs, "median_s": m,
                "runs_per_s": Double(runs) / m, "ticks_per_s": ticks / m, "success_rate": success, "repeats": repeats,
            ]))
    }
}
