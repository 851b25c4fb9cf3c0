import Foundation
import NavCore

/// A turn found in a walk: when it started and ended and by how much the walker turned.
public struct DetectedTurn: Sendable, Equatable, Codable {
    /// Seconds on the recording's clock.
    public var start: Double
    public var end: Double
    /// Heading change, degrees, positive counter-clockwise seen from above (a left turn), as
    /// WeAllWalk's `TurnInDegrees` counts them.
    public var angle: Double
    public var duration: Double { end - start }
    public init(start: Double, end: Double, angle: Double) { self.start = start; self.end = end; self.angle = angle }
}

/// Turn detection from the angular rate about the vertical, with the phone anywhere on the body
/// (a trouser pocket included): the attitude's yaw is near gimbal lock in a pocket (pitch ≈ 70°),
/// the rate about gravity is not.
///
/// 1. ω_v = gyroscope · up (up from the attitude, or the low-passed accelerometer), minus its
///    median over the walk (the gyroscope's bias about the vertical; the walk is mostly straight);
/// 2. smoothed by a centred moving mean of `smoothing` seconds;
/// 3. a turn is a run where |ω_v| > `onsetRate`, widened to where it falls below `releaseRate`,
///    runs of one sign closer than `mergeGap` seconds joined;
/// 4. its angle is the change of the relative heading (ω_v integrated by trapezoids, unsmoothed):
///    its mean over `headingWindow` seconds after the run minus its mean over as many before;
///    turns smaller than `minimumAngle` are dropped.
public struct TurnDetector: Sendable, Equatable, CustomStringConvertible {
    /// deg/s.
    public var onsetRate: Double
    /// deg/s.
    public var releaseRate: Double
    /// seconds.
    public var smoothing: Double
    /// seconds.
    public var mergeGap: Double
    /// degrees.
    public var minimumAngle: Double
    /// Subtract the median vertical rate (the gyroscope's bias) first.
    public var removesBias: Bool
    /// The turn's angle is the mean heading over this many seconds after it minus the mean over
    /// as many before it (0: the heading at its end minus at its start).
    public var headingWindow: Double

    public init(
        onsetRate: Double = 25, releaseRate: Double = 8, smoothing: Double = 0.8, mergeGap: Double = 1.0, minimumAngle: Double = 30,
        removesBias: Bool = true, headingWindow: Double = 1
    ) {
        self.onsetRate = onsetRate; self.releaseRate = releaseRate; self.smoothing = smoothing
        self.mergeGap = mergeGap; self.minimumAngle = minimumAngle; self.removesBias = removesBias
        self.headingWindow = headingWindow
    }

    /// The detector `navbench turns` runs: chosen in 8 of 8 leave-one-subject-out folds (largest
    /// mean F1) on the shared WeAllWalk subset, 2026-11-27 (docs/pdr.md).
    public static let chosenOnWeAllWalk = TurnDetector(onsetRate: 15, releaseRate: 8, smoothing: 2, minimumAngle: 60)

    public var description: String {
        "vertical-rate onset=\(formatNumber(onsetRate)) release=\(formatNumber(releaseRate)) smoothing=\(formatNumber(smoothing)) min-angle=\(formatNumber(minimumAngle))"
    }

    public func problem() -> String? {
        if !(onsetRate > 0 && onsetRate <= 3_600) { return "onset rate \(onsetRate) deg/s: expected (0, 3600]" }
        if !(releaseRate >= 0 && releaseRate <= onsetRate) { return "release rate \(releaseRate) deg/s: expected [0, onset rate]" }
        if !(smoothing >= 0 && smoothing <= 60) { return "smoothing \(smoothing) s: expected [0, 60]" }
        if !(mergeGap >= 0 && mergeGap <= 60) { return "merge gap \(mergeGap) s: expected [0, 60]" }
        if !(minimumAngle >= 0 && minimumAngle <= 3_600) { return "minimum angle \(minimumAngle)°: expected [0, 3600]" }
        if !(headingWindow >= 0 && headingWindow <= 60) { return "heading window \(headingWindow) s: expected [0, 60]" }
        return nil
    }

    /// The angular rate about the vertical, deg/s, positive counter-clockwise (bias removed when asked).
    public func verticalRate(_ imu: IMUStream) throws(StepDetectionError) -> [Double] {
        let n = imu.timestamps.count
        guard n >= 8, imu.gyroscope.count == n, imu.accelerometer.count == n else {
            throw StepDetectionError("expected at least 8 IMU samples with accelerometer and gyroscope, found \(n)")
        }
        let rate = medianSampleRate(imu.timestamps)
        guard rate.isFinite, rate > 0, rate <= 10_000 else { throw StepDetectionError("cannot tell the sampling rate (\(rate) Hz)") }
        let up = upDirections(imu, sampleRate: rate)
        var w = zip(imu.gyroscope, up).map { $0.dot($1) * 180 / .pi }
        if removesBias {
            let m = quantile(w, 0.5)
            w = w.map { $0 - m }
        }
        return w
    }

    /// The turns of a walk, in time order.
    ///
    /// - Complexity: O(n).
    public func detect(_ imu: IMUStream) throws(StepDetectionError) -> [DetectedTurn] {
        if let p = problem() { throw StepDetectionError(p) }
        let w = try verticalRate(imu)
        let t = imu.timestamps
        let rate = medianSampleRate(t)
        let half = Int((smoothing * rate / 2).rounded())
        let s = half > 0 ? centredMoments(w, half: half).mean : w
        // Runs above the onset rate, widened to the release rate.
        var runs: [(lo: Int, hi: Int, sign: Double)] = []
        var i = 0
        while i < s.count {
            guard abs(s[i]) > onsetRate else { i += 1; continue }
            let sign: Double = s[i] > 0 ? 1 : -1
            var lo = i, hi = i
            while lo > 0, s[lo - 1] * sign > releaseRate { lo -= 1 }
            while hi + 1 < s.count, s[hi + 1] * sign > releaseRate { hi += 1 }
            // A run starts after the previous one ends: widening stops where the rate falls to
            // the release rate, so runs of opposite signs never overlap.
            if let last = runs.last, last.sign == sign, t[lo] - t[last.hi] <= mergeGap {
                runs[runs.count - 1].hi = hi
            } else {
                runs.append((lo, hi, sign))
            }
            i = hi + 1
        }
        // Relative heading (trapezoids), and its mean over `headingWindow` seconds before the run
        // and after it: the heading change between straight walking, gait sway averaged out.
        var heading = [Double](repeating: 0, count: w.count)
        for k in 1..<w.count { heading[k] = heading[k - 1] + (w[k - 1] + w[k]) / 2 * (t[k] - t[k - 1]) }
        func mean(_ lo: Int, _ hi: Int) -> Double {
            let a = max(0, lo), b = min(heading.count - 1, hi)
            return b >= a ? heading[a...b].reduce(0, +) / Double(b - a + 1) : heading[max(0, min(heading.count - 1, lo))]
        }
        let span = max(0, Int((headingWindow * rate).rounded(.toNearestOrEven)))
        var out: [DetectedTurn] = []
        for r in runs {
            let angle = span > 0 ? mean(r.hi, r.hi + span) - mean(r.lo - span, r.lo) : heading[r.hi] - heading[r.lo]
            if abs(angle) >= minimumAngle { out.append(DetectedTurn(start: t[r.lo], end: t[r.hi], angle: angle)) }
        }
        return out
    }
}
