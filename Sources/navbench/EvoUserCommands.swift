import ArgumentParser
import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import NavReport

extension PlotPlane: ExpressibleByArgument {}
extension ResultsFormat: ExpressibleByArgument {}

/// `--save-results` and `--plot` of `ape` and `rpe`.
struct EvaluationOutputOptions: ParsableArguments {
    @Option(
        name: .customLong("save-results"),
        help: "Folder for per-pair results: stats.json, errors.csv/json, poses.csv/json (aligned estimate), aligned.h5.")
    var saveResults: String?
    @Option(help: "Write an SVG: the trajectories coloured by error, and the error over time.")
    var plot: String?
    @Option(name: .customLong("plot-plane"), help: "Plane of --plot: xy, xz, yz, zx, yx, zy (default: the floor plane of the up axis).")
    var plotPlane: PlotPlane?

    func validate() throws {
        if let plot, !plot.lowercased().hasSuffix(".svg") { throw ValidationError("--plot writes SVG; give a file name ending in .svg, got \(plot)") }
        if plotPlane != nil && plot == nil { throw ValidationError("--plot-plane needs --plot FILE.svg") }
    }

    /// Refuses outputs that would replace an input, a device or the inputs' folder (exit 73),
    /// before any work is done.
    func checkPaths() throws {
        try checkOutput(saveResults, flag: "--save-results", folder: true)
        try checkOutput(plot, flag: "--plot")
    }

    func plane(_ p: PreparedPair) -> PlotPlane {
        plotPlane ?? PlotPlane.floor(of: p.settings.upAxis ?? resolveUpAxis(nil, reference: p.reference).0)
    }

    /// Writes the outputs; one that cannot be written is one line and exit status 73.
    func write<Report: PoseErrorReport>(_ r: Report, _ p: PreparedPair) throws {
        do {
            if let dir = saveResults { try saveEvaluation(r, pair: p, to: dir) }
            if let plot { try writeTextAtomically(errorPlotSVG(ErrorPlotData(r, pair: p, plane: plane(p))), to: plot) }
        } catch {
            printErrorLine(error)
            throw ExitCode(73)
        }
    }
}

struct ResCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "res",
        abstract: "Tabulate saved APE/RPE results side by side (as evo_res), with box plots.",
        discussion: """
            Each RESULT is a folder written by `navbench ape|rpe --save-results` (or its stats.json). The table \
            has one row per result: name (the estimate's file name), metric, relation, unit, pairs and evo's \
            statistics, read from stats.json (the --json output, unchanged). --json prints those reports as one array.
            """)

    @Argument(help: "Result folders written by --save-results.") var results: [String]
    @Option(help: "Table format: table, csv, markdown.") var format: ResultsFormat = .table
    @Option(help: "Write the table to this file as well (atomically).") var out: String?
    @Option(help: "Write box plots of the errors to this SVG file.") var plot: String?
    @Flag(help: "Print the saved --json reports as one JSON array.") var json = false

    func validate() throws {
        guard !results.isEmpty else { throw ValidationError("give at least one result folder (navbench ape … --save-results DIR)") }
        if let plot, !plot.lowercased().hasSuffix(".svg") { throw ValidationError("--plot writes SVG; give a file name ending in .svg, got \(plot)") }
    }

    func run() throws {
        // The files of the result folders are inputs too: --out r1/stats.json must not replace one.
        let resultFiles = results.flatMap { r -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: r)) ?? []
            return names.map { (r as NSString).appendingPathComponent($0) }
        }
        try checkOutput(out, extraInputs: resultFiles)
        try checkOutput(plot, flag: "--plot", extraInputs: resultFiles)
        var loaded: [SavedEvaluation] = []
        var failures: [String] = []
        for r in results {
            do { loaded.append(try loadSavedEvaluation(r)) } catch {
                printErrorLine(error)
                failures.append(r)
            }
        }
        if !loaded.isEmpty {
            let text = json ? "[\n" + loaded.map(\.statsJSON).joined(separator: ",\n") + "\n]\n" : resultsTable(loaded, format: format)
            print(text, terminator: "")
            do {
                if let out { try writeTextAtomically(text, to: out) }
                if let plot { try writeTextAtomically(resultsBoxPlotSVG(loaded), to: plot) }
            } catch {
                printErrorLine(error)
                throw failureStatus(error)
            }
        }
        if !failures.isEmpty {
            // The one error style (docs/exit-codes.md): the prefix, one line, names escaped.
            printError(
                "navbench: error: \(failures.count) of \(results.count) results could not be read: "
                    + escapedForMessage(failures.joined(separator: ", "), limit: 400))
            throw ExitCode(1)
        }
    }
}

extension SegmentAnchoring: ExpressibleByArgument {}
extension QuantileMethod: ExpressibleByArgument {}

struct DriftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drift",
        abstract: "Segment drift (KITTI), RTE (RoNIN) and end-point drift (TLIO) of an estimate against a reference.",
        discussion: """
            Pairs and aligns as `navbench ape` (same options). Segment drift: for start frames every --step pairs \
            and each --length L (default 10…50 % of the reference path, as rpg_trajectory_evaluation; --kitti for \
            100…800 m), the first frame past L metres of reference path ends the segment; translation drift in % \
            of L, rotation in deg/m (docs/metrics.md, Drift). With --kitti and se3 anchoring the segments are the \
            KITTI devkit's: its rotation error (acos of the trace) on the files' printed matrices, inverted in \
            general, equal to the devkit's figures.
            """)

    @OptionGroup var pair: TrajectoryPairOptions
    @Option(name: .customLong("length"), help: "Segment length in metres; repeat for several (default: 10…50 % of the reference path).")
    var lengths: [Double] = []
    @Flag(help: "The KITTI devkit's segment drift: lengths 100, 200, …, 800 m, its rotation error on the printed matrices.")
    var kitti = false
    @Option(help: "Start a segment every N associated poses (KITTI devkit: 10).") var step = 10
    @Option(help: "Segment anchoring: se3 (KITTI, relative motion) or yaw (rpg posyaw, tilt errors count).")
    var anchoring: SegmentAnchoring = .se3
    @Option(name: .customLong("rte-window"), help: "RTE window in seconds (RoNIN: 60).") var rteWindow = 60.0

    func validate() throws {
        if kitti && !lengths.isEmpty { throw ValidationError("give --length values or --kitti, not both") }
        for l in lengths where !(l.isFinite && l > 0) { throw ValidationError("--length must be a positive number of metres, got \(l)") }
        guard step >= 1 else { throw ValidationError("--step must be at least 1 pose, got \(step)") }
        guard rteWindow.isFinite && rteWindow > 0 else { throw ValidationError("--rte-window must be positive seconds, got \(rteWindow)") }
    }

    func run() throws {
        let (ref, est) = pair.sources
        let options = DriftOptions(
            lengths: kitti ? DriftOptions.kittiLengths : (lengths.isEmpty ? nil : lengths), step: step,
            anchoring: anchoring, rteWindow: rteWindow, devkit: kitti)
        let report = try runReport { () throws(EvaluationError) in
            try driftReport(try prepareTrajectoryPair(reference: ref, estimate: est, settings: pair.settings), options: options)
        }
        for w in report.context.warnings { printError("navbench: warning: \(w)") }
        print(pair.json ? try jsonText(report) : report.text, terminator: pair.json ? "\n" : "")
    }
}

struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Positioning scores: CE50/CE95 (ISO/IEC 18305), the IPIN score, and the registration error of the alignment.",
        discussion: """
            Pairs and aligns as `navbench ape` (same options). Horizontal errors are measured in the plane normal to \
            the up axis (--up-axis, or the format's convention). IPIN: 75th percentile (Hazen) of horizontal error + \
            15 m per floor of error (floors from --floor-height). Registration: the --align transform against the \
            best rigid (SE(3) Umeyama) registration of all pairs, with the error it induces at the estimate's positions.
            """)

    @OptionGroup var pair: TrajectoryPairOptions
    @Option(name: .customLong("floor-height"), help: "Storey height in metres: floor = ⌊height / this⌋ along the up axis (default: no floors).")
    var floorHeight: Double?
    @Option(name: .customLong("floor-penalty"), help: "IPIN penalty per floor of error, metres.") var floorPenalty = 15.0
    @Option(name: .customLong("quantile-method"), help: "Quantile method of CE50/CE95 (numpy's names; default hazen as IPIN).")
    var quantileMethod: QuantileMethod = .hazen
    @Option(
        name: .customLong("venue-altitude"),
        help: "With --protocol ipin: the height of every point in the WGS84 → NED conversion, metres (the 2023 venue's 314 by default).")
    var venueAltitude: Double?

    func validate() throws {
        if let venueAltitude, !venueAltitude.isFinite { throw ValidationError("--venue-altitude must be finite metres, got \(venueAltitude)") }
        if pair.evaluationProtocol == .kaggleIndoor {
            if pair.align != .none || pair.format != nil || floorHeight != nil || pair.association != .nearest || pair.offset != 0
                || pair.estimateOffset || quantileMethod != .hazen || pair.referenceStream != nil || pair.estimateStream != nil
                || venueAltitude != nil
            {
                throw ValidationError(
                    "--protocol kaggle-indoor reads the competition's CSV files (site_path_timestamp,floor,x,y); only --floor-penalty and --json apply"
                )
            }
        } else if pair.evaluationProtocol == .ipin {
            // The trajectory-pair flags have no meaning for the organisers' files: refused, never ignored.
            if pair.align != .none || pair.format != nil || floorHeight != nil || pair.association != .nearest || pair.offset != 0
                || pair.estimateOffset || quantileMethod != .hazen || pair.referenceStream != nil || pair.estimateStream != nil
            {
                throw ValidationError(
                    "--protocol ipin reads the organisers' ground-truth CSV and .est file as their script does; --align, --format, --floor-height, --association, --t-offset, --quantile-method and the stream flags do not apply"
                )
            }
        } else if venueAltitude != nil {
            throw ValidationError("--venue-altitude belongs to --protocol ipin")
        }
        if let floorHeight, !(floorHeight.isFinite && floorHeight >= 0.5 && floorHeight <= 1000) {
            throw ValidationError("--floor-height must be a storey's height, 0.5 to 1000 metres, got \(floorHeight)")
        }
        guard floorPenalty.isFinite && floorPenalty >= 0 else { throw ValidationError("--floor-penalty must be ≥ 0 metres, got \(floorPenalty)") }
    }

    func run() throws {
        if let p = pair.evaluationProtocol {
            if p == .kaggleIndoor { return try runKaggleIndoor() }
            guard p == .ipin else { return try pair.runProtocol(p, command: "score") }
            return try runIPIN()
        }
        let (ref, est) = pair.sources
        let options = ScoreOptions(floorHeight: floorHeight, floorPenalty: floorPenalty, quantileMethod: quantileMethod)
        let report = try runReport { () throws(EvaluationError) in
            try scoreReport(try prepareTrajectoryPair(reference: ref, estimate: est, settings: pair.settings), options: options)
        }
        for w in report.context.warnings { printError("navbench: warning: \(w)") }
        print(pair.json ? try jsonText(report) : report.text, terminator: pair.json ? "\n" : "")
    }
}

extension ScoreCommand {
    /// `--protocol kaggle-indoor`: the competition's mean position error (`kaggleIndoorEvaluation`).
    func runKaggleIndoor() throws {
        let s: KaggleIndoorScore
        do { s = try kaggleIndoorEvaluation(groundTruth: pair.reference, submission: pair.estimate, floorPenalty: floorPenalty) } catch let e
            as KaggleIndoorError
        {
            printErrorLine(e)
            throw ExitCode(1)
        }
        if pair.json {
            print(try jsonText(s))
            return
        }
        print("kaggle-indoor: \(EvaluationProtocol.kaggleIndoor.source)")
        for (name, value, unit) in [
            ("mean position error", s.meanPositionError, "m"), ("mean horizontal error", s.meanHorizontalError, "m"),
            ("floor hit rate", 100 * s.floorHitRate, "%"),
        ] {
            print(name.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "%.3f %@", value, unit))
        }
        print("points".padding(toLength: 30, withPad: " ", startingAt: 0) + "\(s.points)")
    }

    /// `--protocol ipin`: the organisers' evaluation of the two files (`ipinTrack3Evaluation`).
    func runIPIN() throws {
        let e = try ipinTrack3Evaluation(
            groundTruth: pair.reference, estimates: pair.estimate, venueAltitude: venueAltitude ?? ipin2023VenueAltitude,
            floorPenalty: floorPenalty)
        if pair.json {
            struct Report: Encodable {
                var score: IPINTrack3Score
                var swapped_coordinates: Bool, venue_altitude_m: Double, ground_truth: String, estimates: String
                func encode(to encoder: Encoder) throws {
                    try score.encode(to: encoder)
                    enum Keys: String, CodingKey { case swapped_coordinates, venue_altitude_m, ground_truth, estimates }
                    var c = encoder.container(keyedBy: Keys.self)
                    try c.encode(swapped_coordinates, forKey: .swapped_coordinates)
                    try c.encode(venue_altitude_m, forKey: .venue_altitude_m)
                    try c.encode(ground_truth, forKey: .ground_truth)
                    try c.encode(estimates, forKey: .estimates)
                }
            }
            let report = Report(
                score: e.score, swapped_coordinates: e.swappedCoordinates, venue_altitude_m: e.venueAltitude, ground_truth: pair.reference,
                estimates: pair.estimate)
            print(try jsonText(report))
            return
        }
        let s = e.score
        print("ipin: \(EvaluationProtocol.ipin.source)")
        if e.swappedCoordinates { print("note: columns 5 and 6 of the estimates were latitude, longitude; swapped back (the organisers' rule)") }
        for (name, value, unit) in [
            ("IPIN score (third quartile)", s.ipinScore, "m"), ("mean", s.mean, "m"), ("RMSE", s.rmse, "m"), ("median", s.median, "m"),
            ("95th percentile", s.p95, "m"), ("floor hit rate", 100 * s.floorHitRate, "%"), ("mean horizontal error", s.meanHorizontalError, "m"),
        ] {
            print(name.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "%.2f %@", value, unit))
        }
        print("points (estimate within 0.5 s)".padding(toLength: 30, withPad: " ", startingAt: 0) + "\(s.points) of \(s.referencePoints)")
    }
}
