import Foundation
import NavCore
import NavGeometry
import NavIO
import NavPipeline
import NavReport
import NavSignal
import NavSynth
import Testing

// The worked examples of docs/extending.md ("The Swift API"), compiled and run here. Every
// ```swift block of that page must appear verbatim in this file (`docBlocksAreThisFilesCode`).

// doc: a filter of your own
/// Clamps every sample into [−limit, limit]: a `SignalFilter` a spec can name once registered.
struct Clamp: SignalFilter {
    var limit: Double

    func apply(_ values: [Double], timestamps: [Double], sampleRate: Double) throws -> [Double] {
        values.map { min(max($0, -limit), limit) }
    }
}

/// Makes `clamp:limit=L` a filter spec, like the built-in `ema:tau=0.3`.
func registerClamp() throws {
    try FilterRegistry.register("clamp") { parameters in
        guard let limit = Double(parameters["limit"] ?? ""), limit > 0 else {
            throw FilterSpecError(spec: "clamp", problem: "expected limit=NUMBER > 0")
        }
        return Clamp(limit: limit)
    }
}
// end

// doc: guidance replay on in-memory sessions
/// Replays guidance on a synthetic route twice, with the session's own VIO and with 0.5°/s of
/// extra yaw drift, and returns both position errors (metres).
func ownAndDriftedPositionError() throws -> (own: Double, drifted: Double) {
    var parameters = SynthParameters()
    parameters.navigationSessionsPerRoute = 1
    let sessions = synthesizeVenue(seed: 7, parameters: parameters, routes: [SynthRoute.venueRoutes[1]]).map(\.session)
    let recording = sessions.first { $0.metadata.kind == .recording }!
    let navigation = sessions.first { $0.metadata.kind == .navigation }!
    var options = GuidanceOptions()
    options.positionFilter = "clamp:limit=1000"  // the registered filter, named like a built-in
    let own = try runGuidance(recording: recording, navigation: navigation, options: options)
    let drifted = try runGuidance(
        recording: recording, navigation: navigation, options: options,
        estimate: addingYawDrift(navigation.vio!, degreesPerSecond: 0.5))
    func rmse(_ run: GuidanceRun) -> Double { run.metrics.first { $0.name == "position_error_rmse" }!.value }
    return (rmse(own), rmse(drifted))
}
// end

// doc: APE on trajectories in memory
/// APE (translation part, evo's `evo_ape`) of an estimate that is the reference moved by
/// (0.3, 0, 0.4) m: 0.5 m unaligned, 0 after an SE(3) alignment.
func apeOfAShiftedCircle() throws -> (unaligned: Double, aligned: Double) {
    let t = (0..<100).map { Double($0) * 0.1 }
    let circle = t.map { Pose(rotation: .identity, translation: Vector3(cos($0), 0, sin($0))) }
    let shifted = circle.map { Pose(rotation: $0.rotation, translation: $0.translation + Vector3(0.3, 0, 0.4)) }
    let reference = TrajectoryFile(name: "truth", trajectory: try Trajectory(timestamps: t, poses: circle))
    let estimate = TrajectoryFile(name: "mine", trajectory: try Trajectory(timestamps: t, poses: shifted))
    func rmse(_ alignment: AlignmentMethod) throws -> Double {
        let pair = try PreparedPair(reference: reference, estimate: estimate, settings: EvaluationSettings(alignment: alignment))
        return try apeReport(pair, relation: .translationPart, settings: pair.settings).statistics.rmse
    }
    return (try rmse(.none), try rmse(.se3))
}
// end

@Suite(.serialized) struct ExtendingDocTests {
    @Test func registeredFilterIsNamedBySpecs() throws {
        try registerClamp()
        defer { FilterRegistry.unregister("clamp") }
        let f = try FilterRegistry.filter("clamp:limit=2")
        #expect(try f.apply([-5, 1, 3], timestamps: [0, 1, 2], sampleRate: 1) == [-2, 1, 2])
        #expect(SweepDimension.positionFilter.validate("clamp:limit=2") == "clamp:limit=2")
        #expect(throws: FilterSpecError.self) { try FilterRegistry.filter("clamp:limit=x") }
        #expect(throws: FilterSpecError.self) { try FilterRegistry.register("ema") { _ in Clamp(limit: 1) } }
        FilterRegistry.unregister("clamp")
        #expect(SweepDimension.positionFilter.validate("clamp:limit=2") == nil)
    }

    @Test func inMemoryReplayWithDriftIsWorse() throws {
        try registerClamp()
        defer { FilterRegistry.unregister("clamp") }
        let (own, drifted) = try ownAndDriftedPositionError()
        #expect(own.isFinite && drifted > own, "\(own) vs \(drifted)")
    }

    @Test func inMemoryAPEMatchesTheClosedForm() throws {
        let (unaligned, aligned) = try apeOfAShiftedCircle()
        #expect(abs(unaligned - 0.5) < 1e-12)
        #expect(aligned < 1e-9)
    }

    /// Every ```swift block of docs/extending.md is code of this file, so the page's examples
    /// are the ones compiled and run above.
    @Test func docBlocksAreThisFilesCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOfFile: root.appendingPathComponent("docs/extending.md").path, encoding: .utf8)
        let me = try String(contentsOfFile: #filePath, encoding: .utf8)
        let blocks = doc.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 3)
        for b in blocks { #expect(me.contains(b), "a docs/extending.md example is not in ExtendingDocTests.swift:\n\(b)") }
    }
}
