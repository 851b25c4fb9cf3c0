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

    /// Complexity: exact O(2ⁿ·n); Monte Carlo O(B·n).
    public init(differences d: [Double], resamples: Int = 10_000, seed: UInt64, exactLimit: Int = Self.exactLimit) {
        let n = d.count
        self.n = n
        let observed = abs(d.reduce(0, +))
        let threshold = observed - 100 * Double.ulpOfOne * observed
        if n <= exactLimit {
            method = .exact
            let patterns = 1 << n
            var hits = 0
            d.withUnsafeBufferPointer { x in
                for mask in 0..<patterns {
                    var s = 0.0
                    for i in 0..<n { s += (mask >> i) & 1 == 1 ? -x[i] : x[i] }
                    if abs(s) >= threshold { hits += 1 }
                }
            }
            permutations = patterns
            pValue = Double(hits) / Double(patterns)
        } else {
            method = .monteCarlo
            var rng = SeededRandom(seed: seed)
            var hits = 0
            d.withUnsafeBufferPointer { x in
                for _ in 0..<resamples {
                    var s = 0.0, bits: UInt64 = 0
                    for i in 0..<n {
                        if i % 64 == 0 { bits = rng.next() }
                        s += bits & 1 == 1 ? -x[i] : x[i]
                        bits >>= 1
                    }
                    if abs(s) >= threshold { hits += 1 }
                }
            }
            permutations = resamples
            pValue = Double(hits + 1) / Double(resamples + 1)
        }
    }
}
