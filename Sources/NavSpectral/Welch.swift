import Foundation
import NavCore

/// Welch power spectral density, as `scipy.signal.welch(x, fs, window='hann', nperseg,
/// noverlap=nperseg//2, detrend='constant', scaling, average='mean')`.
///
/// Segments of `segmentLength` samples start every `segmentLength − overlap` samples
/// (⌊(N − overlap)/step⌋ of them); each has its mean removed, is multiplied by the periodic
/// Hann window wₖ = ½ + ½cos(−π + 2πk/L), k < L, and transformed; the one-sided periodograms
/// |X|²·scale (doubled except at 0 and, for even L, at Nyquist) are averaged.
/// Density scale 1/(fs·Σw²) gives units²/Hz; spectrum scale 1/(Σw)² gives units².
public enum Welch {
    public enum Scaling: String, Sendable, CaseIterable { case density, spectrum }

    public struct Result: Sendable {
        /// Frequencies k·fs/L, Hz.
        public var frequencies: [Double]
        public var power: [Double]
        public var segments: Int
    }

    /// Periodic Hann window of length L (scipy's `get_window('hann', L)`).
    public static func hann(_ length: Int) -> [Double] {
        guard length > 1 else { return [Double](repeating: 1, count: length) }
        // scipy: symmetric window of L+1 points, last dropped; fac = linspace(−π, π, L+1).
        let step = 2 * Double.pi / Double(length)
        return (0..<length).map { 0.5 + 0.5 * cos(-Double.pi + Double($0) * step) }
    }

    /// - Complexity: O(N log L).
    public static func psd(
        _ x: [Double], sampleRate fs: Double, segmentLength: Int = 256, overlap: Int? = nil,
        scaling: Scaling = .density
    ) throws(SignalError) -> Result {
        guard fs > 0, fs.isFinite else { throw .invalidParameter(name: "rate", value: "\(fs)", expected: "a sample rate > 0 Hz") }
        guard segmentLength >= 2 else { throw .invalidParameter(name: "nperseg", value: String(segmentLength), expected: "a segment length ≥ 2") }
        let length = min(segmentLength, x.count)  // scipy shortens nperseg to the input, with a warning
        guard length >= 2 else { throw .tooShort(samples: x.count, needed: 1, reason: "a power spectral density") }
        let noverlap = overlap ?? length / 2
        guard noverlap >= 0, noverlap < length else {
            throw .invalidParameter(name: "noverlap", value: String(noverlap), expected: "0 ≤ noverlap < nperseg = \(length)")
        }
        let window = hann(length)
        let windowSum = window.reduce(0, +)
        let windowSquares = window.reduce(0) { $0 + $1 * $1 }
        let scale = scaling == .density ? 1 / (fs * windowSquares) : 1 / (windowSum * windowSum)
        let step = length - noverlap
        let segments = (x.count - noverlap) / step
        let bins = length / 2 + 1
        var total = [Double](repeating: 0, count: bins)
        let fft = RealFFTWorkspace(length: length)
        x.withUnsafeBufferPointer { x in
            for s in 0..<segments {
                let start = s * step
                var mean = 0.0
                for i in 0..<length { mean += x[start + i] }
                mean /= Double(length)
                for i in 0..<length { fft.input[i] = (x[start + i] - mean) * window[i] }
                fft.execute()
                for k in 0..<bins { total[k] += fft.power(at: k) * scale }
            }
        }
        var power = total.map { $0 / Double(segments) }
        let last = length % 2 == 0 ? bins - 1 : bins
        for k in 1..<last { power[k] *= 2 }
        return Result(frequencies: (0..<bins).map { Double($0) * fs / Double(length) }, power: power, segments: segments)
    }

    /// The frequency of the largest PSD value within [low, high] Hz, refined by a parabola
    /// through the peak bin and its neighbours (in bins: δ = ½(p₋ − p₊)/(p₋ − 2p₀ + p₊)).
    /// With walking data and the default band this is the step cadence.
    public static func dominantFrequency(_ r: Result, low: Double = 0.5, high: Double = 5) -> Double? {
        let idx = r.frequencies.indices.filter { r.frequencies[$0] >= low && r.frequencies[$0] <= high }
        guard let k = idx.max(by: { r.power[$0] < r.power[$1] }) else { return nil }
        guard k > 0, k < r.power.count - 1 else { return r.frequencies[k] }
        let a = r.power[k - 1], b = r.power[k], c = r.power[k + 1]
        guard a <= b, c <= b else { return r.frequencies[k] }  // a band edge, not a peak: no refinement
        let denom = a - 2 * b + c
        let delta = denom == 0 ? 0 : 0.5 * (a - c) / denom
        return r.frequencies[k] + delta * (r.frequencies[1] - r.frequencies[0])
    }
}
