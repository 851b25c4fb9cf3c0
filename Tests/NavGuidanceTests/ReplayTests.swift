import Foundation
import NavCore
import NavGuidance
import Testing

/// A phone held upright in portrait (ARKit camera frame: +x along the long axis, toward the
/// bottom), facing yaw ψ (0 = looking along −z), pitched by `pitch`.
func phone(at p: Vector3, facing yaw: Double, pitch: Double = 0) -> Pose {
    Pose(
        rotation: Quaternion(yaw: yaw) * Quaternion(axis: Vector3(1, 0, 0), angle: pitch) * Quaternion(axis: Vector3(0, 0, 1), angle: -.pi / 2),
        translation: p)
}

/// A walk along straight segments at `speed` m/s sampled at `rate` Hz, facing the direction of
/// travel, then standing `dwell` seconds at the end.
func walk(_ points: [Vector3], speed: Double = 1.2, rate: Double = 30, dwell: Double = 2) -> PoseSampler {
    var t: [Double] = [], poses: [Pose] = []
    var time = 0.0
    for i in 1..<points.count {
        let a = points[i - 1], b = points[i]
        let d = b - a, n = max(1, Int((d.norm / speed * rate).rounded()))
        let yaw = atan2(-d.x, -d.z)
        for k in 0..<n {
            t.append(time); poses.append(phone(at: a + (Double(k) / Double(n)) * d, facing: yaw))
            time += 1 / rate
        }
    }
    let last = points[points.count - 1] - points[points.count - 2]
    for _ in 0..<Int(dwell * rate) { t.append(time); poses.append(phone(at: points.last!, facing: atan2(-last.x, -last.z))); time += 1 / rate }
    return PoseSampler(timestamps: t, poses: poses)
}

@Suite struct ReplayTests {
    @Test func phoneHeadingUprightAndFlat() {
        let upright = phone(at: .zero, facing: 0)
        let flat = phone(at: .zero, facing: 0, pitch: -.pi / 2)
        #expect(abs(PhoneHeading.yaw(upright)) < 1e-12)
        #expect(abs(PhoneHeading.yaw(flat)) < 1e-12)  // the long axis takes over when flat
        let route = GuidanceRoute(positions: [Vector3(0, 0, 10), Vector3(5, 0, 0)])
        let right = Direction(from: upright, to: 1, of: route, parameters: GuidanceParameters())
        #expect(right.hour == 3)
        #expect(abs(right.angle - .pi / 2) < 1e-12)
        #expect(right.distance == 5)
    }

    /// A straight route walked exactly: the replay against itself agrees fully, zero cross-track.
    @Test func straightRouteWalkedExactly() {
        let pts = [Vector3(0, 0, 0), Vector3(0, 0, -20)]
        let route = GuidanceRoute(positions: pts)
        let poses = walk(pts)
        let p = GuidanceParameters()
        let timeline = replayGuidance(route: route, poses: poses, start: 0, parameters: p)
        #expect(timeline.completed)
        #expect(timeline.events.first { $0.kind == .instruction }?.text == "Continue straight")
        #expect(timeline.events.filter { $0.kind == .correction }.isEmpty)
        let m = Dictionary(
            uniqueKeysWithValues: guidanceAccuracy(
                estimated: timeline, trueRoute: route, truth: poses,
                truthTimeline: timeline, parameters: p
            ).map { ($0.name, $0.value) })
        #expect(m["clock_agreement"] == 1)
        #expect(m["wording_agreement"] == 1)
        #expect(m["bearing_error_mean_abs"] == 0)
        #expect(m["on_track_precision"] == 1 && m["on_track_recall"] == 1)
        #expect(m["false_arrivals"] == 0 && m["missed_arrivals"] == 0)
        #expect(m["cross_track_rmse"]! < 1e-12)
        #expect(m["end_of_route_error"]! <= p.lastTargetDepth + 1.2 * p.followInterval)
        // Pulses every 0.4 s at most: at least 0.4 s apart.
        let pulses = timeline.events.filter { $0.kind == .pulse }.map(\.time)
        #expect(zip(pulses.dropFirst(), pulses).allSatisfy { $0 - $1 > p.pulseInterval - 1e-9 })
    }

    /// A registration yaw error δ: the user follows guidance that is right in the registered
    /// frame, so truly walks the route rotated by δ about the start and ends 2·d·sin(δ/2) from the
    /// true destination (d = route length).
    @Test(arguments: [2.0, 5.0, 10.0])
    func anchorYawErrorMovesTheEnd(_ deltaDegrees: Double) {
        let d = 25.0
        let pts = [Vector3(0, 0, 0), Vector3(0, 0, -d)]
        let route = GuidanceRoute(positions: pts)
        let estimated = walk(pts, dwell: 3)
        let delta = deltaDegrees * .pi / 180
        let rotation = Pose(rotation: Quaternion(yaw: delta))
        let truth = PoseSampler(timestamps: estimated.timestamps, poses: estimated.poses.map { rotation * $0 })
        var p = GuidanceParameters()
        p.lastTargetDepth = 0.05
        p.arrivalTest = .symmetric
        let timeline = replayGuidance(route: route, poses: estimated, start: 0, parameters: p)
        let truthTimeline = replayGuidance(route: route, poses: truth, start: 0, parameters: p)
        let m = guidanceAccuracy(estimated: timeline, trueRoute: route, truth: truth, truthTimeline: truthTimeline, parameters: p)
        let end = m.first { $0.name == "end_of_route_error" }!.value
        let expected = 2 * d * sin(delta / 2)
        #expect(abs(end - expected) < 0.06, "δ=\(deltaDegrees)°: \(end) m vs \(expected) m")
        #expect(m.first { $0.name == "cross_track_max" }!.value > expected * 0.9)
    }

    /// An L-shaped route: arrival at the corner, then "Turn right".
    @Test func cornerGivesATurn() {
        let pts = [Vector3(0, 0, 0), Vector3(0, 0, -10), Vector3(8, 0, -10)]
        let timeline = replayGuidance(route: GuidanceRoute(positions: pts), poses: walk(pts), start: 0)
        let spoken = timeline.events.filter { $0.kind == .instruction }.map(\.text)
        #expect(spoken.first == "Continue straight")
        #expect(spoken.contains("Turn right"))
        #expect(timeline.events.filter { $0.kind == .arrival }.map(\.keypoint) == [0, 1])
        #expect(timeline.completed)
    }

    /// Stairs: more than 1 m of rise at a slope above 0.3 adds " and proceed upstairs".
    @Test func stairsWording() {
        let pts = [Vector3(0, 0, 0), Vector3(0, 0, -4), Vector3(0, 3, -10), Vector3(0, 3, -14)]
        let timeline = replayGuidance(route: GuidanceRoute(positions: pts), poses: walk(pts), start: 0)
        #expect(timeline.events.contains { $0.kind == .instruction && $0.text.hasSuffix(" and proceed upstairs") })
    }

    /// Walking off to the side of the route earns corrections toward it.
    @Test func offCourseCorrection() {
        let route = GuidanceRoute(positions: [Vector3(0, 0, 0), Vector3(0, 0, -30)])
        // Walk 30 m at 60° to the left of the route (the target is to the right).
        let poses = walk([Vector3(0, 0, 0), Vector3(-30 * sin(.pi / 3), 0, -30 * cos(.pi / 3))])
        let timeline = replayGuidance(route: route, poses: poses, start: 0)
        let corrections = timeline.events.filter { $0.kind == .correction }
        #expect(!corrections.isEmpty)
        #expect(corrections.allSatisfy { $0.text == "Bear right to get on track" })
        #expect(zip(corrections.dropFirst(), corrections).allSatisfy { $0.time - $1.time >= 5 })
        #expect(!timeline.completed)
    }
}
