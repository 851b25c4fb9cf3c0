import Foundation
import NavCore

/// Guidance accuracy of one navigation run: were the instructions the user got the ones the
/// true position called for?
///
/// - Parameters:
///   - estimated: the replay driven by the registered VIO poses against `route` (route frame).
///   - trueRoute: the same keypoints carried through the recording's ground truth (venue frame).
///   - truth: ground-truth poses of the navigation session (venue frame).
///   - truthTimeline: the replay driven by `truth` against `trueRoute` (for missed arrivals).
/// - Returns: metrics in a fixed order (definitions and units in docs/metrics.md).
public func guidanceAccuracy(
    estimated: GuidanceTimeline, trueRoute: GuidanceRoute, truth: PoseSampler,
    truthTimeline: GuidanceTimeline, parameters p: GuidanceParameters
) -> [Metric] {
    var metrics: [Metric] = []
    // Spoken instructions against what the true pose called for, with the same target.
    var hourExact = 0, hourNear = 0, sectorSame = 0, textSame = 0, count = 0
    var bearingErrors: [Double] = [], distanceErrors: [Double] = []
    var previousTrue = truth.pose(at: estimated.start)?.translation ?? trueRoute.keypoints[0].position
    for e in estimated.events {
        if e.kind == .arrival { previousTrue = trueRoute.keypoints[e.keypoint].position }
        guard e.kind == .instruction, let pose = truth.pose(at: e.time), let hour = e.hour, let angle = e.angle, let distance = e.distance else {
            continue
        }
        let d = Direction(from: pose, to: e.keypoint, of: trueRoute, parameters: p)
        let trueText = instruction(e.time, d, target: e.keypoint, pose: pose, previous: previousTrue, route: trueRoute, p).text
        count += 1
        if hour == d.hour { hourExact += 1 }
        let dh = abs(hour - d.hour) % 12
        if min(dh, 12 - dh) <= 1 { hourNear += 1 }
        if e.sector == d.sector { sectorSame += 1 }
        if e.text == trueText { textSame += 1 }
        bearingErrors.append(PhoneHeading.angleDifference(angle, d.angle) * 180 / .pi)
        distanceErrors.append(distance - d.distance)
    }
    func fraction(_ n: Int) -> Double { count == 0 ? .nan : Double(n) / Double(count) }
    metrics += [
        Metric("instructions", Double(count), "count"),
        Metric("clock_agreement", fraction(hourExact), "fraction"),
        Metric("clock_agreement_within_1h", fraction(hourNear), "fraction"),
        Metric("sector_agreement", fraction(sectorSame), "fraction"),
        Metric("wording_agreement", fraction(textSame), "fraction"),
        Metric("bearing_error_mean_abs", meanAbs(bearingErrors), "deg"),
        Metric("bearing_error_p95_abs", bearingErrors.isEmpty ? .nan : percentile(bearingErrors.map(abs), 95, method: .linear), "deg"),
        Metric("distance_error_mean_abs", meanAbs(distanceErrors), "m"),
    ]
    // Haptic on-track state against the true heading error, tick by tick.
    var tp = 0, fp = 0, fn = 0
    for c in estimated.checks {
        guard let pose = truth.pose(at: c.time) else { continue }
        let trueOnTrack = Direction(from: pose, to: c.target, of: trueRoute, parameters: p).onTrack(p)
        if c.onTrack && trueOnTrack { tp += 1 } else if c.onTrack { fp += 1 } else if trueOnTrack { fn += 1 }
    }
    metrics += [
        Metric("pulses", Double(estimated.events.filter { $0.kind == .pulse }.count), "count"),
        Metric("corrections", Double(estimated.events.filter { $0.kind == .correction }.count), "count"),
        Metric("on_track_precision", tp + fp == 0 ? .nan : Double(tp) / Double(tp + fp), "fraction"),
        Metric("on_track_recall", tp + fn == 0 ? .nan : Double(tp) / Double(tp + fn), "fraction"),
    ]
    // Arrivals.
    var falseArrivals = 0
    for e in estimated.events where e.kind == .arrival || e.kind == .arrived {
        guard let pose = truth.pose(at: e.time) else { continue }
        if !Direction(from: pose, to: e.keypoint, of: trueRoute, parameters: p).atTarget { falseArrivals += 1 }
    }
    let arrivedEstimated = Set(estimated.events.filter { $0.kind == .arrival || $0.kind == .arrived }.map(\.keypoint))
    let arrivedTruly = Set(truthTimeline.events.filter { $0.kind == .arrival || $0.kind == .arrived }.map(\.keypoint))
    metrics += [
        Metric("false_arrivals", Double(falseArrivals), "count"),
        Metric("missed_arrivals", Double(arrivedTruly.subtracting(arrivedEstimated).count), "count"),
        Metric("completed", estimated.completed ? 1 : 0, "bool"),
    ]
    // End of route: where the user truly is when told they have arrived.
    let end = trueRoute.keypoints.last!.position
    var endError = Double.nan
    if let t = estimated.arrivalTime, let pose = truth.pose(at: t) {
        endError = hypot(pose.translation.x - end.x, pose.translation.z - end.z)
    }
    metrics += [
        Metric("end_of_route_error", endError, "m"),
        Metric("end_of_route_error_ratio", endError / trueRoute.length, "fraction"),
        Metric("time_to_complete", estimated.arrivalTime.map { $0 - estimated.start } ?? .nan, "s"),
    ]
    // Cross-track error of the walked (true) path to the true route.
    let stop = estimated.arrivalTime ?? estimated.end
    let inside = truth.timestamps.indices.filter { truth.timestamps[$0] >= estimated.start && truth.timestamps[$0] <= stop }
    let crossTrack = inside.map { trueRoute.distanceToRoute(truth.poses[$0].translation) }
    metrics += [
        Metric("cross_track_rmse", rootMeanSquare(crossTrack), "m"),
        Metric("cross_track_max", crossTrack.max() ?? .nan, "m"),
    ]
    return metrics
}

func meanAbs(_ x: [Double]) -> Double { x.isEmpty ? .nan : x.reduce(0) { $0 + abs($1) } / Double(x.count) }
func rootMeanSquare(_ x: [Double]) -> Double { x.isEmpty ? .nan : (x.reduce(0) { $0 + $1 * $1 } / Double(x.count)).squareRoot() }
