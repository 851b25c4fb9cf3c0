import Foundation
import NavCore
import NavMetrics
import NavSignal
import NavSim
import NavStatistics

/// A walker's gait and turning measured from annotated walks (WeAllWalk: hand-checked heel
/// strikes, segments, turns, events; no positions): per walk, per subject, then per community
/// with 95 % Student t intervals **over subjects** (a subject's walks are not independent).
///
/// Quantities (docs/navigator.md, "Fitting a walker from annotated walks"):
/// - `cadence` (steps/s): heel strikes on straight segments (events cut out) ÷ their seconds;
/// - `step_time_cv`: standard deviation ÷ mean of the intervals between consecutive heel strikes
///   inside those pieces;
/// - `relative_speed`: the sighted walkers' median time on the same straight segment (building:
///   paths T1–T4 and T5–T6; the segment id) ÷ this walk's time on it — speed relative to sighted
///   walkers, since lengths are not published;
/// - `turn_duration_<45|90|180>` (s): the annotated turn segment's length (approach, turn, exit);
///   `turn_rate_mean_<…>` (deg/s): |heading change| over it ÷ its length, the heading integrated
///   from the angular rate about gravity (`TurnDetector.verticalRate`);
/// - `heading_wander` (deg): the standard deviation of the relative heading about its own mean
///   on each straight piece, averaged over pieces;
/// - `stop_rate`, `wall_contact_rate` (per minute walked): annotated events whose text holds
///   "stop" / "wall" (case-insensitive: `GaitFit.stopKeywords`, `wallKeywords`).
public enum GaitFit {
    public static let stopKeywords = ["stop"]
    public static let wallKeywords = ["wall"]

    /// One walk's measurements (NaN where the walk has none: no turn of that angle).
    public struct WalkMeasures: Sendable {
        public var strikes = 0
        public var straightSeconds = 0.0
        public var stepIntervals: [Double] = []
        /// (segment key, seconds) of each straight segment.
        public var segmentTimes: [(key: String, seconds: Double)] = []
        /// By |nominal angle|: the turns' durations and mean rates.
        public var turnDurations: [Int: [Double]] = [:]
        public var turnRates: [Int: [Double]] = [:]
        public var headingSpreads: [Double] = []
        public var stops = 0
        public var wallContacts = 0
        public var minutesWalked = 0.0
    }

    /// The building a WeAllWalk path lies in (T1–T4: one, T5–T6: another): segment ids recur within one.
    public static func building(ofPath path: String) -> String {
        guard path.hasPrefix("T"), let n = Int(path.dropFirst()) else { return path }
        return n <= 4 ? "T1-T4" : "T5-T6"
    }

    /// Measures one walk. The vertical rate needs the IMU; without gyroscope samples the turn
    /// rates and heading wander are left out.
    public static func measure(_ walk: AnnotatedWalk) -> WalkMeasures {
        var m = WalkMeasures()
        let strikes = walk.heelStrikes.sorted()
        let cuts = unionOfIntervals(walk.events)
        // Heading (deg): given (a simulated walk), or the rate about gravity integrated by trapezoids.
        var t = walk.imu.timestamps
        var heading: [Double] = []
        if let given = walk.heading, given.times.count == given.degrees.count {
            (t, heading) = given
        } else if let w = try? TurnDetector().verticalRate(walk.imu) {
            heading = [Double](repeating: 0, count: w.count)
            for k in 1..<max(1, w.count) { heading[k] = heading[k - 1] + (w[k - 1] + w[k]) / 2 * (t[k] - t[k - 1]) }
        }
        func headingRange(_ a: Double, _ b: Double) -> ArraySlice<Double> {
            heading.isEmpty ? [] : heading[indices(of: t, within: TimeSpan(a, b))]
        }
        for (i, seg) in walk.straightSegments.enumerated() where seg.end > seg.start {
            let id = i < walk.straightLabels.count ? String(walk.straightLabels[i].split(separator: " ").first ?? "") : ""
            m.segmentTimes.append((building(ofPath: walk.path) + "/" + id, seg.end - seg.start))
            for p in pieces(of: seg, outside: cuts) {
                let inside = strikes.filter { $0 >= p.start && $0 <= p.end }
                m.strikes += inside.count
                m.straightSeconds += p.end - p.start
                m.stepIntervals += zip(inside.dropFirst(), inside).map { $0 - $1 }
                let h = headingRange(p.start, p.end)
                if h.count >= 2 {
                    let mean = h.reduce(0, +) / Double(h.count)
                    m.headingSpreads.append((h.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(h.count)).squareRoot())
                }
            }
        }
        for turn in walk.turns {
            let angle = Int(abs(turn.nominal).rounded())
            let d = turn.span.end - turn.span.start
            guard d > 0 else { continue }
            m.turnDurations[angle, default: []].append(d)
            let h = headingRange(turn.span.start, turn.span.end)
            if let first = h.first, let last = h.last { m.turnRates[angle, default: []].append(abs(last - first) / d) }
        }
        for label in walk.eventLabels {
            let l = label.lowercased()
            if stopKeywords.contains(where: l.contains) { m.stops += 1 }
            if wallKeywords.contains(where: l.contains) { m.wallContacts += 1 }
        }
        let all = walk.straightSegments + walk.turns.map(\.span)
        m.minutesWalked = all.reduce(0) { $0 + max(0, $1.end - $1.start) } / 60
        return m
    }

    /// Per-subject values of every quantity (keys as the estimates'), the subject's walks pooled.
    public static func perSubject(_ walks: [AnnotatedWalk]) -> [String: [String: Double]] {
        let measured = walks.map { ($0, measure($0)) }
        // The sighted walkers' median time per segment key (the reference of relative speed).
        var sightedTimes: [String: [Double]] = [:]
        for (w, m) in measured where w.community == "sighted" { for s in m.segmentTimes { sightedTimes[s.key, default: []].append(s.seconds) } }
        let reference = sightedTimes.mapValues { Statistics.median($0) }
        var out: [String: [String: Double]] = [:]
        for subject in Set(walks.map(\.subject)) {
            let ms = measured.filter { $0.0.subject == subject }.map(\.1)
            var v: [String: Double] = [:]
            let strikes = ms.reduce(0) { $0 + $1.strikes }, seconds = ms.reduce(0) { $0 + $1.straightSeconds }
            if seconds > 0 { v["cadence"] = Double(strikes) / seconds }
            let intervals = ms.flatMap(\.stepIntervals)
            if intervals.count >= 2 { v["step_time_cv"] = Statistics.standardDeviation(intervals) / Statistics.mean(intervals) }
            let ratios = ms.flatMap(\.segmentTimes).compactMap { s in reference[s.key].map { $0 / s.seconds } }
            if !ratios.isEmpty { v["relative_speed"] = Statistics.median(ratios) }
            for angle in [45, 90, 180] {
                let d = ms.flatMap { $0.turnDurations[angle] ?? [] }, r = ms.flatMap { $0.turnRates[angle] ?? [] }
                if !d.isEmpty { v["turn_duration_\(angle)"] = Statistics.mean(d) }
                if !r.isEmpty { v["turn_rate_mean_\(angle)"] = Statistics.mean(r) }
            }
            let spreads = ms.flatMap(\.headingSpreads)
            if !spreads.isEmpty { v["heading_wander"] = Statistics.mean(spreads) }
            let minutes = ms.reduce(0) { $0 + $1.minutesWalked }
            if minutes > 0 {
                v["stop_rate"] = Double(ms.reduce(0) { $0 + $1.stops }) / minutes
                v["wall_contact_rate"] = Double(ms.reduce(0) { $0 + $1.wallContacts }) / minutes
            }
            out[subject] = v
        }
        return out
    }

    /// The values of each subject of `community` (in subject order: numbers first), measured on
    /// that aid's walks alone — a subject who walked with two aids (WeAllWalk's subject 1) is two
    /// rows of two communities — with every sighted walk as the reference of relative speed.
    public static func subjectValues(_ walks: [AnnotatedWalk], community: String) -> [(subject: String, values: [String: Double])] {
        let inCommunity = Set(walks.filter { $0.community == community }.map(\.subject))
        let own = perSubject(walks.filter { $0.community == community || !inCommunity.contains($0.subject) })
        return inCommunity.sorted { (Int($0) ?? .max, $0) < (Int($1) ?? .max, $1) }.map { ($0, own[$0] ?? [:]) }
    }

    /// The walker parameters a community's walks fit (`NavigatorProfile.fitted(to:)` on `base`):
    /// speed, step length, step-time CV and turn rate. Each value is the profile fitted to the means over
    /// subjects (as the built-in `cane-weallwalk`); its 95 % Student t interval is over the
    /// subjects' own fitted values (n = subjects with cadence, relative speed and a 90° turn).
    public static func walkerFit(_ walks: [AnnotatedWalk], community: String, base: NavigatorProfile) -> WalkerFit {
        let own = subjectValues(walks, community: community)
        var subjects: [String] = [], gaits: [FittedGait] = []
        for s in own {
            guard let c = s.values["cadence"], let r = s.values["relative_speed"], let d = s.values["turn_duration_90"],
                let cv = s.values["step_time_cv"]
            else { continue }
            subjects.append(s.subject)
            gaits.append(FittedGait(cadence: c, relativeSpeed: r, turnDuration90: d, stepTimeCV: cv, subjects: [s.subject]))
        }
        let used = walks.filter { $0.community == community && subjects.contains($0.subject) }.count
        guard !gaits.isEmpty else {
            return WalkerFit(
                walks: used, estimates: [],
                notes: ["no \(community) subject has cadence, relative speed (sighted walks on the same segments) and a 90° turn"])
        }
        func mean(_ f: (FittedGait) -> Double) -> Double { Statistics.mean(gaits.map(f)) }
        let pooled = base.fitted(
            to: FittedGait(
                cadence: mean(\.cadence), relativeSpeed: mean(\.relativeSpeed), turnDuration90: mean(\.turnDuration90),
                stepTimeCV: mean(\.stepTimeCV), subjects: subjects))
        let each = gaits.map { base.fitted(to: $0) }
        let keys: [(String, String, KeyPath<NavigatorProfile, Double>)] = [
            ("speed", "m/s", \.speed), ("step_length", "m", \.stepLength), ("step_time_cv", "1", \.stepTimeCV),
            ("turn_rate", "deg/s", \.turnRateDegreesPerSecond),
        ]
        let estimates = keys.map { key, unit, path in
            let ci = StudentTInterval(each.map { $0[keyPath: path] })
            return WalkerParameterEstimate(
                key: key, unit: unit, value: pooled[keyPath: path], low: ci.low, high: ci.high, n: each.count,
                counts: "subjects " + subjects.joined(separator: ", "),
                method: "NavigatorProfile.fitted(to:) on the means over subjects; Student t 95 % over the subjects' own fitted values")
        }
        return WalkerFit(walks: used, estimates: estimates, notes: [])
    }

    /// The quantities in report order, with their units.
    public static let quantities: [(key: String, unit: String)] = [
        ("cadence", "steps/s"), ("step_time_cv", "1"), ("relative_speed", "× sighted"), ("turn_duration_45", "s"), ("turn_duration_90", "s"),
        ("turn_duration_180", "s"), ("turn_rate_mean_45", "deg/s"), ("turn_rate_mean_90", "deg/s"), ("turn_rate_mean_180", "deg/s"),
        ("heading_wander", "deg"), ("stop_rate", "1/min"), ("wall_contact_rate", "1/min"),
    ]

    /// The estimates of one community: each quantity's mean over subjects with a 95 % Student t
    /// interval (NaN bounds for one subject), n = subjects; `counts` names the subjects.
    public static func estimates(_ walks: [AnnotatedWalk], community: String) -> [WalkerParameterEstimate] {
        let own = subjectValues(walks, community: community)
        var out: [WalkerParameterEstimate] = []
        for (key, unit) in quantities {
            let measured = own.compactMap { s in s.values[key].map { (s.subject, $0) } }
            let ids = measured.map(\.0), values = measured.map(\.1)
            guard !values.isEmpty else { continue }
            let ci = StudentTInterval(values)
            out.append(
                WalkerParameterEstimate(
                    key: key, unit: unit, value: ci.mean, low: ci.low, high: ci.high, n: values.count,
                    counts: "subjects " + ids.joined(separator: ", "),
                    method: "mean over subjects of each subject's pooled walks (WeAllWalk annotations), Student t 95 %"))
        }
        return out
    }
}
