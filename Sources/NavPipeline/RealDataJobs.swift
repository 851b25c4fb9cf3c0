import Foundation
import NavCore
import NavGeometry
import NavGuidance
import NavIO
import NavMetrics
import NavReport
import NavSignal

/// APE (translation, metres; evo's conventions) of every trajectory pair the spec names.
public func apeTable(_ spec: ExperimentSpec, readPolicy: HDF5ReadPolicy = .standard) -> (table: MetricsTable, failures: [String]) {
    var rows: [MetricRow] = [], failures: [String] = []
    for pair in spec.ape {
        var settings = EvaluationSettings()
        settings.alignment = AlignmentMethod(rawValue: pair[2])!
        do {
            let r = try evaluateAPE(
                reference: TrajectorySource(path: pair[0], readPolicy: readPolicy),
                estimate: TrajectorySource(path: pair[1], readPolicy: readPolicy), settings: settings)
            let s = r.statistics
            let name = (pair[1] as NSString).lastPathComponent
            for (m, v) in [("rmse", s.rmse), ("mean", s.mean), ("median", s.median), ("std", s.std), ("max", s.max)] {
                rows.append(
                    MetricRow(
                        route: "-", session: name, configuration: "align=\(pair[2])", parameters: [pair[0]], metric: "ape_\(m)", value: v, unit: "m"))
            }
            rows.append(
                MetricRow(
                    route: "-", session: name, configuration: "align=\(pair[2])", parameters: [pair[0]], metric: "pairs", value: Double(r.pairs),
                    unit: "count"))
        } catch { failures.append("ape \(pair[1]) vs \(pair[0]): \(error)") }
    }
    return (MetricsTable(parameterColumns: ["reference"], rows: rows), failures)
}

/// Body angular rate of the ground truth (`angularRate(timestamps:orientations:)`).
func angularRate(_ gt: GroundTruthStream) -> (times: [Double], rates: [Vector3]) {
    angularRate(timestamps: gt.timestamps, orientations: gt.poses.map(\.rotation))
}

/// Each gyroscope filter scored against the optical angular rate: RMS and max of
/// ‖filtered ω − true ω‖ (rad/s), true ω linearly interpolated at the IMU stamps, on every
/// session whose ground truth and IMU share the body frame (BROAD: the IMU is on the tracked body).
public func gyroFilterTable(_ plan: ExperimentPlan) -> (table: MetricsTable, failures: [String]) {
    var rows: [MetricRow] = [], failures: [String] = []
    for file in plan.inputs.names {
        guard let streams = plan.inputs.entries[file]?.streams, streams.isSuperset(of: [.imu, .groundTruth]) else { continue }
        let s: Session
        do { s = try plan.session(file) } catch { failures.append("\(error)"); continue }
        guard let imu = s.imu, let gt = s.groundTruth, gt.poses.count > 2, !imu.gyroscope.isEmpty else { continue }
        let (tt, w) = angularRate(gt)
        var truth: [Vector3?] = []
        var j = 0
        for t in imu.timestamps {
            while j + 1 < tt.count && tt[j + 1] < t { j += 1 }
            guard j + 1 < tt.count, tt[j] <= t else { truth.append(nil); continue }
            let f = (t - tt[j]) / (tt[j + 1] - tt[j])
            truth.append(w[j] + f * (w[j + 1] - w[j]))
        }
        let fs = 1 / SamplingSummary(timestamps: imu.timestamps).medianInterval
        let session = s.metadata.sessionID.isEmpty ? fileName(of: file) : s.metadata.sessionID
        for spec in plan.spec.gyroFilters {
            do {
                var axes: [[Double]] = (0..<3).map { a in imu.gyroscope.map { a == 0 ? $0.x : a == 1 ? $0.y : $0.z } }
                if spec != "none" {
                    let f = try FilterRegistry.filter(spec, pluginTimeout: plan.spec.pluginTimeout)
                    axes = try axes.map { try f.apply($0, timestamps: imu.timestamps, sampleRate: fs) }
                }
                var errors: [Double] = []
                for i in imu.timestamps.indices { if let w = truth[i] { errors.append((Vector3(axes[0][i], axes[1][i], axes[2][i]) - w).norm) } }
                let rms = errors.isEmpty ? .nan : (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
                rows.append(
                    MetricRow(
                        route: "-", session: session, configuration: spec, parameters: [spec], metric: "gyro_error_rms", value: rms, unit: "rad/s"))
                rows.append(
                    MetricRow(
                        route: "-", session: session, configuration: spec, parameters: [spec], metric: "gyro_error_max", value: errors.max() ?? .nan,
                        unit: "rad/s"))
            } catch { failures.append("\(file) [gyro filter \(spec)]: \(error)") }
        }
    }
    return (MetricsTable(parameterColumns: ["filter"], rows: rows), failures)
}
