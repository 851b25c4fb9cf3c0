import NavCore
import Testing

@testable import NavStatistics

/// Shared resamples (statistics revision 3) against their definition: the indices are the
/// scalar stream's ⌊n·draw/2⁶⁴⌋ in turn (the vector draw is integer arithmetic, so equal bit for
/// bit), and the means equal `BootstrapInterval.resampledMeans` with the same seed, bit for bit,
/// for sizes across the lane width and the index widths, and resample counts leaving a remainder after the lanes.
@Suite struct SharedResamplesTests {
    @Test(arguments: [1, 2, 7, 8, 9, 63, 1_000, 4_294_967_295])
    func indicesAreTheScalarStreamsMultiplyShift(n: Int) {
        for (count, seed) in [(1, UInt64(0)), (7, 1), (8, UInt64.max), (9, 3), (1_001, 0x9e37_79b9_7f4a_7c15)] {
            let drawn = SharedResamples.draw(count, below: UInt64(n), seed: seed, as: UInt32.self)
            var rng = SeededRandom(seed: seed)
            let definition = (0..<count).map { _ in UInt32(UInt64(n).multipliedFullWidth(by: rng.next()).high) }
            let mismatches = zip(drawn, definition).filter { $0.0 != $0.1 }.count
            #expect(drawn.count == count && mismatches == 0, "n \(n), count \(count), seed \(seed): \(mismatches) indices differ")
            #expect(drawn.allSatisfy { Int($0) < n })
            // The narrow widths the means use hold the same indices.
            if n <= 1 << 8 { #expect(SharedResamples.draw(count, below: UInt64(n), seed: seed, as: UInt8.self).map(UInt32.init) == definition) }
            if n <= 1 << 16 { #expect(SharedResamples.draw(count, below: UInt64(n), seed: seed, as: UInt16.self).map(UInt32.init) == definition) }
        }
    }

    /// Sizes on both sides of each index width's limit (1 byte to n = 256, 2 bytes to 65,536).
    @Test(arguments: [2, 3, 8, 9, 63, 64, 65, 255, 256, 257, 300, 65_535, 65_536, 65_537])
    func meansEqualTheLanesOfOneSample(n: Int) throws {
        for (resamples, seed) in [(1, UInt64(1)), (7, 2), (8, 3), (n > 1_000 ? 17 : 1_003, 4)] {
            let shared = try #require(SharedResamples(n: n, resamples: resamples, seed: seed))
            // Two samples of one size from one set of indices.
            for s in [seed &+ UInt64(n), seed &* 977 &+ 5] {
                let x = ResamplingLanesTests.sample(n, seed: s)
                let ours = shared.means(ofEach: [x])[0]
                let lanes = BootstrapInterval.resampledMeans(x, resamples: resamples, seed: seed)
                let mismatches = zip(ours, lanes).filter { $0.0.bitPattern != $0.1.bitPattern }.count
                #expect(ours.count == resamples && mismatches == 0, "n \(n), B \(resamples): \(mismatches) means differ")
            }
        }
    }

    /// Several samples at once (four to a vector, groups of 1 to 4, resample counts around the
    /// four resamples a step): each sample's means equal `BootstrapInterval.resampledMeans` bit
    /// for bit, NaN, infinities and signed zeros included.
    @Test(arguments: [1, 2, 20, 257, 65_537])
    func eachSamplesMeansEqualItsOwn(n: Int) throws {
        for (count, resamples) in [(1, 1), (3, 5), (4, 8), (5, 13), (9, n > 1_000 ? 6 : 1_003)] {
            let seed = UInt64(n &* 31 &+ count)
            let shared = try #require(SharedResamples(n: n, resamples: resamples, seed: seed))
            var samples = (0..<count).map { ResamplingLanesTests.sample(n, seed: seed &+ UInt64($0)) }
            if count > 2 {
                samples[1][0] = .nan
                samples[2][n - 1] = -.infinity
                samples[0] = samples[0].map { $0 < 0 ? -0.0 : $0 }
            }
            let ours = shared.means(ofEach: samples)
            #expect(ours.count == count)
            for (k, x) in samples.enumerated() {
                let definition = BootstrapInterval.resampledMeans(x, resamples: resamples, seed: seed)
                let mismatches = zip(ours[k], definition).filter { $0.0.bitPattern != $0.1.bitPattern }.count
                #expect(ours[k].count == resamples && mismatches == 0, "n \(n), sample \(k) of \(count), B \(resamples): \(mismatches) differ")
            }
        }
    }

    @Test func refusesWhatItCannotHold() {
        #expect(SharedResamples(n: 0, resamples: 10, seed: 1) == nil)
        #expect(SharedResamples(n: 5, resamples: 0, seed: 1) == nil)
        #expect(SharedResamples(n: 1 << 32, resamples: 1, seed: 1) == nil)
        #expect(SharedResamples(n: 1 << 31, resamples: Int.max / 2, seed: 1) == nil)
    }
}
