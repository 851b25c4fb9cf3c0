import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavImport
import NavMetrics
import NavReport
import NavSignal

// `navbench steps`, `navbench turns` and `navbench pdr`: step and turn detection from a phone's
// IMU, scored against hand annotations by WeAllWalk's protocol (docs/pdr.md).

extension StepDetector.Method: ExpressibleByArgument {}
extension StepDetector.AccelerationSignal: ExpressibleByArgument {}

/// The step detector's options; unset ones keep the default detector's values.
struct StepDetectorOptions: ParsableArguments {
    @Option(help: "peak, zero-crossing or gyroscope (default: the detector chosen on WeAllWalk, docs/pdr.md).")
    var detector: StepDetector.Method?
    @Option(help: "Acceleration signal of peak and zero-crossing: magnitude or vertical.") var signal: StepDetector.AccelerationSignal?
    @Option(help: "Filter spec applied before detection (navbench filter's specs), or none.") var filter: String?
    @Option(help: "Fewest seconds between two steps.") var interval: Double?
    @Option(help: "Adaptive threshold, in local standard deviations.") var threshold: Double?
    @Option(help: "Peak detector: least height above the local mean, m/s².") var height: Double?
    @Option(help: "Window of the local mean and deviation, s; 0 for fixed thresholds (find_peaks(height=…)).") var window: Double?

    func validate() throws {
        if let filter, filter != "none" {
            do { _ = try FilterSpec(parsing: filter) } catch { throw ValidationError(error.description) }
        }
        if let p = (try? resolved())?.problem() { throw ValidationError(p) }
    }

    func resolved() throws -> StepDetector {
        var d = StepDetector.chosenOnWeAllWalk
        if let detector {
            d.method = detector
            d.signal = detector == .zeroCrossing ? .vertical : .magnitude  // as the sweep pairs them; --signal overrides
        }
        if let signal { d.signal = signal }
        if let filter { d.filter = filter == "none" ? nil : try FilterSpec(parsing: filter) }
        if let interval { d.minimumInterval = interval }
        if let threshold { d.threshold = threshold }
        if let height { d.minimumHeight = height }
        if let window { d.window = window }
        return d
    }
}

/// What `steps --json` prints for one file.
struct StepsOutput: Encodable {
    var file: String
    var detector: String
    var steps: [Double]
    /// Against the trace's hand-annotated heel strikes, when it has them.
    var score: StepScoreOutput?
}

struct StepScoreOutput: Encodable {
    var trueSteps: Int, detectedSteps: Int, under1: Int, over1: Int, under3: Int, over3: Int
    var under1Rate: Double, over1Rate: Double, under3Rate: Double, over3Rate: Double, cadenceError: Double
    init(_ s: StepCountScore) {
        trueSteps = s.trueSteps; detectedSteps = s.detectedSteps; under1 = s.under1; over1 = s.over1; under3 = s.under3; over3 = s.over3
        under1Rate = s.under1Rate; over1Rate = s.over1Rate; under3Rate = s.under3Rate; over3Rate = s.over3Rate; cadenceError = s.cadenceError
    }
    enum CodingKeys: String, CodingKey {
        case trueSteps = "true_steps", detectedSteps = "detected_steps", under1, over1, under3, over3
        case under1Rate = "under1_rate", over1Rate = "over1_rate", under3Rate = "under3_rate", over3Rate = "over3_rate"
        case cadenceError = "cadence_error_steps_per_s"
    }
}

struct Steps: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "Detect steps in a trace's IMU; score them against its hand-annotated heel strikes (WeAllWalk's metrics 1 and 3).",
        discussion: """
            With no flags the detector chosen on the shared WeAllWalk subset by leave-one-subject-out runs (docs/pdr.md). \
            --out writes one step per row, its time in seconds (the recording's clock) in the first column; --annotate \
            writes a copy of the trace with the steps as the annotation stream detected_steps.
            """)
    @Argument(
        help:
            "Trace files (.h5) with an imu stream, or WeAllWalk phone files (.csv, read as import weallwalk reads them, with the walk's XML beside in ../xml when it is there); --out and --annotate take one trace."
    )
    var files: [String]
    @OptionGroup var options: StepDetectorOptions
    @Flag(help: "Print JSON: file, detector, steps (seconds), score; an array for several files.") var json = false
    @Option(help: "Write the detected steps as CSV (time_s) here.") var out: String?
    @Option(help: "Write a copy of the trace with the annotation stream detected_steps here (.h5).") var annotate: String?

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give a trace file") }
        if files.count > 1 && (out != nil || annotate != nil) {
            throw ValidationError("--out and --annotate take one trace file, got \(files.count)")
        }
    }

    func run() throws {
        try checkOutput(out)
        try checkOutput(annotate, flag: "--annotate")
        // Files side by side on the two cores (reading a phone file is pure Swift; HDF5 reads
        // take its lock in turn); printed in the order given.
        let results: [Result<(StepsOutput, String), ErrorLine>] = mapConcurrently(files.count, workers: files.count > 1 ? 2 : 1) { i in
            do { return .success(try detect(files[i])) } catch { return .failure(ErrorLine(error)) }
        }
        var outputs: [StepsOutput] = []
        var failed = false
        for r in results {
            switch r {
            case let .success((o, text)):
                outputs.append(o)
                if !json { print(text, terminator: "") }
            case let .failure(e):
                printErrorLine(e.error)
                failed = true
            }
        }
        if json { print(outputs.count == 1 && files.count == 1 ? try jsonText(outputs[0]) : try jsonText(outputs)) }
        if failed { throw ExitCode(1) }
    }

    /// One file's steps and the text lines `steps` prints for it.
    func detect(_ file: String) throws -> (StepsOutput, String) {
        let detector = try options.resolved()
        let session = try readWalk(file)
        guard let imu = session.imu else { throw TraceError(.missing, file: file, object: "/imu", "no imu stream; steps are detected in it") }
        let steps = try detector.detect(imu)
        let walk = try? annotatedWalk(session, file: file)
        let s = walk.map { scoreStepCount(straightSegments: $0.straightSegments, events: $0.events, heelStrikes: $0.heelStrikes, detections: steps) }
        if let out { try writeTextAtomically("time_s\n" + steps.map(formatNumber).map { $0 + "\n" }.joined(), to: out) }
        if let annotate {
            let stream = AnnotationStream(
                name: "detected_steps", kind: .instants, source: "detected by navbench steps (\(detector))", start: steps,
                label: Array(repeating: "step", count: steps.count))
            try editTrace(inputs: [file], output: annotate, command: commandProvenance(from: "steps"), readPolicy: commandLineReadPolicy) { traces in
                var t = traces[0]
                t.streams.removeAll { $0.name == "annotations/detected_steps" }
                t.streams.append(loadedStream(stream))
                return t
            }
        }
        var text = "\(escapedForMessage(file)): \(steps.count) steps (\(escapedForMessage(detector.description)))\n"
        if let s {
            text +=
                "  against \(s.trueSteps) hand-annotated heel strikes on straight segments: metric 1 undercount \(String(format: "%.2f", 100 * s.under1Rate)) %, overcount \(String(format: "%.2f", 100 * s.over1Rate)) %; metric 3 undercount \(String(format: "%.2f", 100 * s.under3Rate)) %, overcount \(String(format: "%.2f", 100 * s.over3Rate)) %\n"
        }
        for o in [out, annotate].compactMap({ $0 }) where o != "-" { text += o + "\n" }
        return (StepsOutput(file: file, detector: detector.description, steps: steps, score: s.map(StepScoreOutput.init)), text)
    }
}

/// An error carried out of a parallel map as a value, printed by the caller.
struct ErrorLine: Error, @unchecked Sendable {
    let error: any Error
    init(_ e: any Error) { error = e }
}

/// A trace, or a WeAllWalk phone file read in memory as `import weallwalk` reads it (with its
/// walk's annotations when `../xml/T…_ID…_….xml` or `T…_ID…_….xml` is beside it).
func readWalk(_ file: String) throws -> Session {
    guard file.hasSuffix(".csv") else { return try readTrace(at: file, policy: commandLineReadPolicy) }
    guard let name = WeAllWalkWalkName(fileName: fileName(of: file)) else {
        throw TraceError(
            .badValue, file: file,
            "a .csv here must be a WeAllWalk phone file (iPhoneSensors_T…_ID…_1L|2R_WC|GD|NA.csv); import other CSV files first")
    }
    let folder = parentFolder(of: file)
    let candidates = [folder.isEmpty ? "../xml" : folder + "/../xml", folder].map { ($0.isEmpty ? "" : $0 + "/") + name.annotationFileName }
    let xml = candidates.first { FileManager.default.fileExists(atPath: $0) }
    return try importWeAllWalk(phoneFile: file, annotations: xml).session
}

struct TurnsOutput: Encodable {
    struct Turn: Encodable {
        var start: Double, end: Double, duration: Double, angle: Double
        enum CodingKeys: String, CodingKey { case start = "start_s", end = "end_s", duration = "duration_s", angle = "angle_deg" }
    }
    var file: String
    var detector: String
    var turns: [Turn]
    var annotated: Int?
    var matched: Int?
    var precision: Double?
    var recall: Double?
}

struct Turns: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "turns",
        abstract: "Detect turns from the angular rate about gravity; match them with the trace's annotated turns.",
        discussion:
            "Angles in degrees, positive counter-clockwise (a left turn), as WeAllWalk's TurnInDegrees. --out writes start_s,end_s,duration_s,angle_deg rows."
    )
    @Argument(help: "Trace file (.h5) with an imu stream.") var file: String
    @Option(help: "Onset rate, deg/s.") var onset: Double = TurnDetector.chosenOnWeAllWalk.onsetRate
    @Option(help: "Smoothing window, seconds.") var smoothing: Double = TurnDetector.chosenOnWeAllWalk.smoothing
    @Option(help: "Least turn kept, degrees.") var minimumAngle: Double = TurnDetector.chosenOnWeAllWalk.minimumAngle
    @Option(help: "Matching tolerance, seconds.") var tolerance: Double = 2
    @Flag(help: "Print JSON.") var json = false
    @Option(help: "Write the turns as CSV here.") var out: String?

    var detector: TurnDetector {
        var d = TurnDetector.chosenOnWeAllWalk
        d.onsetRate = onset; d.smoothing = smoothing; d.minimumAngle = minimumAngle
        d.releaseRate = min(d.releaseRate, onset)
        return d
    }

    func validate() throws {
        if let p = detector.problem() { throw ValidationError(p) }
        guard tolerance.isFinite, tolerance >= 0, tolerance <= 600 else {
            throw ValidationError("--tolerance \(tolerance): expected [0, 600] seconds")
        }
    }

    func run() throws {
        try checkOutput(out)
        do {
            let d = detector
            let session = try readWalk(file)
            guard let imu = session.imu else { throw TraceError(.missing, file: file, object: "/imu", "no imu stream; turns are detected in it") }
            let turns = try d.detect(imu)
            // Scored against /annotations/turns alone (its values are the signed nominal angles).
            let annotated = session.annotation(AnnotationStream.WalkStream.turns).flatMap { a in
                a.value.map { v in (0..<a.count).filter { v[$0].isFinite }.map { (span: TimeSpan(a.start[$0], a.end[$0]), nominal: v[$0]) } }
            }
            let score = annotated.map {
                scoreTurns(annotated: $0, detected: turns.map { (TimeSpan($0.start, $0.end), $0.angle) }, tolerance: tolerance)
            }
            if let out {
                try writeTextAtomically(
                    "start_s,end_s,duration_s,angle_deg\n"
                        + turns.map { "\(formatNumber($0.start)),\(formatNumber($0.end)),\(formatNumber($0.duration)),\(formatNumber($0.angle))\n" }
                        .joined(),
                    to: out)
            }
            if json {
                print(
                    try jsonText(
                        TurnsOutput(
                            file: file, detector: d.description,
                            turns: turns.map { .init(start: $0.start, end: $0.end, duration: $0.duration, angle: $0.angle) },
                            annotated: score?.annotated,
                            matched: score?.matched, precision: score?.precision, recall: score?.recall)))
            } else {
                print("\(escapedForMessage(file)): \(turns.count) turns (\(d.description))")
                for t in turns {
                    print(String(format: "  %8.2f–%8.2f s  %6.1f°  (%.1f s)", t.start, t.end, t.angle, t.duration))
                }
                if let score {
                    print(
                        "  against \(score.annotated) annotated turns (±\(formatNumber(tolerance)) s): \(score.matched) matched, \(score.missed) missed, \(score.falseDetections) false, \(score.signErrors) with the wrong sign"
                    )
                }
                if let out, out != "-" { print(out) }
            }
        } catch {
            printErrorLine(error)
            throw failureStatus(error)
        }
    }
}

struct PDR: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pdr",
        abstract: "Step and turn detectors swept over annotated walks; per subject, per community, leave one subject out (WeAllWalk's protocol).",
        discussion: """
            Writes summary.md (Findings first), steps.csv, subjects.csv, loso.csv and turns.csv into --out. The unit of analysis is \
            the subject (session attribute subject); communities come from mobility_aid. A walk that cannot be read or scored is \
            listed under Failures and the rest go on; the exit status is then 1 (docs/exit-codes.md).
            """)
    @Argument(help: "Annotated walk traces (.h5), e.g. from navbench import weallwalk PHONE.csv WALK.xml.") var files: [String]
    @Option(help: "Report folder.") var out: String
    @Option(help: "standard (3 methods × 5 filters × 3 thresholds) or default (the chosen detector alone).") var detectors: String = "standard"
    @Option(help: "Worker threads.") var workers: Int = 2
    @Flag(help: "Print nothing but errors.") var quiet = false

    func validate() throws {
        guard ["standard", "default"].contains(detectors) else { throw ValidationError("--detectors \(detectors): expected standard or default") }
        guard (1...64).contains(workers) else { throw ValidationError("--workers \(workers): expected 1–64") }
        guard !files.isEmpty else { throw ValidationError("give at least one walk trace") }
    }

    func run() throws {
        try checkOutput(out, folder: true)
        var walks: [AnnotatedWalk] = []
        var failures: [String] = []
        for f in files {
            do { walks.append(try annotatedWalk(try readTrace(at: f, policy: commandLineReadPolicy), file: fileName(of: f))) } catch {
                printErrorLine(error)
                failures.append(String(describing: error))
            }
        }
        let grid = detectors == "standard" ? StepDetectorSweep.standard() : [StepDetector.chosenOnWeAllWalk]
        var evaluation = evaluateStepDetectors(walks, detectors: grid, workers: workers)
        evaluation.failures = failures + evaluation.failures
        let turnGrid = detectors == "standard" ? TurnDetectorSweep.standard() : [TurnDetector.chosenOnWeAllWalk]
        let turns = evaluateTurnDetectors(walks, detectors: turnGrid, workers: workers)
        let report = walkDetectionReport(evaluation, turns: turns)
        do { try report.write(to: out) } catch {
            printErrorLine(error)
            throw failureStatus(error)
        }
        if !quiet {
            print(
                "\(escapedForMessage(out))/summary.md: \(walks.count) walks, \(evaluation.subjects(in: nil).count) subjects, \(grid.count) detectors")
            if let m = report.modalChoice { print("chosen most often leaving one subject out: \(grid[m])") }
        }
        if !evaluation.failures.isEmpty || !turns.failures.isEmpty { throw ExitCode(1) }
    }
}
