import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics

/// Published evaluation protocols (`navbench rpe|ape --protocol NAME`); docs/metrics.md
/// ("Protocol presets") names each one's source.
public enum EvaluationProtocol: String, Sendable, CaseIterable, Codable {
    /// KITTI odometry devkit: translation % and rotation deg/m over 100…800 m sub-sequences.
    case kitti
    /// TUM RGB-D `evaluate_rpe.py --fixed_delta`: RPE per second (delta 1 s by default).
    case tumRPE = "tum-rpe"
    /// EvAAL / IPIN competition: 75th percentile of the horizontal error (+15 m per floor).
    case evaal
    /// Hilti SLAM Challenge: control-point threshold score after an SE(3) alignment.
    case hilti
    /// IPIN 2023 Track 3: the organisers' evaluation of a ground-truth CSV and a competitor's
    /// `.est` file (`ipinTrack3Evaluation`; not a trajectory pair).
    case ipin
    /// Indoor Location & Navigation (Kaggle 2021): the mean position error of a submission CSV
    /// against the ground truth (`kaggleIndoorEvaluation`; not a trajectory pair).
    case kaggleIndoor = "kaggle-indoor"

    /// The command the protocol belongs to.
    public var command: String {
        switch self {
        case .kitti, .tumRPE: "rpe"
        case .evaal, .hilti: "ape"
        case .ipin, .kaggleIndoor: "score"
        }
    }

    public var source: String {
        switch self {
        case .kitti: "KITTI odometry devkit evaluate_odometry.cpp (Geiger et al., CVPR 2012)"
        case .tumRPE: "TUM RGB-D benchmark evaluate_rpe.py --fixed_delta (Sturm et al., IROS 2012)"
        case .evaal: "EvAAL/IPIN competition score: 75th percentile (Hazen) of horizontal error + 15 m per floor"
        case .hilti: "Hilti SLAM Challenge 2022 control-point score (Zhang et al., RA-L 2023)"
        case .ipin: "IPIN 2023 Track 3 evaluation (evaluateCompetitor2023.m): third quartile of horizontal error (WGS84 → NED) + 15 m per floor"
        case .kaggleIndoor:
            "Indoor Location & Navigation (Kaggle, Microsoft Research and XYZ10, 2021): mean of horizontal error + 15 m per floor of error"
        }
    }
}

/// The figures of one protocol.
public struct ProtocolReport: Sendable, Codable {
    public var protocolName: String
    public var source: String
    public var referencePath: String
    public var estimatePath: String
    /// Named figures in print order (name, value, unit).
    public var figures: [Figure]
    public var kitti: KITTIOdometryError?
    public var tum: TUMRPEResult?
    public var controlPoints: ControlPointScore?

    public struct Figure: Sendable, Codable, Equatable {
        public var name: String
        public var value: Double
        public var unit: String
    }

    /// One figure per line, then KITTI's per-length table.
    public var text: String {
        var lines = ["\(protocolName): \(source)"]
        for f in figures {
            let v = f.value == f.value.rounded() && abs(f.value) < 1e15 ? String(Int(f.value)) : String(format: "%.6f", f.value)
            lines.append("\(f.name + String(repeating: " ", count: max(1, 28 - f.name.count)))\(v)\(f.unit.isEmpty ? "" : " " + f.unit)")
        }
        if let k = kitti {
            for l in k.perLength {
                lines.append(
                    String(
                        format: "  %4.0f m: %5d segments, %.6f %%, %.6f deg/m", l.length, l.segments, l.translationPercent, l.rotationDegreesPerMetre)
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Evaluates a protocol on two trajectory files, with the protocol's own settings:
///
/// - `kitti`: poses paired as `navbench rpe` pairs them (by index for KITTI files without
///   times), no alignment, then `kittiOdometryError`;
/// - `tum-rpe`: both trajectories as read (the script associates by itself), `tumRelativePoseError`
///   with `tum` (delta 1 s, 10,000 pairs, seed 0 by default);
/// - `evaal`: pairs and alignment of `settings` (default none: the venue frame), horizontal
///   error in the plane perpendicular to the file's up axis (y for traces and KITTI, z for TUM,
///   EuRoC and ROS recordings), floors equal (trajectory files carry none), `ipinScore`;
/// - `hilti`: the reference is the control points; pairs of `settings`, SE(3) alignment
///   (Umeyama) over them, 3-D position errors, `controlPointScore` with the 2022 table.
///
/// - Throws: `EvaluationError` naming the file or the failed step.
public func evaluateProtocol(
    _ p: EvaluationProtocol, reference: TrajectorySource, estimate: TrajectorySource,
    settings: EvaluationSettings, tum: TUMRPEOptions = TUMRPEOptions()
) throws(EvaluationError) -> ProtocolReport {
    var report = ProtocolReport(protocolName: p.rawValue, source: p.source, referencePath: reference.path, estimatePath: estimate.path, figures: [])
    func figure(_ n: String, _ v: Double, _ u: String) { report.figures.append(.init(name: n, value: v, unit: u)) }
    switch p {
    case .kitti:
        var s = settings
        s.alignment = .none
        let pair = try prepareTrajectoryPair(reference: reference, estimate: estimate, settings: s)
        let k: KITTIOdometryError
        do {
            // The printed matrices when the files print them (KITTI), as the devkit reads them.
            if let printed = pair.printedPoses {
                k = try kittiOdometryError(reference: printed.reference, estimate: printed.alignedEstimate)
            } else {
                k = try kittiOdometryError(reference: pair.associated.reference, estimate: pair.associated.estimate)
            }
        } catch { throw .metric(error) }
        figure("translation_error", k.translationPercent, "%")
        figure("rotation_error", k.rotationDegreesPerMetre, "deg/m")
        figure("segments", Double(k.segments.count), "")
        report.kitti = k
    case .tumRPE:
        let ref: TrajectoryFile, est: TrajectoryFile
        do {
            ref = try reference.read(defaultStream: "groundtruth")
            est = try estimate.read(defaultStream: "vio")
        } catch { throw .input(error) }
        let r: TUMRPEResult
        do {
            r = try tumRelativePoseError(
                referenceTimes: ref.trajectory.timestamps, reference: ref.trajectory.poses.values,
                estimateTimes: est.trajectory.timestamps, estimate: est.trajectory.poses.values, options: tum)
        } catch { throw .metric(error) }
        figure("compared_pose_pairs", Double(r.pairs.count), "pairs")
        for (n, v) in [
            ("rmse", r.translation.rmse), ("mean", r.translation.mean), ("median", r.translation.median),
            ("std", r.translation.std), ("min", r.translation.min), ("max", r.translation.max),
        ] {
            figure("translational_error.\(n)", v, "m")
        }
        for (n, v) in [
            ("rmse", r.rotationDegrees.rmse), ("mean", r.rotationDegrees.mean), ("median", r.rotationDegrees.median),
            ("std", r.rotationDegrees.std), ("min", r.rotationDegrees.min), ("max", r.rotationDegrees.max),
        ] {
            figure("rotational_error.\(n)", v, "deg")
        }
        report.tum = r
    case .evaal:
        let pair = try prepareTrajectoryPair(reference: reference, estimate: estimate, settings: settings)
        let yUp = pair.reference.format == .h5 || pair.reference.format == .kitti
        let h = zip(pair.associated.reference, pair.alignedEstimate).map { q, p -> Double in
            let d = p.translation - q.translation
            return yUp ? Double.hypot(d.x, d.z) : Double.hypot(d.x, d.y)
        }
        let score: Double
        do { score = try ipinScore(horizontalErrors: h, floorErrors: Array(repeating: 0, count: h.count)) } catch { throw .metric(error) }
        figure("score_p75", score, "m")
        figure("points", Double(h.count), "")
    case .hilti:
        var s = settings
        s.alignment = .se3
        let pair = try prepareTrajectoryPair(reference: reference, estimate: estimate, settings: s)
        let errors = zip(pair.associated.reference, pair.alignedEstimate).map { ($1.translation - $0.translation).norm }
        let c: ControlPointScore
        do { c = try controlPointScore(errors: errors) } catch { throw .metric(error) }
        figure("score", c.percent, "%")
        figure("control_points", Double(errors.count), "")
        report.controlPoints = c
    case .ipin:
        throw .pairing("ipin scores a ground-truth CSV and an .est file, not a trajectory pair: navbench score --protocol ipin GT.csv EST.est")
    case .kaggleIndoor:
        throw .pairing(
            "kaggle-indoor scores a ground-truth CSV and a submission CSV, not a trajectory pair: navbench score --protocol kaggle-indoor GT.csv SUBMISSION.csv"
        )
    }
    return report
}
