import NavCore
import Testing

@testable import NavStatistics

/// The meet-in-the-middle count of the exact sign-flip test against the definition written out
/// in this file (every one of the 2ⁿ patterns summed left to right): equal counts, bit for bit,
/// including ties.
@Suite struct SignFlipExactCountTests {
    /// The test's own threshold for `d` (as `SignFlipPermutationTest.init` computes it).
    static func threshold(_ d: [Double]) -> Double {
        let observed = abs(d.reduce(0, +))
        return observed - 100 * Double.ulpOfOne * observed
    }

    /// The definition, written out here: every pattern summed left to right from 0.
    static func enumerate(_ d: [Double], threshold t: Double) -> Int {
        d.withUnsafeBufferPointer { x in
            var hits = 0
            for mask in 0..<(1 << x.count) {
                var s = 0.0
                for i in 0..<x.count { s += mask & (1 << i) != 0 ? -x[i] : x[i] }
                if abs(s) >= t { hits += 1 }
            }
            return hits
        }
    }

    static func check(_ d: [Double], _ what: String) {
        let t = threshold(d)
        let fast = SignFlipPermutationTest.exactHits(d, threshold: t)
        let slow = enumerate(d, threshold: t)
        #expect(fast == slow, "\(what), n=\(d.count): \(fast) vs enumeration \(slow)")
    }

    @Test(arguments: [11, 13, 16, 18])
    func gaussianDifferences(_ n: Int) {
        for (shift, seed) in [(0.0, UInt64(1)), (0.3, 2), (1.5, 3)] {
            var rng = SeededRandom(seed: seed &+ UInt64(n))
            Self.check((0..<n).map { _ in rng.gaussian(mean: shift, std: 1) }, "gaussian shift \(shift)")
        }
    }

    /// Many patterns tie with the observed sum: small integers, equal values, and decimals whose
    /// sums round differently in different orders (0.1 + 0.2 ≠ 0.3).
    @Test func tiesAndRounding() {
        var rng = SeededRandom(seed: 7)
        Self.check((0..<16).map { _ in Double(Int(rng.uniform() * 5) - 2) }, "integers −2…2")
        Self.check(Array(repeating: 0.25, count: 14), "all equal")
        Self.check([0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.6, 0.4, 0.7], "decimal ties")
        Self.check((0..<15).map { Double($0 % 3 + 1) * 0.1 }, "tenths")
        Self.check([1e12, -1e12, 1e-12, 3, -3, 0.5, 0.25, 0.25, 1e12, 7, -7, 1e-12, 2], "dynamic range 1e−12…1e12")
        Self.check((0..<13).map { $0 == 0 ? 5 : 0 }, "one non-zero")
        Self.check([Double](repeating: 0, count: 12), "all zero")
        Self.check((0..<12).map { _ in rng.gaussian(mean: 0, std: 1) * (Double.leastNormalMagnitude / 100) }, "subnormal")
        // Large values that cancel beside tenths: pattern sums that tie mathematically round
        // apart by far more than the test's 100·ε·|S| tolerance, and differently in the two halves.
        for k in 0..<40 {
            var r = SeededRandom(seed: 100 + UInt64(k))
            let big = [1e6, 3e7, 1e9][k % 3]
            var d = [big, -big, big + 0.1, -(big + 0.1)]
            for _ in 0..<(10 + k % 7) { d.append(Double(Int(r.uniform() * 7) + 1) * 0.1 * (r.uniform() < 0.3 ? -1 : 1)) }
            Self.check(d, "cancelling \(big) with tenths #\(k)")
        }
    }

    @Test func nonFiniteFallsBackToTheDefinition() {
        Self.check([1, 2, .infinity, 3, 4, 5, 6, 7, 8, 9, 10, 11], "infinity")
        Self.check([1, 2, .nan, 3, 4, 5, 6, 7, 8, 9, 10, 11], "NaN")
    }

    /// The p value of the test itself is unchanged at the exact limit (n = 20).
    @Test func pValueAtTheExactLimit() {
        var rng = SeededRandom(seed: 20)
        let d = (0..<20).map { _ in rng.gaussian(mean: 0.2, std: 1) }
        let t = SignFlipPermutationTest(differences: d, seed: 1)
        #expect(t.method == .exact)
        #expect(t.pValue == Double(Self.enumerate(d, threshold: Self.threshold(d))) / Double(1 << 20))
    }

    /// An exact limit beyond `maximumExactLimit` (2⁶⁴ patterns would not fit) falls back to
    /// Monte Carlo instead of enumerating.
    @Test func exactLimitIsCapped() {
        var rng = SeededRandom(seed: 64)
        let d = (0..<64).map { _ in rng.gaussian(mean: 0, std: 1) }
        let t = SignFlipPermutationTest(differences: d, resamples: 200, seed: 1, exactLimit: 100)
        #expect(t.method == .monteCarlo && t.permutations == 200)
    }
}
