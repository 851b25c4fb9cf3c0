import ArgumentParser
import Foundation
import NavGeometry
import NavIO
import NavMetrics
import NavReport

// The commands parse and validate, then call one NavReport function each (the same
// functions the tests call), and print its report.

extension TrajectoryFormat: ExpressibleByArgument {}
extension AlignmentMethod: ExpressibleByArgument {}
extension PoseRelation: ExpressibleByArgument {}
extension DeltaUnit: ExpressibleByArgument {}
extension RPEPairing: ExpressibleByArgument {}
extension AssociationMethod: ExpressibleByArgument {}
extension RDPDistance: ExpressibleByArgument {}
extension RoutePlane: ExpressibleByArgument {}

/// Options shared by `ape` and `rpe`.
struct TrajectoryPairOptions: ParsableArguments {
    @Argument(help: "Reference trajectory (ground truth).") var reference: String
    @Argument(help: "Estimated trajectory.") var estimate: String
    @Option(help: "File format of both files: tum, kitti, euroc, h5 (default: detect from extension, then content).")
    var format: TrajectoryFormat?
    @Option(name: .customLong("ref-stream"), help: "HDF5 stream of the reference: groundtruth or vio (default groundtruth).")
    var referenceStream: String?
    @Option(name: .customLong("est-stream"), help: "HDF5 stream of the estimate: groundtruth or vio (default vio).")
    var estimateStream: String?
    @Option(name: .customLong("ref-times"), help: "KITTI times file of the reference (one timestamp per line).")
    var referenceTimes: String?
    @Option(name: .customLong("est-times"), help: "KITTI times file of the estimate.")
    var estimateTimes: String?
    @Option(help: "Alignment of the estimate: se3, sim3, yaw (4-DoF about the up axis), posyaw (rpg), origin, none.")
    var align: AlignmentMethod = .none
    @Option(
        name: .customLong("up-axis"),
        help: "Gravity axis of --align yaw/posyaw: x, y, z or auto (the format's convention, else the reference's flattest axis).")
    var upAxis: UpAxisOption = .auto
    @Option(name: .customLong("n-to-align"), help: "Align on the first N pairs only (evo's --n_to_align; default all).")
    var nToAlign: Int?
    @Option(help: "Timestamp association: nearest (evo), one-to-one (TUM associate.py), interpolation (lerp/slerp).")
    var association: AssociationMethod = .nearest
    @Option(name: .customLong("max-diff"), help: "Largest time difference of an associated pair, seconds.")
    var maxDiff: Double = 0.01
    @Option(name: .customLong("t-offset"), parsing: .unconditional, help: "Seconds added to the estimate's timestamps before association.")
    var offset: Double = 0
    @Flag(name: .customLong("estimate-t-offset"), help: "Find the time offset by cross-correlating angular speeds (replaces --t-offset).")
    var estimateOffset = false
    @Option(name: .customLong("max-t-offset"), help: "Largest |offset| --estimate-t-offset searches, seconds (default half the shorter duration).")
    var maxOffset: Double?
    @Flag(help: "Print JSON: statistics (rmse, mean, median, std, min, max, sse), pairs and settings.")
    var json = false
    @Option(
        name: .customLong("protocol"),
        help:
            "A published protocol instead: kitti, tum-rpe (rpe); evaal, hilti (ape); ipin (score: a ground-truth CSV and an .est file). See docs/metrics.md."
    )
    var evaluationProtocol: EvaluationProtocol?

    func validate() throws {
        guard maxDiff.isFinite && maxDiff >= 0 else { throw ValidationError("--max-diff must be a finite number of seconds ≥ 0, got \(maxDiff)") }
        guard offset.isFinite else { throw ValidationError("--t-offset must be a finite number of seconds, got \(offset)") }
        if estimateOffset && offset != 0 { throw ValidationError("--estimate-t-offset finds the offset itself; drop --t-offset") }
        if let maxOffset, !(maxOffset.isFinite && maxOffset > 0) {
            throw ValidationError("--max-t-offset must be a positive number of seconds, got \(maxOffset)")
        }
        if maxOffset != nil && !estimateOffset { throw ValidationError("--max-t-offset needs --estimate-t-offset") }
        if let nToAlign, nToAlign < 1 { throw ValidationError("--n-to-align must be ≥ 1, got \(nToAlign)") }
        if upAxis != .auto && !align.isYawOnly { throw ValidationError("--up-axis applies to --align yaw or posyaw, not \(align.rawValue)") }
        for (flag, v) in [("--ref-stream", referenceStream), ("--est-stream", estimateStream)] {
            if let v, v != "groundtruth" && v != "vio" { throw ValidationError("\(flag) must be groundtruth or vio, got \(v)") }
        }
    }

    var sources: (TrajectorySource, TrajectorySource) {
        (
            TrajectorySource(path: reference, format: format, stream: referenceStream, timesPath: referenceTimes, readPolicy: commandLineReadPolicy),
            TrajectorySource(path: estimate, format: format, stream: estimateStream, timesPath: estimateTimes, readPolicy: commandLineReadPolicy)
        )
    }

    var settings: EvaluationSettings {
        EvaluationSettings(
            alignment: align, association: association, maxDifference: maxDiff, offset: offset,
            upAxis: upAxis.axis, alignCount: nToAlign, estimateOffset: estimateOffset, maxOffset: maxOffset)
    }
}

/// `--up-axis`: an axis or auto.
enum UpAxisOption: String, ExpressibleByArgument, CaseIterable {
    case x, y, z, auto
    var axis: UpAxis? { UpAxis(rawValue: rawValue) }
}

/// Encodes a report as sorted, indented JSON; a non-finite number as the string "nan", "inf" or
/// "-inf" (JSON has none).
func jsonText<T: Encodable>(_ value: T) throws -> String {
    let enc = JSONEncoder()
    enc.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    enc.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return String(decoding: try enc.encode(value), as: UTF8.self)
}

/// Runs a report function; a failure is printed as one line and exits 1.
func runReport<T>(_ body: () throws(EvaluationError) -> T) throws -> T {
    do { return try body() } catch {
        printErrorLine(error)
        throw failureStatus(error)
    }
}

struct APECommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ape",
        abstract: "Absolute pose error of an estimated trajectory against a reference (as evo_ape).",
        discussion: """
            Pairs poses by timestamp (evo's nearest stamp within --max-diff by default), aligns the estimate \
            (--align), and summarises the error of the chosen --relation. The statistics equal evo 1.38.1's \
            for the same options (see docs/metrics.md).
            """)

    @OptionGroup var pair: TrajectoryPairOptions
    @OptionGroup var outputs: EvaluationOutputOptions
    @Option(help: "Pose relation: translation_part, rotation_angle_deg, rotation_angle_rad, rotation_part, full_transformation, point_distance.")
    var relation: PoseRelation = .translationPart

    func validate() throws {
        if relation == .pointDistanceErrorRatio {
            throw ValidationError("--relation point_distance_error_ratio is an RPE relation; APE does not support it")
        }
    }

    func run() throws {
        if let p = pair.evaluationProtocol { return try pair.runProtocol(p, command: "ape") }
        let (ref, est) = pair.sources
        try outputs.checkPaths()
        let (report, prepared) = try runReport { () throws(EvaluationError) in
            let p = try prepareTrajectoryPair(reference: ref, estimate: est, settings: pair.settings)
            return (try apeReport(p, relation: relation, settings: p.settings), p)
        }
        for w in report.context.warnings { printError("navbench: warning: \(w)") }
        try outputs.write(report, prepared)
        print(pair.json ? try jsonText(report) : report.text, terminator: pair.json ? "\n" : "")
    }
}

struct RPECommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rpe",
        abstract: "Relative pose error over pose pairs a delta apart (as evo_rpe).",
        discussion: """
            Pairs are a --delta apart in frames (f), metres of path (m) or seconds (s), consecutive or \
            --all-pairs. --pairing evo (default) chooses metre/second pairs on the estimate exactly as evo 1.38.1; \
            --pairing reference chooses them on the ground truth (the same segments for every estimate); \
            --pairing evo-legacy reproduces older evo releases that skipped the first segment.
            """)

    @OptionGroup var pair: TrajectoryPairOptions
    @OptionGroup var outputs: EvaluationOutputOptions
    @Option(help: "Pose relation (APE's plus point_distance_error_ratio).")
    var relation: PoseRelation = .translationPart
    @Option(help: "Distance between the poses of a pair, in --delta-unit.")
    var delta: Double = 1
    @Option(name: .customLong("delta-unit"), help: "Unit of --delta: f (frames), m (metres of path), s (seconds).")
    var deltaUnit: DeltaUnit = .frames
    @Flag(name: .customLong("all-pairs"), help: "Use every pair a delta apart, not consecutive pairs.")
    var allPairs = false
    @Option(help: "Who chooses metre/second pairs: evo (the estimate, as evo), reference (the ground truth), evo-legacy.")
    var pairing: RPEPairing = .evo
    @Option(name: .customLong("delta-tolerance"), help: "All-pairs mode: accepted relative deviation from --delta (evo's rel_delta_tol).")
    var deltaTolerance: Double = 0.1

    func validate() throws {
        guard delta.isFinite && delta > 0 else { throw ValidationError("--delta must be a positive number, got \(delta)") }
        if deltaUnit == .frames && delta != delta.rounded() {
            throw ValidationError("--delta must be a whole number of frames with --delta-unit f, got \(delta)")
        }
        guard deltaTolerance.isFinite && deltaTolerance >= 0 else { throw ValidationError("--delta-tolerance must be ≥ 0, got \(deltaTolerance)") }
    }

    func run() throws {
        if let p = pair.evaluationProtocol {
            return try pair.runProtocol(p, command: "rpe", tumDelta: (delta != 1 || deltaUnit != .frames) ? (delta, deltaUnit) : nil)
        }
        let (ref, est) = pair.sources
        let options = RPEOptions(delta: delta, unit: deltaUnit, allPairs: allPairs, relativeTolerance: deltaTolerance, pairing: pairing)
        try outputs.checkPaths()
        let (report, prepared) = try runReport { () throws(EvaluationError) in
            let p = try prepareTrajectoryPair(reference: ref, estimate: est, settings: pair.settings)
            return (try rpeReport(p, relation: relation, options: options, settings: p.settings), p)
        }
        for w in report.context.warnings { printError("navbench: warning: \(w)") }
        try outputs.write(report, prepared)
        print(pair.json ? try jsonText(report) : report.text, terminator: pair.json ? "\n" : "")
    }
}

struct SimplifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simplify",
        abstract: "Ramer–Douglas–Peucker keypoints of a trajectory (Clew's route simplification) and how faithful they are.",
        discussion: """
            Prints kept_indices, the kept count, the largest deviation of a crumb from the simplified route and \
            the length ratio. Several --tolerance values give a sweep. --distance line is Clew's rule (distance \
            to the infinite line; Clew uses 0.3 m in 3-D); segment is shapely's / simplification's.
            """)

    @Argument(help: "Trajectory file (tum, kitti, euroc or h5).") var file: String
    @Option(name: .customLong("tolerance"), help: "RDP tolerance in metres; repeat for a sweep.") var tolerances: [Double] = []
    @Option(help: "Distance: line (Clew, rdp) or segment (shapely, simplification).") var distance: RDPDistance = .line
    @Option(help: "Coordinates: xyz (3-D), xz (ARKit floor plane) or xy.") var plane: RoutePlane = .xyz
    @Option(help: "File format (default: detect).") var format: TrajectoryFormat?
    @Option(help: "HDF5 stream: groundtruth or vio (default groundtruth if present).") var stream: String?
    @Option(help: "KITTI times file.") var times: String?
    @Flag(help: "Print JSON: one object, or an array for a sweep.") var json = false

    func validate() throws {
        guard !tolerances.isEmpty else { throw ValidationError("give at least one --tolerance (metres), e.g. --tolerance 0.3") }
        for t in tolerances where !(t.isFinite && t >= 0) { throw ValidationError("--tolerance must be a finite number of metres ≥ 0, got \(t)") }
        if let stream, stream != "groundtruth" && stream != "vio" { throw ValidationError("--stream must be groundtruth or vio, got \(stream)") }
    }

    func run() throws {
        let source = TrajectorySource(path: file, format: format, stream: stream, timesPath: times, readPolicy: commandLineReadPolicy)
        let results = try runReport { () throws(EvaluationError) in
            try simplifyTrajectory(source, tolerances: tolerances, distance: distance, plane: plane)
        }
        if json {
            print(results.count == 1 ? try jsonText(results[0]) : try jsonText(results))
            return
        }
        for r in results {
            print(
                "tolerance \(r.tolerance) m (\(r.distance.rawValue), \(r.plane.rawValue)): kept \(r.keptCount) of \(r.crumbCount) points, "
                    + "max deviation \(String(format: "%.4f", r.maxDeviation)) m at point \(r.maxDeviationIndex), "
                    + "length ratio \(String(format: "%.4f", r.lengthRatio))")
            print("kept_indices: " + r.keptIndices.map(String.init).joined(separator: " "))
        }
    }
}
