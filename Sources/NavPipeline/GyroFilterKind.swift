import Foundation
import NavCore
import NavGeometry
import NavIO
import NavReport
import NavSignal

/// Gyroscope filters against optical ground truth as a result kind: each filter of the spec's
/// `gyro_filters:` list (`none`, a registered filter or an `exec:` plugin) applied to the three
/// gyroscope axes and scored against the angular rate of the motion-capture orientation: RMS and
/// max of ‖filtered ω − true ω‖ (rad/s), true ω (finite differences, `angularRate`) linearly
/// interpolated at the IMU stamps, on every session whose ground truth and IMU share the body
/// frame (BROAD: the IMU is on the tracked body). A unit is (input, filter).
public struct GyroFilterKind: ResultKind {
    public init() {}
    public var name: String { "gyro_filter" }
    public var csvFile: String { "gyro-filters.csv" }
    public var parameterColumns: [String] { ["filter"] }
    public func isAsked(by spec: ExperimentSpec) -> Bool { !spec.gyroFilters.isEmpty }

    /// Every input × filter, inputs in name order. The key of an `exec:` filter covers its
    /// plugin file's SHA-256 (a changed plugin is run again).
    ///
    /// Complexity: O(inputs × filters), plus one SHA-256 of each plugin file.
    public func units(of plan: ExperimentPlan) -> [WorkUnit] {
        let plugins = Dictionary(
            plan.spec.gyroFilters.map { f in (f, ((try? FilterRegistry.pluginSHA256(f)) ?? nil) ?? "") }, uniquingKeysWith: { a, _ in a })
        return perInputUnits(kind: name, plan: plan, configurations: plan.spec.gyroFilters, routes: false, keyParts: { [$0, plugins[$0] ?? ""] }) {
            "\($0) [gyro filter \($1)]"
        }
    }

    /// Applies to a session with an IMU (gyroscope samples) and at least 3 ground-truth poses.
    public func run(_ unit: WorkUnit, plan: ExperimentPlan) throws -> UnitOutcome {
        if let streams = plan.inputs.entries[unit.input]?.streams, !streams.isSuperset(of: [.imu, .groundTruth]) {
            return .notApplicable("no IMU or ground-truth stream")
        }
        let s = try plan.session(unit.input)
        guard let imu = s.imu, let gt = s.groundTruth, gt.poses.count > 2, !imu.gyroscope.isEmpty else {
            return .notApplicable("no gyroscope samples, or fewer than 3 ground-truth poses")
        }
        let (tt, w) = angularRate(timestamps: gt.timestamps, orientations: gt.poses.map(\.rotation))
        var truth: [Vector3?] = []
        var j = 0
        for t in imu.timestamps {
            while j + 1 < tt.count && tt[j + 1] < t { j += 1 }
            guard j + 1 < tt.count, tt[j] <= t else { truth.append(nil); continue }
            let f = (t - tt[j]) / (tt[j + 1] - tt[j])
            truth.append(w[j] + f * (w[j + 1] - w[j]))
        }
        let fs = 1 / SamplingSummary(timestamps: imu.timestamps).medianInterval
        var axes: [[Double]] = (0..<3).map { a in imu.gyroscope.map { a == 0 ? $0.x : a == 1 ? $0.y : $0.z } }
        if unit.configuration != "none" {
            let f = try FilterRegistry.filter(unit.configuration, pluginTimeout: plan.spec.pluginTimeout)
            axes = try axes.map { try f.apply($0, timestamps: imu.timestamps, sampleRate: fs) }
        }
        var errors: [Double] = []
        for i in imu.timestamps.indices { if let w = truth[i] { errors.append((Vector3(axes[0][i], axes[1][i], axes[2][i]) - w).norm) } }
        let rms = errors.isEmpty ? .nan : (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
        return UnitOutcome(metrics: [Metric("gyro_error_rms", rms, "rad/s"), Metric("gyro_error_max", errors.max() ?? .nan, "rad/s")])
    }

    public func section(_ results: [(unit: WorkUnit, outcome: UnitOutcome?)], plan: ExperimentPlan) -> ReportSection {
        let table = outcomeTable(results, parameterColumns: parameterColumns)
        let compared = pairedConfigurationReport(
            table, options: plan.spec.statistics, keyMetrics: ["gyro_error_rms", "gyro_error_max"], title: "Gyroscope filters", units: "sessions")
        let markdown =
            "\n## Filters against optical ground truth\n\nGyroscope axes filtered, compared with the angular rate of the "
            + "motion-capture orientation (finite differences, interpolated at the IMU stamps); filters compared over sessions (the units), paired within each session. All rows: `gyro-filters.csv`.\n\n"
            + compared.markdown
        return ReportSection(markdown: markdown, files: [(csvFile, table.csv)], findings: [compared.finding])
    }
}
