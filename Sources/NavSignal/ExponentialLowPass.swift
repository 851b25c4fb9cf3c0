import Foundation
import NavCore

/// First-order exponential low-pass (an RC filter), correct on irregular sampling.
///
/// yₖ = yₖ₋₁ + αₖ (xₖ − yₖ₋₁), αₖ = 1 − exp(−Δtₖ / τ), y₀ = x₀.
/// On uniform sampling this is `lfilter([α], [1, α − 1], x)` started at steady state on x₀;
/// the cutoff form uses τ = 1 / (2π f_c).
public struct ExponentialLowPass: Sendable, Equatable {
    /// Time constant τ, seconds.
    public let timeConstant: Double

    public init(timeConstant: Double) throws(SignalError) {
        guard timeConstant > 0, timeConstant.isFinite else {
            throw .invalidParameter(name: "tau", value: "\(timeConstant)", expected: "a time constant > 0 s")
        }
        self.timeConstant = timeConstant
    }

    public init(cutoff: Double) throws(SignalError) {
        guard cutoff > 0, cutoff.isFinite else {
            throw .invalidParameter(name: "cutoff", value: "\(cutoff)", expected: "a frequency > 0 Hz")
        }
        try self.init(timeConstant: 1 / (2 * .pi * cutoff))
    }

    /// Filters `x` sampled at `timestamps` (seconds, increasing).
    ///
    /// - Complexity: O(n).
    public func apply(_ x: [Double], timestamps: [Double]) throws(SignalError) -> [Double] {
        guard x.count == timestamps.count else { throw .countMismatch(what: "timestamps", expected: x.count, found: timestamps.count) }
        guard let first = x.first else { return [] }
        var y = [Double](repeating: 0, count: x.count)
        var state = first
        y[0] = first
        for k in 1..<x.count {
            let alpha = -expm1(-(timestamps[k] - timestamps[k - 1]) / timeConstant)
            state += alpha * (x[k] - state)
            y[k] = state
        }
        return y
    }
}
