import Foundation
import NavCore
import NavMetrics
import NavSignal
import NavStatistics

/// The step detectors a sweep compares by default: 3 methods × 5 filters × 3 thresholds
/// (docs/pdr.md lists them).
public enum StepDetectorSweep {
    public static let filters: [String] = [
        "mean:window=5,centred",
        "ema:cutoff=3",
        "butter:order=4,cutoff=3,zero-phase",
        "butter:order=2,low=0.5,high=3,type=band,zero-phase",
        "kalman:q=1,r=4",
    ]
    public static let thresholds: [Double] = [0.25, 0.5, 1.0]
    public static let methods: [(StepDetector.Method, StepDetector.AccelerationSignal)] = [
        (.peak, .magnitude), (.zeroCrossing, .vertical), (.gyroscope, .magnitude),
    ]

    /// Every combination, methods outermost, in a fixed order (ties in a choice go to the first).
    public static func standard() -> [StepDetector] {
        let specs = filters.compactMap { try? FilterSpec(parsing: $0) }  // all parse (StepEvaluationTests)
        var out: [StepDetector] = []
        for (m, s) in methods {
            for f in specs {
                for k in thresholds { out.append(StepDetector(method: m, signal: s, filter: f, threshold: k)) }
            }
        }
        return out
    }
}

/// Every detector scored on every walk (WeAllWalk's metrics 1 and 3): the table the per-subject,
/// per-community and leave-one-subject-out results are computed from.
public struct StepEvaluation: Sendable {
    public struct Walk: Sendable, Equatable {
        public var file: String
        public var subject: String
        public var community: String
        public init(file: String, subject: String, community: String) { self.file = file; self.subject = subject; self.community = community }
    }
    public var detectors: [StepDetector]
    public var walks: [Walk]
    /// scores[walk][detector]; nil where the detector failed on the walk (`failures` says why).
    public var scores: [[StepCountScore?]]
    public var failures: [String]

    public init(detectors: [StepDetector], walks: [Walk], scores: [[StepCountScore?]], failures: [String]) {
        self.detectors = detectors; self.walks = walks; self.scores = scores; self.failures = failures
    }

    /// The subjects of a community (all communities when nil), sorted numerically where they are numbers.
    public func subjects(in community: String?) -> [String] {
        let s = Set(walks.filter { community == nil || $0.community == community }.map(\.subject))
        return s.sorted { a, b in
            if let x = Int(a), let y = Int(b) { return x < y }
            return a < b
        }
    }

    /// The communities present, in the order cane, guide-dog, sighted, then others.
    public var communities: [String] {
        let order = ["cane", "guide-dog", "sighted"]
        let present = Set(walks.map(\.community))
        return order.filter(present.contains) + present.subtracting(order).sorted()
    }

    /// A subject's walks pooled (in one community, or all of theirs), for detector `d`; nil when a
    /// walk failed or the subject has no walk there.
    public func subjectScore(_ subject: String, community: String?, detector d: Int) -> StepCountScore? {
        var total = StepCountScore()
        var any = false
        for (w, walk) in walks.enumerated() where walk.subject == subject && (community == nil || walk.community == community) {
            guard let s = scores[w][d] else { return nil }
            total = total + s
            any = true
        }
        return any ? total : nil
    }
}

/// Scores `detectors` on `walks`, the walks spread over `workers` threads (results in walk order,
/// independent of the number of workers).
///
/// - Complexity: O(walks × detectors × samples).
public func evaluateStepDetectors(_ walks: [AnnotatedWalk], detectors: [StepDetector], workers: Int = 2) -> StepEvaluation {
    let (scores, failures) = scoreDetectors(walks, detectors, what: "step detector", workers: workers) { d, walk in
        scoreStepCount(
            straightSegments: walk.straightSegments, events: walk.events, heelStrikes: walk.heelStrikes, detections: try d.detect(walk.imu))
    }
    return StepEvaluation(
        detectors: detectors, walks: walks.map { .init(file: $0.file, subject: $0.subject, community: $0.community) }, scores: scores,
        failures: failures)
}

/// Every detector scored on every walk, the walks spread over `workers` threads (results in walk
/// order whatever the number of workers): a score, or nil and the failure line
/// "`file`: `what` `detector`: error".
///
/// - Complexity: O(walks × detectors × the cost of `score`).
func scoreDetectors<D: Sendable & CustomStringConvertible, S: Sendable>(
    _ walks: [AnnotatedWalk], _ detectors: [D], what: String, workers: Int, _ score: @Sendable (D, AnnotatedWalk) throws -> S
) -> (scores: [[S?]], failures: [String]) {
    let rows: [([S?], [String])] = mapConcurrently(walks.count, workers: max(1, workers)) { (w: Int) -> ([S?], [String]) in
        var row: [S?] = [], failures: [String] = []
        for d in detectors {
            do { row.append(try score(d, walks[w])) } catch {
                row.append(nil)
                failures.append("\(walks[w].file): \(what) \(d): \(error)")
            }
        }
        return (row, failures)
    }
    return (rows.map(\.0), rows.flatMap(\.1))
}

/// The choice a leave-one-subject-out fold made and how it scored on the subject held out.
public struct HeldOutChoice: Sendable, Equatable {
    public var subject: String
    /// nil: chosen on every community's other subjects.
    public var community: String?
    /// Index into the evaluation's detectors: the one with the smallest mean metric-1 error over
    /// the other subjects (each subject weighted equally; ties to the first).
    public var chosen: Int
    /// The held-out subject's pooled counts under the chosen detector.
    public var score: StepCountScore
}

/// Leave one subject out: for each subject s of `community` (every subject when nil), the
/// detector with the smallest mean per-subject metric-1 error (undercount + overcount rate) over
/// the community's other subjects, and s's score under it. A subject with a failed walk under a
/// detector makes that detector ineligible for the fold.
///
/// - Complexity: O(subjects² × detectors × walks).
public func leaveOneSubjectOut(_ e: StepEvaluation, community: String?) -> [HeldOutChoice] {
    let subjects = e.subjects(in: community)
    var out: [HeldOutChoice] = []
    for s in subjects {
        let training = subjects.filter { $0 != s }
        guard !training.isEmpty else { continue }
        var best: (d: Int, error: Double)?
        for d in e.detectors.indices {
            var errors: [Double] = []
            for t in training {
                guard let score = e.subjectScore(t, community: community, detector: d) else { errors = []; break }
                errors.append(score.metric1Error)
            }
            guard errors.count == training.count else { continue }
            let m = errors.reduce(0, +) / Double(errors.count)
            if best == nil || m < best!.error { best = (d, m) }
        }
        guard let best, let score = e.subjectScore(s, community: community, detector: best.d) else { continue }
        out.append(HeldOutChoice(subject: s, community: community, chosen: best.d, score: score))
    }
    return out
}

/// A paired comparison of two detectors over the subjects of a community: per-subject metric-1
/// errors, their mean difference with a t interval and the exact Wilcoxon signed-rank test.
public struct DetectorComparison: Sendable, Equatable {
    public var community: String
    public var first: Int
    public var second: Int
    public var n: Int
    /// Mean of (first − second) per-subject metric-1 error.
    public var meanDifference: Double
    public var low: Double
    public var high: Double
    /// nil when every difference is zero.
    public var pValue: Double?
    public var isSignificant: Bool { (pValue ?? 1) < 0.05 }
}

/// Compares detectors `a` and `b` on the subjects of `community`.
public func compareDetectors(_ e: StepEvaluation, community: String, _ a: Int, _ b: Int) -> DetectorComparison? {
    var diffs: [Double] = []
    for s in e.subjects(in: community) {
        guard let x = e.subjectScore(s, community: community, detector: a), let y = e.subjectScore(s, community: community, detector: b) else {
            continue
        }
        diffs.append(x.metric1Error - y.metric1Error)
    }
    guard diffs.count >= 2 else { return nil }
    let ci = StudentTInterval(diffs)
    return DetectorComparison(
        community: community, first: a, second: b, n: diffs.count, meanDifference: ci.mean, low: ci.low, high: ci.high,
        pValue: WilcoxonSignedRank(differences: diffs)?.pValue)
}
