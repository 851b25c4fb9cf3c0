/// How well detected turns match annotated ones: counts that add up over walks, and the angle
/// error of each matched pair.
///
/// Matching (docs/pdr.md): annotated turns in order of start; a detected turn is a candidate
/// for an annotated turn [s, e] when its centre lies in [s − tolerance, e + tolerance] and it is
/// not yet matched; the candidate whose centre is nearest the annotated turn's centre is matched
/// (ties: the earlier detection). Unmatched annotated turns are missed, unmatched detections false.
public struct TurnDetectionScore: Sendable, Equatable, Codable {
    public struct Pair: Sendable, Equatable, Codable {
        public var annotatedIndex: Int
        public var detectedIndex: Int
        /// The annotated (nominal) angle, degrees (positive = left).
        public var nominal: Double
        /// Detected minus nominal, degrees.
        public var angleError: Double
        public var signWrong: Bool { nominal * (nominal + angleError) < 0 }
    }
    public var annotated = 0
    public var detected = 0
    public var pairs: [Pair] = []

    public init() {}

    public var matched: Int { pairs.count }
    public var missed: Int { annotated - matched }
    public var falseDetections: Int { detected - matched }
    public var precision: Double { detected > 0 ? Double(matched) / Double(detected) : 0 }
    public var recall: Double { annotated > 0 ? Double(matched) / Double(annotated) : 0 }
    public var signErrors: Int { pairs.filter(\.signWrong).count }

    /// Mean |angle error| over matched turns whose |nominal| is `nominal` (45, 90, 180), nil without any.
    public func meanAbsoluteAngleError(nominal: Double) -> Double? {
        let e = pairs.filter { abs(abs($0.nominal) - nominal) < 1e-9 }.map { abs($0.angleError) }
        return e.isEmpty ? nil : e.reduce(0, +) / Double(e.count)
    }

    /// Two sets of walks together (pair indices keep each walk's own numbering).
    public static func + (a: TurnDetectionScore, b: TurnDetectionScore) -> TurnDetectionScore {
        var s = a
        s.annotated += b.annotated; s.detected += b.detected; s.pairs += b.pairs
        return s
    }
}

/// Matches detected turns (start, end, angle) to annotated turns (start, end, nominal angle).
///
/// - Complexity: O(a · d).
public func scoreTurns(
    annotated: [(span: TimeSpan, nominal: Double)], detected: [(span: TimeSpan, angle: Double)], tolerance: Double
) -> TurnDetectionScore {
    var score = TurnDetectionScore()
    score.annotated = annotated.count
    score.detected = detected.count
    var used = [Bool](repeating: false, count: detected.count)
    let order = annotated.indices.sorted { (annotated[$0].span.start, $0) < (annotated[$1].span.start, $1) }
    for a in order {
        let s = annotated[a].span
        let centre = (s.start + s.end) / 2
        var best: Int?
        var bestDistance = Double.infinity
        for d in detected.indices where !used[d] {
            let c = (detected[d].span.start + detected[d].span.end) / 2
            guard c >= s.start - tolerance, c <= s.end + tolerance else { continue }
            let dist = abs(c - centre)
            if dist < bestDistance || (dist == bestDistance && best.map { detected[d].span.start < detected[$0].span.start } == true) {
                best = d; bestDistance = dist
            }
        }
        if let d = best {
            used[d] = true
            score.pairs.append(
                .init(annotatedIndex: a, detectedIndex: d, nominal: annotated[a].nominal, angleError: detected[d].angle - annotated[a].nominal))
        }
    }
    return score
}
