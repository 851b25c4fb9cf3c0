import ArgumentParser
import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import NavReport

extension WorldAlignment: ExpressibleByArgument {}

struct AttitudeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attitude",
        abstract: "Orientation error of an estimated orientation stream (e.g. a phone's imu/attitude) against a reference.",
        discussion: """
            Pairs orientations by timestamp as ape does (nearest stamp within --max-diff, --t-offset added to \
            the estimate's stamps), fits R_ref ≈ W·R_est·B (a world rotation W: --align none, yaw about the up \
            axis, full; a body rotation B: --body-rotation none, estimate, or w,x,y,z) by chordal least squares, \
            and summarises the angle of R_ref⁻¹·W·R_est·B in degrees (rmse, mean, median, std, min, max, sse). \
            A trace reference defaults to its groundtruth stream, a trace estimate to imu/attitude. See \
            docs/metrics.md, "Orientation error".
            """)

    @Argument(help: "Reference (ground-truth orientations): a trace, TUM, KITTI, EuRoC file, or a bag / MCAP pose topic.")
    var reference: String
    @Argument(help: "Estimated orientations, the same kinds of file.")
    var estimate: String
    @Option(help: "File format of both files: tum, kitti, euroc, h5 (default: detect from extension, then content).")
    var format: TrajectoryFormat?
    @Option(name: .customLong("ref-stream"), help: "Trace stream of the reference: groundtruth, vio or imu/attitude (default groundtruth).")
    var referenceStream: String?
    @Option(name: .customLong("est-stream"), help: "Trace stream of the estimate: groundtruth, vio or imu/attitude (default imu/attitude).")
    var estimateStream: String?
    @Option(name: .customLong("ref-times"), help: "KITTI times file of the reference.")
    var referenceTimes: String?
    @Option(name: .customLong("est-times"), help: "KITTI times file of the estimate.")
    var estimateTimes: String?
    @Option(help: "World alignment W (on the left): none, yaw (about --up-axis: gravity-aware sensors), full.")
    var align: WorldAlignment = .none
    @Option(name: .customLong("up-axis"), help: "Gravity axis of --align yaw: x, y, z or auto (a trace's +y, else the format's convention).")
    var upAxis: UpAxisOption = .auto
    @Option(
        name: .customLong("body-rotation"),
        help: "Body rotation B (on the right): none, estimate (jointly with W), or a quaternion w,x,y,z (scalar first).")
    var bodyRotation: String = "none"
    @Option(name: .customLong("min-excitation"), help: "Smallest excitation, degrees, for which --body-rotation estimate is made beside W.")
    var minExcitation: Double = 1
    @Option(help: "Timestamp association: nearest (evo), one-to-one (TUM associate.py), interpolation (slerp).")
    var association: AssociationMethod = .nearest
    @Option(name: .customLong("max-diff"), help: "Largest time difference of an associated pair, seconds.")
    var maxDiff: Double = 0.01
    @Option(name: .customLong("t-offset"), parsing: .unconditional, help: "Seconds added to the estimate's timestamps before association.")
    var offset: Double = 0
    @Flag(help: "Print JSON: statistics, pairs, settings, W and B (quaternion w,x,y,z, axis, angle, matrix).")
    var json = false

    /// `--body-rotation` as a value: nil when it is not one.
    static func body(_ text: String) -> BodyRotation? {
        switch text {
        case "none": return BodyRotation.none
        case "estimate": return .estimate
        default:
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { numberFromText($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let w = parts[0], let x = parts[1], let y = parts[2], let z = parts[3] else { return nil }
            guard let q = Quaternion(x: x, y: y, z: z, w: w).unit(tolerance: 1e-3) else { return nil }
            return .given(q)
        }
    }

    func validate() throws {
        guard maxDiff.isFinite && maxDiff >= 0 else { throw ValidationError("--max-diff must be a finite number of seconds ≥ 0, got \(maxDiff)") }
        guard offset.isFinite else { throw ValidationError("--t-offset must be a finite number of seconds, got \(offset)") }
        guard minExcitation.isFinite && minExcitation >= 0 else {
            throw ValidationError("--min-excitation must be a finite number of degrees ≥ 0, got \(minExcitation)")
        }
        if upAxis != .auto && align != .yaw { throw ValidationError("--up-axis applies to --align yaw, not \(align.rawValue)") }
        guard Self.body(bodyRotation) != nil else {
            throw ValidationError(
                "--body-rotation must be none, estimate or a unit quaternion w,x,y,z (scalar first, |‖q‖ − 1| ≤ 0.001), got \(bodyRotation)")
        }
        for (flag, v) in [("--ref-stream", referenceStream), ("--est-stream", estimateStream)] {
            if let v, !orientationStreamNames.contains(v) {
                throw ValidationError("\(flag) must be \(orientationStreamNames.joined(separator: ", ")), got \(v)")
            }
        }
    }

    func run() throws {
        let ref = TrajectorySource(
            path: reference, format: format, stream: referenceStream, timesPath: referenceTimes, readPolicy: commandLineReadPolicy)
        let est = TrajectorySource(
            path: estimate, format: format, stream: estimateStream, timesPath: estimateTimes, readPolicy: commandLineReadPolicy)
        let settings = AttitudeSettings(
            world: align, upAxis: upAxis.axis, body: Self.body(bodyRotation) ?? .none, minimumExcitation: minExcitation * .pi / 180,
            association: association, maxDifference: maxDiff, offset: offset)
        let report = try runReport { () throws(EvaluationError) in try evaluateAttitude(reference: ref, estimate: est, settings: settings) }
        print(json ? try jsonText(report) : report.text, terminator: json ? "\n" : "")
    }
}
