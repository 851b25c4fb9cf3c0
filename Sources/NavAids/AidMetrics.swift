import Foundation
import NavCore
import NavSignal

/// A calibration or proximity metric (`NavCore.Metric`).
public typealias AidMetric = Metric

/// Calibration metrics: offset error against `trueOffset` (degrees, when known), aborted,
/// time to find north and time to calibrate (from the first reading).
public func calibrationMetrics(_ r: CalibrationResult, trueOffset: Double?) -> [AidMetric] {
    let error: Double
    if let o = r.offset, let t = trueOffset { error = abs(wrapDegrees180(o - t)) } else { error = .nan }
    return [
        AidMetric("offset_error", error, "deg"),
        AidMetric("offset", r.offset ?? .nan, "deg"),
        AidMetric("aborted", r.offset == nil ? 1 : 0, "bool"),
        AidMetric("time_to_find_north", r.northFoundAt.map { $0 - r.start } ?? .nan, "s"),
        AidMetric("time_to_calibrate", r.offset != nil ? (r.collectEnd ?? .nan) - r.start : .nan, "s"),
    ]
}

/// Proximity metrics: balanced accuracy (the mean of the per-class recalls over the classes the
/// truth holds — Brodersen et al. 2010; scikit-learn's `balanced_accuracy_score` — so the "far"
/// majority cannot hide a missed "near"), class accuracy, per-class recall and precision, distance error, false exits (flicker) per minute — exits
/// while the beacon is truly within the region — and the mean latency of region entries and
/// exits against the true crossings (each true crossing matched to the first estimated event of
/// the same beacon and kind within `matchWindow` seconds after it; unmatched ones are counted).
public func proximityMetrics(_ r: ProximityResult, parameters p: ProximityParameters, matchWindow: Double = 15) -> [AidMetric] {
    let scored = r.readings.filter { $0.truth != .unknown }
    let correct = scored.filter { $0.truth == $0.estimated }.count
    let errors = scored.map { $0.estimatedDistance - $0.trueDistance }.filter(\.isFinite)
    var falseExits = 0
    for e in r.events where e.kind == .exit {
        // Truly inside at the exit: the latest true event for this beacon before it is an enter.
        let last = r.trueEvents.last { $0.beacon == e.beacon && $0.time <= e.time }
        if last?.kind == .enter { falseExits += 1 }
    }
    func latencies(_ kind: RegionEvent.Kind) -> (mean: Double, missed: Int) {
        var l: [Double] = [], missed = 0
        for t in r.trueEvents where t.kind == kind {
            if let e = r.events.first(where: { $0.beacon == t.beacon && $0.kind == kind && $0.time >= t.time && $0.time <= t.time + matchWindow }) {
                l.append(e.time - t.time)
            } else {
                missed += 1
            }
        }
        return (l.isEmpty ? .nan : l.reduce(0, +) / Double(l.count), missed)
    }
    let enter = latencies(.enter), exit = latencies(.exit)
    let perClass = proximityClassScores(scored)
    let present = perClass.compactMap { $0.recall.isNaN ? nil : $0.recall }
    var m = [
        AidMetric("balanced_accuracy", present.isEmpty ? .nan : present.reduce(0, +) / Double(present.count), "fraction"),
        AidMetric("class_accuracy", scored.isEmpty ? .nan : Double(correct) / Double(scored.count), "fraction"),
        AidMetric("distance_error_mean_abs", errors.isEmpty ? .nan : errors.reduce(0) { $0 + abs($1) } / Double(errors.count), "m"),
        AidMetric("distance_error_rmse", errors.isEmpty ? .nan : (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot(), "m"),
        AidMetric("false_exits_per_minute", r.duration > 0 ? Double(falseExits) / (r.duration / 60) : .nan, "1/min"),
        AidMetric("enter_latency_mean", enter.mean, "s"),
        AidMetric("exit_latency_mean", exit.mean, "s"),
        AidMetric("missed_enters", Double(enter.missed), "count"),
        AidMetric("missed_exits", Double(exit.missed), "count"),
        AidMetric("model_rssi_at_1m", r.model.rssiAtOneMetre, "dBm"),
        AidMetric("model_exponent", r.model.exponent, "1"),
    ]
    for score in perClass {
        m.append(AidMetric("recall_\(score.proximityClass.rawValue)", score.recall, "fraction"))
        m.append(AidMetric("precision_\(score.proximityClass.rawValue)", score.precision, "fraction"))
    }
    let classes: [ProximityClass] = [.immediate, .near, .far]
    let c = r.confusion
    for t in classes {
        for e in classes + [.unknown] where (c[t]?[e] ?? 0) > 0 || e != .unknown {
            m.append(AidMetric("confusion_true_\(t.rawValue)_estimated_\(e.rawValue)", Double(c[t]?[e] ?? 0), "count"))
        }
    }
    return m
}

/// Recall (correct ÷ truly that class) and precision (correct ÷ estimated as that class) of each
/// class immediate, near, far over `scored` readings; NaN where the divisor is 0. A reading
/// estimated `unknown` counts against its true class's recall.
///
/// - Complexity: O(n).
public func proximityClassScores(_ scored: [ScoredReading]) -> [(proximityClass: ProximityClass, recall: Double, precision: Double)] {
    [ProximityClass.immediate, .near, .far].map { c in
        let truly = scored.filter { $0.truth == c }.count, estimated = scored.filter { $0.estimated == c }.count
        let correct = scored.filter { $0.truth == c && $0.estimated == c }.count
        return (c, truly == 0 ? .nan : Double(correct) / Double(truly), estimated == 0 ? .nan : Double(correct) / Double(estimated))
    }
}
