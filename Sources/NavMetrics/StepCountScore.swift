/// WeAllWalk's step-counting metrics (Flores & Manduchi, TACCESS 2018; Chen, arXiv 1802.03486),
/// as counts that add up over walks, subjects and communities.
///
/// Protocol (docs/pdr.md quotes it): only straight segments are scored, with every annotated
/// event interval (a wall contact, a stop, a door) cut out; what remains of a segment are its
/// closed pieces [a, b]. A heel strike or a detection at t lies in a piece when a ≤ t ≤ b
/// (strikes are assigned to pieces by time).
/// - **Metric 1**: a piece with true strikes t₁ < … < tₙ is split at them into intervals
///   [tᵢ, tᵢ₊₁) and [tₙ, b]; an interval without a detection is one undercount, one with
///   k ≥ 2 detections is k − 1 overcounts (detections before t₁ are not scored by metric 1).
/// - **Metric 3**: per segment, D detections and T true strikes in its pieces: D − T
///   overcounts when positive, T − D undercounts when negative.
/// Rates are counts ÷ true strikes; "error" = undercount rate + overcount rate.
public struct StepCountScore: Sendable, Equatable, Codable {
    public var trueSteps = 0
    public var detectedSteps = 0
    public var under1 = 0
    public var over1 = 0
    public var under3 = 0
    public var over3 = 0
    /// Seconds of straight walking scored (the pieces' total length).
    public var scoredSeconds = 0.0

    public init() {}

    public var under1Rate: Double { rate(under1) }
    public var over1Rate: Double { rate(over1) }
    public var under3Rate: Double { rate(under3) }
    public var over3Rate: Double { rate(over3) }
    public var metric1Error: Double { rate(under1 + over1) }
    public var metric3Error: Double { rate(under3 + over3) }
    /// Detected minus true cadence over the scored pieces, steps/s.
    public var cadenceError: Double { scoredSeconds > 0 ? Double(detectedSteps - trueSteps) / scoredSeconds : 0 }
    /// True cadence over the scored pieces, steps/s.
    public var cadence: Double { scoredSeconds > 0 ? Double(trueSteps) / scoredSeconds : 0 }

    private func rate(_ k: Int) -> Double { trueSteps > 0 ? Double(k) / Double(trueSteps) : 0 }

    /// Counts of two sets of walks together (pooled: rates are then count ÷ pooled true steps).
    public static func + (a: StepCountScore, b: StepCountScore) -> StepCountScore {
        var s = a
        s.trueSteps += b.trueSteps; s.detectedSteps += b.detectedSteps; s.under1 += b.under1; s.over1 += b.over1
        s.under3 += b.under3; s.over3 += b.over3; s.scoredSeconds += b.scoredSeconds
        return s
    }
}

/// A closed time interval, seconds.
public struct TimeSpan: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public init(_ start: Double, _ end: Double) { self.start = start; self.end = end }
}

/// Scores detected step times against a walk's annotations by WeAllWalk's metrics 1 and 3.
///
/// - Parameters:
///   - straightSegments: the straight segments' [start, end].
///   - events: every annotated event interval of the walk (cut out of the segments).
///   - heelStrikes: the annotated heel strikes (any order).
///   - detections: the detected step times (any order).
/// - Complexity: O((s + e) log(s + e) + (h + d) log(h + d)).
public func scoreStepCount(
    straightSegments: [TimeSpan], events: [TimeSpan], heelStrikes: [Double], detections: [Double]
) -> StepCountScore {
    let strikes = heelStrikes.filter(\.isFinite).sorted()
    let detected = detections.filter(\.isFinite).sorted()
    let cuts = unionOfIntervals(events)
    var score = StepCountScore()
    for segment in straightSegments where segment.end > segment.start {
        var segmentTrue = 0, segmentDetected = 0
        for piece in pieces(of: segment, outside: cuts) {
            let s = slice(strikes, piece), d = slice(detected, piece)
            segmentTrue += s.count
            segmentDetected += d.count
            score.scoredSeconds += piece.end - piece.start
            // Metric 1: intervals [tᵢ, tᵢ₊₁) and [tₙ, b].
            guard !s.isEmpty else { continue }
            var k = d.startIndex
            while k < d.endIndex && d[k] < s[s.startIndex] { k += 1 }
            for i in s.indices {
                let upper = i + 1 < s.endIndex ? s[i + 1] : .infinity
                var count = 0
                while k < d.endIndex && d[k] < upper { count += 1; k += 1 }
                if count == 0 { score.under1 += 1 } else { score.over1 += count - 1 }
            }
        }
        score.trueSteps += segmentTrue
        score.detectedSteps += segmentDetected
        if segmentDetected > segmentTrue { score.over3 += segmentDetected - segmentTrue } else { score.under3 += segmentTrue - segmentDetected }
    }
    return score
}

/// The union of intervals, sorted, overlapping or touching ones joined; empty (zero-length) and
/// non-finite ones left out.
public func unionOfIntervals(_ intervals: [TimeSpan]) -> [TimeSpan] {
    var out: [TimeSpan] = []
    for i in intervals.filter({ $0.start.isFinite && $0.end.isFinite && $0.end > $0.start }).sorted(by: { $0.start < $1.start }) {
        if let last = out.last, i.start <= last.end {
            out[out.count - 1].end = max(last.end, i.end)
        } else {
            out.append(i)
        }
    }
    return out
}

/// What remains of `segment` with `cuts` (a `unionOfIntervals`) removed: closed pieces of positive
/// length — a straight segment without its annotated events (WeAllWalk's protocol).
public func pieces(of segment: TimeSpan, outside cuts: [TimeSpan]) -> [TimeSpan] {
    var pieces: [TimeSpan] = []
    var a = segment.start
    for c in cuts where c.end >= a && c.start <= segment.end {
        if c.start > a { pieces.append(TimeSpan(a, c.start)) }
        a = max(a, c.end)
        if a >= segment.end { break }
    }
    if segment.end > a { pieces.append(TimeSpan(a, segment.end)) }
    return pieces
}

/// The elements of sorted `x` inside the closed interval.
func slice(_ x: [Double], _ i: TimeSpan) -> ArraySlice<Double> {
    x[indices(of: x, within: i)]
}

/// The indices of sorted `x` whose elements lie inside the closed interval (binary search).
///
/// - Complexity: O(log n).
public func indices(of x: [Double], within i: TimeSpan) -> Range<Int> {
    let lo = lowerBound(x, i.start)
    return lo..<max(lo, upperBound(x, i.end))
}

/// First index with x[k] ≥ v.
func lowerBound(_ x: [Double], _ v: Double) -> Int {
    var lo = 0, hi = x.count
    while lo < hi { let m = (lo + hi) / 2; if x[m] < v { lo = m + 1 } else { hi = m } }
    return lo
}

/// First index with x[k] > v.
func upperBound(_ x: [Double], _ v: Double) -> Int {
    var lo = 0, hi = x.count
    while lo < hi { let m = (lo + hi) / 2; if x[m] <= v { lo = m + 1 } else { hi = m } }
    return lo
}
