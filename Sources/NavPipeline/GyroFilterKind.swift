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
/// interpolated at the IMU stamps shifted by the clocks' offset, on every session whose ground
/// truth and IMU share the body frame (BROAD: the IMU is on the tracked body). A unit is (input,
/// filter).
///
/// The offset (issue 31, item 3): a phone's gyroscope can lag the optical rate (one BROAD sample,
/// 3.5 ms), which would penalise a filter mostly for the lag. It is estimated once per session
/// from the raw gyroscope, as `ape --estimate-t-offset` does (`estimateTimeOffset`: the
/// angular-speed profiles cross-correlated, here of the optical orientation and of the gyroscope
/// integrated into an orientation), reported (`time_offset`, `time_offset_correlation`), and the
/// scores are taken after it; `gyro_error_rms_unshifted` keeps the score on the recorded stamps.
/// A session whose IMU marks its movement phase (`imu/moving`) is also scored on it alone
/// (`gyro_error_rms_moving`).
public struct GyroFilterKind: ExperimentKind {
    public init() {}
    public var name: String { "gyro_filter" }
    public var csvFile: String { "gyro-filters.csv" }
    public var parameterColumns: [String] { ["filter"] }
    public func isAsked(by spec: ExperimentSpec) -> Bool { !spec.gyroFilters.isEmpty }
    public var gatedCSV: String? { csvFile }
    /// `gyro_filters: [FILTER, …]`: registered filters and `exec:` plugins (FilterRegistry.swift).
    public var specSections: [KindSpecSection] {
        [
            .filterList(key: Self.specKey, summary: "a list of gyroscope filters (registered filter specs or exec: plugins)") {
                (f: String) throws(FilterSpecError) in try FilterRegistry.validate(f)
            }
        ]
    }
    static let specKey = "gyro_filters"

    public func plan(_ plan: ExperimentPlan) -> PlannedKind {
        .perUnit(
            name, asked: isAsked(by: plan.spec), units: { units(of: plan) }, parameterColumns: parameterColumns, accepts: { accepts($0, of: $1) },
            run: {
                try run($0, plan: plan)
            }, section: { section($0, plan: plan) })
    }

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

    /// A stored outcome counts when it says whether its offset was applied (a result stored before
    /// offsets had to be believable is computed again).
    public func accepts(_ outcome: UnitOutcome, of unit: WorkUnit) -> Bool {
        outcome.metrics.isEmpty || outcome.metrics.contains { $0.name == "time_offset_applied" }
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
        /// True ω at the IMU stamps shifted by `offset` (nil outside the optical record).
        func truth(shiftedBy offset: Double) -> [Vector3?] {
            var out: [Vector3?] = []
            out.reserveCapacity(imu.timestamps.count)
            var j = 0
            for stamp in imu.timestamps {
                let t = stamp + offset
                while j + 1 < tt.count && tt[j + 1] < t { j += 1 }
                guard j + 1 < tt.count, tt[j] <= t else { out.append(nil); continue }
                let f = (t - tt[j]) / (tt[j + 1] - tt[j])
                out.append(w[j] + f * (w[j + 1] - w[j]))
            }
            return out
        }
        // A session that hardly rotates has no offset to find: scored on its recorded stamps, said in the note.
        // An estimate not to be believed (a weak or edge peak) is reported, not applied.
        var offset: TimeOffsetEstimate?, note = ""
        do { offset = try gyroscopeTimeOffset(imu, groundTruth: gt) } catch {
            note = "time offset not estimated (\(error)); scored on the recorded stamps"
        }
        let applied = offset.flatMap { $0.untrustedReason == nil ? $0 : nil }
        if let o = offset, let why = o.untrustedReason {
            note = "time offset \(String(format: "%+.4f", o.offset)) s not applied: \(why); scored on the recorded stamps"
        }
        let fs = 1 / SamplingSummary(timestamps: imu.timestamps).medianInterval
        var axes: [[Double]] = (0..<3).map { a in imu.gyroscope.map { a == 0 ? $0.x : a == 1 ? $0.y : $0.z } }
        if unit.configuration != "none" {
            let f = try FilterRegistry.filter(unit.configuration, pluginTimeout: plan.spec.pluginTimeout)
            axes = try axes.map { try f.apply($0, timestamps: imu.timestamps, sampleRate: fs) }
        }
        func errors(_ truth: [Vector3?], only kept: [Bool]? = nil) -> [Double] {
            var e: [Double] = []
            for i in imu.timestamps.indices where kept?[i] ?? true {
                if let w = truth[i] { e.append((Vector3(axes[0][i], axes[1][i], axes[2][i]) - w).norm) }
            }
            return e
        }
        func rms(_ e: [Double]) -> Double { e.isEmpty ? .nan : (e.reduce(0) { $0 + $1 * $1 } / Double(e.count)).squareRoot() }
        let shiftedTruth = truth(shiftedBy: applied?.offset ?? 0)
        let shifted = errors(shiftedTruth), unshifted = errors(truth(shiftedBy: 0))
        var metrics = [
            Metric("gyro_error_rms", rms(shifted), "rad/s"), Metric("gyro_error_max", shifted.max() ?? .nan, "rad/s"),
            Metric("gyro_error_rms_unshifted", rms(unshifted), "rad/s"), Metric("time_offset", offset?.offset ?? .nan, "s"),
            Metric("time_offset_correlation", offset?.peakCorrelation ?? .nan, "1"),
            Metric("time_offset_applied", applied == nil ? 0 : 1, "bool"),
        ]
        // The movement phase alone, when the recording marks it (BROAD's `movement`: rest phases
        // would otherwise dilute the score of a filter that only errs while the device turns).
        if let moving = imu.moving, moving.count == imu.timestamps.count {
            metrics.append(Metric("gyro_error_rms_moving", rms(errors(shiftedTruth, only: moving)), "rad/s"))
        }
        return UnitOutcome(metrics: metrics, note: note)
    }

    public func section(_ results: [(unit: WorkUnit, outcome: UnitOutcome?)], plan: ExperimentPlan) -> ReportSection {
        let table = outcomeTable(results, parameterColumns: parameterColumns)
        let moving = table.rows.contains { $0.metric == "gyro_error_rms_moving" }
        let compared = pairedConfigurationReport(
            table, options: plan.spec.statistics,
            keyMetrics: ["gyro_error_rms", "gyro_error_max", "gyro_error_rms_unshifted"] + (moving ? ["gyro_error_rms_moving"] : []),
            title: "Gyroscope filters", units: "sessions")
        // The clocks' offset per session (estimated from the raw gyroscope: the same for every filter).
        var offsets: [String] = []
        for (u, outcome) in results where u.configuration == plan.spec.gyroFilters.first {
            guard let m = outcome?.metrics, let o = m.first(where: { $0.name == "time_offset" })?.value,
                let c = m.first(where: { $0.name == "time_offset_correlation" })?.value
            else { continue }
            let applied = m.first(where: { $0.name == "time_offset_applied" })?.value == 1
            offsets.append("| \(markdownInline(u.session)) | " + String(format: "%+.2f | %.3f", o * 1000, c) + " | \(applied ? "yes" : "no") |\n")
        }
        let markdown =
            "\n## Filters against optical ground truth\n\nGyroscope axes filtered, compared with the angular rate of the "
            + "motion-capture orientation (finite differences, interpolated at the IMU stamps shifted by the clocks' offset, "
            + "estimated per session by cross-correlating the angular speeds of the optical orientation and the integrated raw "
            + "gyroscope; `gyro_error_rms_unshifted`: on the recorded stamps"
            + (moving ? "; `gyro_error_rms_moving`: the movement phase alone, where the recording marks it (`imu/moving`)" : "")
            + "); filters compared over sessions (the units), paired "
            + "within each session. All rows: `gyro-filters.csv`.\n\n"
            + (offsets.isEmpty
                ? ""
                : "| session | time offset (ms, added to the IMU stamps) | peak correlation | applied |\n|---|---:|---:|---|\n"
                    + offsets.joined() + "\nAn offset is applied only when the correlation peaks at \(TimeOffsetEstimate.minimumCorrelation) "
                    + "or more inside the ±0.5 s window (docs/filters.md); otherwise the session is scored on its recorded stamps.\n\n")
            + compared.markdown
        return ReportSection(markdown: markdown, files: [(csvFile, table.csv)], findings: [compared.finding])
    }
}

/// The offset (s) to add to the IMU's stamps so its gyroscope matches the ground truth's clock:
/// `estimateTimeOffset` with the ground truth as reference and, as estimate, the raw gyroscope
/// integrated into an orientation (q₀ = identity, q_{k+1} = q_k · exp(ω_k · (t_{k+1} − t_k)); its
/// drift does not change its angular speed), searched within ±0.5 s of the recorded stamps (both
/// streams are on the session's clock; a search centred on the difference of their first stamps
/// found offsets of seconds on recordings whose streams start apart).
///
/// - Throws: `TimeOffsetError` when either record is too short or does not rotate.
/// - Complexity: O(n + m·L) (`estimateTimeOffset`).
func gyroscopeTimeOffset(_ imu: IMUStream, groundTruth gt: GroundTruthStream) throws -> TimeOffsetEstimate {
    var q = Quaternion.identity
    var poses: [Pose] = [Pose(rotation: q, translation: .zero)]
    poses.reserveCapacity(imu.timestamps.count)
    for k in imu.timestamps.indices.dropLast() {
        let w = imu.gyroscope[k], dt = imu.timestamps[k + 1] - imu.timestamps[k]
        let angle = w.norm * dt
        if angle > 0 { q = (q * Quaternion(axis: w / w.norm, angle: angle)).normalized }
        poses.append(Pose(rotation: q, translation: .zero))
    }
    let gyro = try Trajectory(timestamps: imu.timestamps, poses: poses)
    let truth = try Trajectory(timestamps: gt.timestamps, poses: gt.poses)
    return try estimateTimeOffset(reference: truth, estimate: gyro, maxOffset: 0.5, centre: 0)
}

extension ExperimentSpec {
    /// Gyroscope filters scored against the angular rate of the optical ground truth (`gyro_filters:`).
    public var gyroFilters: [String] { kindSection(GyroFilterKind.specKey, as: [String].self) ?? [] }
}
