import NavCore
import NavStatistics
import Testing

/// Bootstrap intervals of the mean: coverage over seeded samples whose true mean is known,
/// determinism, and the degenerate cases.
@Suite struct BootstrapIntervalTests {
    /// Draws of a distribution with a known mean.
    enum Population: String, CaseIterable, Sendable {
        case normal, exponential, gamma4
        var mean: Double { self == .normal ? 2 : self == .exponential ? 1 : 4 }
        func draw(_ rng: inout SeededRandom) -> Double {
            switch self {
            case .normal: return rng.gaussian(mean: 2, std: 1.5)
            case .exponential: return -Double.log(1 - rng.uniform())  // skewness 2
            case .gamma4: return (0..<4).reduce(0.0) { s, _ in s - Double.log(1 - rng.uniform()) }  // Γ(4, 1): skewness 1
            }
        }
    }

    /// Coverage of the nominal 95 % intervals over `samples` seeded samples (B resamples each).
    static func coverage(_ population: Population, n: Int, samples: Int, resamples: Int) -> (bca: Int, percentile: Int) {
        var rng = SeededRandom(seed: 20261123, label: "\(population.rawValue)-\(n)")
        var bca = 0, percentile = 0
        for s in 0..<samples {
            let x = (0..<n).map { _ in population.draw(&rng) }
            let ci = BootstrapInterval.mean(x, resamples: resamples, seed: UInt64(s) &+ 1)
            if ci.bca.low <= population.mean && population.mean <= ci.bca.high { bca += 1 }
            if ci.percentile.low <= population.mean && population.mean <= ci.percentile.high { percentile += 1 }
        }
        return (bca, percentile)
    }

    /// The bar: 93–97 % for normal and skewed populations at n = 10 and 30. Γ(4, 1)
    /// (skewness 1) meets it; the exponential (skewness 2, the textbook hard case) is reported
    /// and held to a documented weaker bar (≥ 91 %): the bootstrap of a mean of 10 values from a
    /// population that skewed undercovers with every method (docs/statistics.md).
    @Test(arguments: [(Population.normal, 10), (.normal, 30), (.gamma4, 10), (.gamma4, 30), (.exponential, 10), (.exponential, 30)])
    func bcaCoversTheTrueMean(_ population: Population, _ n: Int) {
        let samples = 2000
        let c = Self.coverage(population, n: n, samples: samples, resamples: 2000)
        let rate = Double(c.bca) / Double(samples)
        let message = "\(population) n=\(n): BCa covered \(c.bca)/\(samples) (\(rate)), percentile \(c.percentile)/\(samples)"
        print(message)
        let lowest = population == .exponential ? 0.91 : 0.93
        #expect(rate >= lowest && rate <= 0.97, "\(message); expected \(lowest)–0.97")
    }

    /// The interval step against `scipy.stats.bootstrap` given the same 1,000 resampled means
    /// (scripts/make_statistics_fixtures.py): BCa (bias correction with ties counting half,
    /// jackknife acceleration) and percentile, plain and with the small-sample expansion, at
    /// 95 % and 90 %, on five samples (skewed, tied, n = 8…100). Tolerance 1e-12 relative.
    @Test func intervalsEqualScipyOnTheSameResamples() {
        var checked = 0
        for case_ in StatisticsReference.shared.bootstrap {
            for r in case_.results {
                var means = case_.means
                let ours = BootstrapInterval.intervals(case_.x, resampledMeans: &means, confidence: r.confidence, smallSampleExpansion: r.expanded)
                let what = "\(case_.name) \(r.confidence) expanded=\(r.expanded)"
                #expect(
                    close(ours.bca.low, r.bca[0], 1e-12) && close(ours.bca.high, r.bca[1], 1e-12),
                    "\(what): BCa \(ours.bca) vs scipy \(r.bca)")
                #expect(
                    close(ours.percentile.low, r.percentile[0], 1e-12) && close(ours.percentile.high, r.percentile[1], 1e-12),
                    "\(what): percentile \(ours.percentile) vs scipy \(r.percentile)")
                checked += 1
            }
        }
        #expect(checked == 20)
    }

    /// BCa must beat the percentile interval where it matters, on skewed populations (its point:
    /// the bias correction and acceleration move the interval towards the long tail).
    @Test func bcaCoversBetterThanPercentileOnSkewedData() {
        let c = Self.coverage(.exponential, n: 10, samples: 2000, resamples: 1000)
        #expect(c.bca > c.percentile, "exponential n=10: BCa \(c.bca), percentile \(c.percentile) of 2000")
    }

    @Test func deterministicAndDegenerate() {
        let x = [1.0, 2.5, 2.0, 7.0, 3.0, 0.5]
        let a = BootstrapInterval.mean(x, seed: 7), b = BootstrapInterval.mean(x, seed: 7)
        #expect(a == b)
        #expect(a.bca.resamples == 10_000 && a.bca.method == .bca && a.percentile.method == .percentile)
        #expect(a.bca.low < a.bca.estimate && a.bca.estimate < a.bca.high)
        #expect(a.percentile.low >= x.min()! && a.percentile.high <= x.max()!)
        let constant = BootstrapInterval.mean([3, 3, 3], seed: 1)
        #expect(constant.bca.low == 3 && constant.bca.high == 3)
        #expect(BootstrapInterval.mean([3], seed: 1).bca.low.isNaN)
    }

    /// Selection gives exactly the quantiles of the sorted values (ties, duplicates, extremes).
    @Test func selectionEqualsSorting() {
        var rng = SeededRandom(seed: 5)
        for n in [1, 2, 3, 10, 101, 10_000] {
            for ties in [false, true] {
                var x = (0..<n).map { _ in ties ? Double(Int(rng.uniform() * 7)) : rng.gaussian() }
                let sorted = x.sorted()
                let qs = [0.0, 0.0123, 0.025, 0.5, 0.975, 0.99, 1.0, rng.uniform()]
                let got = Statistics.quantilesBySelection(&x, qs)
                for (q, v) in zip(qs, got) { #expect(v == quantile(sorted: sorted, q, method: .linear), "n=\(n) ties=\(ties) q=\(q)") }
                #expect(x.sorted() == sorted)
            }
        }
    }
}
