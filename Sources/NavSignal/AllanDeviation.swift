import Foundation
import NavCore

/// Overlapping Allan deviation of rate ("frequency") data, as
/// `allantools.oadev(y, rate=fs, data_type='freq', taus='octave')`.
///
/// The rates are integrated to phase after removing their mean: x₀ = 0, xᵢ = Σⱼ<ᵢ (yⱼ − ȳ)/fs.
/// For each averaging factor m (τ = m/fs):
///   σ²(τ) = Σ_{i=0}^{N−2m−1} (x_{i+2m} − 2x_{i+m} + xᵢ)² / (2 (N − 2m) τ²), N = len(x),
/// reported where N − 2m > 1. Octave factors: m = round(2ᵏ), k = 0 … ⌊log₂ N⌋, m < N.
public enum AllanDeviation {
    public struct Point: Sendable, Equatable {
        /// Averaging time τ, seconds.
        public var tau: Double
        /// Overlapping Allan deviation, units of the input.
        public var deviation: Double
        /// Number of second differences averaged.
        public var count: Int
    }

    /// - Complexity: O(N · number of taus) = O(N log N) for octave taus.
    public static func overlapping(rates y: [Double], sampleRate fs: Double) throws(SignalError) -> [Point] {
        guard fs > 0, fs.isFinite, (1 / fs).isFinite else {
            throw .invalidParameter(name: "rate", value: "\(fs)", expected: "a sample rate > 0 Hz with a finite period")
        }
        guard y.count >= 3 else { throw .tooShort(samples: y.count, needed: 2, reason: "an Allan deviation") }
        guard y.allSatisfy(\.isFinite) else { throw .invalidParameter(name: "data", value: "non-finite", expected: "finite rates") }
        let dt = 1 / fs
        let mean = MovingAverage.mean(y)
        var phase = [Double](repeating: 0, count: y.count + 1)
        var acc = 0.0
        for i in y.indices { acc += y[i] - mean; phase[i + 1] = acc * dt }
        let n = phase.count
        let maxK = Int(log2(Double(n)).rounded(.down))
        var factors: [Int] = []
        for k in 0...maxK {
            // τ·fs with τ = 2ᵏ·dt, bounded before it becomes an Int (dt·fs may round away from 1).
            let factor = (pow(2.0, Double(k)) * dt * fs).rounded(.toNearestOrEven)
            guard factor >= 1, factor < Double(n) else { continue }
            let m = Int(factor)
            if !factors.contains(m) { factors.append(m) }
        }
        var out: [Point] = []
        phase.withUnsafeBufferPointer { x in
            for m in factors.sorted() {
                let count = n - 2 * m
                guard count > 1 else { continue }
                // Block sums added pairwise: rounding O(log N · ε), like numpy's sum.
                var blocks: [Double] = []
                var s = 0.0
                for i in 0..<count {
                    let v = x[i + 2 * m] - 2 * x[i + m] + x[i]
                    s += v * v
                    if i % 1024 == 1023 { blocks.append(s); s = 0 }
                }
                blocks.append(s)
                s = pairwiseSum(blocks[...])
                let dev = (s / (2 * Double(count))).squareRoot() / Double(m) * fs
                out.append(Point(tau: Double(m) / fs, deviation: dev, count: count))
            }
        }
        return out
    }
}
