import ArgumentParser
import Foundation
import NavGeometry
import NavGuidance
import NavIO
import NavPipeline
import NavReport
import NavSignal

/// The options of one guidance run. Every sweep dimension (`SweepDimension.all`, the same
/// definitions experiment specs use) is a flag named by the table and can also be given as
/// `KEY=VALUE` with its spec key.
struct GuidanceFlags: ParsableArguments {
    @Option(name: .customLong(SweepDimension.rdpTolerance.flag), help: ArgumentHelp(SweepDimension.rdpTolerance.help)) var tolerance: String?
    @Option(name: .customLong(SweepDimension.rdpDistance.flag), help: ArgumentHelp(SweepDimension.rdpDistance.help)) var distance: String?
    @Option(name: .customLong(SweepDimension.registration.flag), help: ArgumentHelp(SweepDimension.registration.help)) var registration: String?
    @Option(name: .customLong(SweepDimension.anchorSightings.flag), help: ArgumentHelp(SweepDimension.anchorSightings.help)) var anchorSightings:
        String?
    @Option(name: .customLong(SweepDimension.seeds.flag), help: ArgumentHelp(SweepDimension.seeds.help)) var seed: String?
    @Option(name: .customLong(SweepDimension.positionFilter.flag), help: ArgumentHelp(SweepDimension.positionFilter.help)) var positionFilter: String?
    @Option(name: .customLong(SweepDimension.wording.flag), help: ArgumentHelp(SweepDimension.wording.help)) var wording: String?
    @Option(name: .customLong(SweepDimension.arrival.flag), help: ArgumentHelp(SweepDimension.arrival.help)) var arrival: String?
    @Option(name: .customLong(SweepDimension.haptic.flag), help: ArgumentHelp(SweepDimension.haptic.help)) var haptic: String?
    @Option(help: "Distance units: feet or metres.") var units: String = "feet"
    @Flag(help: "Speak the distance with each direction (\"… and walk 15 feet\").") var announceDistance = false

    func validate() throws { _ = try options() }

    /// Refuses, in one line, the flags the closed loop cannot honour: registration, anchor
    /// sightings and the position filter act on a recorded navigation session, which a simulated
    /// walk does not have (its registration error is the VIO error's `yaw_offset`; docs/navigator.md).
    /// Accepting and ignoring them would print walks that do not depend on them (issue 30).
    func refuseNavigationSessionFlags() throws {
        if let v = positionFilter {
            throw ValidationError(
                "--\(SweepDimension.positionFilter.flag) \(v): the closed loop does not simulate a position filter (the phone's estimate is VIO with --\(SweepDimension.vioError.flag); docs/navigator.md)"
            )
        }
    }

    /// Whether the registration is simulated from anchor sightings (`--registration` or
    /// `--anchor-sightings` given; docs/navigator.md).
    var simulatesRegistration: Bool { registration != nil || anchorSightings != nil }

    /// The flags given, by dimension.
    var given: [(SweepDimension, String?)] {
        [
            (.rdpTolerance, tolerance), (.rdpDistance, distance), (.registration, registration), (.anchorSightings, anchorSightings),
            (.seeds, seed), (.positionFilter, positionFilter), (.wording, wording), (.arrival, arrival), (.haptic, haptic),
        ]
    }

    /// The options from the flags, then `settings` (`KEY=VALUE` by spec key) on top.
    func options(settings: [String] = []) throws -> GuidanceOptions {
        var levels: [String: SweepLevel] = [:]
        for (d, v) in given {
            guard let v else { continue }
            guard let level = d.level(parsing: v) else { throw ValidationError("--\(d.flag) \(v): expected \(d.expected)") }
            levels[d.key] = level
        }
        for s in settings {
            let kv = s.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2, let d = SweepDimension.named(kv[0]), d.key != SweepDimension.estimator.key else {
                if kv.first == SweepDimension.estimator.key {
                    throw ValidationError("\(s): guide takes an estimate with --vio FILE; estimator= names an estimators: entry of a spec")
                }
                throw ValidationError("\(s): expected KEY=VALUE with KEY one of \(SweepDimension.all.map(\.key).joined(separator: ", "))")
            }
            guard let level = d.level(parsing: kv[1]) else { throw ValidationError("\(d.key)=\(kv[1]): expected \(d.expected)") }
            levels[d.key] = level
        }
        var o = SweepDimension.options(levels)
        guard let u = ClockFace.Units(rawValue: units) else { throw ValidationError("--units \(units): expected feet or metres") }
        o.guidance.units = u
        o.guidance.announceDistance = announceDistance
        return o
    }
}

struct Guide: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guide",
        abstract: "Replay Clew's guidance for a navigation session along a recorded route and measure it against ground truth.",
        discussion:
            "Prints the guidance timeline (spoken directions, arrivals, corrections) and the accuracy table; metrics are defined in docs/metrics.md.")

    @Argument(help: "The recording session (.h5).") var recording: String
    @Argument(help: "The navigation session (.h5).") var navigation: String
    @Argument(help: "Sweep-dimension settings KEY=VALUE, keys as in experiment specs (rdp_tolerance=0.6 wording=six-sector).") var settings:
        [String] = []
    @OptionGroup var flags: GuidanceFlags
    @Flag(help: "Also list the on-track haptic pulses.") var pulses = false
    @Flag(help: "Print JSON: timeline and metrics.") var json = false
    @Flag(help: "Replay even when the session kinds or route ids do not match.") var force = false
    @OptionGroup var estimate: EstimateFlags

    func run() throws {
        let rec = try readTrace(at: recording, policy: commandLineReadPolicy), nav = try readTrace(at: navigation, policy: commandLineReadPolicy)
        let vio = try estimate.source.map { try loadEstimate($0, for: nav, readPolicy: commandLineReadPolicy) }
        let run = try runGuidance(
            recording: rec, navigation: nav, options: try flags.options(settings: settings), force: force, estimate: vio,
            names: (recording, navigation))
        let events = run.estimated.events.filter { pulses || $0.kind != .pulse }
        if json {
            struct Out: Encodable {
                var route: String; var recording: String; var navigation: String; var events: [GuidanceEvent]; var metrics: [String: Double?];
                var units: [String: String]
            }
            let out = Out(
                route: run.routeID, recording: run.recordingID, navigation: run.navigationID, events: events,
                metrics: Dictionary(uniqueKeysWithValues: run.metrics.map { ($0.name, $0.value.isFinite ? $0.value : nil) }),
                units: Dictionary(uniqueKeysWithValues: run.metrics.map { ($0.name, $0.unit) }))
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try enc.encode(out), as: UTF8.self))
            return
        }
        print(
            "route \(run.routeID): \(run.route.keypoints.count) keypoints, \(String(format: "%.1f", run.trueRoute.length)) m; navigation \(run.navigationID) from t=\(String(format: "%.2f", run.estimated.start)) s"
        )
        for e in events {
            let what: String
            switch e.kind {
            case .instruction: what = "say     \"\(e.text)\""
            case .correction: what = "say     \"\(e.text)\""
            case .arrival: what = "arrive  keypoint \(e.keypoint)"
            case .arrived: what = "arrived end of route"
            case .pulse: what = "pulse"
            }
            print(
                String(format: "%8.2f s  ", e.time) + what
                    + (e.hour.map { "  [\($0) o'clock, \(String(format: "%.1f", e.distance ?? .nan)) m]" } ?? ""))
        }
        print("")
        for m in run.metrics {
            print(
                m.name.padding(toLength: 34, withPad: " ", startingAt: 0) + (m.value.isFinite ? String(format: "%10.4f", m.value) : "         –")
                    + "  " + m.unit)
        }
    }
}

/// An external estimate replacing the navigation's VIO (docs/extending.md: the frame contract).
struct EstimateFlags: ParsableArguments {
    @Option(
        help:
            "An estimated trajectory (TUM, KITTI with --vio-times, EuRoC, trace .h5) replacing the navigation's VIO; it must be in the session's frame (+y up, metres)."
    ) var vio: String?
    @Option(name: .customLong("vio-format"), help: "Format of --vio: tum, kitti, euroc, h5 (default: detect).") var vioFormat: TrajectoryFormat?
    @Option(name: .customLong("vio-times"), help: "Times file of a KITTI --vio (one stamp per line).") var vioTimes: String?
    @Option(name: .customLong("vio-stream"), help: "Stream of a .h5 --vio: vio (default) or groundtruth.") var vioStream: String?
    @Option(
        name: .customLong("t-offset"), parsing: .unconditional,
        help: "Seconds added to the stamps of --vio (session clock = estimate clock + offset).") var tOffset: Double = 0

    func validate() throws {
        guard tOffset.isFinite else { throw ValidationError("--t-offset must be a finite number of seconds, got \(tOffset)") }
        if vio == nil, vioFormat != nil || vioTimes != nil || vioStream != nil || tOffset != 0 {
            throw ValidationError("--vio-format, --vio-times, --vio-stream and --t-offset need --vio FILE")
        }
    }

    var source: EstimateSource? {
        vio.map { EstimateSource(path: $0, format: vioFormat, stream: vioStream, timesPath: vioTimes, timeOffset: tOffset) }
    }
}

/// `navbench view`: one navigation session as a page to replay in a browser (`sessionViewPage`).
struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract:
            "Write one navigation session as a self-contained page: a time slider moving the walker on the map, what the guidance said, linked series.",
        discussion:
            "The guidance is replayed as by `navbench guide` (same flags). Keyboard: the slider takes arrows, Page Up/Down, Home/End; every event has a button. docs/experiments.md, \"Seeing a session\"."
    )

    @Argument(help: "The recording session (.h5).") var recording: String
    @Argument(help: "The navigation session (.h5).") var navigation: String
    @Argument(help: "Sweep-dimension settings KEY=VALUE, as for guide.") var settings: [String] = []
    @OptionGroup var flags: GuidanceFlags
    @Flag(help: "Replay even when the session kinds or route ids do not match.") var force = false
    @Option(help: "The page to write (.html).") var out: String

    func validate() throws { _ = try flags.options(settings: settings) }

    func run() throws {
        try checkOutput(out)
        let rec = try readTrace(at: recording, policy: commandLineReadPolicy), nav = try readTrace(at: navigation, policy: commandLineReadPolicy)
        let view = try sessionView(
            recording: rec, navigation: nav, options: try flags.options(settings: settings), force: force, names: (recording, navigation))
        try writeTextAtomically(sessionViewPage(view), to: out)
        print("\(out): \(view.events.count) events, \(view.truePath.count) positions, \(view.series.count) series")
    }
}
