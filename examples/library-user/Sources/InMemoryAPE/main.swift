// APE and RPE between two trajectories built in memory (no files): navbench ape / rpe.
import Foundation
import NavCore  // Pose, Quaternion, Trajectory, Vector3
import NavGeometry  // AlignmentMethod
import NavMetrics  // RPEOptions
import NavReport  // evaluateAPE, evaluateRPE, EvaluationSettings

func require(_ ok: Bool, _ what: String) { if !ok { print("FAIL: \(what)"); exit(1) } }

do {
    // A 20 s walk along -z at 1 m/s, 10 Hz, swaying and slowly turning; the estimate is 1 m east.
    let times = (0..<200).map { Double($0) * 0.1 }
    let poses = times.map { Pose(rotation: Quaternion(yaw: 0.02 * $0), translation: Vector3(0.5 * sin($0), 1.3, -$0)) }
    let truth = try Trajectory(timestamps: times, poses: poses)
    let shifted = try Trajectory(timestamps: times, poses: poses.map { Pose(rotation: $0.rotation, translation: $0.translation + Vector3(1, 0, 0)) })

    let same = try evaluateAPE(reference: truth, estimate: truth)
    let offset = try evaluateAPE(reference: truth, estimate: shifted)
    let aligned = try evaluateAPE(reference: truth, estimate: shifted, settings: EvaluationSettings(alignment: .se3))
    let rpe = try evaluateRPE(reference: truth, estimate: shifted, options: RPEOptions(delta: 1, unit: .seconds))
    print(
        String(
            format: "APE identical %.3g m, 1 m offset %.12f m (%d pairs), se3-aligned %.3g m; RPE over 1 s %.3g m (%d pairs)",
            same.statistics.max, offset.statistics.rmse, offset.pairs, aligned.statistics.max, rpe.statistics.max, rpe.pairs))
    require(same.statistics.max == 0 && offset.pairs == 200, "APE of identical trajectories is 0 over 200 pairs")
    require(abs(offset.statistics.min - 1) <= 1e-12 && abs(offset.statistics.max - 1) <= 1e-12, "APE of a 1 m offset is 1 m")
    require(aligned.statistics.max <= 1e-9 && rpe.statistics.max <= 1e-12, "alignment and RPE cancel a constant offset")
} catch {
    print("FAIL: \(error)"); exit(1)
}
