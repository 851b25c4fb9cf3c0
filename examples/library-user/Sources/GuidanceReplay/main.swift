// Replays Clew's guidance for a navigation session along a recorded route: navbench guide.
import Foundation
import NavGuidance  // GuidanceEvent, ClockFace
import NavIO  // readTrace
import NavPipeline  // runGuidance, GuidanceOptions

func require(_ ok: Bool, _ what: String) { if !ok { print("FAIL: \(what)"); exit(1) } }

guard CommandLine.arguments.count == 3 else { print("usage: GuidanceReplay RECORDING.h5 NAVIGATION.h5"); exit(2) }
do {
    var options = GuidanceOptions()  // the sweep dimensions' defaults, as guide without flags
    options.guidance.units = .metres
    let run = try runGuidance(
        recording: try readTrace(at: CommandLine.arguments[1]),
        navigation: try readTrace(at: CommandLine.arguments[2]), options: options)
    print("route \(run.routeID): \(run.route.keypoints.count) keypoints, \(String(format: "%.1f", run.trueRoute.length)) m")
    for e in run.estimated.spoken.prefix(3) { print(String(format: "%8.2f s  say ", e.time) + "\"\(e.text)\"") }
    let metrics = Dictionary(uniqueKeysWithValues: run.metrics.map { ($0.name, $0.value) })
    for name in ["registration_translation_error", "position_error_rmse", "cross_track_rmse"] {
        print(name, String(format: "%.4f", metrics[name] ?? .nan))
    }
    require(run.estimated.events.contains { $0.kind == GuidanceEvent.Kind.instruction }, "the replay speaks at least one instruction")
    require(metrics["keypoints"] == Double(run.route.keypoints.count), "the keypoints metric counts the route's keypoints")
} catch {
    print("FAIL: \(error)"); exit(1)
}
