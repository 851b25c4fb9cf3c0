import Foundation
import NavAids
import NavCore
import NavGuidance
import NavIO
import NavReport
import NavSignal

/// Tilt of the phone, degrees: elevation of its back axis (−z of the ARKit camera or of the
/// CoreMotion device frame), from the `imu/attitude` quaternions in the trace's +y-up frame.
public func tiltSeries(_ imu: IMUStream) -> (times: [Double], tilts: [Double])? {
    guard let attitude = imu.attitude else { return nil }
    let tilts = attitude.map { q -> Double in
        let f = q.act(on: Vector3(0, 0, -1))
        return asin(max(-1, min(1, f.y))) * 180 / .pi
    }
    return (imu.timestamps, tilts)
}

/// The true offset between the phone's heading and the walker's during [from, to], degrees:
/// circular mean of wrap(phone heading − direction of travel) from ground truth (nil without
/// ground truth or movement).
public func trueHeadingOffset(_ s: Session, from: Double, to: Double) -> Double? {
    guard let gt = s.groundTruth else { return nil }
    var diffs: [Double] = []
    for i in gt.timestamps.indices.dropFirst() where gt.timestamps[i] >= from && gt.timestamps[i] <= to {
        let v = gt.poses[i].translation - gt.poses[i - 1].translation
        guard hypot(v.x, v.z) / max(1e-9, gt.timestamps[i] - gt.timestamps[i - 1]) > 0.3 else { continue }
        let travel = atan2(v.x, -v.z) * 180 / .pi
        let f = gt.poses[i].rotation.act(on: Vector3(0, 0, -1))
        diffs.append(wrapDegrees180(atan2(f.x, -f.z) * 180 / .pi - travel))
    }
    return diffs.isEmpty ? nil : CircularStatistics.mean(diffs)
}

/// Azimuth of a vector, degrees clockwise from north (−z) toward east (+x), in the trace's frame.
func azimuth(_ v: Vector3) -> Double { wrapDegrees360(atan2(v.x, -v.z) * 180 / .pi) }

/// A compass emulated from the magnetometer where a session has none but has the device's
/// true orientation (BROAD): every `step`-th IMU sample, the heading of the body axis that lies
/// most horizontal on average (x or y), measured from the horizontal magnetic field
/// (compass = azimuth(R·axis) − azimuth(R·m)), with the optical heading of the same axis as truth.
/// Magnetic disturbances therefore show up as compass error, as on a phone.
public func emulatedCompass(_ s: Session, rate: Double = 10) -> (compass: CompassStream, truth: [Double], tilt: [Double])? {
    guard let imu = s.imu, let mag = imu.magnetometer, let gt = s.groundTruth, gt.poses.count > 1 else { return nil }
    let truth = PoseSampler(timestamps: gt.timestamps, poses: gt.poses)
    let fs = 1 / SamplingSummary(timestamps: imu.timestamps).medianInterval
    let ratio = (fs / rate).rounded()
    let step = ratio.isFinite && ratio >= 1 ? Int(min(ratio, 1e9)) : 1  // never traps on a degenerate rate
    let rows = Array(stride(from: 0, to: imu.timestamps.count, by: step)).filter { truth.pose(at: imu.timestamps[$0]) != nil }
    guard !rows.isEmpty else { return nil }
    let candidates = [Vector3(1, 0, 0), Vector3(0, 1, 0)]
    let axis = candidates.min { a, b in
        rows.reduce(0.0) { $0 + abs(truth.pose(at: imu.timestamps[$1])!.rotation.act(on: a).y) }
            < rows.reduce(0.0) { $0 + abs(truth.pose(at: imu.timestamps[$1])!.rotation.act(on: b).y) }
    }!
    var t: [Double] = [], heading: [Double] = [], trueHeading: [Double] = [], tilt: [Double] = []
    for i in rows {
        let q = truth.pose(at: imu.timestamps[i])!.rotation
        let f = q.act(on: axis), m = q.act(on: mag[i])
        t.append(imu.timestamps[i])
        trueHeading.append(azimuth(f))
        heading.append(wrapDegrees360(azimuth(f) - azimuth(m)))
        tilt.append(asin(max(-1, min(1, f.y))) * 180 / .pi)
    }
    return (CompassStream(timestamps: t, heading: heading), trueHeading, tilt)
}

/// The heading-calibration experiment on one session. With a compass stream the true offset is
/// the phone's heading relative to the direction of travel (ground truth); without one, a
/// compass is emulated from the magnetometer (`emulatedCompass`) and the truth is the optical
/// heading of the same axis over the collection window.
public func runCalibration(_ s: Session, parameters p: CalibrationParameters) throws -> (CalibrationResult, [AidMetric]) {
    if let compass = s.compass {
        let tilt = s.imu.flatMap(tiltSeries) ?? ([], [])
        let r = try calibrateHeading(
            compassTimes: compass.timestamps, headings: compass.heading, tiltTimes: tilt.times, tilts: tilt.tilts, parameters: p)
        let truth = r.collectStart.flatMap { a in r.collectEnd.flatMap { b in trueHeadingOffset(s, from: a, to: b) } }
        return (r, calibrationMetrics(r, trueOffset: truth))
    }
    guard let e = emulatedCompass(s) else {
        throw GuidanceJobError("\(s.metadata.sessionID): no compass stream, and no magnetometer with ground-truth orientation to emulate one")
    }
    let r = try calibrateHeading(
        compassTimes: e.compass.timestamps, headings: e.compass.heading, tiltTimes: e.compass.timestamps, tilts: e.tilt, parameters: p)
    var truth: Double?
    if let a = r.collectStart, let b = r.collectEnd {
        let window = e.compass.timestamps.indices.filter { e.compass.timestamps[$0] >= a && e.compass.timestamps[$0] <= b }
        truth = window.isEmpty ? nil : CircularStatistics.mean(window.map { e.truth[$0] })
    }
    return (r, calibrationMetrics(r, trueOffset: truth))
}

/// The beacon-proximity experiment on one session (needs `ble` with beacon positions and ground truth).
public func runProximity(_ s: Session, parameters p: ProximityParameters, model: PathLossModel? = nil) throws -> (ProximityResult, [AidMetric]) {
    guard let ble = s.ble else { throw GuidanceJobError("\(s.metadata.sessionID): no ble stream") }
    guard let gt = s.groundTruth else { throw GuidanceJobError("\(s.metadata.sessionID): no groundtruth stream to score proximity against") }
    guard ble.beacons.contains(where: { $0.position != nil }) else {
        throw GuidanceJobError("\(s.metadata.sessionID): no beacon has a known position")
    }
    let truth = PoseSampler(timestamps: gt.timestamps, poses: gt.poses)
    let r = try runProximity(ble, truePosition: { truth.pose(at: $0)?.translation }, model: model, parameters: p)
    return (r, proximityMetrics(r, parameters: p))
}
