import Foundation
import NavCore
import NavIO
import NavPipeline
import NavSynth
import Testing

/// `guide --vio`: an external estimate replacing the navigation's VIO (issue 14, checks 1).
@Suite struct ExternalEstimateTests {
    /// A venue without VIO drift, VIO noise, tracking loss or anchor noise: the session's own VIO
    /// is its ground truth in the session frame, so estimate errors are exactly what is added.
    static func noiseFree() -> (Session, Session) {
        var p = SynthParameters()
        p.navigationSessionsPerRoute = 1
        p.vioYawRandomWalkDegreesPerSqrtSecond = 0; p.vioScaleErrorStd = 0; p.vioPositionRandomWalkPerSqrtSecond = 0
        p.vioOrientationNoiseDegrees = 0; p.trackingLossProbability = 0
        p.anchorPositionNoiseStd = 0; p.anchorRotationNoiseDegrees = 0
        let s = synthesizeVenue(seed: 5, parameters: p, routes: [SynthRoute.venueRoutes[1]]).map(\.session)
        return (s.first { $0.metadata.kind == .recording }!, s.first { $0.metadata.kind == .navigation }!)
    }

    static func tempDir() throws -> String {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("navbench-estimate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    @Test func ownVIOExportedToTUMGivesIdenticalMetrics() throws {
        let rec = try readTrace(at: datasets + "/R2-turns_recording.h5")
        let nav = try readTrace(at: datasets + "/R2-turns_nav1.h5")
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let vio = nav.vio!
        try writeTUM(try Trajectory(timestamps: vio.timestamps, poses: vio.poses), to: dir + "/own.tum")
        let plain = try runGuidance(recording: rec, navigation: nav, options: GuidanceOptions())
        let est = try loadEstimate(EstimateSource(path: dir + "/own.tum"), for: nav)
        let replaced = try runGuidance(recording: rec, navigation: nav, options: GuidanceOptions(), estimate: est)
        #expect(plain.metrics.count == replaced.metrics.count)
        for (a, b) in zip(plain.metrics, replaced.metrics) {
            #expect(a.name == b.name)
            #expect(a.value == b.value || (a.value.isNaN && b.value.isNaN), "\(a.name): \(a.value) vs \(b.value)")
        }
        // A navigation whose /vio is gone still runs from the estimate alone (registration from its anchors).
        var bare = nav
        bare.vio = nil
        let alone = try runGuidance(recording: rec, navigation: bare, options: GuidanceOptions(), estimate: est)
        #expect(metric(alone, "position_error_rmse") == metric(plain, "position_error_rmse"))
    }

    /// The session's own VIO agrees with its ground truth to e = rmse(own) (8e-7 m in this
    /// synthetic venue, not 0); with a constant offset o (|o| = 0.5 m) the triangle inequality
    /// bounds |rmse(e + o) − 0.5| ≤ rmse(e), so the offset run is 0.5 m within that bound.
    @Test func constantOffsetGivesThatPositionError() throws {
        let (rec, nav) = Self.noiseFree()
        let own = try runGuidance(recording: rec, navigation: nav, options: GuidanceOptions())
        let e = metric(own, "position_error_rmse")
        #expect(e < 1e-6)
        var est = nav.vio!
        for i in est.poses.indices { est.poses[i].translation = est.poses[i].translation + Vector3(0.5, 0, 0) }
        let run = try runGuidance(recording: rec, navigation: nav, options: GuidanceOptions(), estimate: est)
        #expect(abs(metric(run, "position_error_rmse") - 0.5) <= e + 1e-12, "\(metric(run, "position_error_rmse")), own \(e)")
    }

    /// 0.5°/s of extra yaw drift: the position error grows, and the user no longer reaches the
    /// end within the replay or ends farther from it. (Cross-track and the instruction errors are
    /// not all worse on this one run: they are measured on the true path while guidance lasts.)
    @Test func yawDriftScoresWorseOnThePathErrors() throws {
        let rec = try readTrace(at: datasets + "/R2-turns_recording.h5")
        let nav = try readTrace(at: datasets + "/R2-turns_nav1.h5")
        let own = try runGuidance(recording: rec, navigation: nav, options: GuidanceOptions())
        let drifted = try runGuidance(recording: rec, navigation: nav, options: GuidanceOptions(),
                                      estimate: addingYawDrift(nav.vio!, degreesPerSecond: 0.5))
        for name in ["position_error_rmse"] {
            #expect(metric(drifted, name) > metric(own, name), "\(name): \(metric(drifted, name)) vs \(metric(own, name))")
        }
        let end = metric(drifted, "end_of_route_error")
        #expect(end.isNaN || end > metric(own, "end_of_route_error"))
    }

    @Test func detectableFrameMismatchesAreOneLine() throws {
        let nav = try readTrace(at: datasets + "/R2-turns_nav1.h5")
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let vio = nav.vio!
        // z up: y and z swapped (a right-handed swap needs a sign: (x, y, z) → (x, -z, y)).
        let zUp = vio.poses.map { Pose(rotation: $0.rotation, translation: Vector3($0.translation.x, -$0.translation.z, $0.translation.y)) }
        try writeTUM(try Trajectory(timestamps: vio.timestamps, poses: zUp), to: dir + "/zup.tum")
        do {
            _ = try loadEstimate(EstimateSource(path: dir + "/zup.tum"), for: nav)
            Issue.record("a z-up estimate was accepted")
        } catch let e as GuidanceJobError {
            #expect(e.description.contains("is the estimate z-up?") && !e.description.contains("\n"), "\(e)")
        }
        try writeTUM(try Trajectory(timestamps: vio.timestamps, poses: vio.poses), to: dir + "/own.tum")
        do {
            _ = try loadEstimate(EstimateSource(path: dir + "/own.tum", timeOffset: 1e6), for: nav)
            Issue.record("an estimate without time overlap was accepted")
        } catch let e as GuidanceJobError {
            #expect(e.description.contains("no time overlap") && e.description.contains("--t-offset"), "\(e)")
        }
        // A small offset that keeps the overlap is accepted and shifts every stamp.
        let shifted = try loadEstimate(EstimateSource(path: dir + "/own.tum", timeOffset: 0.25), for: nav)
        #expect(shifted.timestamps.first! == vio.timestamps.first! + 0.25)
    }
}
