import NavCore
import Testing

@testable import NavStatistics

/// The bootstrap's resampled means and the Monte Carlo sign-flip count, computed in lanes (several
/// resamples side by side, each from a jump-ahead copy of the stream), against their definitions
/// written out here (one stream drawn in turn, one resample at a time, left to right): equal bit
/// for bit, for sample sizes across the 64-bit word boundary and resample counts that leave a
/// remainder after the lanes.
@Suite struct ResamplingLanesTests {
    /// Values of mixed magnitudes and signs, so that the order of additions shows in the last bits.
    static func sample(_ n: Int, seed: UInt64) -> [Double] {
        var g = SeededRandom(seed: seed)
        return (0..<n).map { _ in g.gaussian() * pow10(Int(g.next() % 7) - 3) + (g.bernoulli(0.2) ? 1e6 : 0) }
    }

    static func pow10(_ k: Int) -> Double { k >= 0 ? (0..<k).reduce(1) { a, _ in a * 10 } : 1 / pow10(-k) }

    /// Resample b: n draws in turn, index ⌊n·draw/2⁶⁴⌋, summed left to right, divided by n.
    static func meansByDefinition(_ x: [Double], resamples: Int, seed: UInt64) -> [Double] {
        var rng = SeededRandom(seed: seed)
        return (0..<resamples).map { _ in
            var s = 0.0
            for _ in 0..<x.count { s += x[Int(UInt64(x.count).multipliedFullWidth(by: rng.next()).high)] }
            return s / Double(x.count)
        }
    }

    /// Pattern b: ⌈n/64⌉ words in turn, bit i mod 64 of word ⌊i/64⌋ set flips dᵢ; left to right.
    static func hitsByDefinition(_ d: [Double], threshold: Double, resamples: Int, seed: UInt64) -> Int {
        var rng = SeededRandom(seed: seed)
        var hits = 0
        for _ in 0..<resamples {
            var s = 0.0, word: UInt64 = 0
            for i in d.indices {
                if i % 64 == 0 { word = rng.next() }
                s += (word >> UInt64(i % 64)) & 1 == 1 ? -d[i] : d[i]
            }
            if abs(s) >= threshold { hits += 1 }
        }
        return hits
    }

    @Test(arguments: [2, 3, 7, 63, 64, 65, 130, 300])
    func resampledMeansEqualTheDefinition(n: Int) {
        for (resamples, seed) in [(1, UInt64(1)), (4, 2), (9, 3), (1_003, 4)] {
            let x = Self.sample(n, seed: seed &+ UInt64(n))
            let lanes = BootstrapInterval.resampledMeans(x, resamples: resamples, seed: seed)
            let definition = Self.meansByDefinition(x, resamples: resamples, seed: seed)
            let mismatches = zip(lanes, definition).filter { $0.0.bitPattern != $0.1.bitPattern }.count
            #expect(lanes.count == resamples && mismatches == 0, "n \(n), B \(resamples): \(mismatches) means differ")
        }
    }

    @Test(arguments: [21, 40, 63, 64, 65, 129, 300])
    func monteCarloCountEqualsTheDefinition(n: Int) {
        for (resamples, seed) in [(1, UInt64(5)), (8, 6), (13, 7), (601, 8)] {
            var d = Self.sample(n, seed: seed &* 31 &+ UInt64(n))
            // A small shift so the observed sum sits inside the permutation distribution.
            let mean = d.reduce(0, +) / Double(n)
            d = d.map { $0 - mean + 0.05 }
            // Thresholds from nothing hit to everything hit, and the test's own.
            let observed = abs(d.reduce(0, +))
            for threshold in [0, observed * 0.5, observed - 100 * Double.ulpOfOne * observed, observed * 3, .infinity] {
                let lanes = SignFlipPermutationTest.monteCarloHits(d, threshold: threshold, resamples: resamples, seed: seed)
                let definition = Self.hitsByDefinition(d, threshold: threshold, resamples: resamples, seed: seed)
                #expect(lanes == definition, "n \(n), B \(resamples), threshold \(threshold)")
            }
        }
    }

    @Test func jumpAheadEqualsDrawingInTurn() {
        var g = SeededRandom(seed: 42)
        let drawn = (0..<100).map { _ in g.next() }
        for k in [0, 1, 37, 99] {
            var jumped = SeededRandom(seed: 42).advanced(by: k)
            #expect(jumped.next() == drawn[k])
        }
    }
}
