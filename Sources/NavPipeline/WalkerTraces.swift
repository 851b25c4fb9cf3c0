import Foundation
import NavCore
import NavGuidance
import NavIO
import NavReport
import NavSim
import NavSynth

// Simulated walks as trace-format sessions (`navbench simulate --write-traces`) and the walker
// fit on navigation sessions (`navbench walker fit`): the same sessions a lab records, so a fit
// can be checked by parameter recovery (docs/navigator.md, "Fitting a walker").

/// The route and the walks of a simulation as sessions: `route` a recording whose guidance
/// replay rebuilds exactly the route the simulated phone guided along, and one navigation
/// session per walk (ground truth: the walker every tick; VIO: what the phone saw; one anchor
/// sighting at t = 0 that registers it onto the route with the identity).
public struct SimulatedSessions: Sendable {
    public var route: Session
    public var walks: [Session]
}

/// Why simulated walks cannot be written as sessions.
public struct WalkerTraceError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ d: String) { description = d }
}

/// Walks `runs` walkers on `scenario` (as `simulateWalks`, run r from its own streams) keeping
/// their logs, and returns them as sessions (`SimulatedSessions`), each with what a lab would
/// annotate (steps, straight segments, turns, wall contacts and stops as `events`;
/// `WalkerValidation.annotatedWalk`), the phone's IMU (`WalkLog.imu`) and session attributes
/// (`subject` run-R, `mobility_aid` of a cane, guide-dog or sighted walker), so `walker fit --imu`
/// measures them as real walks. `describe` names the walker,
/// VIO error and walls in each session's `generator` attribute (with the seed and run).
///
/// The route recording holds the route's true keypoints as its VIO and ground truth, one every
/// `options.crumbInterval` seconds, so crumbs and RDP with `options` rebuild the same keypoints;
/// this is checked, and refused when RDP would drop one (`WalkerTraceError`).
///
/// - Complexity: O(runs · ticks per walk) time and memory (every tick of every walk is kept;
///   the variant with a `walk` closure keeps one walk).
public func simulatedSessions(
    _ scenario: ClosedLoopScenario, settings: ClosedLoopSettings, seed: UInt64, runs: Int, options: GuidanceOptions,
    describe: [String: String]
) throws -> SimulatedSessions {
    var walks: [Session] = []
    let route = try simulatedSessions(scenario, settings: settings, seed: seed, runs: runs, options: options, describe: describe) {
        walks.append($1)
    }
    return SimulatedSessions(route: route, walks: walks)
}

/// `simulatedSessions` one walk at a time: returns the route recording and hands each walk's
/// session to `walk` (run, session) as soon as it is walked, so a caller that writes them holds
/// one walk in memory, not all (`simulate --write-traces`).
///
/// - Complexity: O(runs · ticks per walk) time, O(ticks of one walk) memory beyond `walk`'s.
public func simulatedSessions(
    _ scenario: ClosedLoopScenario, settings: ClosedLoopSettings, seed: UInt64, runs: Int, options: GuidanceOptions,
    describe: [String: String], walk: (Int, Session) throws -> Void
) throws -> Session {
    let interval = options.crumbInterval ?? 0.3
    let keypoints = scenario.trueRoute.keypoints.map(\.position)
    let times = keypoints.indices.map { Double($0) * interval }
    let anchor = Pose(rotation: .identity, translation: scenario.anchor)
    func metadata(_ kind: SessionKind, _ id: String, _ extra: [String: String]) -> SessionMetadata {
        var g = describe
        for (k, v) in extra { g[k] = v }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A [String: String] always encodes; the canonical empty object otherwise.
        let json = (try? encoder.encode(g)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return SessionMetadata(kind: kind, sessionID: id, routeID: scenario.routeID, venue: "simulated", device: "navbench simulate", generator: json)
    }
    let routePoses = keypoints.map { Pose(rotation: .identity, translation: $0) }
    let route = Session(
        metadata: metadata(.recording, scenario.routeID + "-route", ["seed": String(seed)]),
        vio: VIOStream(timestamps: times, poses: routePoses, trackingState: Array(repeating: .normal, count: times.count)),
        anchors: AnchorStream(timestamps: [0], anchorID: [0], poses: [anchor]),
        groundTruth: GroundTruthStream(timestamps: times, poses: routePoses))
    let rebuilt = try closedLoopScenario(recording: route, options: options, walls: .none)
    guard rebuilt.route.keypoints.map(\.position) == keypoints else {
        throw WalkerTraceError(
            "route \(escapedForMessage(scenario.routeID)): RDP (tolerance \(options.rdpTolerance) m) on the route's true keypoints keeps \(rebuilt.route.keypoints.count) of \(keypoints.count), so a replay would not rebuild the route the walkers were guided along; simulate with a smaller --rdp-tolerance"
        )
    }
    let base = settings.walker.name.split(separator: ":").first.map(String.init) ?? ""
    let aid: MobilityAid? = base.hasPrefix("cane") ? .longCane : base.hasPrefix("guide-dog") ? .guideDog : base == "sighted" ? MobilityAid.none : nil
    for r in 0..<max(0, runs) {
        guard let log = simulateWalk(scenario, settings: settings, seed: seed, run: r, recordLog: true).log else { continue }
        // What an annotator would mark and a pocket phone's IMU, so walker fit --imu measures it as a real walk.
        let subject = "run-\(r)"
        let annotated = WalkerValidation.annotatedWalk(
            log, shape: nil, walker: settings.walker, subject: subject, community: aid?.community ?? "unknown")
        var attributes = ["subject": subject, "dataset": "navbench simulate"]
        if let aid { attributes["mobility_aid"] = aid.rawValue }
        try walk(
            r,
            Session(
                metadata: metadata(.navigation, "\(scenario.routeID)-walk-\(r)", ["seed": String(seed), "run": String(r)]),
                imu: log.imu,
                vio: VIOStream(timestamps: log.seenTimes, poses: log.seen, trackingState: Array(repeating: .normal, count: log.seen.count)),
                anchors: AnchorStream(timestamps: [0], anchorID: [0], poses: [anchor]),
                groundTruth: GroundTruthStream(timestamps: log.truthTimes, poses: log.truth),
                annotations: WalkerValidation.annotationStreams(annotated, source: "navbench simulate"), attributes: attributes))
    }
    return route
}

/// Fits the walker model to navigation sessions with ground truth along the route of
/// `recording`: Clew's guidance is replayed on each session's VIO (`runGuidance` with `options`:
/// what the walker was told and when), and `fitWalker` reads the true path against it, with
/// commanded turns as `base` hears them. A session that cannot be replayed is a failure line
/// (`"<name>: <error>"`) and the fit goes on without it.
///
/// - Complexity: O(sessions · (replay + samples)).
public func fitWalker(
    recording: Session, navigations: [(name: String, session: Session)], options: GuidanceOptions, base: NavigatorProfile,
    recordingName: String? = nil
) -> (fit: WalkerFit, failures: [String]) {
    var walks: [LoggedWalk] = [], failures: [String] = []
    for (name, nav) in navigations {
        do {
            let run = try runGuidance(
                recording: recording, navigation: nav, options: options, names: (recordingName ?? recording.metadata.sessionID, name))
            guard let gt = nav.groundTruth else { throw GuidanceJobError("no groundtruth stream") }
            walks.append(LoggedWalk(times: gt.timestamps, poses: gt.poses, events: run.estimated.events, trueRoute: run.trueRoute))
        } catch {
            failures.append("\(escapedForMessage(name)): \(error)")
        }
    }
    return (fitWalker(walks, base: base, sixSectorWording: options.guidance.sixSectorWording), failures)
}

/// How well a route identifies a walker's parameters: for each fitted parameter, in how many of
/// `repetitions` simulated sets of walks its 95 % CI covered the walker's true value.
public struct ParameterRecovery: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var key: String
        public var unit: String
        public var truth: Double
        /// Repetitions whose fit estimated the parameter.
        public var fitted: Int
        /// Of those, the ones whose CI covered `truth` (`WalkerParameterEstimate.covers`).
        public var covered: Int
        /// Mean estimate and mean |estimate − truth| / |truth| (NaN when truth is 0) over `fitted`.
        public var meanEstimate: Double
        public var meanRelativeError: Double
    }
    public var repetitions: Int
    public var walksPerRepetition: Int
    public var rows: [Row]
}

/// Parameter recovery (docs/navigator.md, "Fitting a walker"): walks `runs` walkers of `walker`
/// on `scenario` under each seed, writes them as sessions (`simulatedSessions`), fits them back
/// (`fitWalker`, commanded turns heard as `base`), and counts per parameter how often the fit's CI
/// covers the true value.
///
/// - Throws: `WalkerTraceError` when the route cannot be written as a session.
/// - Complexity: O(seeds · runs · (ticks per walk + replay)).
public func walkerParameterRecovery(
    _ scenario: ClosedLoopScenario, walker: NavigatorProfile, base: NavigatorProfile, vioError: VIOErrorSpec = .none,
    options: GuidanceOptions, seeds: [UInt64], runs: Int
) throws -> ParameterRecovery {
    let settings = ClosedLoopSettings(walker: walker, vioError: vioError, guidance: options.guidance)
    let truth = Dictionary(walker.parameters.map { ($0.key, ($0.value, $0.unit)) }, uniquingKeysWith: { a, _ in a })
    var order: [String] = []
    var fits: [String: [WalkerParameterEstimate]] = [:]
    for seed in seeds {
        let s = try simulatedSessions(scenario, settings: settings, seed: seed, runs: runs, options: options, describe: [:])
        let (fit, _) = fitWalker(
            recording: s.route, navigations: s.walks.map { ($0.metadata.sessionID, $0) }, options: options, base: base)
        for e in fit.estimates where truth[e.key] != nil {
            if fits[e.key] == nil { order.append(e.key) }
            fits[e.key, default: []].append(e)
        }
    }
    let rows = order.map { key -> ParameterRecovery.Row in
        let (value, unit) = truth[key]!
        let estimates = fits[key] ?? []
        let mean = estimates.map(\.value).reduce(0, +) / Double(max(1, estimates.count))
        let relative = value == 0 ? Double.nan : estimates.map { abs($0.value - value) / abs(value) }.reduce(0, +) / Double(max(1, estimates.count))
        return ParameterRecovery.Row(
            key: key, unit: unit, truth: value, fitted: estimates.count, covered: estimates.filter { $0.covers(value) }.count,
            meanEstimate: mean, meanRelativeError: relative)
    }
    return ParameterRecovery(repetitions: seeds.count, walksPerRepetition: runs, rows: rows)
}

/// A walker profile file (docs/navigator.md, "Profile files") of `fit` set on the walker `base`
/// (a walker text): every estimate a walker accepts (`NavigatorProfile.allowedRange`) with its
/// source — `fitted: <what>, <interval>, n = <n> <counts>` — usable wherever a walker is named
/// (`--walker @FILE`). Values out of a walker's range are left out, each named in a comment.
public func walkerProfileFileText(_ fit: WalkerFit, base: String, fittedFrom what: String) -> String {
    // YAML's printable set only (a name from data may hold U+FFFE, which YAML forbids and the
    // reader then refuses): anything else is shown as \u{HEX} text, as messages show it.
    func printable(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            let v = u.value
            let ok =
                v == 0x9 || v == 0xA || v == 0xD || (0x20...0x7E).contains(v) || v == 0x85 || (0xA0...0xD7FF).contains(v)
                || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)
            if ok { out.unicodeScalars.append(u) } else { out += "\\u{\(String(v, radix: 16, uppercase: true))}" }
        }
        return out
    }
    func quoted(_ s: String) -> String {
        "\"" + printable(s).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    var lines = ["navbench_walker: 1", "base: \(quoted(escapedForMessage(base)))", "parameters:"]
    var skipped: [String] = []
    for e in fit.estimates {
        guard e.value.isFinite, NavigatorProfile.allowedRange(e.key).contains(e.value) else {
            skipped.append("# \(e.key) = \(formatNumber(e.value)) is outside what a walker accepts; left out")
            continue
        }
        let interval = e.low.isFinite && e.high.isFinite ? "95 % CI [\(formatNumber(e.low)), \(formatNumber(e.high))]" : "no interval"
        let source = "fitted: \(escapedForMessage(what)); \(interval), n = \(e.n) \(e.counts)"
        lines.append("  \(e.key): {value: \(formatNumber(e.value)), source: \(quoted(source))}")
    }
    return (lines + skipped).joined(separator: "\n") + "\n"
}
