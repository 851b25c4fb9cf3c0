import ArgumentParser
import Foundation
import NavAids
import NavCore
import NavIO
import NavPipeline
import NavSignal

/// Prints rows of metrics with one column per variant.
func printMetricColumns(_ title: String, variants: [String], metrics: [[AidMetric]]) {
    print(title)
    guard let first = metrics.first else { return }
    print(
        "metric".padding(toLength: 54, withPad: " ", startingAt: 0)
            + variants.map { $0.prefix(18).padding(toLength: 20, withPad: " ", startingAt: 0) }.joined())
    for (i, m) in first.enumerated() {
        var line = (m.name + " (" + m.unit + ")").padding(toLength: 54, withPad: " ", startingAt: 0)
        for col in metrics {
            let v = col[i].value; line += (v.isFinite ? String(format: "%.4g", v) : "–").padding(toLength: 20, withPad: " ", startingAt: 0)
        }
        print(line)
    }
}

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Replay the pocket heading calibration (find north, put the phone away, average headings) with several estimators.",
        discussion:
            "Estimators are filter specs whose last output is the offset: mean (the article's), circmean, ema:tau=S, ema:tau=S,angle, kalman-heading:q=…,r=…."
    )

    @Argument(help: "Trace files with a compass stream (imu/attitude gives the tilt).") var files: [String]
    @Option(help: "Estimator (repeatable; default: mean, circmean, ema:tau=0.5, ema:tau=0.5,angle, kalman-heading:q=0.5,r=25).") var estimator:
        [String] = []
    @Option(help: "Readings averaged.") var samples = 50
    @Option(help: "Countdown after north is found, s.") var countdown = 3.0
    @Option(help: "Critical tilt, degrees.") var criticalTilt = 75.0

    func validate() throws {
        for e in estimator { do { _ = try FilterSpec(parsing: e) } catch { throw ValidationError(error.description) } }
        guard samples >= 1 else { throw ValidationError("--samples must be at least 1") }
    }

    func run() throws {
        let estimators = estimator.isEmpty ? ["mean", "circmean", "ema:tau=0.5", "ema:tau=0.5,angle", "kalman-heading:q=0.5,r=25"] : estimator
        var failed = false
        for f in files {
            do {
                let s = try readTrace(at: f, policy: commandLineReadPolicy)
                var columns: [[AidMetric]] = [], reasons: [String] = []
                for e in estimators {
                    var p = CalibrationParameters()
                    p.estimator = e; p.samples = samples; p.countdownSeconds = countdown; p.criticalTiltDegrees = criticalTilt
                    let (r, m) = try runCalibration(s, parameters: p)
                    columns.append(m)
                    if let why = r.abortReason { reasons.append(why) }
                }
                printMetricColumns("\(f)", variants: estimators, metrics: columns)
                if let why = reasons.first { print("stopped: \(why)") }
                print("")
            } catch {
                printErrorLine(error)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}

struct Proximity: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proximity",
        abstract:
            "Beacon proximity: RSSI → filter → log-distance distance → immediate/near/far, and the region monitor with missed-scan hysteresis, scored against ground truth."
    )

    @Argument(help: "Trace files with ble (beacon positions) and groundtruth streams.") var files: [String]
    @Option(help: "RSSI filter (repeatable; default: none, mean:window=5, ema:tau=2, kalman:q=0.5,r=16).") var filter: [String] = []
    @Option(help: "Scans a beacon may be missing before it exits (the article: 1, i.e. exit on the second).") var missedScans = 1
    @Option(help: "Path-loss model RSSI1M,N (default: least-squares fit on the session).") var model: String?
    @Option(help: "Scan length in seconds over which each beacon's RSSI is averaged, or none (every timestamp a scan). Default 1.")
    var scanWindow: String = "1"
    @Option(help: "Fit the path-loss model on each beacon's scan means (scans, default) or on every raw reading (readings).")
    var fitOn: String = PathLossFitData.scans.rawValue
    @Option(help: "Fit only on pairs whose true distance is at least this, m.") var fitMinDistance: Double?
    @Option(help: "Fit only on pairs whose true distance is at most this, m.") var fitMaxDistance: Double?

    /// The scan and fit options from the flags (checked in `validate`).
    func fitOptions() throws -> ProximityFitOptions {
        var o = ProximityFitOptions()
        if scanWindow == "none" {
            o.scanWindow = nil
        } else {
            guard let w = Double(scanWindow) else { throw ValidationError("--scan-window \(scanWindow): expected seconds or none") }
            o.scanWindow = w
        }
        guard let d = PathLossFitData(rawValue: fitOn) else { throw ValidationError("--fit-on \(fitOn): expected scans or readings") }
        o.fitData = d
        o.fitMinDistance = fitMinDistance
        o.fitMaxDistance = fitMaxDistance
        if let problem = o.problem(spelling: { "--" + $0.replacingOccurrences(of: "_", with: "-") }) { throw ValidationError(problem) }
        return o
    }

    func validate() throws {
        for f in filter where f != "none" { do { _ = try FilterSpec(parsing: f) } catch { throw ValidationError(error.description) } }
        if let model, model.split(separator: ",").compactMap({ numberFromText($0) }).count != 2 {
            throw ValidationError("--model \(model): expected RSSI1M,N, e.g. -59,2")
        }
        _ = try fitOptions()
    }

    func run() throws {
        let filters = filter.isEmpty ? ["none", "mean:window=5", "ema:tau=2", "kalman:q=0.5,r=16"] : filter
        let fixed = model.map { m -> PathLossModel in
            let v = m.split(separator: ",").compactMap { numberFromText($0) }; return PathLossModel(rssiAtOneMetre: v[0], exponent: v[1])
        }
        var failed = false
        for f in files {
            do {
                let s = try readTrace(at: f, policy: commandLineReadPolicy)
                var columns: [[AidMetric]] = []
                for spec in filters {
                    var p = ProximityParameters()
                    try fitOptions().apply(to: &p)
                    p.filter = spec; p.missedScansBeforeExit = missedScans
                    columns.append(try runProximity(s, parameters: p, model: fixed).1)
                }
                printMetricColumns("\(f)", variants: filters, metrics: columns)
                print("")
            } catch {
                printErrorLine(error)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}
