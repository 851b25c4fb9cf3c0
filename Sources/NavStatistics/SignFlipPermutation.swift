import NavCore

/// Paired sign-flip permutation test of H₀: the differences are symmetric about zero
/// (Fisher 1935; the one-sample case of `scipy.stats.permutation_test(permutation_type='samples')`).
/// Statistic S = Σdᵢ; two-sided p = P(|S*| ≥ |S|) over the 2ⁿ sign patterns, with a relative
/// tolerance of 100·ε·|S| so that patterns equal to the observed one up to rounding count.
///
/// - exact: every pattern enumerated when n ≤ `exactLimit` (20: 2²⁰ patterns);
/// - Monte Carlo otherwise: B seeded random patterns, p = (b + 1)/(B + 1) (never 0; Phipson &
///   Smyth 2010), Monte Carlo standard error √(p(1 − p)/B).
public struct SignFlipPermutationTest: Sendable, Equatable {
    public enum Method: String, Sendable { case exact, monteCarlo = "monte-carlo" }
    public var n: Int
    public var pValue: Double
    public var method: Method
    /// Patterns evaluated (2ⁿ or B).
    public var permutations: Int
    public static let exactLimit = 20
    /// The largest `exactLimit` honoured: 2²⁰ half sums (8 MiB each half); beyond, Monte Carlo.
    public static let maximumExactLimit = 40

    /// Complexity: exact O(2^(n/2)·n) (meet in the middle, `exactHits`); Monte Carlo O(B·n).
    public init(differences d: [Double], resamples: Int = 10_000, seed: UInt64, exactLimit: Int = Self.exactLimit) {
        let n = d.count
        self.n = n
        let observed = abs(d.reduce(0, +))
        let threshold = observed - 100 * Double.ulpOfOne * observed
        if n <= min(exactLimit, Self.maximumExactLimit) {
            method = .exact
            let patterns = 1 << n
            permutations = patterns
            pValue = Double(Self.exactHits(d, threshold: threshold)) / Double(patterns)
        } else {
            method = .monteCarlo
            let hits = Self.monteCarloHits(d, threshold: threshold, resamples: resamples, seed: seed)
            permutations = resamples
            pValue = Double(hits + 1) / Double(resamples + 1)
        }
    }

    /// Number of `resamples` random sign patterns whose sum, left to right, is at least
    /// `threshold` in magnitude. Pattern b reads ⌈n/64⌉ draws of `SeededRandom(seed:)` from draw
    /// b·⌈n/64⌉, bit i mod 64 of its word ⌊i/64⌋ flipping dᵢ (ResamplingLanesTests writes the definition out).
    /// Eight patterns are summed side by side (two SIMD4 lanes, each word drawn where the stream
    /// jumps to it, a sign flipped by its bit), every pattern still left to right, so the count is
    /// the definition's bit for bit at a fraction of its time (one add's latency per term hid
    /// behind seven others).
    ///
    /// - Complexity: O(B·n) time, O(1) memory.
    static func monteCarloHits(_ d: [Double], threshold: Double, resamples: Int, seed: UInt64) -> Int {
        let n = d.count, words = (n + 63) / 64
        let stream = SeededRandom(seed: seed)
        var hits = 0
        let lanes = 8, full = n == 0 ? 0 : resamples / lanes * lanes
        d.withUnsafeBufferPointer { x in
            var b = 0
            while b < full {
                var low = SIMD4<Double>(repeating: 0), high = SIMD4<Double>(repeating: 0)
                var bitsLow = SIMD4<UInt64>(repeating: 0), bitsHigh = SIMD4<UInt64>(repeating: 0)
                for i in 0..<n {
                    if i % 64 == 0 {
                        // Word i/64 of pattern b + l: draw (b + l)·words + i/64 of the stream.
                        let word = b &* words &+ i / 64
                        for l in 0..<4 {
                            var lowWord = stream.advanced(by: word &+ l &* words)
                            var highWord = stream.advanced(by: word &+ (l &+ 4) &* words)
                            bitsLow[l] = lowWord.next()
                            bitsHigh[l] = highWord.next()
                        }
                    }
                    // −x is x with its sign bit flipped: bit i of the pattern, moved to bit 63.
                    let v = SIMD4<UInt64>(repeating: x[i].bitPattern)
                    low += unsafeBitCast(v ^ (bitsLow &<< 63), to: SIMD4<Double>.self)
                    high += unsafeBitCast(v ^ (bitsHigh &<< 63), to: SIMD4<Double>.self)
                    bitsLow &>>= 1
                    bitsHigh &>>= 1
                }
                for l in 0..<4 {
                    if abs(low[l]) >= threshold { hits += 1 }
                    if abs(high[l]) >= threshold { hits += 1 }
                }
                b += lanes
            }
            var rng = stream.advanced(by: full * words)
            for _ in full..<resamples where abs(randomSignedSum(x, &rng)) >= threshold { hits += 1 }
        }
        return hits
    }

    /// Σ ±x[i], left to right, the signs from the next ⌈n/64⌉ draws of `rng` (bit i mod 64 set: −).
    @inline(__always)
    static func randomSignedSum(_ x: UnsafeBufferPointer<Double>, _ rng: inout SeededRandom) -> Double {
        var s = 0.0, bits: UInt64 = 0
        for i in 0..<x.count {
            if i % 64 == 0 { bits = rng.next() }
            s += bits & 1 == 1 ? -x[i] : x[i]
            bits >>= 1
        }
        return s
    }

    /// Number of the 2ⁿ sign patterns whose sum, computed left to right as in `hitsByEnumeration`,
    /// is at least `threshold` in magnitude: the same count as enumerating every pattern.
    ///
    /// Meet in the middle: the sums of the 2^h patterns of the first h = ⌊n/2⌋ differences and of
    /// the 2^(n−h) patterns of the others; for each first-half sum a, the second-half sums b that
    /// make |a + b| ≥ threshold lie in two runs of the sorted b, found by bisection. Every sum here
    /// is a recursive sum of at most n terms, so it differs from the left-to-right sum of the
    /// same pattern by at most 2γₙ·Σ|dᵢ| (Higham 2002, §4.2; additions are exact below the normal
    /// range, so subnormals add no error). Patterns within a margin of 8n·u·Σ|dᵢ| (u = 2⁻⁵³)
    /// of the threshold, four times that bound, are summed left to right one by one, so the count
    /// equals the enumeration's bit for bit; far from ties they are a vanishing fraction.
    /// Non-finite inputs fall back to the enumeration.
    ///
    /// - Complexity: O(2^(n/2)·n) time and O(2^(n/2)) memory, plus O(n) per pattern in the margin
    ///   (at worst O(2ⁿ·n) when nearly every pattern ties with the observed sum).
    static func exactHits(_ d: [Double], threshold: Double) -> Int {
        let n = d.count
        let absoluteSum = d.reduce(0) { $0 + abs($1) }
        let margin = 4 * Double(n) * Double.ulpOfOne * absoluteSum
        // Non-finite differences (an infinite or NaN margin): the definition, pattern by pattern.
        guard margin.isFinite else { return hitsByEnumeration(d, threshold: threshold) }
        // An observed sum of 0: every finite pattern sum is at least 0 in magnitude.
        guard threshold > 0 else { return 1 << n }
        guard n > 10 else { return hitsByEnumeration(d, threshold: threshold) }
        let h = n / 2, highCount = 1 << (n - h)
        return d.withUnsafeBufferPointer { x in
            /// The 2^count pattern sums of x[from ..< from + count], each summed left to right.
            func halfSums(_ from: Int, _ count: Int) -> [Double] {
                (0..<(1 << count)).map { signedSum(x, from..<(from + count), mask: $0) }
            }
            let low = halfSums(0, h)
            let highUnsorted = halfSums(h, n - h)
            let order = (0..<highCount).sorted { (highUnsorted[$0], $0) < (highUnsorted[$1], $1) }
            let high = order.map { highUnsorted[$0] }
            let outer = threshold + margin, inner = threshold - margin
            /// First index j with fl(a + high[j]) ≥ bound, or > bound when `strictly` (rounding
            /// is monotone, so this is a bisection).
            func first(_ a: Double, _ bound: Double, strictly: Bool) -> Int {
                var lo = 0, hi = highCount
                while lo < hi {
                    let mid = (lo + hi) / 2, c = a + high[mid]
                    if strictly ? c > bound : c >= bound { hi = mid } else { lo = mid + 1 }
                }
                return lo
            }
            var hits = 0
            for m in low.indices {
                let a = low[m]
                // |a + b| < outer: j in [lo, hi); outside it every pattern is a hit.
                let lo = first(a, -outer, strictly: true), hi = first(a, outer, strictly: false)
                hits += lo + (highCount - hi)
                // |a + b| < inner: certainly no hit; between the two, sum left to right.
                var lo2 = hi, hi2 = hi
                if inner > 0 { lo2 = max(lo, first(a, -inner, strictly: true)); hi2 = max(lo2, min(hi, first(a, inner, strictly: false))) }
                for range in [lo..<lo2, hi2..<hi] {
                    for j in range where abs(signedSum(x, 0..<n, mask: m | order[j] << h)) >= threshold { hits += 1 }
                }
            }
            return hits
        }
    }

    /// Σ ±x[i] over `range`, left to right from 0; − where bit (i − range.lowerBound) of `mask`
    /// is set. Every exact count sums a pattern this way, so their roundings agree.
    @inline(__always)
    static func signedSum(_ x: UnsafeBufferPointer<Double>, _ range: Range<Int>, mask: Int) -> Double {
        var s = 0.0
        for i in range { s += (mask >> (i - range.lowerBound)) & 1 == 1 ? -x[i] : x[i] }
        return s
    }

    /// The definition: every one of the 2ⁿ patterns summed left to right.
    ///
    /// - Complexity: O(2ⁿ·n).
    static func hitsByEnumeration(_ d: [Double], threshold: Double) -> Int {
        d.withUnsafeBufferPointer { x in
            (0..<(1 << x.count)).reduce(0) { $0 + (abs(signedSum(x, 0..<x.count, mask: $1)) >= threshold ? 1 : 0) }
        }
    }
}
