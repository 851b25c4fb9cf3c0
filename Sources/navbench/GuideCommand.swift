import ArgumentParser
import Foundation
import NavGeometry
import NavGuidance
import NavIO
import NavPipeline
import NavSignal

/// Options shared by `guide` and experiment specs: what can vary in a guidance run.
struct GuidanceFlags: ParsableArguments {
    @Option(help: "RDP tolerance (Clew's pathWidth), metres.") var tolerance: Double = 0.3
    @Option(help: "RDP distance: line (Clew) or segment.") var distance: String = "line"
    @Option(help: "Registration: gravity-aligned (Clew) or full.") var registration: String = "gravity-aligned"
    @Option(help: "Use this many anchor sightings of the navigation session, chosen by --seed (default all).") var anchorSightings: Int?
    @Option(help: "Seed for choosing anchor sightings.") var seed: UInt64 = 1
    @Option(help: "Filter spec applied to each VIO position axis, e.g. ema:tau=0.3 (default none).") var positionFilter: String?
    @Option(help: "Wording: clock (Clew without haptics) or six-sector (Clew with haptics).") var wording: String = "clock"
    @Option(help: "Arrival box test: faithful (Clew's open box) or symmetric.") var arrival: String = "faithful"
    @Flag(help: "Relaxed haptics (cone π/6) instead of strict (π/12).") var relaxed = false
    @Option(help: "Distance units: feet or metres.") var units: String = "feet"
    @Flag(help: "Speak the distance with each direction (\"… and walk 15 feet\").") var announceDistance = false

    func validate() throws { _ = try options() }

    func options() throws -> GuidanceOptions {
        var o = GuidanceOptions()
        guard tolerance.isFinite, tolerance >= 0 else { throw ValidationError("--tolerance must be ≥ 0 m, got \(tolerance)") }
        o.rdpTolerance = tolerance
        guard let d = RDPDistance(rawValue: distance) else { throw ValidationError("--distance \(distance): expected line or segment") }
        o.rdpDistance = d
        guard let r = RegistrationMode(rawValue: registration) else { throw ValidationError("--registration \(registration): expected gravity-aligned or full") }
        o.registration = r
        if let n = anchorSightings, n < 1 { throw ValidationError("--anchor-sightings must be at least 1, got \(n)") }
        o.anchorSightings = anchorSightings
        o.seed = seed
        if let f = positionFilter, f != "none" {
            do { _ = try FilterSpec(parsing: f) } catch { throw ValidationError(error.description) }
        }
        o.positionFilter = positionFilter
        guard ["clock", "six-sector"].contains(wording) else { throw ValidationError("--wording \(wording): expected clock or six-sector") }
        o.guidance.sixSectorWording = wording == "six-sector"
        guard let a = GuidanceParameters.ArrivalTest(rawValue: arrival) else { throw ValidationError("--arrival \(arrival): expected faithful or symmetric") }
        o.guidance.arrivalTest = a
        o.guidance.strictHaptic = !relaxed
        guard let u = ClockFace.Units(rawValue: units) else { throw ValidationError("--units \(units): expected feet or metres") }
        o.guidance.units = u
        o.guidance.announceDistance = announceDistance
        return o
    }
}

struct Guide: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay Clew's guidance for a navigation session along a recorded route and measure it against ground truth.",
        discussion: "Prints the guidance timeline (spoken directions, arrivals, corrections) and the accuracy table; metrics are defined in docs/metrics.md.")

    @Argument(help: "The recording session (.h5).") var recording: String
    @Argument(help: "The navigation session (.h5).") var navigation: String
    @OptionGroup var flags: GuidanceFlags
    @Flag(help: "Also list the on-track haptic pulses.") var pulses = false
    @Flag(help: "Print JSON: timeline and metrics.") var json = false
    @Flag(help: "Replay even when the session kinds or route ids do not match.") var force = false

    func run() throws {
        let rec = try readTrace(at: recording), nav = try readTrace(at: navigation)
        let run = try runGuidance(recording: rec, navigation: nav, options: try flags.options(), force: force)
        let events = run.estimated.events.filter { pulses || $0.kind != .pulse }
        if json {
            struct Out: Encodable { var route: String; var recording: String; var navigation: String; var events: [GuidanceEvent]; var metrics: [String: Double?]; var units: [String: String] }
            let out = Out(route: run.routeID, recording: run.recordingID, navigation: run.navigationID, events: events,
                          metrics: Dictionary(uniqueKeysWithValues: run.metrics.map { ($0.name, $0.value.isFinite ? $0.value : nil) }),
                          units: Dictionary(uniqueKeysWithValues: run.metrics.map { ($0.name, $0.unit) }))
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try enc.encode(out), as: UTF8.self))
            return
        }
        print("route \(run.routeID): \(run.route.keypoints.count) keypoints, \(String(format: "%.1f", run.trueRoute.length)) m; navigation \(run.navigationID) from t=\(String(format: "%.2f", run.estimated.start)) s")
        for e in events {
            let what: String
            switch e.kind {
            case .instruction: what = "say     \"\(e.text)\""
            case .correction: what = "say     \"\(e.text)\""
            case .arrival: what = "arrive  keypoint \(e.keypoint)"
            case .arrived: what = "arrived end of route"
            case .pulse: what = "pulse"
            }
            print(String(format: "%8.2f s  ", e.time) + what + (e.hour.map { "  [\($0) o'clock, \(String(format: "%.1f", e.distance ?? .nan)) m]" } ?? ""))
        }
        print("")
        for m in run.metrics {
            print(m.name.padding(toLength: 34, withPad: " ", startingAt: 0) + (m.value.isFinite ? String(format: "%10.4f", m.value) : "         –") + "  " + m.unit)
        }
    }
}
