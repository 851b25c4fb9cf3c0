import NavCore

/// The resample indices of one bootstrap stream for samples of size n, drawn once and used for
/// every sample of that size (statistics revision 3, docs/statistics.md). Resample b takes the
/// values at indices[b·n ..< (b + 1)·n]; index k is ⌊n·d_k / 2⁶⁴⌋ (Lemire's multiply-shift) of
/// the k-th draw d_k of `SeededRandom(seed:)`: the indices `BootstrapInterval.resampledMeans`
/// draws for the same seed, so `means(ofEach:)` gives its result bit for bit (SharedResamplesTests).
///
/// Drawing is the cost of a bootstrap (a SplitMix64 step and a 64-bit multiply per value); kept
/// as indices, a sample of the same size then costs one gather and one addition per value. An
/// index is kept in the narrowest unsigned integer that holds n − 1 (1, 2 or 4 bytes): a table's
/// samples of 5 or 100 units take a quarter of the memory, and of the fresh pages, that 32 bits would.
/// The draws are computed eight at a time in integer vector arithmetic, which is exact: the same
/// bits on every CPU, whatever the compiler vectorises (the test compares with the scalar stream).
///
/// - Complexity: O(B·n) time and 1, 2 or 4 × B·n bytes to draw; O(B·n) per sample.
public struct SharedResamples: Sendable {
    public let n: Int
    public let resamples: Int
    let indices: Indices

    /// The B·n indices, each in the narrowest type that holds n − 1.
    enum Indices: Sendable {
        case bytes([UInt8]), halfWords([UInt16]), words([UInt32])
    }

    /// The indices of `resamples` resamples of n values from `seed`; nil when n < 1, n ≥ 2³²,
    /// resamples < 1 or B·n overflows.
    public init?(n: Int, resamples: Int, seed: UInt64) {
        guard n >= 1, n < 1 << 32, resamples >= 1 else { return nil }
        let (total, overflow) = n.multipliedReportingOverflow(by: resamples)
        guard !overflow else { return nil }
        self.n = n
        self.resamples = resamples
        indices =
            n <= 1 << 8
            ? .bytes(Self.draw(total, below: UInt64(n), seed: seed, as: UInt8.self))
            : n <= 1 << 16
                ? .halfWords(Self.draw(total, below: UInt64(n), seed: seed, as: UInt16.self))
                : .words(Self.draw(total, below: UInt64(n), seed: seed, as: UInt32.self))
    }

    /// SplitMix64's increment and mixing constants (`SeededRandom`).
    private static let gamma: UInt64 = 0x9e37_79b9_7f4a_7c15

    /// ⌊n·d_k / 2⁶⁴⌋ for the first `count` draws d_k of `SeededRandom(seed:)`. d_k = mix(seed +
    /// (k + 1)·γ) depends on k only, so eight are computed side by side; the high word of n·d
    /// (n < 2³²) is ⌊(n·d_hi + ⌊n·d_lo / 2³²⌋) / 2³²⌋, exact in 64-bit lanes. Kept as `Index`,
    /// which must hold n − 1.
    static func draw<Index: FixedWidthInteger & UnsignedInteger>(_ count: Int, below n: UInt64, seed: UInt64, as: Index.Type) -> [Index] {
        [Index](unsafeUninitializedCapacity: count) { out, initialized in
            typealias V = SIMD8<UInt64>
            let step = V(repeating: Self.gamma &* 8)
            var state = V(repeating: seed) &+ V(1, 2, 3, 4, 5, 6, 7, 8) &* V(repeating: Self.gamma)
            let width = V(repeating: n), low32 = V(repeating: 0xffff_ffff)
            var k = 0
            while k &+ 8 <= count {
                var z = state
                z = (z ^ (z &>> 30)) &* 0xbf58_476d_1ce4_e5b9
                z = (z ^ (z &>> 27)) &* 0x94d0_49bb_1331_11eb
                z = z ^ (z &>> 31)
                let high = (width &* (z &>> 32) &+ ((width &* (z & low32)) &>> 32)) &>> 32
                for lane in 0..<8 { out[k &+ lane] = Index(truncatingIfNeeded: high[lane]) }
                state &+= step
                k &+= 8
            }
            var rest = SeededRandom(seed: seed).advanced(by: k)
            while k < count {
                out[k] = Index(truncatingIfNeeded: n.multipliedFullWidth(by: rest.next()).high)
                k &+= 1
            }
            initialized = count
        }
    }

    /// The B resampled means of each of `samples` (n values each), each resample's values summed
    /// left to right and divided by n: four samples side by side, their values at each index adjacent
    /// (one SIMD4), so one index read serves four samples and the four sums, each still left to
    /// right in its own lane, take one vector addition; four resamples at a time hide the
    /// additions' latency. A table's cells of one size share the indices, so this is how they
    /// are resampled (`sharedBootstraps`).
    ///
    /// - Complexity: O(B·n) per four samples.
    public func means(ofEach samples: [[Double]]) -> [[Double]] {
        precondition(samples.allSatisfy { $0.count == n }, "SharedResamples: samples of other sizes than \(n)")
        return stride(from: 0, to: samples.count, by: 4).flatMap { start -> [[Double]] in
            let group = Array(samples[start..<min(samples.count, start + 4)])
            switch indices {
            case .bytes(let i): return Self.means(ofFour: group, indices: i, resamples: resamples)
            case .halfWords(let i): return Self.means(ofFour: group, indices: i, resamples: resamples)
            case .words(let i): return Self.means(ofFour: group, indices: i, resamples: resamples)
            }
        }
    }

    private static func means<Index: FixedWidthInteger & UnsignedInteger>(
        ofFour group: [[Double]], indices: [Index], resamples: Int
    ) -> [[Double]] {
        let n = group[0].count, divisor = SIMD4<Double>(repeating: Double(n))
        // values[i] holds the samples' i-th values (lanes past the group's count: 0, unused).
        var values = [SIMD4<Double>](repeating: .zero, count: n)
        for (lane, x) in group.enumerated() {
            for i in 0..<n { values[i][lane] = x[i] }
        }
        var sums = [SIMD4<Double>](repeating: .zero, count: resamples)
        values.withUnsafeBufferPointer { v in
            indices.withUnsafeBufferPointer { idx in
                sums.withUnsafeMutableBufferPointer { out in
                    var b = 0
                    while b &+ 4 <= resamples {
                        var s0 = SIMD4<Double>.zero, s1 = s0, s2 = s0, s3 = s0
                        let r0 = b &* n, r1 = r0 &+ n, r2 = r1 &+ n, r3 = r2 &+ n
                        for j in 0..<n {
                            s0 += v[Int(idx[r0 &+ j])]
                            s1 += v[Int(idx[r1 &+ j])]
                            s2 += v[Int(idx[r2 &+ j])]
                            s3 += v[Int(idx[r3 &+ j])]
                        }
                        out[b] = s0 / divisor
                        out[b &+ 1] = s1 / divisor
                        out[b &+ 2] = s2 / divisor
                        out[b &+ 3] = s3 / divisor
                        b &+= 4
                    }
                    while b < resamples {
                        var s = SIMD4<Double>.zero
                        let r = b &* n
                        for j in 0..<n { s += v[Int(idx[r &+ j])] }
                        out[b] = s / divisor
                        b &+= 1
                    }
                }
            }
        }
        return group.indices.map { lane in sums.map { $0[lane] } }
    }
}
