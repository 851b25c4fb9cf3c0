import Foundation
import NavCore
import NavIO
import NavStatistics

/// Results of the report's resampling procedures — a cell's bootstrap interval, a main effect's
/// interval, a comparison's sign-flip p — kept between reports of one folder, so a cached rerun
/// (or a `merge` after one) reads them instead of drawing B resamples again. Each is stored under
/// the digest of everything it is a function of (`ResamplingKey`): the procedure and its
/// revision, navbench's version, the values bit for bit and in order, the confidence, B and the
/// seed. A report with a memo is the same bytes as one without (ExperimentStatisticsTests).
///
/// Implementations are called from several threads at once.
public protocol ResamplingMemo: Sendable {
    /// The stored result of `key`, if any.
    func lookup(_ key: ResamplingKey) -> [Double]?
    /// Keeps `result` under `key` (computed in this report).
    func record(_ key: ResamplingKey, _ result: [Double])
}

/// The identity of one resampling result: SHA-256 (hex) of its procedure, its revision, the
/// navbench version, its integer parameters and its values' bit patterns, each length-delimited.
public struct ResamplingKey: Hashable, Sendable {
    public let digest: String

    /// Changed whenever a memoised procedure could give other bits for the same inputs (a new
    /// resampling scheme, another quantile rule) or the stored encoding changes (2: little-endian
    /// as the artifacts): every stored result then misses.
    static let revision =
        "resampling 3: bootstrap-mean (BCa, percentile, expanded; resamples shared per table and n), sign-flip (exact <= 20, Monte Carlo)"

    /// - Complexity: O(values).
    init(procedure: String, parameters: [UInt64], values: [Double]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + 8 * (parameters.count + values.count))
        func word(_ w: UInt64) { withUnsafeBytes(of: w.littleEndian) { bytes.append(contentsOf: $0) } }
        func text(_ s: String) { word(UInt64(s.utf8.count)); bytes.append(contentsOf: s.utf8) }
        text(Self.revision)
        text(NavbenchVersion.current)
        text(procedure)
        word(UInt64(parameters.count))
        for p in parameters { word(p) }
        word(UInt64(values.count))
        for v in values { word(v.bitPattern) }
        digest = sha256Hex(of: Data(bytes))
    }

    /// The BCa and percentile intervals of the mean (`BootstrapInterval.mean`; `seed`: the shared
    /// resamples' seed, `sharedResamplingSeed`).
    static func bootstrapMean(_ values: [Double], confidence: Double, resamples: Int, seed: UInt64) -> ResamplingKey {
        ResamplingKey(procedure: "bootstrap-mean", parameters: [confidence.bitPattern, UInt64(resamples), seed], values: values)
    }

    /// The sign-flip permutation p (`SignFlipPermutationTest`).
    static func signFlip(_ differences: [Double], resamples: Int, seed: UInt64) -> ResamplingKey {
        ResamplingKey(
            procedure: "sign-flip", parameters: [UInt64(resamples), seed, UInt64(SignFlipPermutationTest.exactLimit)], values: differences)
    }
}

/// The sign-flip permutation p of `differences`, from `memo` when it holds it (else computed and
/// recorded there).
func memoisedSignFlipP(_ differences: [Double], resamples: Int, seed: UInt64, memo: (any ResamplingMemo)?) -> Double {
    let key = memo.map { _ in ResamplingKey.signFlip(differences, resamples: resamples, seed: seed) }
    if let memo, let key, let r = memo.lookup(key), r.count == 1 { return r[0] }
    let p = SignFlipPermutationTest(differences: differences, resamples: resamples, seed: seed).pValue
    if let memo, let key { memo.record(key, [p]) }
    return p
}

/// A memo held in memory (tests; a caller that renders several reports of one table).
public final class InMemoryResamplingMemo: ResamplingMemo, @unchecked Sendable {
    private let lock = NSLock()
    private var results: [ResamplingKey: [Double]] = [:]
    private var answered = 0, asked = 0
    /// Lookups answered from the memo.
    public var hits: Int { lock.lock(); defer { lock.unlock() }; return answered }
    /// Lookups made.
    public var lookups: Int { lock.lock(); defer { lock.unlock() }; return asked }
    public init() {}
    public func lookup(_ key: ResamplingKey) -> [Double]? {
        lock.lock(); defer { lock.unlock() }
        asked += 1
        let r = results[key]
        if r != nil { answered += 1 }
        return r
    }
    public func record(_ key: ResamplingKey, _ result: [Double]) {
        lock.lock(); defer { lock.unlock() }
        results[key] = result
    }
    /// Results recorded.
    public var count: Int { lock.lock(); defer { lock.unlock() }; return results.count }
}
