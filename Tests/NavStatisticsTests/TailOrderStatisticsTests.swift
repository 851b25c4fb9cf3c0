import NavCore
import Testing

@testable import NavStatistics

/// The tail order statistics read in one pass (`tailOrderStatistics`, and `quantilesBySelection`
/// through it) against a full sort: the same values, bit for bit, with ties, sorted and reversed
/// input, and ranks at both ends and next to the middle.
@Suite struct TailOrderStatisticsTests {
    static func sample(_ n: Int, seed: UInt64, distinct: Int) -> [Double] {
        var g = SeededRandom(seed: seed)
        return (0..<n).map { _ in distinct > 0 ? Double(g.next() % UInt64(distinct)) * 0.1 : g.gaussian() }
    }

    @Test func tailRanksEqualASort() {
        for (n, distinct, seed) in [(2, 0, UInt64(2)), (17, 3, 3), (1_000, 0, 4), (10_000, 0, 5), (10_000, 126, 6), (9_999, 2, 7)] {
            for order in 0..<3 {
                var x = Self.sample(n, seed: seed, distinct: distinct)
                if order == 1 { x.sort() } else if order == 2 { x.sort(by: >) }
                let sorted = x.sorted()
                let low = max(1, n / 40), high = max(1, n / 50)
                let ranks = Array(Set([0, low - 1, low / 2, n - 1, n - high, n - 1 - high / 3].filter { $0 >= 0 && $0 < n })).sorted()
                let got = x.withUnsafeBufferPointer { tailOrderStatistics($0, ranks: ranks, lowCount: low, highCount: high) }
                #expect(got?.map(\.bitPattern) == ranks.map { sorted[$0].bitPattern }, "n \(n), distinct \(distinct), order \(order)")
            }
        }
    }

    /// Inputs that defeat the thresholds' estimate (every 32nd value, which it samples, far
    /// above the rest; all values equal) and a NaN it does not sample: the same answers as a
    /// sort (whichever path answers: the test does not see which), and nil for the NaN.
    @Test func thresholdsThatMissStillEqualASort() {
        let n = 10_000
        var g = SeededRandom(seed: 11)
        let skewed = (0..<n).map { i in i % 32 == 0 ? 1_000 + g.uniform() : g.uniform() }
        for x in [skewed, [Double](repeating: 2.5, count: n)] {
            let sorted = x.sorted()
            let ranks = [0, 249, n - 200, n - 1]
            let got = x.withUnsafeBufferPointer { tailOrderStatistics($0, ranks: ranks, lowCount: 250, highCount: 200) }
            #expect(got?.map(\.bitPattern) == ranks.map { sorted[$0].bitPattern })
        }
        var withNaN = Self.sample(n, seed: 12, distinct: 0)
        withNaN[41] = .nan
        #expect(withNaN.withUnsafeBufferPointer { tailOrderStatistics($0, ranks: [0], lowCount: 250, highCount: 200) } == nil)
    }

    /// −0 and +0 at the ranks (equal, but other bits): the bits of Swift's stable sort, which
    /// keeps their input order (the tails are selected, and sorted when they hold a −0).
    @Test func signedZerosAtTheRanksEqualAStableSort() {
        let n = 10_000
        var g = SeededRandom(seed: 13)
        for pattern in 0..<6 {
            // 4 % zeros, the smallest values: signs at random, alternating, one −0 among +0, all −0.
            let x = (0..<n).map { i -> Double in
                guard i % 50 < 2 else { return 1 + g.uniform() }
                switch pattern {
                case 0, 1, 2: return g.uniform() < 0.5 ? -0.0 : 0.0
                case 3: return i % 50 == 0 ? -0.0 : 0.0
                case 4: return i == 5_000 ? -0.0 : 0.0
                default: return -0.0
                }
            }
            let sorted = x.sorted()
            // Every zero's rank, and the largest value.
            let ranks = sorted.indices.filter { sorted[$0] == 0 } + [n - 1]
            let got = x.withUnsafeBufferPointer { tailOrderStatistics($0, ranks: ranks, lowCount: 500, highCount: 1) }
            #expect(got?.map(\.bitPattern) == ranks.map { sorted[$0].bitPattern }, "pattern \(pattern)")
        }
    }

    @Test func declinesWhatItCannotAnswer() {
        let x = Self.sample(100, seed: 9, distinct: 0)
        // A rank between the tails, and a NaN in the sample.
        #expect(x.withUnsafeBufferPointer { tailOrderStatistics($0, ranks: [50], lowCount: 5, highCount: 5) } == nil)
        var withNaN = x
        withNaN[40] = .nan
        #expect(withNaN.withUnsafeBufferPointer { tailOrderStatistics($0, ranks: [0], lowCount: 5, highCount: 5) } == nil)
    }

    /// The bootstrap's four quantiles through the tails and through the quickselect (a middle
    /// quantile forces it): equal to the sorted sample's numpy-linear quantiles.
    @Test func quantilesBySelectionEqualTheSortedDefinition() {
        for seed in UInt64(10)..<UInt64(16) {
            let x = Self.sample(10_000, seed: seed, distinct: seed % 2 == 0 ? 0 : 300)
            let sorted = x.sorted()
            for qs in [[0.025, 0.975, 0.011, 0.991], [0.025, 0.975, 0.5, 0.9]] {
                var y = x
                let got = Statistics.quantilesBySelection(&y, qs)
                let want = qs.map { quantile(sorted: sorted, $0, method: .linear) }
                #expect(got.map(\.bitPattern) == want.map(\.bitPattern), "seed \(seed), \(qs)")
            }
        }
        // Below `tailPassMinimumCount` the tails go through the quickselect too (a walk's 95th
        // percentile of a few hundred deviations): the same bits, at and around the switch.
        for n in [1, 2, 7, 350, Statistics.tailPassMinimumCount - 1, Statistics.tailPassMinimumCount] {
            for distinct in [0, 5] {
                let x = Self.sample(n, seed: UInt64(n), distinct: distinct)
                let sorted = x.sorted()
                for qs in [[0.95], [0.025, 0.975, 0.011, 0.991]] {
                    var y = x
                    let got = Statistics.quantilesBySelection(&y, qs)
                    let want = qs.map { quantile(sorted: sorted, $0, method: .linear) }
                    #expect(got.map(\.bitPattern) == want.map(\.bitPattern), "n \(n), distinct \(distinct), \(qs)")
                }
            }
        }
    }
}
