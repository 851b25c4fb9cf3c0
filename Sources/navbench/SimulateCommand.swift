import ArgumentParser
import Foundation
import NavCore
import NavGuidance
import NavIO
import NavPipeline
import NavSim
import NavSynth

/// The simulate-specific options (shared by `simulate` and `bench simulate`).
struct SimulateFlags: ParsableArguments {
    @Option(name: .customLong(SweepDimension.walker.flag), help: ArgumentHelp(SweepDimension.walker.help))
    var walker: String = SweepDimension.walker.defaultValue
    @Option(name: .customLong(SweepDimension.vioError.flag), help: ArgumentHelp(SweepDimension.vioError.help))
    var vioError: String = SweepDimension.vioError.defaultValue
    @Option(name: .customLong(SweepDimension.walls.flag), help: ArgumentHelp(SweepDimension.walls.help))
    var walls: String = SweepDimension.walls.defaultValue

    func validate() throws { _ = try parsed() }

    func parsed() throws -> (NavigatorProfile, VIOErrorSpec, WallsMode) {
        do { return try parseWalkSettings(walker: walker, vioError: vioError, walls: walls) } catch {
            throw ValidationError("\(error)")
        }
    }
}

/// Per-run outcomes and their aggregate, as `simulate --json` prints them.
struct SimulateReport: Encodable {
    var route: String
    var recording: String
    var walker: String
    var vio_error: String
    var walls: String
    /// `perfect`, or the simulated registration (`gravity-aligned, 1 of 24 sightings`).
    var registration: String
    var seed: UInt64
    var keypoints: Int
    var route_length: Double
    var success_rate: Double
    var end_of_route_error: Double
    var aggregate: ClosedLoopAggregate
    var runs: [WalkOutcome]
}

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Closed-loop guidance: virtual blind walkers follow Clew's guidance along a recorded route.",
        discussion:
            "The route is built from RECORDING as in guide; each run walks it with the walker model (docs/navigator.md) while the phone sees the true pose through the VIO and registration error. Outcomes are defined in docs/guidance.md."
    )

    @Argument(help: "The recording session (.h5).") var recording: String
    @OptionGroup var simulate: SimulateFlags
    @Option(help: "Number of walkers.") var runs: Int = 30
    @OptionGroup var flags: GuidanceFlags
    @Flag(help: "Print JSON: aggregate and per-run outcomes.") var json = false
    @Option(
        help:
            "Also write each walk as a navigation session (ground truth: the walker every tick; vio: what the phone saw) and the route as a recording, into this folder (route.h5, walk-00000.h5, …), for navbench walker fit."
    )
    var writeTraces: String?

    func validate() throws {
        guard (1...100_000).contains(runs) else { throw ValidationError("--runs must be from 1 to 100000, got \(runs)") }
        try flags.refuseNavigationSessionFlags()
        if let folder = writeTraces { try checkTracesFolder(folder) }
    }

    /// `--write-traces FOLDER` is a new or empty folder (never the working folder, never one that
    /// holds files — an input among them would be replaced), whose parent exists.
    func checkTracesFolder(_ folder: String) throws {
        guard !folder.isEmpty, !folder.hasSuffix("/."), folder != ".", folder != "..", !folder.hasSuffix("/..") else {
            throw ValidationError("--write-traces '\(escapedForMessage(folder))': expected a new folder's name")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            let entries = isFolder.boolValue ? ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? ["?"]) : ["?"]
            guard isFolder.boolValue, entries.isEmpty else {
                throw ValidationError(
                    "--write-traces \(escapedForMessage(folder)): \(isFolder.boolValue ? "holds files" : "is a file"); expected a new or empty folder (a rerun never replaces files, an input among them least of all)"
                )
            }
        }
    }

    /// The staging folder of `--write-traces FOLDER`: beside it, named for this process.
    func stagingFolder(for folder: String) -> String {
        let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let parent = (trimmed as NSString).deletingLastPathComponent, name = (trimmed as NSString).lastPathComponent
        return (parent.isEmpty ? "" : parent + "/") + ".\(name).tmp-\(getpid())"
    }

    func run() throws {
        let (walker, vio, walls) = try simulate.parsed()
        let rec = try readTrace(at: recording, policy: commandLineReadPolicy)
        let options = try flags.options()
        let seed = options.seed
        let scenario = try closedLoopScenario(
            recording: rec, options: options, walls: walls,
            venuePlan: walls == .venue ? try venueFloorPlan(recordingPath: recording, session: rec) : nil)
        var settings = ClosedLoopSettings(walker: walker, vioError: vio, guidance: options.guidance)
        if flags.simulatesRegistration {
            guard scenario.anchorPose != nil else {
                throw GuidanceJobError(
                    "\(escapedForMessage(recording)): no anchor sightings in the recording, which --\(SweepDimension.registration.flag) and --\(SweepDimension.anchorSightings.flag) simulate Clew's registration from"
                )
            }
            settings.registration = SimulatedRegistration(mode: options.registration, sightings: options.anchorSightings)
        }
        let registrationText =
            settings.registration.map { r in
                "\(r.mode.rawValue), \(r.sightings.map { "\(min($0, r.available)) of \(r.available)" } ?? "all \(r.available)") sightings"
            } ?? "perfect"
        let result = simulateWalks(scenario, settings: settings, seed: seed, runs: runs)
        if let folder = writeTraces {
            // All or nothing: the walks go to a staging folder beside FOLDER, one at a time (one
            // walk in memory), renamed to FOLDER at the end; a failure removes the staging folder.
            let staging = stagingFolder(for: folder)
            try? FileManager.default.removeItem(atPath: staging)
            do {
                // The parent may be new (as the writer created it before); the staging folder itself is new.
                let parent = (staging as NSString).deletingLastPathComponent
                if !parent.isEmpty { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
                try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
            } catch {
                throw TraceError(
                    .writeFailed, file: folder, object: "--write-traces",
                    "cannot create the staging folder \(escapedForMessage(staging)) (\(error.localizedDescription))")
            }
            var written = 0
            do {
                let route = try simulatedSessions(
                    scenario, settings: settings, seed: seed, runs: runs, options: options,
                    describe: [
                        "walker": simulate.walker, "vio_error": vio.canonical, "walls": simulate.walls, "registration": registrationText,
                        "recording": rec.metadata.sessionID,
                    ]
                ) { r, walk in
                    try writeTrace(walk, to: (staging as NSString).appendingPathComponent(String(format: "walk-%05d.h5", r)))
                    written += 1
                }
                try writeTrace(route, to: (staging as NSString).appendingPathComponent("route.h5"))
                // FOLDER is absent or empty (validate); an empty one makes way for the staging folder.
                try? FileManager.default.removeItem(atPath: folder)
                guard rename(staging, folder) == 0 else {
                    throw TraceError(
                        .writeFailed, file: folder, object: "--write-traces",
                        "cannot rename the staging folder into place (\(String(cString: strerror(errno))))")
                }
            } catch {
                try? FileManager.default.removeItem(atPath: staging)
                throw error
            }
            printError(
                "navbench: note: wrote the route and \(written) walks to \(escapedForMessage(folder)) (navbench walker fit \(escapedForMessage(folder))/route.h5 \(escapedForMessage(folder))/walk-*.h5)"
            )
        }
        let a = result.aggregate
        if json {
            let report = SimulateReport(
                route: scenario.routeID, recording: rec.metadata.sessionID, walker: simulate.walker,
                vio_error: vio.canonical, walls: simulate.walls, registration: registrationText, seed: seed,
                keypoints: scenario.route.keypoints.count,
                route_length: scenario.trueRoute.length, success_rate: a.success_rate,
                end_of_route_error: a.end_of_route_error, aggregate: a, runs: result.outcomes)
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys, .prettyPrinted]
            enc.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            print(String(decoding: try enc.encode(report), as: UTF8.self))
            return
        }
        print(
            "route \(scenario.routeID): \(scenario.route.keypoints.count) keypoints, \(String(format: "%.1f", scenario.trueRoute.length)) m; walker \(simulate.walker); vio error \(vio.canonical); registration \(registrationText); seed \(seed)"
        )
        print("  run  success  arrived  lost  end error m  completion  path ratio  time s  corrections  pulses  wall contacts")
        for o in result.outcomes {
            func col(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
            let time = o.time_to_complete.map { String(format: "%.1f", $0) } ?? "–"
            print(
                String(format: "%5d  ", o.run) + col(o.success ? "yes" : "no", 7) + "  " + col(o.arrived ? "yes" : "no", 7) + "  "
                    + col(o.lost ? "yes" : "no", 4)
                    + String(format: "  %11.2f  %10.2f  %10.2f  ", o.end_of_route_error, o.completion, o.path_length_ratio)
                    + col(time, 6) + String(format: "  %11d  %6d  %13d", o.corrections, o.pulses, o.wall_contacts))
        }
        print(
            String(
                format: "success rate (within 2 m) %.3f [95%% CI %.3f, %.3f] (n = %d); within 1 m %.3f; lost %.3f", a.success_rate,
                a.success_rate_ci95[0], a.success_rate_ci95[1], a.runs, a.success_rate_1m, a.lost_rate))
        print(
            String(
                format: "end-of-route error mean %.2f m [95%% CI %.2f, %.2f], median %.2f m", a.end_of_route_error,
                a.end_of_route_error_ci95[0], a.end_of_route_error_ci95[1], a.end_of_route_error_median))
        print(
            String(
                format: "SPL %.3f [95%% CI %.3f, %.3f]; PPWS %.1f %% [%.1f, %.1f]; route deviation mean %.2f m [%.2f, %.2f], p95 %.2f m",
                a.spl, a.spl_ci95[0], a.spl_ci95[1], a.ppws, a.ppws_ci95[0], a.ppws_ci95[1], a.route_deviation_mean,
                a.route_deviation_mean_ci95[0], a.route_deviation_mean_ci95[1], a.route_deviation_p95))
        print(
            String(
                format: "nDTW %.3f [95%% CI %.3f, %.3f]; SDTW %.3f [%.3f, %.3f]", a.ndtw, a.ndtw_ci95[0], a.ndtw_ci95[1], a.sdtw,
                a.sdtw_ci95[0], a.sdtw_ci95[1]))
    }
}
