import Foundation
import NavCore
import NavGuidance
import NavMetrics
import NavSim
import NavStatistics
import NavSynth

/// The walker model checked against real blind walkers (docs/navigator.md, "The simulated walk
/// measured as a real one"): simulated cane, guide-dog and sighted walkers walk corridors shaped
/// like WeAllWalk's paths under Clew's guidance, their walks are annotated as an annotator would
/// (steps, straight segments, turns, wall contacts) and measured by the same function as the real
/// walks (`GaitFit`); each quantity's simulated distribution is set beside the real subjects'.
public enum WalkerValidation {
    /// Sighted walkers' step length that turns their step counts into corridor lengths, m:
    /// half the sighted stride of Hallemans et al. (2010), 1.39 m. The lengths are approximate.
    public static let sightedStepLength = 0.695
    /// Half the width of the simulated corridors, m (assumed: WeAllWalk publishes no widths).
    public static let corridorHalfWidth = 1.0

    /// A WeAllWalk path as straight corridor segments joined by turns.
    public struct PathShape: Sendable, Equatable {
        public var path: String
        /// Segment lengths, m: the sighted walkers' median step count on the segment × `sightedStepLength`,
        /// at least 1 m.
        public var lengths: [Double]
        /// The signed nominal angle (deg) of the turn after each segment but the last.
        public var turns: [Double]

        public init(path: String, lengths: [Double], turns: [Double]) { self.path = path; self.lengths = lengths; self.turns = turns }
    }

    /// The shape of every path the sighted walks cover (in path order): the straight segments of
    /// the path's first sighted walk (by file), with a segment that no turn separates from the
    /// next merged into it; each length from the median over the path's sighted walks with the
    /// same segments.
    public static func pathShapes(_ walks: [AnnotatedWalk]) -> [PathShape] {
        let sighted = walks.filter { $0.community == "sighted" && !$0.path.isEmpty }.sorted { $0.file < $1.file }
        var out: [PathShape] = []
        for path in Set(sighted.map(\.path)).sorted(by: { ($0.count, $0) < ($1.count, $1) }) {
            let ws = sighted.filter { $0.path == path }
            let count = ws[0].straightSegments.count
            let same = ws.filter { $0.straightSegments.count == count }
            guard count > 0 else { continue }
            var lengths: [Double] = [], turns: [Double] = []
            for k in 0..<count {
                let steps = same.map { w -> Double in
                    let s = w.straightSegments[k]
                    return Double(w.heelStrikes.filter { $0 >= s.start && $0 <= s.end }.count)
                }
                // At least 1 m: a segment the sighted walkers crossed in no step (or an annotation
                // of zero length) would give coincident keypoints, which no route has.
                let length = max(1, Statistics.median(steps) * sightedStepLength)
                if k == 0 {
                    lengths.append(length)
                    continue
                }
                // The turn between segment k − 1 and k of the template walk.
                let (a, b) = (ws[0].straightSegments[k - 1], ws[0].straightSegments[k])
                let between = ws[0].turns.first { t in
                    let mid = (t.span.start + t.span.end) / 2
                    return mid >= a.end - 1 && mid <= b.start + 1 && abs(t.nominal) >= 22.5
                }
                if let t = between {
                    turns.append(t.nominal)
                    lengths.append(length)
                } else {
                    lengths[lengths.count - 1] += length
                }
            }
            out.append(PathShape(path: path, lengths: lengths, turns: turns))
        }
        return out
    }

    /// The corridor of a shape: the route's corners at phone height 1.3 m, starting at the origin
    /// walking along −z, turns positive to the right; walls `corridorHalfWidth` either side of
    /// each segment, cut `corridorHalfWidth` short of its ends (open junctions, so no wall of
    /// one segment crosses the next at a 45°, 90° or 180° turn).
    public static func scenario(_ shape: PathShape) -> ClosedLoopScenario {
        var points = [Vector3(0, 1.3, 0)]
        var psi = 0.0
        for (k, length) in shape.lengths.enumerated() {
            let last = points[points.count - 1]
            points.append(last + Vector3(-Double.sin(psi) * length, 0, -Double.cos(psi) * length))
            if k < shape.turns.count { psi -= shape.turns[k] * .pi / 180 }
        }
        var plan = FloorPlan()
        let h = corridorHalfWidth
        for (a, b) in zip(points, points.dropFirst()) {
            let d = b - a, l = Double.hypot(d.x, d.z)
            guard l > 2 * h else { continue }
            let (ux, uz) = (d.x / l, d.z / l), (nx, nz) = (-uz, ux)
            for side in [-1.0, 1.0] {
                plan.walls.append(
                    Wall(
                        a.x + ux * h + side * nx * h, a.z + uz * h + side * nz * h, b.x - ux * h + side * nx * h,
                        b.z - uz * h + side * nz * h))
            }
        }
        let route = GuidanceRoute(positions: points)
        return ClosedLoopScenario(routeID: "weallwalk-" + shape.path, route: route, trueRoute: route, floorPlan: plan)
    }

    /// A simulated walk as an annotator would mark it: heel strikes at the steps, a turn from
    /// hearing a spoken direction over 22.5° to the end of its rotation (nominal angle: the
    /// shape's, when the walk made exactly the shape's turns, else the nearest of 45°, 90°,
    /// 180°, + left; segments keyed by index without a shape), straight segments between the turns (from the start of the first step to the stop),
    /// wall contacts as events "touches wall" and stops to seek Clew's pulse as events "stops to
    /// seek the pulse", the heading known exactly.
    public static func annotatedWalk(
        _ log: WalkLog, shape: PathShape?, walker: NavigatorProfile, subject: String, community: String
    ) -> AnnotatedWalk {
        let turns = log.turns.filter { $0.end.isFinite && $0.end >= $0.start }
        let aligned = turns.count == shape?.turns.count
        let end = log.truthTimes.last ?? 0
        let start = max(0, (log.stepTimes.first ?? end) - walker.stepLength / walker.speed)
        var bounds = [start]
        for t in turns { bounds += [t.start, t.end] }
        bounds.append(end)
        var straight: [TimeSpan] = [], labels: [String] = []
        for k in 0...turns.count {
            straight.append(TimeSpan(bounds[2 * k], max(bounds[2 * k], bounds[2 * k + 1])))
            // Segments are keyed by index when the walk followed the shape; otherwise by nothing
            // another walk shares (no relative speed).
            labels.append(aligned || shape == nil ? "\(k)" : "unaligned-\(subject)-\(k)")
        }
        let nominal = turns.enumerated().map { k, t -> (span: TimeSpan, nominal: Double) in
            let degrees = t.commanded * 180 / .pi
            // Signed + left, as WeAllWalk's nominal angles (a commanded turn is + right).
            let nearest = [45.0, 90, 180].min { abs($0 - abs(degrees)) < abs($1 - abs(degrees)) }!
            let n = aligned ? shape!.turns[k] : (degrees > 0 ? -1 : 1) * nearest
            return (TimeSpan(t.start, t.end), n)
        }
        var walk = AnnotatedWalk(
            file: "\(subject)/\(shape?.path ?? "")", subject: subject, community: community,
            imu: IMUStream(timestamps: [], accelerometer: [], gyroscope: []), straightSegments: straight,
            events: (log.wallContacts + log.seeking).map { TimeSpan($0.start, $0.end) }, heelStrikes: log.stepTimes, turns: nominal,
            straightLabels: labels, eventLabels: log.wallContacts.map { _ in "touches wall" } + log.seeking.map { _ in "stops to seek the pulse" },
            path: shape.map { "sim/" + $0.path } ?? "")
        walk.heading = (log.truthTimes, log.headings.map { $0 * 180 / .pi })
        return walk
    }

    /// A simulated walk's annotations as trace-format streams (`steps`, `straight_segments`,
    /// `turns` with their nominal angle + left in degrees, `events`), source `source`: what
    /// `annotatedWalk(_:file:)` reads back.
    public static func annotationStreams(_ walk: AnnotatedWalk, source: String) -> [AnnotationStream] {
        typealias S = AnnotationStream.WalkStream
        let events = zip(walk.events, walk.eventLabels).sorted { $0.0.start < $1.0.start }
        return [
            AnnotationStream(
                name: S.heelStrikes, kind: .instants, source: source, start: walk.heelStrikes, label: walk.heelStrikes.map { _ in "step" }),
            AnnotationStream(
                name: S.straightSegments, kind: .intervals, source: source, start: walk.straightSegments.map(\.start),
                end: walk.straightSegments.map(\.end), label: walk.straightLabels),
            AnnotationStream(
                name: S.turns, kind: .intervals, source: source, start: walk.turns.map(\.span.start), end: walk.turns.map(\.span.end),
                label: walk.turns.map { _ in "turn" }, value: walk.turns.map(\.nominal), valueUnits: "deg"),
            AnnotationStream(
                name: S.events, kind: .intervals, source: source, start: events.map(\.0.start), end: events.map(\.0.end), label: events.map(\.1)),
        ]
    }

    /// Simulated subjects: `subjects` walkers of each (community, walker), each walking every
    /// shape once (run r is subject r; streams named by seed, route and run).
    ///
    /// - Complexity: O(communities · subjects · Σ walk durations / haptic interval).
    public static func simulate(
        _ shapes: [PathShape], walkers: [(community: String, walker: NavigatorProfile)], subjects: Int, seed: UInt64
    ) -> [AnnotatedWalk] {
        var out: [AnnotatedWalk] = []
        for shape in shapes {
            let s = scenario(shape)
            for (community, walker) in walkers {
                for r in 0..<max(0, subjects) {
                    let trace = simulateWalk(s, settings: ClosedLoopSettings(walker: walker), seed: seed, run: r, recordLog: true)
                    guard let log = trace.log else { continue }
                    out.append(annotatedWalk(log, shape: shape, walker: walker, subject: "sim-\(community)-\(r)", community: community))
                }
            }
        }
        return out
    }

    /// `subjects` walkers of one community on one shape (a convenience of `simulate(_:walkers:subjects:seed:)`).
    public static func simulate(shape: PathShape, walker: NavigatorProfile, community: String, subjects: Int, seed: UInt64 = 1) -> [AnnotatedWalk] {
        simulate([shape], walkers: [(community, walker)], subjects: subjects, seed: seed)
    }

    /// One quantity of one community: the real subjects beside the simulated ones.
    public struct Row: Sendable {
        public var community: String
        public var quantity: String
        public var unit: String
        /// The real subjects' values, in subject order.
        public var real: [(subject: String, value: Double)]
        /// Mean over real subjects with its 95 % Student t interval (NaN bounds under 2 subjects).
        public var realMean: Double, realLow: Double, realHigh: Double
        /// The simulated subjects' values: their mean and 2.5 %/97.5 % quantiles (type 7).
        public var simulated: [Double]
        public var simulatedMean: Double, simulatedLow: Double, simulatedHigh: Double
        /// Whether the simulated mean lies inside the real 95 % CI (nil: no CI or no simulation).
        public var inside: Bool?
        /// Leave one subject out: subjects whose value lies inside the 95 % prediction interval
        /// from the others (mean ± t·s·√(1 + 1/m), m others, t with m − 1 degrees of freedom);
        /// nil under 3 subjects.
        public var predicted: (covered: Int, of: Int)?
    }

    /// The 95 % prediction interval of a new subject's value from `values` (m ≥ 2): mean ±
    /// t(0.975, m − 1) · s · √(1 + 1/m) (nil for fewer than two values).
    public static func predictionInterval(_ values: [Double]) -> (low: Double, high: Double)? {
        guard values.count >= 2 else { return nil }
        let m = Double(values.count)
        let mean = Statistics.mean(values), s = Statistics.standardDeviation(values)
        let half = StudentT(degreesOfFreedom: m - 1).quantile(0.975) * s * (1 + 1 / m).squareRoot()
        return (mean - half, mean + half)
    }

    /// The validation table: for each community present in `real` and each `GaitFit` quantity
    /// measured on both sides.
    public static func rows(real: [AnnotatedWalk], simulated: [AnnotatedWalk]) -> [Row] {
        var out: [Row] = []
        for community in ["cane", "guide-dog", "sighted"] where real.contains(where: { $0.community == community }) {
            let realValues = GaitFit.subjectValues(real, community: community)
            let simValues = GaitFit.subjectValues(simulated, community: community)
            for (key, unit) in GaitFit.quantities {
                let r = realValues.compactMap { s in s.values[key].map { (subject: s.subject, value: $0) } }
                guard !r.isEmpty else { continue }
                let sim = simValues.compactMap { $0.values[key] }
                let ci = StudentTInterval(r.map(\.value))
                var sorted = sim
                let q = sim.isEmpty ? [Double.nan, .nan] : Statistics.quantilesBySelection(&sorted, [0.025, 0.975])
                let simMean = sim.isEmpty ? Double.nan : Statistics.mean(sim)
                var predicted: (Int, Int)?
                if r.count >= 3 {
                    var covered = 0
                    for i in r.indices {
                        let others = r.indices.filter { $0 != i }.map { r[$0].value }
                        if let pi = predictionInterval(others), r[i].value >= pi.low, r[i].value <= pi.high { covered += 1 }
                    }
                    predicted = (covered, r.count)
                }
                out.append(
                    Row(
                        community: community, quantity: key, unit: unit, real: r, realMean: ci.mean, realLow: ci.low, realHigh: ci.high,
                        simulated: sim, simulatedMean: simMean, simulatedLow: q[0], simulatedHigh: q[1],
                        inside: r.count >= 2 && !sim.isEmpty && ci.low.isFinite ? (simMean >= ci.low && simMean <= ci.high) : nil,
                        predicted: predicted))
            }
        }
        return out
    }

    /// The table as Markdown (subjects escaped; numbers to 3 significant digits).
    public static func markdown(_ rows: [Row]) -> String {
        func g(_ x: Double) -> String { x.isFinite ? String(format: "%.3g", x) : "–" }
        var lines = [
            "| aid | quantity | unit | real subjects | real mean [95 % CI] (n) | simulated mean [2.5–97.5 %] (n) | simulated mean inside real CI | leave one subject out: inside the 95 % prediction interval |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in rows {
            let subjects = r.real.map { markdownInline($0.subject) + " " + g($0.value) }.joined(separator: ", ")
            let inside = r.inside.map { $0 ? "yes" : "**no**" } ?? "– (n < 2)"
            let loo = r.predicted.map { "\($0.covered) of \($0.of)" } ?? "– (n < 3)"
            lines.append(
                "| \(r.community) | `\(r.quantity)` | \(r.unit) | \(subjects) | \(g(r.realMean)) [\(g(r.realLow)), \(g(r.realHigh))] (\(r.real.count)) | \(g(r.simulatedMean)) [\(g(r.simulatedLow)), \(g(r.simulatedHigh))] (\(r.simulated.count)) | \(inside) | \(loo) |"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The walkers simulated beside each community by default: the profiles fitted from WeAllWalk.
    public static let defaultWalkers: [(community: String, walker: String)] = [
        ("cane", "cane-weallwalk"), ("guide-dog", "guide-dog-weallwalk"), ("sighted", "sighted"),
    ]
}
