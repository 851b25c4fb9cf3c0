// Reads a trace file (HDF5, docs/trace-format.md): navbench inspect, and a stream as a trajectory.
import Foundation
import NavCore  // Session, Trajectory
import NavIO  // readTrace, inspectTrace, readTrajectory, TrajectoryFile

func require(_ ok: Bool, _ what: String) { if !ok { print("FAIL: \(what)"); exit(1) } }

guard CommandLine.arguments.count == 2 else { print("usage: ReadTrace TRACE.h5"); exit(2) }
let path = CommandLine.arguments[1]
do {
    let session = try readTrace(at: path)  // validated, every stream loaded
    let m = session.metadata
    print("\(m.sessionID): \(m.kind.rawValue) of route \(m.routeID) in \(m.venue)")
    for s in try inspectTrace(at: path).streams {
        print(
            "  " + s.name.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: "%6d samples, %7.2f s, %6.1f Hz", s.samples, s.durationSeconds, s.meanRateHz))
    }
    guard let vio = session.vio else { print("FAIL: \(path) has no vio stream"); exit(1) }
    let truth: TrajectoryFile = try readTrajectory(at: path, stream: "groundtruth")
    print(String(format: "vio %d poses; ground truth %d poses, %.2f m walked", vio.poses.count, truth.trajectory.count, truth.trajectory.pathLength))
    require(vio.poses.count >= 2 && vio.poses.count == vio.timestamps.count, "the vio stream has poses")
    require(zip(vio.timestamps, vio.timestamps.dropFirst()).allSatisfy { $0 < $1 }, "vio timestamps increase")
} catch {
    print("FAIL: \(error)"); exit(1)
}
