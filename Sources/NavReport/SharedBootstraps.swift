import Foundation
import NavCore
import NavStatistics

/// Both bootstrap intervals of the mean (BCa and percentile, `BootstrapInterval`) of one sample.
typealias BootstrapLimits = (bca: (low: Double, high: Double), percentile: (low: Double, high: Double))

/// The seed of the resamples every sample of n values in `stream` shares (statistics revision 3):
/// `streamSeed(seed, stream + "\u{1}" + n)`. A cell's interval is a function of its values, the
/// table it is in, B and the seed, whatever other cells are computed.
func sharedResamplingSeed(_ seed: UInt64, stream: String, n: Int) -> UInt64 {
    streamSeed(seed, "\(stream)\u{1}\(n)")
}

/// Most indices one set of shared resamples may hold (1 to 4 bytes each): B·n above it, each sample of
/// that size draws its own resamples from the same seed (the same bits, one sample at a time).
let sharedIndexLimit = 16 << 20

/// Both bootstrap intervals of the mean of each of `samples` (finite values), B = `resamples`, in
/// order. Samples of the same size n share one set of resamples, drawn once from
/// `sharedResamplingSeed(seed, stream:, n:)` (`SharedResamples`), so the draws are paid once per size, not once per sample; identical
/// samples are computed once. Each result equals `BootstrapInterval.mean` with that seed bit for
/// bit, and is read from (and recorded in) `memo` under that seed.
///
/// - Complexity: O(B·n) per distinct sample plus O(B·n) per distinct size; memory O(B·n_max).
func sharedBootstraps(
    _ samples: [[Double]], stream: String, resamples b: Int, confidence: Double, seed: UInt64, memo: (any ResamplingMemo)?,
    workers: Int = ProcessInfo.processInfo.activeProcessorCount
) -> [BootstrapLimits] {
    var results = [BootstrapLimits?](repeating: nil, count: samples.count)
    var keys = [ResamplingKey?](repeating: nil, count: samples.count)
    // Distinct samples to resample, by size; a repeated sample points at its first.
    var first: [[UInt64]: Int] = [:], repeatOf: [Int: Int] = [:], bySize: [Int: [Int]] = [:]
    for (i, x) in samples.enumerated() {
        let n = x.count
        let sizeSeed = sharedResamplingSeed(seed, stream: stream, n: n)
        if n < 2 || x.allSatisfy({ $0 == x[0] }) {
            let r = BootstrapInterval.mean(x, confidence: confidence, resamples: b, seed: sizeSeed)
            results[i] = (r.bca.interval, r.percentile.interval)
            continue
        }
        if let memo {
            let key = ResamplingKey.bootstrapMean(x, confidence: confidence, resamples: b, seed: sizeSeed)
            if let r = memo.lookup(key), r.count == 4 { results[i] = ((r[0], r[1]), (r[2], r[3])); continue }
            keys[i] = key
        }
        let bits = x.map(\.bitPattern)
        if let j = first[bits] { repeatOf[i] = j; continue }
        first[bits] = i
        bySize[n, default: []].append(i)
    }
    for n in bySize.keys.sorted() {
        let members = bySize[n]!
        let sizeSeed = sharedResamplingSeed(seed, stream: stream, n: n)
        let z = BootstrapInterval.expandedQuantile(n: n, confidence: confidence)
        let shared = members.count > 1 && n <= sharedIndexLimit / max(b, 1) ? SharedResamples(n: n, resamples: b, seed: sizeSeed) : nil
        // Shared indices: four samples resampled at once (`means(ofEach:)`), groups in parallel.
        let group = shared == nil ? 1 : 4
        let computed = mapConcurrently((members.count + group - 1) / group, workers: workers) { g -> [BootstrapLimits] in
            let xs = members[(g * group)..<min(members.count, (g + 1) * group)].map { samples[$0] }
            let resampled = shared?.means(ofEach: xs) ?? xs.map { BootstrapInterval.resampledMeans($0, resamples: b, seed: sizeSeed) }
            return zip(xs, resampled).map { x, m in
                var means = m
                return BootstrapInterval.intervals(x, resampledMeans: &means, confidence: confidence, smallSampleExpansion: true, quantile: z)
            }
        }.flatMap { $0 }
        for (k, i) in members.enumerated() {
            results[i] = computed[k]
            if let memo, let key = keys[i] {
                let r = computed[k]
                memo.record(key, [r.bca.low, r.bca.high, r.percentile.low, r.percentile.high])
            }
        }
    }
    // A repeat's key is its first's (the same values, n and seed), recorded once already.
    for (i, j) in repeatOf { results[i] = results[j] }
    return results.map { $0! }
}
