import NavCore

/// A scalar Gaussian belief: mean and variance.
public struct ScalarGaussian: Sendable, Equatable {
    public var mean: Double
    public var variance: Double
    public init(mean: Double, variance: Double) { self.mean = mean; self.variance = variance }
}

/// Scalar random-walk Kalman filter (spec `kalman:q=…,r=…`), the usual RSSI smoother.
///
/// Model: xₖ = xₖ₋₁ + wₖ, wₖ ~ N(0, q) per sample; zₖ = xₖ + vₖ, vₖ ~ N(0, r).
/// Predict: x⁻ = x, P⁻ = P + q.  Update: K = P⁻ / (P⁻ + r), x = x⁻ + K(z − x⁻), P = (1 − K)P⁻.
/// The state starts at the first measurement with variance r, so output₀ = z₀.
/// Pure (`predicted`, `updated`) and stateful (`step`) forms give identical numbers.
public struct RandomWalkKalman: Sendable, Equatable {
    /// Process noise variance q per sample (units of the measurement, squared).
    public let processNoise: Double
    /// Measurement noise variance r.
    public let measurementNoise: Double
    /// The stateful form's current belief (nil before the first measurement).
    public private(set) var state: ScalarGaussian?

    public init(processNoise: Double, measurementNoise: Double) throws(SignalError) {
        guard processNoise >= 0, processNoise.isFinite else {
            throw .invalidParameter(name: "q", value: "\(processNoise)", expected: "a process noise variance ≥ 0")
        }
        guard measurementNoise > 0, measurementNoise.isFinite else {
            throw .invalidParameter(name: "r", value: "\(measurementNoise)", expected: "a measurement noise variance > 0")
        }
        self.processNoise = processNoise
        self.measurementNoise = measurementNoise
    }

    /// Prediction step: P⁻ = P + q.
    public func predicted(_ s: ScalarGaussian) -> ScalarGaussian {
        ScalarGaussian(mean: s.mean, variance: s.variance + processNoise)
    }

    /// Update step with measurement z.
    public func updated(_ s: ScalarGaussian, measurement z: Double) -> ScalarGaussian {
        let gain = s.variance / (s.variance + measurementNoise)
        return ScalarGaussian(mean: s.mean + gain * (z - s.mean), variance: (1 - gain) * s.variance)
    }

    /// Stateful form: consumes one measurement, returns the filtered estimate.
    public mutating func step(_ z: Double) -> Double {
        if let s = state {
            state = updated(predicted(s), measurement: z)
        } else {
            state = ScalarGaussian(mean: z, variance: measurementNoise)
        }
        return state!.mean
    }

    /// Filters a whole series (pure form).
    ///
    /// - Complexity: O(n).
    public func filter(_ z: [Double]) -> [ScalarGaussian] {
        guard let first = z.first else { return [] }
        var s = ScalarGaussian(mean: first, variance: measurementNoise)
        var out = [s]
        out.reserveCapacity(z.count)
        for k in z.indices.dropFirst() {
            s = updated(predicted(s), measurement: z[k])
            out.append(s)
        }
        return out
    }
}
