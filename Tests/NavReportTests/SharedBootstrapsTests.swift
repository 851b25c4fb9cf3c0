import NavCore
import NavStatistics
import Testing

@testable import NavReport

/// A table's bootstraps from shared resamples give each sample the intervals
/// `BootstrapInterval.mean` gives it alone with the seed of its size (revision 3's definition),
/// bit for bit — whether its size is shared, alone, repeated, constant, too small or above the
/// shared-index limit — and a memo changes no bit.
@Suite struct SharedBootstrapsTests {
    static func samples() -> [[Double]] {
        var g = SeededRandom(seed: 11)
        func sample(_ n: Int) -> [Double] { (0..<n).map { _ in g.gaussian() * 3 + (g.bernoulli(0.1) ? 50 : 0) } }
        let repeated = sample(12)
        var out = [sample(12), sample(12), repeated, sample(5), sample(40), repeated, [2, 2, 2], [7], [], sample(12)]
        // Above `sharedIndexLimit` with B = 10,000: drawn one sample at a time.
        let large = sharedIndexLimit / 10_000 + 1
        out += [sample(large), sample(large)]
        return out
    }

    @Test func eachSampleEqualsItsOwnBootstrapWithTheSeedOfItsSize() {
        var options = StatisticsOptions()
        options.resamples = 10_000
        let x = Self.samples()
        let shared = sharedBootstraps(
            x, stream: "cells\u{1}route", resamples: options.resamples, confidence: options.confidence, seed: options.seed, memo: nil)
        for (i, sample) in x.enumerated() {
            let seed = sharedResamplingSeed(options.seed, stream: "cells\u{1}route", n: sample.count)
            let alone = BootstrapInterval.mean(sample, confidence: options.confidence, resamples: options.resamples, seed: seed)
            let ours = [shared[i].bca.low, shared[i].bca.high, shared[i].percentile.low, shared[i].percentile.high]
            let reference = [alone.bca.low, alone.bca.high, alone.percentile.low, alone.percentile.high]
            #expect(zip(ours, reference).allSatisfy { $0.bitPattern == $1.bitPattern }, "sample \(i) (n \(sample.count)): \(ours) vs \(reference)")
        }
        // Another stream draws other resamples.
        let other = sharedBootstraps(
            [x[0]], stream: "cells\u{1}other", resamples: options.resamples, confidence: options.confidence, seed: options.seed, memo: nil)
        #expect(other[0].bca.low != shared[0].bca.low)
    }

    @Test func aMemoChangesNoBitAndAnswersARerun() {
        var options = StatisticsOptions()
        options.resamples = 2_000
        let x = Array(Self.samples().prefix(10))
        let memo = InMemoryResamplingMemo()
        let without = sharedBootstraps(
            x, stream: "effects", resamples: options.resamples, confidence: options.confidence, seed: options.seed, memo: nil)
        let first = sharedBootstraps(
            x, stream: "effects", resamples: options.resamples, confidence: options.confidence, seed: options.seed, memo: memo)
        let again = sharedBootstraps(
            x, stream: "effects", resamples: options.resamples, confidence: options.confidence, seed: options.seed, memo: memo)
        func bits(_ r: [BootstrapLimits]) -> [UInt64] {
            r.flatMap { [$0.bca.low, $0.bca.high, $0.percentile.low, $0.percentile.high].map(\.bitPattern) }
        }
        #expect(bits(without) == bits(first) && bits(first) == bits(again))
        // Every resampled sample (n ≥ 2, not constant) recorded once (the repeat shares its key); all seven answered on the rerun.
        #expect(memo.count == 6 && memo.hits == 7)
    }
}
