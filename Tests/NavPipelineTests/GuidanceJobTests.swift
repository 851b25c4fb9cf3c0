import Foundation
import NavCore
import NavGuidance
import NavIO
import NavPipeline
import NavSynth
import Testing

let datasets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Datasets").path

func metric(_ run: GuidanceRun, _ name: String) -> Double { run.metrics.first { $0.name == name }!.value }

@Suite struct GuidanceJobTests {
    @Test func replaysABundledRun() throws {
        // R3's nav2: a navigation that Clew guides to the end in a replay (a replayed walker on its
        // own line does not react, so R2's nav1, which starts 1 m beside the start, is never told
        // it reached it).
        let rec = try readTrace(at: datasets + "/R3-stairs_recording.h5")
        let nav = try readTrace(at: datasets + "/R3-stairs_nav2.h5")
        let run = try runGuidance(recording: rec, navigation: nav, options: GuidanceOptions())
        #expect(run.route.keypoints.count >= 5)  // start, stair foot and head, corner, end (plus meander)
        #expect(run.estimated.completed)
        #expect(metric(run, "clock_agreement_within_1h") > 0.5)
        #expect(metric(run, "registration_yaw_error") < 3)
        #expect(metric(run, "end_of_route_error") < 3)
        #expect(run.estimated.events.contains { $0.kind == .instruction && $0.text.hasPrefix("Turn") })
    }

    @Test func missingAnchorsIsOneLine() throws {
        let rec = try readTrace(at: datasets + "/R1-corridor_recording.h5")
        var nav = try readTrace(at: datasets + "/R1-corridor_nav1.h5")
        nav.anchors = nil
        #expect(throws: GuidanceJobError("R1-corridor_nav1: no anchor sightings: the session cannot be registered onto the route")) {
            try runGuidance(recording: rec, navigation: nav, options: GuidanceOptions())
        }
    }

    /// More anchor detection noise → larger registration error and larger end-of-route error
    /// (means over every navigation run of the venue, one seed).
    @Test func moreAnchorNoiseScoresWorse() throws {
        var previous = (registration: -1.0, end: -1.0)
        for noise in [0.2, 3.0, 9.0] {
            var p = SynthParameters()
            p.anchorRotationNoiseDegrees = noise
            p.navigationSessionsPerRoute = 2
            let sessions = synthesizeVenue(seed: 77, parameters: p).map(\.session)
            var o = GuidanceOptions()
            o.anchorSightings = 1
            var reg: [Double] = [], end: [Double] = []
            for rec in sessions where rec.metadata.kind == .recording {
                for nav in sessions where nav.metadata.kind == .navigation && nav.metadata.routeID == rec.metadata.routeID {
                    let run = try runGuidance(recording: rec, navigation: nav, options: o)
                    reg.append(metric(run, "registration_induced_error_max"))
                    end.append(metric(run, "position_error_rmse"))
                }
            }
            let meanReg = reg.reduce(0, +) / Double(reg.count), meanEnd = end.reduce(0, +) / Double(end.count)
            #expect(meanReg > previous.registration, "anchor noise \(noise)°: induced \(meanReg) m")
            #expect(meanEnd > previous.end, "anchor noise \(noise)°: position RMSE \(meanEnd) m")
            previous = (meanReg, meanEnd)
        }
    }

    /// More VIO yaw drift → larger position error along the route.
    @Test func moreDriftScoresWorse() throws {
        var previous = -1.0
        for drift in [0.0, 1.0, 4.0] {
            var p = SynthParameters()
            p.vioYawRandomWalkDegreesPerSqrtSecond = drift
            p.navigationSessionsPerRoute = 2
            let sessions = synthesizeVenue(seed: 78, parameters: p).map(\.session)
            var errors: [Double] = []
            for rec in sessions where rec.metadata.kind == .recording {
                for nav in sessions where nav.metadata.kind == .navigation && nav.metadata.routeID == rec.metadata.routeID {
                    errors.append(metric(try runGuidance(recording: rec, navigation: nav, options: GuidanceOptions()), "position_error_rmse"))
                }
            }
            let mean = errors.reduce(0, +) / Double(errors.count)
            #expect(mean > previous, "yaw drift \(drift)°/√s: position RMSE \(mean) m")
            previous = mean
        }
    }
}
