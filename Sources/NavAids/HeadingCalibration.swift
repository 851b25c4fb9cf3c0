import Foundation
import NavCore
import NavSignal

/// The haptic-navigation article's heading calibration, as parameters (its values by default).
public struct CalibrationParameters: Sendable, Equatable, Codable {
    /// "Pointing north" window, degrees, wrapping through 0: [350°, 10°].
    public var northStart = 350.0, northEnd = 10.0
    /// Time to put the phone away after north is found, s.
    public var countdownSeconds = 3.0
    /// Compass readings averaged into the offset.
    public var samples = 50
    /// Tilt buffer length, s: calibration stops if it holds a critical tilt.
    public var tiltBufferSeconds = 1.0
    /// |tilt| at or beyond which the heading may jump to the opposite direction, degrees.
    public var criticalTiltDegrees = 75.0
    /// How the offset is estimated from the readings: a filter spec whose last output is the
    /// estimate — `mean` (the article's arithmetic mean), `circmean`, `ema:tau=S` (the article's
    /// low-pass, on raw degrees), `ema:tau=S,angle`, `kalman-heading:q=…,r=…`.
    public var estimator = "mean"
    public init() {}
}

/// What one calibration did.
public struct CalibrationResult: Sendable, Equatable {
    /// When the heading first entered the north window (nil: never).
    public var northFoundAt: Double?
    /// Haptic volume while finding north: angular distance to north / 180, per reading.
    public var volumes: [Double]
    /// Collection window of the offset readings.
    public var collectStart: Double?
    public var collectEnd: Double?
    /// Why calibration stopped without an offset, if it did.
    public var abortReason: String?
    /// Estimated offset, degrees in [0, 360).
    public var offset: Double?
    public var start: Double
}

/// Whether `heading` lies in the wrapping window [start, end] (degrees; start > end wraps through 0).
public func isInWindow(_ heading: Double, start: Double, end: Double) -> Bool {
    let h = wrapDegrees360(heading)
    return start <= end ? (h >= start && h <= end) : (h >= start || h <= end)
}

/// Haptic volume = smaller angle between the heading and north / 180, in [0, 1].
public func northVolume(_ heading: Double) -> Double { abs(wrapDegrees180(heading)) / 180 }

/// Replays the three-step calibration on a compass stream and a tilt stream (degrees, the
/// elevation of the phone's back axis): (1) find north — the first reading inside the window;
/// (2) a countdown to put the phone away; (3) collect `samples` readings while moving, stopping
/// when the tilt buffer (the last `tiltBufferSeconds`) holds |tilt| ≥ the critical tilt; the
/// offset is the estimator's last output over the collected readings.
///
/// - Complexity: O(readings + tilt samples).
public func calibrateHeading(
    compassTimes t: [Double], headings h: [Double], tiltTimes: [Double], tilts: [Double],
    parameters p: CalibrationParameters = CalibrationParameters()
) throws(FilterSpecError) -> CalibrationResult {
    let estimator = try FilterSpec(parsing: p.estimator)
    var result = CalibrationResult(
        northFoundAt: nil, volumes: [], collectStart: nil, collectEnd: nil, abortReason: nil, offset: nil,
        start: t.first ?? 0)
    guard !t.isEmpty else { result.abortReason = "no compass readings"; return result }
    var i = 0
    while i < t.count && !isInWindow(h[i], start: p.northStart, end: p.northEnd) {
        result.volumes.append(northVolume(h[i])); i += 1
    }
    guard i < t.count else { result.abortReason = "north never found"; return result }
    result.northFoundAt = t[i]
    let collectFrom = t[i] + p.countdownSeconds
    var readings: [Double] = [], times: [Double] = []
    var k = t.firstIndex { $0 >= collectFrom } ?? t.count
    while k < t.count && readings.count < p.samples {
        // The tilt buffer at this reading: any critical tilt in the last tiltBufferSeconds?
        let lo = t[k] - p.tiltBufferSeconds
        if let bad = tiltTimes.indices.first(where: { tiltTimes[$0] > lo && tiltTimes[$0] <= t[k] && abs(tilts[$0]) >= p.criticalTiltDegrees }) {
            result.collectStart = times.first ?? t[k]
            result.collectEnd = t[k]
            result.abortReason = String(format: "critical tilt %.1f° at t=%.2f s", tilts[bad], tiltTimes[bad])
            return result
        }
        readings.append(h[k]); times.append(t[k]); k += 1
    }
    guard readings.count == p.samples else {
        result.abortReason = "only \(readings.count) of \(p.samples) readings after the countdown"
        return result
    }
    result.collectStart = times.first
    result.collectEnd = times.last
    let estimates = try estimator.apply(readings, timestamps: times, sampleRate: 1 / max(1e-9, SamplingSummary(timestamps: times).medianInterval))
    result.offset = wrapDegrees360(estimates.last!)
    return result
}
