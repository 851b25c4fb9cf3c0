import NavCore
import NavStatistics
import Testing

/// Sign-flip permutation and Hodges–Lehmann against brute force written out here.
@Suite struct PairedTestsTests {
    /// Differences from a seeded stream.
    static func sample(_ n: Int, shift: Double, seed: UInt64) -> [Double] {
        var rng = SeededRandom(seed: seed)
        return (0..<n).map { _ in rng.gaussian(mean: shift, std: 1) }
    }

    /// P(|Σ sᵢdᵢ| ≥ |Σdᵢ|) by recursion over every sign pattern.
    static func enumerate(_ d: [Double]) -> Double {
        let observed = abs(d.reduce(0, +)) * (1 - 1e-12)
        func go(_ i: Int, _ s: Double) -> Int { i == d.count ? (abs(s) >= observed ? 1 : 0) : go(i + 1, s + d[i]) + go(i + 1, s - d[i]) }
        return Double(go(0, 0)) / Double(1 << d.count)
    }

    @Test(arguments: [4, 9, 15, 20])
    func exactPermutationEqualsEnumeration(_ n: Int) {
        let d = Self.sample(n, shift: 0.4, seed: UInt64(n))
        let t = SignFlipPermutationTest(differences: d, seed: 3)
        #expect(t.method == .exact && t.permutations == 1 << n)
        #expect(t.pValue == Self.enumerate(d), "n=\(n): \(t.pValue) vs enumeration \(Self.enumerate(d))")
    }

    @Test func sampledPermutationIsWithinMonteCarloError() {
        // n = 20 is enumerable; force Monte Carlo on the same data and compare with the exact p.
        for (shift, seed) in [(0.3, UInt64(11)), (0.6, 12), (0.0, 13)] {
            let d = Self.sample(20, shift: shift, seed: seed)
            let exact = SignFlipPermutationTest(differences: d, seed: 1).pValue
            let b = 20_000
            let mc = SignFlipPermutationTest(differences: d, resamples: b, seed: 99, exactLimit: 10)
            #expect(mc.method == .monteCarlo && mc.permutations == b)
            let se = (exact * (1 - exact) / Double(b)).squareRoot()
            #expect(abs(mc.pValue - exact) <= 4 * se + 1 / Double(b), "shift \(shift): sampled \(mc.pValue), exact \(exact), 4·se \(4 * se)")
        }
    }

    @Test(arguments: [1, 2, 7, 16, 40, 75])
    func hodgesLehmannEqualsBruteForce(_ n: Int) throws {
        let d = Self.sample(n, shift: 0.5, seed: 100 + UInt64(n))
        let hl = try #require(HodgesLehmann(differences: d))
        // Brute force: every Walsh average, sorted; its median.
        var w: [Double] = []
        for i in 0..<n { for j in 0..<n where j >= i { w.append((d[i] + d[j]) / 2) } }
        w.sort()
        let median = w.count % 2 == 1 ? w[w.count / 2] : (w[w.count / 2 - 1] + w[w.count / 2]) / 2
        #expect(hl.estimate == median)
        #expect(hl.low <= hl.estimate && hl.estimate <= hl.high)
        guard n >= 7 else { return }
        // The interval inverts the Wilcoxon test: for θ just inside the bounds the shifted
        // differences are not rejected (p > α, up to the discreteness), just outside they are.
        let lo = w.firstIndex(of: hl.low)!, hi = w.lastIndex(of: hl.high)!
        func p(_ theta: Double) -> Double {
            WilcoxonSignedRank(differences: d.map { $0 - theta }, method: n <= 50 ? .exact : .approximate)!.pValue
        }
        let justOutsideLow = (w[lo - 1] + w[lo]) / 2
        let justInsideLow = (w[lo] + w[lo + 1]) / 2
        let justInsideHigh = (w[hi - 1] + w[hi]) / 2
        let justOutsideHigh = (w[hi] + w[hi + 1]) / 2
        if n <= 50 {
            #expect(p(justOutsideLow) < 0.05 && p(justOutsideHigh) < 0.05, "n=\(n): outside p \(p(justOutsideLow)), \(p(justOutsideHigh))")
            #expect(p(justInsideLow) >= 0.05 && p(justInsideHigh) >= 0.05, "n=\(n): inside p \(p(justInsideLow)), \(p(justInsideHigh))")
        } else {
            // Normal approximation of the critical value: within one rank of the test's boundary.
            #expect(p(w[lo - 2]) < 0.05 && p(w[hi + 2]) < 0.05)
            #expect(p(w[lo + 2]) > 0.05 && p(w[hi - 2]) > 0.05)
        }
    }
}
