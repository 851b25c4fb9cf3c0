import Foundation
import NavCore

/// Step detection from a phone's IMU (a trouser pocket, a hand): three classical detectors,
/// each after any filter spec the workbench has (docs/pdr.md).
///
/// - `peak`: peaks of the acceleration magnitude (or its vertical component) above an adaptive
///   threshold — the local mean plus `threshold` × the local standard deviation over `window`
///   seconds, and at least `minimumHeight` m/s² — at least `minimumInterval` apart, with
///   `find_peaks`' rules (`findPeaks`: plateaus, highest first).
/// - `zero-crossing`: upward crossings of the (band-passed) acceleration signal with hysteresis:
///   a step when the signal rises above +h after having been below −h, h = `threshold` × the
///   local standard deviation; at least `minimumInterval` apart.
/// - `gyroscope`: the thigh's swing in the gyroscope axis with the most variance: a step at every
///   crossing of ±h in either direction (two per stride), the same hysteresis and interval.
public struct StepDetector: Sendable, Equatable, CustomStringConvertible {
    public enum Method: String, Sendable, CaseIterable, Codable {
        case peak
        case zeroCrossing = "zero-crossing"
        case gyroscope
    }
    /// Which acceleration signal the peak and zero-crossing detectors read.
    public enum AccelerationSignal: String, Sendable, CaseIterable, Codable {
        /// ‖a‖ minus its mean: needs no orientation.
        case magnitude
        /// a · up, up from the attitude (or the low-passed accelerometer when there is none).
        case vertical
    }

    public var method: Method
    public var signal: AccelerationSignal
    /// The filter applied to the 1-D signal before detection (`FilterSpec`), nil for none.
    public var filter: FilterSpec?
    /// Fewest seconds between two steps.
    public var minimumInterval: Double
    /// Adaptive threshold, in local standard deviations.
    public var threshold: Double
    /// A peak's least height above the local mean, m/s² (peak detector; rejects standing still).
    public var minimumHeight: Double
    /// The local statistics' window unless given, seconds.
    public static let defaultWindow = 2.0
    /// The local mean and standard deviation's centred window, seconds; 0 for fixed thresholds
    /// (peak: `minimumHeight` above the walk's mean, as `find_peaks(height=…)`; crossings: a band
    /// of ±`threshold` signal units).
    public var window: Double

    public init(
        method: Method = .peak, signal: AccelerationSignal = .magnitude, filter: FilterSpec? = nil, minimumInterval: Double = 0.3,
        threshold: Double = 0.5, minimumHeight: Double = 0.5, window: Double = StepDetector.defaultWindow
    ) {
        self.method = method; self.signal = signal; self.filter = filter; self.minimumInterval = minimumInterval
        self.threshold = threshold; self.minimumHeight = minimumHeight; self.window = window
    }

    /// The detector `navbench steps` runs without flags: the configuration leave-one-subject-out
    /// chose most often on the shared WeAllWalk subset (docs/pdr.md gives the run and its scores).
    /// Chosen in 7 of 8 folds on 2026-11-27 (`navbench pdr` over the 60 phone files, subjects 1–5, 11–13).
    public static let chosenOnWeAllWalk = StepDetector(
        method: .peak, signal: .magnitude, filter: try? FilterSpec(parsing: "kalman:q=1,r=4"), minimumInterval: 0.3, threshold: 0.5,
        minimumHeight: 0.5)

    /// The detector as a short text (`peak/magnitude filter=butter:… interval=0.3 k=0.5`): the
    /// source of a detected-steps annotation stream and a row label in reports.
    public var description: String {
        var s = method == .gyroscope ? method.rawValue : "\(method.rawValue)/\(signal.rawValue)"
        s += " filter=\(filter?.text ?? "none") interval=\(formatNumber(minimumInterval)) k=\(formatNumber(threshold))"
        if method == .peak { s += " height=\(formatNumber(minimumHeight))" }
        if window != Self.defaultWindow { s += " window=\(formatNumber(window))" }
        return s
    }

    /// One line naming the first parameter out of range, or nil.
    public func problem() -> String? {
        if !(minimumInterval > 0 && minimumInterval <= 10) { return "minimum interval \(minimumInterval) s: expected (0, 10]" }
        if !(threshold >= 0 && threshold <= 100) { return "threshold \(threshold): expected [0, 100] standard deviations" }
        if !(minimumHeight >= 0 && minimumHeight <= 1_000) { return "minimum height \(minimumHeight) m/s²: expected [0, 1000]" }
        if !(window == 0 || (window >= 0.2 && window <= 600)) { return "window \(window) s: expected 0 (fixed thresholds) or [0.2, 600]" }
        return nil
    }

    /// The times (seconds, the recording's clock) of the detected steps, in order.
    ///
    /// - Throws: `StepDetectionError` for a recording too short or too irregular to detect on, a
    ///   bad parameter, or a filter that fails.
    /// - Complexity: O(n · window samples) for the local statistics, plus the filter's cost.
    public func detect(_ imu: IMUStream) throws(StepDetectionError) -> [Double] {
        if let p = problem() { throw StepDetectionError(p) }
        let t = imu.timestamps
        let n = t.count
        guard n >= 8, imu.accelerometer.count == n, imu.gyroscope.count == n else {
            throw StepDetectionError("expected at least 8 IMU samples with accelerometer and gyroscope, found \(n)")
        }
        let rate = medianSampleRate(t)
        guard rate.isFinite, rate > 0, rate <= 10_000 else { throw StepDetectionError("cannot tell the sampling rate (\(rate) Hz)") }
        var x: [Double]
        switch method {
        case .gyroscope: x = principalAxisComponent(imu.gyroscope)
        case .peak, .zeroCrossing:
            switch signal {
            case .magnitude: x = imu.accelerometer.map { $0.norm }
            case .vertical:
                let up = upDirections(imu, sampleRate: rate)
                x = zip(imu.accelerometer, up).map { $0.dot($1) }
            }
        }
        let mean = x.reduce(0, +) / Double(n)
        x = x.map { $0 - mean }
        if let filter {
            do { x = try filter.apply(x, timestamps: t, sampleRate: rate) } catch { throw StepDetectionError(error.description) }
            guard x.count == n, x.allSatisfy(\.isFinite) else { throw StepDetectionError("filter '\(filter.text)' gave non-finite values") }
        }
        // window 0: no local statistics — a fixed height above the walk's mean (the common Python
        // pipeline: find_peaks(height=…)) and a fixed hysteresis band of `threshold` signal units.
        let fixed = window == 0
        let half = max(1, Int((window * rate / 2).rounded()))
        let (localMean, localStd) = fixed ? ([Double](repeating: 0, count: n), [Double](repeating: 1, count: n)) : centredMoments(x, half: half)
        let gap = max(1, Int((minimumInterval * rate).rounded(.toNearestOrEven)))  // Python's round(), as the peer pipeline
        switch method {
        case .peak:
            let floor =
                fixed ? [Double](repeating: minimumHeight, count: n) : zip(localMean, localStd).map { $0 + max(threshold * $1, minimumHeight) }
            return findPeaks(x, minimumHeights: floor, distance: gap).map { t[$0] }
        case .zeroCrossing:
            return hysteresisCrossings(x, t, band: localStd.map { threshold * $0 }, minimumInterval: minimumInterval, bothDirections: false)
        case .gyroscope:
            return hysteresisCrossings(x, t, band: localStd.map { threshold * $0 }, minimumInterval: minimumInterval, bothDirections: true)
        }
    }
}

/// Why steps cannot be detected, one line.
public struct StepDetectionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// 1 / the median positive interval of a time axis (Hz; infinite when there is none).
func medianSampleRate(_ t: [Double]) -> Double { 1 / SamplingSummary(timestamps: t).medianInterval }

/// The world's up direction in the device frame at each sample: from the attitude (device → world,
/// +y up: Rᵀ·ŷ) when the stream has one, else the accelerometer low-passed over 1 s (the specific
/// force points up at rest), normalised.
public func upDirections(_ imu: IMUStream, sampleRate rate: Double) -> [Vector3] {
    if let q = imu.attitude, q.count == imu.timestamps.count {
        return q.map { $0.conjugate.act(on: Vector3(0, 1, 0)) }
    }
    let half = max(1, Int((rate / 2).rounded()))
    let axes = (0..<3).map { k in centredMoments(imu.accelerometer.map { $0[k] }, half: half).mean }
    return imu.accelerometer.indices.map { i in
        let v = Vector3(axes[0][i], axes[1][i], axes[2][i])
        let n = v.norm
        return n > 0 ? v / n : Vector3(0, 1, 0)
    }
}

/// The component of `v` along the device axis (x, y or z) with the largest variance; ties go to
/// the first axis.
func principalAxisComponent(_ v: [Vector3]) -> [Double] {
    var best = 0, bestVariance = -1.0
    for k in 0..<3 {
        let c = v.map { $0[k] }
        let m = c.reduce(0, +) / Double(max(1, c.count))
        let variance = c.reduce(0) { $0 + ($1 - m) * ($1 - m) }
        if variance > bestVariance { best = k; bestVariance = variance }
    }
    return v.map { $0[best] }
}

/// Mean and population standard deviation of `x` over the centred window [i − half, i + half]
/// (cut at the ends), by prefix sums (of the values, and of their squares about the overall mean, which bounds the
/// cancellation).
///
/// - Complexity: O(n).
public func centredMoments(_ x: [Double], half: Int) -> (mean: [Double], std: [Double]) {
    let n = x.count
    guard n > 0 else { return ([], []) }
    var prefix = [Double](repeating: 0, count: n + 1)
    for i in 0..<n { prefix[i + 1] = prefix[i] + x[i] }
    var mean = [Double](repeating: 0, count: n)
    for i in 0..<n {
        let lo = max(0, i - half), hi = min(n - 1, i + half)
        mean[i] = (prefix[hi + 1] - prefix[lo]) / Double(hi - lo + 1)
    }
    // Variance about each window's own mean from sums of squares about the global mean (bounded
    // cancellation: the signal is centred first).
    let g = prefix[n] / Double(n)
    var squares = [Double](repeating: 0, count: n + 1)
    for i in 0..<n { let d = x[i] - g; squares[i + 1] = squares[i] + d * d }
    var std = [Double](repeating: 0, count: n)
    for i in 0..<n {
        let lo = max(0, i - half), hi = min(n - 1, i + half)
        let c = Double(hi - lo + 1)
        let m = mean[i] - g
        let v = (squares[hi + 1] - squares[lo]) / c - m * m
        std[i] = v > 0 ? v.squareRoot() : 0
    }
    return (mean, std)
}

/// Times where `x` rises above +band after having been below −band (and, with `bothDirections`,
/// falls below −band after having been above +band), at least `minimumInterval` seconds apart.
func hysteresisCrossings(_ x: [Double], _ t: [Double], band: [Double], minimumInterval: Double, bothDirections: Bool) -> [Double] {
    var out: [Double] = []
    var state = 0  // −1 below −band, +1 above +band, 0 not yet either
    for i in x.indices {
        let h = max(band[i], 1e-12)
        if x[i] > h, state != 1 {
            if state == -1, out.last.map({ t[i] - $0 >= minimumInterval }) ?? true { out.append(t[i]) }
            state = 1
        } else if x[i] < -h, state != -1 {
            if bothDirections, state == 1, out.last.map({ t[i] - $0 >= minimumInterval }) ?? true { out.append(t[i]) }
            state = -1
        }
    }
    return out
}
