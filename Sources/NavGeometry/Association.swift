import NavCore

/// How poses of a reference and an estimate are paired in time.
public enum AssociationMethod: String, Sendable, CaseIterable, Codable {
    /// evo's `sync.associate_trajectories` (SyncMethod.nearest_time): every pose of the
    /// trajectory with fewer poses is paired with the nearest stamp of the other within
    /// `maxDifference` (|Δt| ≤ max-diff). Not one-to-one: a pose of the longer trajectory
    /// may be used twice.
    case nearest
    /// TUM's `associate.py`: all candidate pairs with |Δt| < max-diff (strict) sorted by
    /// (|Δt|, t_ref, t_est) and taken greedily so each pose is used at most once.
    case oneToOne = "one-to-one"
    /// evo's SyncMethod.interpolation: the pairs of `nearest`, but the longer trajectory is
    /// resampled exactly at the shorter one's matched stamps (lerp + slerp).
    case interpolation
}

/// Paired poses, in the order of the pairs.
public struct AssociatedTrajectories: Sendable {
    /// Index into the reference of each pair (for `.interpolation`, of the nearest stamp).
    public var referenceIndices: [Int]
    /// Index into the estimate of each pair (for `.interpolation`, of the nearest stamp).
    public var estimateIndices: [Int]
    public var reference: [Pose]
    public var estimate: [Pose]
    /// Stamps of the reference poses of the pairs (interpolated poses carry the other's stamp).
    public var referenceTimestamps: [Double]
    /// Stamps of the estimated poses of the pairs.
    public var estimateTimestamps: [Double]
    public var count: Int { reference.count }

    public init(
        referenceIndices: [Int], estimateIndices: [Int], reference: [Pose], estimate: [Pose],
        referenceTimestamps: [Double], estimateTimestamps: [Double]
    ) {
        self.referenceIndices = referenceIndices; self.estimateIndices = estimateIndices
        self.reference = reference; self.estimate = estimate
        self.referenceTimestamps = referenceTimestamps; self.estimateTimestamps = estimateTimestamps
    }
}

/// No pose pair within the allowed time difference.
public struct AssociationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var referenceName: String
    public var estimateName: String
    public var maxDifference: Double
    public var offset: Double
    public var referenceSpan: ClosedRange<Double>?
    public var estimateSpan: ClosedRange<Double>?

    public var description: String {
        func span(_ r: ClosedRange<Double>?) -> String {
            guard let r else { return "no poses" }
            return "\(r.lowerBound) … \(r.upperBound) s"
        }
        return "found no matching timestamps between \(referenceName) and \(estimateName) with max. time difference "
            + "\(maxDifference) s and time offset \(offset) s (reference spans \(span(referenceSpan)), "
            + "estimate spans \(span(estimateSpan)))"
    }
}

/// Pairs reference and estimated poses by timestamp.
///
/// `offset` is added to the estimate's stamps before matching (evo's `offset_2`).
/// For `.nearest` and `.interpolation` the pairs, their order and the arithmetic of the
/// comparisons are evo 1.38.1's: the trajectory with fewer poses (the estimate when equal)
/// is walked in order; for each of its stamps s outside [first − max-diff, last + max-diff]
/// of the other no pair is made; otherwise k = first index with t_k > s (clamped to n−1),
/// Δ⁺ = t_k − s, Δ⁻ = s − t_{k−1}, and the pair is k if Δ⁺ ≤ max-diff and Δ⁺ < Δ⁻, else k−1 if
/// Δ⁻ ≤ max-diff and Δ⁻ ≤ Δ⁺. The offset is added to the longer trajectory's stamps with the
/// sign evo uses, so rounding is identical.
///
/// - Throws: `AssociationError` naming both inputs, the max-diff and the offset when no
///   pair is found.
/// - Complexity: O(n + m) for `.nearest` (one merge walk), O((n + m) + c log c) for
///   `.oneToOne` with c candidate pairs, plus O(c log n) slerps for `.interpolation`.
public func associate(
    reference: Trajectory, estimate: Trajectory, method: AssociationMethod = .nearest,
    maxDifference: Double = 0.01, offset: Double = 0,
    referenceName: String = "reference", estimateName: String = "estimate"
) throws(AssociationError) -> AssociatedTrajectories {
    let referenceStamps = reference.timestamps, estimateStamps = estimate.timestamps
    let noMatch = AssociationError(
        referenceName: referenceName, estimateName: estimateName, maxDifference: maxDifference, offset: offset,
        referenceSpan: referenceStamps.isEmpty ? nil : referenceStamps[0]...referenceStamps[referenceStamps.count - 1],
        estimateSpan: estimateStamps.isEmpty ? nil : estimateStamps[0]...estimateStamps[estimateStamps.count - 1])
    var refIdx: [Int] = [], estIdx: [Int] = []
    switch method {
    case .nearest, .interpolation:
        // evo: second_longer = est has more poses than ref.
        let estimateLonger = estimateStamps.count > referenceStamps.count
        if estimateLonger {
            let (s, l) = nearestMatches(short: referenceStamps, long: estimateStamps, maxDifference: maxDifference, offset: offset)
            refIdx = s; estIdx = l
        } else {
            let (s, l) = nearestMatches(short: estimateStamps, long: referenceStamps, maxDifference: maxDifference, offset: -offset)
            estIdx = s; refIdx = l
        }
        guard !refIdx.isEmpty else { throw noMatch }
        let referencePoses = reference.poses.values, estimatePoses = estimate.poses.values
        if method == .interpolation {
            // Resample the longer trajectory at the matched stamps of the shorter, in the
            // longer one's own time frame.
            if estimateLonger {
                let times = refIdx.map { referenceStamps[$0] - offset }
                let refPoses = refIdx.map { referencePoses[$0] }
                let est = estimate.count >= 2 ? interpolate(estimate, at: times) : estIdx.map { estimatePoses[$0] }
                return AssociatedTrajectories(
                    referenceIndices: refIdx, estimateIndices: estIdx, reference: refPoses, estimate: est,
                    referenceTimestamps: refIdx.map { referenceStamps[$0] }, estimateTimestamps: times)
            } else {
                let times = estIdx.map { estimateStamps[$0] + offset }
                let estPoses = estIdx.map { estimatePoses[$0] }
                let ref = reference.count >= 2 ? interpolate(reference, at: times) : refIdx.map { referencePoses[$0] }
                return AssociatedTrajectories(
                    referenceIndices: refIdx, estimateIndices: estIdx, reference: ref, estimate: estPoses,
                    referenceTimestamps: times, estimateTimestamps: estIdx.map { estimateStamps[$0] })
            }
        }
    case .oneToOne:
        (refIdx, estIdx) = oneToOneMatches(reference: referenceStamps, estimate: estimateStamps, maxDifference: maxDifference, offset: offset)
        guard !refIdx.isEmpty else { throw noMatch }
    }
    let referencePoses = reference.poses.values, estimatePoses = estimate.poses.values
    return AssociatedTrajectories(
        referenceIndices: refIdx, estimateIndices: estIdx,
        reference: refIdx.map { referencePoses[$0] }, estimate: estIdx.map { estimatePoses[$0] },
        referenceTimestamps: refIdx.map { referenceStamps[$0] }, estimateTimestamps: estIdx.map { estimateStamps[$0] })
}

/// evo's `matching_time_indices` for sorted stamps, as a merge walk (`long` sorted
/// ascending; `offset` added to every stamp of `long`).
func nearestMatches(short: [Double], long longRaw: [Double], maxDifference: Double, offset: Double) -> ([Int], [Int]) {
    let n = longRaw.count
    guard n > 0 else { return ([], []) }
    let long = offset == 0 ? longRaw : longRaw.map { $0 + offset }
    var a: [Int] = [], b: [Int] = []
    a.reserveCapacity(short.count); b.reserveCapacity(short.count)
    let lower = long[0] - maxDifference, upper = long[n - 1] + maxDifference
    var k = 0  // first index with long[k] > s (searchsorted side="right"), monotone in s
    long.withUnsafeBufferPointer { l in
        for (i, s) in short.enumerated() {
            if s < lower || s > upper { continue }
            while k < n && l[k] <= s { k += 1 }
            let idx = min(k, n - 1)
            let diffUB = l[idx] - s
            let diffLB = idx > 0 ? s - l[idx - 1] : Double.infinity
            let best: Int
            if diffUB <= maxDifference && diffUB < diffLB {
                best = idx
            } else if diffLB <= maxDifference && diffLB <= diffUB {
                best = idx - 1
            } else {
                continue
            }
            a.append(i); b.append(best)
        }
    }
    return (a, b)
}

/// TUM `associate.py`: greedy one-to-one on candidates sorted by (|Δt|, t_ref, t_est).
func oneToOneMatches(reference referenceStamps: [Double], estimate estimateStamps: [Double], maxDifference: Double, offset: Double) -> ([Int], [Int])
{
    struct Candidate { var diff: Double; var r: Int; var e: Int }
    var candidates: [Candidate] = []
    var lo = 0
    for (i, a) in referenceStamps.enumerated() {
        // Candidates: |a − (b + offset)| < maxDifference. Stamps are sorted, so a sliding window.
        while lo < estimateStamps.count && !(a - (estimateStamps[lo] + offset) < maxDifference) { lo += 1 }
        var j = lo
        while j < estimateStamps.count {
            let d = abs(a - (estimateStamps[j] + offset))
            if d < maxDifference { candidates.append(Candidate(diff: d, r: i, e: j)) } else if estimateStamps[j] + offset > a { break }
            j += 1
        }
    }
    candidates.sort { ($0.diff, $0.r, $0.e) < ($1.diff, $1.r, $1.e) }
    var usedR = [Bool](repeating: false, count: referenceStamps.count), usedE = [Bool](repeating: false, count: estimateStamps.count)
    var pairs: [(Int, Int)] = []
    for c in candidates where !usedR[c.r] && !usedE[c.e] {
        usedR[c.r] = true; usedE[c.e] = true
        pairs.append((c.r, c.e))
    }
    pairs.sort { $0.0 < $1.0 }
    return (pairs.map(\.0), pairs.map(\.1))
}
