import NavCore
import NavGeometry
import RealModule

/// Units of TUM's `--delta_unit`.
public enum TUMDeltaUnit: String, Sendable, CaseIterable, Codable {
    case s, m, rad, deg, f
}

/// The settings of TUM RGB-D's `evaluate_rpe.py --fixed_delta` (its defaults).
public struct TUMRPEOptions: Sendable, Equatable, Codable {
    public var delta: Double = 1
    public var unit: TUMDeltaUnit = .s
    /// More pairs than this are subsampled (Python 2's `random.sample` after `random.seed(seed)`); 0: all.
    public var maxPairs: Int = 10_000
    /// Seconds added to the estimate's stamps.
    public var offset: Double = 0
    /// Scale applied to the estimate's relative translations.
    public var scale: Double = 1
    public var seed: UInt32 = 0

    public init(delta: Double = 1, unit: TUMDeltaUnit = .s, maxPairs: Int = 10_000, offset: Double = 0, scale: Double = 1, seed: UInt32 = 0) {
        self.delta = delta; self.unit = unit; self.maxPairs = maxPairs; self.offset = offset; self.scale = scale; self.seed = seed
    }
}

/// One compared pair: estimate indices (i, j) and the ground-truth indices found for them.
public struct TUMRPEPair: Sendable, Equatable, Codable {
    public var estimate0: Int, estimate1: Int, reference0: Int, reference1: Int
    /// ‖t_E‖, metres; angle(R_E) in radians (acos formula).
    public var translation: Double, rotation: Double
}

public struct TUMRPEResult: Sendable, Equatable, Codable {
    public var pairs: [TUMRPEPair]
    /// Of the translational errors, metres.
    public var translation: ErrorStatistics
    /// Of the rotational errors, degrees.
    public var rotationDegrees: ErrorStatistics
}

/// TUM RGB-D benchmark relative pose error, as `evaluate_rpe.py --fixed_delta` (Sturm et al.,
/// IROS 2012; the benchmark's tools, BSD), step by step:
///
/// 1. stamps sorted; an overlap check (≥ 2 estimate stamps whose nearest ground-truth stamp
///    maps back to them);
/// 2. the index of the estimate in the delta unit: its stamps (s), cumulative ‖t‖ of
///    consecutive relative motions (m), cumulative rotation angle (rad, deg) or 0…n−1 (f);
/// 3. for each i, j = the index closest to index_i + delta (the script's binary search, ties
///    to the first found); the pair is kept unless j is the last pose;
/// 4. more than `maxPairs` pairs: `random.sample(pairs, maxPairs)` of Python 2 after
///    `random.seed(seed)` (Mersenne Twister, reproduced bit for bit by `PythonRandom`);
/// 5. each pose is matched to the ground-truth stamp closest to stamp + offset; pairs farther
///    than twice the ground truth's median interval are skipped;
/// 6. E = (s·(P_i⁻¹P_j))⁻¹ · (Q_i⁻¹Q_j) (s scales the translation), errors ‖t_E‖ and
///    acos(clamp((tr R_E − 1)/2)); statistics with numpy's conventions.
///
/// - Throws: `MetricError.noPairs` (no overlap, fewer than 2 pairs), `.invalidArgument`.
/// - Complexity: O(n log n) plus O(maxPairs) for the sampling.
public func tumRelativePoseError(
    referenceTimes tg: [Double], reference q: [Pose], estimateTimes te: [Double], estimate p: [Pose],
    options o: TUMRPEOptions = TUMRPEOptions()
) throws(MetricError) -> TUMRPEResult {
    guard tg.count == q.count, te.count == p.count else { throw .invalidArgument("one timestamp per pose expected") }
    guard tg.count >= 2, te.count >= 2 else { throw .noPairs("TUM RPE needs at least 2 poses in each trajectory") }
    guard o.delta.isFinite, o.delta > 0, o.maxPairs >= 0 else { throw .invalidArgument("delta must be positive and max pairs ≥ 0") }
    // 1. overlap
    var returned = Set<Double>()
    for t in te {
        let g = tg[closestIndex(tg, t + o.offset)]
        returned.insert(te[closestIndex(te, g - o.offset)])
    }
    guard returned.count >= 2 else { throw .noPairs("number of overlap in the timestamps is too small (TUM evaluate_rpe)") }
    // 2. index in the delta unit
    // Rotations from quaternions are exact: inverted by transposing (TUM inverts in general, equal to rounding).
    let pm = p.map(MatrixPose.init), qm = q.map(MatrixPose.init)
    var index: [Double]
    switch o.unit {
    case .s: index = te
    case .f: index = (0..<te.count).map(Double.init)
    case .m, .rad, .deg:
        index = [0]
        var sum = 0.0
        for k in 0..<(pm.count - 1) {
            let motion = pm[k + 1].transposeInverse * pm[k]
            switch o.unit {
            case .m: sum += motion.translationNorm
            case .rad: sum += motion.acosAngle
            default: sum += motion.acosAngle * 180 / .pi
            }
            index.append(sum)
        }
    }
    // 3. pairs
    var pairs: [(Int, Int)] = []
    for i in 0..<te.count {
        let j = closestIndex(index, index[i] + o.delta)
        if j != te.count - 1 { pairs.append((i, j)) }
    }
    // 4. subsampling
    if o.maxPairs != 0 && pairs.count > o.maxPairs {
        var random = PythonRandom(seed: o.seed)
        pairs = random.python2Sample(pairs, o.maxPairs)
    }
    // 5., 6.
    var intervals = zip(tg.dropFirst(), tg).map { $0 - $1 }
    intervals.sort()
    let m = intervals.count
    let median = m % 2 == 1 ? intervals[m / 2] : (intervals[m / 2 - 1] + intervals[m / 2]) / 2
    let maxDifference = 2 * median
    var out: [TUMRPEPair] = []
    for (i, j) in pairs {
        let g0 = closestIndex(tg, te[i] + o.offset), g1 = closestIndex(tg, te[j] + o.offset)
        if abs(tg[g0] - (te[i] + o.offset)) > maxDifference || abs(tg[g1] - (te[j] + o.offset)) > maxDifference { continue }
        var deltaEstimate = pm[j].transposeInverse * pm[i]
        deltaEstimate.translation = deltaEstimate.translation * o.scale
        let e = deltaEstimate.transposeInverse * (qm[g1].transposeInverse * qm[g0])
        out.append(TUMRPEPair(estimate0: i, estimate1: j, reference0: g0, reference1: g1, translation: e.translationNorm, rotation: e.acosAngle))
    }
    guard out.count >= 2 else {
        throw .noPairs("couldn't find matching timestamp pairs between groundtruth and estimated trajectory (TUM evaluate_rpe)")
    }
    return TUMRPEResult(
        pairs: out, translation: try ErrorStatistics(out.map(\.translation)),
        rotationDegrees: try ErrorStatistics(out.map { $0.rotation * 180 / .pi }))
}

/// evaluate_rpe.py's `find_closest_index`: a binary search that remembers the closest value
/// seen (strictly closer replaces), returning at once on equality.
func closestIndex(_ l: [Double], _ t: Double) -> Int {
    var beginning = 0, end = l.count
    var difference = abs(l[0] - t), best = 0
    while beginning < end {
        let middle = (end + beginning) / 2
        if abs(l[middle] - t) < difference { difference = abs(l[middle] - t); best = middle }
        if t == l[middle] { return middle }
        if l[middle] > t { end = middle } else { beginning = middle + 1 }
    }
    return best
}

extension MatrixPose {
    var translationNorm: Double { (translation.x * translation.x + translation.y * translation.y + translation.z * translation.z).squareRoot() }
    /// acos(clamp((tr R − 1)/2)): the devkits' rotation angle.
    var acosAngle: Double { Double.acos(max(-1, min(1, (linear.trace - 1) / 2))) }
}

/// CPython's Mersenne Twister (MT19937, `random.seed(int)` through `init_by_array`), enough
/// of it to reproduce `random.random()` and Python 2's `random.sample` bit for bit.
public struct PythonRandom: Sendable {
    private var mt = [UInt32](repeating: 0, count: 624)
    private var index = 624

    /// `random.seed(seed)` for 0 ≤ seed < 2³².
    public init(seed: UInt32) {
        mt[0] = 19_650_218
        for i in 1..<624 { mt[i] = 1_812_433_253 &* (mt[i - 1] ^ (mt[i - 1] >> 30)) &+ UInt32(i) }
        let key = [seed]
        var i = 1, j = 0
        for _ in 0..<max(624, key.count) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) &* 1_664_525)) &+ key[j] &+ UInt32(j)
            i += 1; j += 1
            if i >= 624 { mt[0] = mt[623]; i = 1 }
            if j >= key.count { j = 0 }
        }
        for _ in 0..<623 {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) &* 1_566_083_941)) &- UInt32(i)
            i += 1
            if i >= 624 { mt[0] = mt[623]; i = 1 }
        }
        mt[0] = 0x8000_0000
    }

    /// `genrand_uint32`.
    public mutating func next32() -> UInt32 {
        if index >= 624 {
            for k in 0..<624 {
                let y = (mt[k] & 0x8000_0000) | (mt[(k + 1) % 624] & 0x7FFF_FFFF)
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (y & 1 == 0 ? 0 : 0x9908_B0DF)
            }
            index = 0
        }
        var y = mt[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C_5680
        y ^= (y << 15) & 0xEFC6_0000
        y ^= y >> 18
        return y
    }

    /// `random.random()`: 53 bits, (a·2²⁶ + b) / 2⁵³.
    public mutating func random() -> Double {
        let a = Double(next32() >> 5), b = Double(next32() >> 6)
        return (a * 67_108_864 + b) / 9_007_199_254_740_992
    }

    /// Python 2.7's `random.sample(population, k)`: a pool for small populations, else
    /// rejection of repeated indices; indices as `int(random() * n)`.
    public mutating func python2Sample<T>(_ population: [T], _ k: Int) -> [T] {
        let n = population.count
        guard k < n else { return population }
        var setsize = 21
        if k > 5 {
            let e = (Double.log(Double(k * 3)) / Double.log(4)).rounded(.up)
            setsize += Int(Double.pow(4, e))
        }
        var result: [T] = []
        result.reserveCapacity(k)
        if n <= setsize {
            var pool = population
            for i in 0..<k {
                let j = Int(random() * Double(n - i))
                result.append(pool[j])
                pool[j] = pool[n - i - 1]
            }
        } else {
            var selected = Set<Int>()
            for _ in 0..<k {
                var j = Int(random() * Double(n))
                while selected.contains(j) { j = Int(random() * Double(n)) }
                selected.insert(j)
                result.append(population[j])
            }
        }
        return result
    }
}
