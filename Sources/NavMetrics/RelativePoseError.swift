import NavCore
import NavGeometry

/// Unit of the RPE delta.
public enum DeltaUnit: String, Sendable, CaseIterable, Codable {
    case frames = "f"
    case metres = "m"
    case seconds = "s"

    public var name: String {
        switch self {
        case .frames: return "frames"
        case .metres: return "m"
        case .seconds: return "s"
        }
    }
}

/// Which trajectory, and which rule, chooses the RPE pairs for metre and second deltas.
public enum RPEPairing: String, Sendable, CaseIterable, Codable {
    /// evo 1.38.1 exactly (its default `pairs_from_reference=False`): pairs are chosen on the
    /// **estimate**'s path length (metres) or stamps (seconds). The default (`navbench rpe
    /// --pairing evo`).
    case evo
    /// Pairs chosen on the **reference** (ground truth): every estimate is compared over the
    /// same segments, and a scale error or drift of the estimate cannot change which pairs
    /// are compared (KITTI and TUM compute segment lengths on the ground truth).
    case reference
    /// evo releases before the fix of `filter_pairs_by_path` (checked on 1.12.0): consecutive
    /// metre pairs start at the first pose where the estimate's accumulated path reaches δ,
    /// so the segment from pose 0 is never evaluated. For reproducing older published numbers.
    case evoLegacy = "evo-legacy"
}

/// RPE options; defaults are evo's (delta 1 frame, consecutive pairs, 10 % tolerance in all-pairs mode).
public struct RPEOptions: Sendable, Equatable {
    public var delta: Double = 1
    public var unit: DeltaUnit = .frames
    public var allPairs = false
    /// All-pairs mode (metres, seconds): a pair is accepted when its length is within
    /// `relativeTolerance`·δ of δ (evo's `rel_delta_tol`).
    public var relativeTolerance = 0.1
    public var pairing: RPEPairing = .evo
    public init(
        delta: Double = 1, unit: DeltaUnit = .frames, allPairs: Bool = false, relativeTolerance: Double = 0.1,
        pairing: RPEPairing = .evo
    ) {
        self.delta = delta; self.unit = unit; self.allPairs = allPairs
        self.relativeTolerance = relativeTolerance; self.pairing = pairing
    }
}

/// One RPE pair (i, j), i < j, indices into the associated trajectories.
public struct IndexPair: Hashable, Sendable, Codable {
    public var i: Int, j: Int
    public init(_ i: Int, _ j: Int) { self.i = i; self.j = j }
}

/// The pose pairs an RPE compares (evo's `id_pairs_from_delta`).
///
/// - Frames: consecutive (0, δ), (δ, 2δ), …; all pairs (i, i + δ) for every i.
/// - Metres, consecutive (evo): walk the chosen path accumulating ‖p_k − p_{k−1}‖ from the
///   last pair end; when the sum reaches δ (≥), k becomes the next pair end and the sum
///   restarts at 0. Pairs join successive ends starting at pose 0.
/// - Metres, all pairs (evo): for each i, j = argmin_{j>i} |(D_j − D_i) − δ| over the
///   cumulative path D (first index on ties), kept if that is ≤ `relativeTolerance`·δ.
///   navbench finds j by binary search (D is non-decreasing), so this is O(n log n) where
///   evo is O(n²).
/// - Seconds: the same two rules on the timestamps (time instead of path length); the
///   consecutive rule compares t_k − t_i ≥ δ − 1 µs.
/// The path or stamps are the estimate's for `.evo` and `.evoLegacy`, the reference's for
/// `.reference`.
///
/// - Throws: `MetricError.invalidDelta` (δ ≤ 0 or non-integer frames), `.noPairs` when
///   nothing matches (evo's message).
/// - Complexity: O(n) consecutive, O(n log n) all pairs.
public func rpePairs(
    referencePositions: [Vector3], estimatePositions: [Vector3],
    referenceTimestamps: [Double], estimateTimestamps: [Double],
    options o: RPEOptions
) throws(MetricError) -> [IndexPair] {
    let n = estimatePositions.count
    guard referencePositions.count == n else { throw .countMismatch(reference: referencePositions.count, estimate: n) }
    guard o.delta.isFinite && o.delta > 0 else { throw .invalidDelta("delta must be a positive number, got \(o.delta)") }
    let fromReference = o.pairing == .reference
    var pairs: [IndexPair] = []
    switch o.unit {
    case .frames:
        guard o.delta == o.delta.rounded() else { throw .invalidDelta("delta must be an integer for delta unit frames, got \(o.delta)") }
        guard let d = Int(exactly: o.delta), d >= 1 else {
            throw .invalidDelta("delta must be an integer from 1 to 2^63-1 for delta unit frames, got \(o.delta)")
        }
        if o.allPairs {
            if n > d { for i in 0..<(n - d) { pairs.append(IndexPair(i, i + d)) } }
        } else {
            var prev = 0, k = d
            while k < n { pairs.append(IndexPair(prev, k)); prev = k; k += d }
        }
    case .metres:
        let positions = fromReference ? referencePositions : estimatePositions
        if o.allPairs {
            pairs = allPairsByCumulative(cumulativePath(positions), delta: o.delta, tolerance: o.delta * o.relativeTolerance)
        } else {
            var ends: [Int] = o.pairing == .evoLegacy ? [] : [0]
            var current = 0.0
            let start = o.pairing == .evoLegacy ? 0 : 1
            if n > 0 {
                for k in start..<n {
                    let prev = positions[k == 0 ? 0 : k - 1]
                    let step = positions[k] - prev
                    current += (step.x * step.x + step.y * step.y + step.z * step.z).squareRoot()
                    if current >= o.delta { ends.append(k); current = 0 }
                }
            }
            for m in ends.indices.dropFirst() { pairs.append(IndexPair(ends[m - 1], ends[m])) }
        }
    case .seconds:
        let t = fromReference ? referenceTimestamps : estimateTimestamps
        guard t.count == n else { throw .countMismatch(reference: referenceTimestamps.count, estimate: estimateTimestamps.count) }
        if o.allPairs {
            pairs = allPairsByCumulative(t, delta: o.delta, tolerance: o.delta * o.relativeTolerance)
        } else {
            var i = 0
            var k = 1
            while k < n {
                if t[k] - t[i] >= o.delta - 1e-6 { pairs.append(IndexPair(i, k)); i = k }
                k += 1
            }
        }
    }
    guard !pairs.isEmpty else {
        let unitName = o.unit == .frames ? "frames" : (o.unit == .metres ? "m" : "s")
        throw .noPairs("delta = \(o.delta) (\(unitName)) produced an empty index list - try lower values or a less strict tolerance")
    }
    return pairs
}

/// Cumulative path length D_0 = 0, D_k = D_{k−1} + ‖p_k − p_{k−1}‖ (numpy's cumsum of norms).
///
/// - Complexity: O(n).
public func cumulativePath(_ p: [Vector3]) -> [Double] {
    var d = [Double](repeating: 0, count: p.count)
    var acc = 0.0
    for k in p.indices.dropFirst() {
        let s = p[k - 1] - p[k]
        acc += ((s.x * s.x + s.y * s.y) + s.z * s.z).squareRoot()
        d[k] = acc
    }
    return d
}

/// evo's all-pairs rule on a non-decreasing sequence D: for each i, the j > i minimising
/// |(D_j − D_i) − δ| (first such j), kept if ≤ tol.
func allPairsByCumulative(_ d: [Double], delta: Double, tolerance tol: Double) -> [IndexPair] {
    let n = d.count
    var out: [IndexPair] = []
    guard n >= 2 else { return out }
    // Binary search helpers over (i, n): first index k > i with predicate true.
    func firstIndex(after i: Int, where pred: (Double) -> Bool) -> Int {
        var lo = i + 1, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if pred(d[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
    for i in 0..<(n - 1) {
        let di = d[i]
        // k1: first j > i with (D_j − D_i) − δ ≥ 0. Left of it the residual is negative and
        // its magnitude non-increasing in j; right of it non-negative and non-decreasing.
        let k1 = firstIndex(after: i) { ($0 - di) - delta >= 0 }
        var best = -1
        var bestErr = Double.infinity
        if k1 - 1 > i {
            // The earliest j with the same D as k1 − 1 (numpy's argmin takes the first minimum).
            let v = d[k1 - 1]
            let j0 = firstIndex(after: i) { $0 >= v }
            best = j0; bestErr = abs((d[j0] - di) - delta)
        }
        if k1 < n {
            let e = abs((d[k1] - di) - delta)
            if e < bestErr { best = k1; bestErr = e }
        }
        if best >= 0 && bestErr <= tol { out.append(IndexPair(i, best)) }
    }
    return out
}

/// Result of an RPE computation: errors and the pairs they belong to (after dropping
/// zero-length pairs for `.pointDistanceErrorRatio`).
public struct RelativePoseErrors: Sendable {
    public var errors: [Double]
    public var pairs: [IndexPair]
    /// Pair end indices (evo's `delta_ids`).
    public var endIndices: [Int] { pairs.map(\.j) }
}

/// Relative pose error over `pairs` (evo's `metrics.RPE.process_data`).
///
/// E_ij = (Q_i⁻¹·Q_j)⁻¹ · (P_i⁻¹·P_j) (TUM RGB-D notation: Q reference, P estimate); the value
/// is the chosen part of E_ij. `.pointDistance`: |‖q_j − q_i‖ − ‖p_j − p_i‖|;
/// `.pointDistanceErrorRatio`: that divided by ‖q_j − q_i‖, × 100, pairs with zero
/// reference distance dropped (as evo).
///
/// - Complexity: O(pairs).
public func relativePoseErrors(
    reference q: [Pose], estimate p: [Pose], pairs: [IndexPair],
    relation: PoseRelation
) throws(MetricError) -> RelativePoseErrors {
    try relativeErrors(reference: q, estimate: p, pairs: pairs, relation: relation)
}

/// Relative pose error over `pairs` of poses whose rotations are printed matrices (KITTI):
/// E_ij = (Q_i⁻¹·Q_j)⁻¹ · (P_i⁻¹·P_j) with evo's transpose inverse, the value as evo computes
/// it on the 4×4 matrix (`errorValue`); the point relations as for
/// quaternion poses.
///
/// Numerical contract: equal to evo 1.38.1 within 1e-9 relative on the KITTI fixtures.
///
/// - Complexity: O(pairs).
public func relativePoseErrors(
    reference q: [MatrixPose], estimate p: [MatrixPose], pairs: [IndexPair], relation: PoseRelation
) throws(MetricError) -> RelativePoseErrors {
    try relativeErrors(reference: q, estimate: p, pairs: pairs, relation: relation)
}

/// RPE in either representation (`ErrorPose`), as `relativePoseErrors` describes.
func relativeErrors<P: ErrorPose>(reference q: [P], estimate p: [P], pairs: [IndexPair], relation: PoseRelation) throws(MetricError)
    -> RelativePoseErrors
{
    guard q.count == p.count else { throw .countMismatch(reference: q.count, estimate: p.count) }
    var errors: [Double] = []
    errors.reserveCapacity(pairs.count)
    switch relation {
    case .pointDistance, .pointDistanceErrorRatio:
        var kept: [IndexPair] = []
        for pr in pairs {
            let dr = (q[pr.i].translation - q[pr.j].translation).norm
            let de = (p[pr.i].translation - p[pr.j].translation).norm
            let e = abs(dr - de)
            if relation == .pointDistance {
                errors.append(e); kept.append(pr)
            } else if dr != 0 {
                errors.append(e / dr * 100); kept.append(pr)
            }
        }
        return RelativePoseErrors(errors: errors, pairs: kept)
    default:
        for pr in pairs {
            let qRel = q[pr.i].evoInverse * q[pr.j]
            let pRel = p[pr.i].evoInverse * p[pr.j]
            errors.append(errorValue(qRel.evoInverse * pRel, relation))
        }
        return RelativePoseErrors(errors: errors, pairs: pairs)
    }
}
