/// Why a sequence of timestamps cannot be a time axis.
public enum TimestampError: Error, Equatable, Sendable, CustomStringConvertible {
    case countMismatch(timestamps: Int, values: Int)
    case notFinite(index: Int)
    case notIncreasing(index: Int, previous: Double, current: Double, strict: Bool)

    public var description: String {
        switch self {
        case let .countMismatch(t, v):
            return "expected one value per timestamp, found \(t) timestamps and \(v) values"
        case let .notFinite(i):
            return "timestamp \(i) is not finite"
        case let .notIncreasing(i, p, c, strict):
            return "expected \(strict ? "strictly increasing" : "non-decreasing") timestamps; "
                + "sample \(i) (t=\(c)) is \(strict ? "not after" : "before") sample \(i - 1) (t=\(p))"
        }
    }
}

/// Whether a time axis may repeat a stamp (several BLE readings in one scan) or not.
public enum TimeOrder: Sendable {
    case strictlyIncreasing, nonDecreasing
}

/// Validates a time axis: finite float64 seconds, increasing.
///
/// - Complexity: O(n).
public func validateTimestamps(_ t: [Double], order: TimeOrder = .strictlyIncreasing) throws(TimestampError) {
    for i in t.indices {
        guard t[i].isFinite else { throw .notFinite(index: i) }
        if i > 0 {
            let bad = order == .strictlyIncreasing ? !(t[i] > t[i - 1]) : t[i] < t[i - 1]
            if bad { throw .notIncreasing(index: i, previous: t[i - 1], current: t[i], strict: order == .strictlyIncreasing) }
        }
    }
}

/// Values sampled at validated timestamps (seconds on one session clock).
public struct TimeSeries<Value>: Sendable where Value: Sendable {
    public let timestamps: [Double]
    public let values: [Value]

    /// - Throws: `TimestampError` when counts differ or the time axis is not finite and increasing.
    public init(timestamps: [Double], values: [Value], order: TimeOrder = .strictlyIncreasing) throws(TimestampError) {
        guard timestamps.count == values.count else {
            throw .countMismatch(timestamps: timestamps.count, values: values.count)
        }
        try validateTimestamps(timestamps, order: order)
        self.timestamps = timestamps
        self.values = values
    }

    public var count: Int { timestamps.count }
    public var isEmpty: Bool { timestamps.isEmpty }

    /// Last minus first timestamp, 0 for fewer than two samples.
    public var duration: Double { count < 2 ? 0 : timestamps[count - 1] - timestamps[0] }

    public subscript(i: Int) -> (time: Double, value: Value) { (timestamps[i], values[i]) }

    /// Same time axis, transformed values.
    public func map<T>(_ f: (Value) throws -> T) rethrows -> TimeSeries<T> {
        TimeSeries<T>(unchecked: timestamps, values: try values.map(f))
    }

    /// Builds without validation; for internal use where the axis is known valid.
    init(unchecked timestamps: [Double], values: [Value]) {
        self.timestamps = timestamps
        self.values = values
    }
}

/// Sampling summary of a time axis.
public struct SamplingSummary: Sendable, Equatable, Codable {
    public var count: Int
    public var start: Double
    public var end: Double
    /// (count − 1) / duration, in Hz; 0 when undefined.
    public var meanRate: Double
    /// Largest difference between consecutive stamps, in seconds.
    public var largestGap: Double
    /// Median difference between consecutive stamps, in seconds.
    public var medianInterval: Double

    public var duration: Double { end - start }

    /// - Complexity: O(n log n) (the median sorts the intervals).
    public init(timestamps t: [Double]) {
        count = t.count
        start = t.first ?? 0
        end = t.last ?? 0
        var gaps: [Double] = []
        gaps.reserveCapacity(max(0, t.count - 1))
        for i in t.indices.dropFirst() { gaps.append(t[i] - t[i - 1]) }
        largestGap = gaps.max() ?? 0
        // Median of the positive intervals (repeated stamps within a scan are not intervals).
        let positive = gaps.filter { $0 > 0 }.sorted()
        if positive.isEmpty {
            medianInterval = 0
        } else if positive.count % 2 == 1 {
            medianInterval = positive[positive.count / 2]
        } else {
            medianInterval = (positive[positive.count / 2 - 1] + positive[positive.count / 2]) / 2
        }
        let d = end - start
        meanRate = (t.count > 1 && d > 0) ? Double(t.count - 1) / d : 0
    }
}
