import NavCore

/// Gyro + compass heading fusion (spec `kalman-fusion:q=…,r=…,gate=…`).
///
/// State: heading ψ in degrees clockwise from north. The gyro's yaw rate ω (rad/s,
/// counter-clockwise about up, as a right-handed +y-up or +z-up frame gives it) predicts:
/// ψ⁻ = ψ − ω·Δt·180/π, P⁻ = P + q·Δt (q in deg²/s). Each compass heading z updates after
/// innovation gating: ν = wrap(z − ψ⁻), S = P⁻ + r; if |ν| > gate·√S the reading is rejected
/// (a magnetic disturbance or a flip) and the prediction stands; otherwise the heading update
/// of `HeadingKalman`. The first compass heading initialises ψ with variance r.
public struct GyroCompassFusion: Sendable {
    public let processNoise: Double
    public let measurementNoise: Double
    /// Gate in standard deviations of the innovation; `.infinity` disables gating.
    public let gate: Double

    public struct Output: Sendable {
        /// Fused heading at each compass timestamp, degrees in [0, 360).
        public var heading: [Double]
        /// Whether each compass reading was used (false where the gate rejected it).
        public var accepted: [Bool]
    }

    public init(processNoise: Double, measurementNoise: Double, gate: Double = 3) throws(SignalError) {
        guard processNoise >= 0, processNoise.isFinite else {
            throw .invalidParameter(name: "q", value: "\(processNoise)", expected: "a heading random-walk rate ≥ 0 deg²/s")
        }
        guard measurementNoise > 0, measurementNoise.isFinite else {
            throw .invalidParameter(name: "r", value: "\(measurementNoise)", expected: "a compass noise variance > 0 deg²")
        }
        guard gate > 0 else { throw .invalidParameter(name: "gate", value: "\(gate)", expected: "a gate > 0 standard deviations") }
        self.processNoise = processNoise; self.measurementNoise = measurementNoise; self.gate = gate
    }

    /// Fuses gyro yaw rates (at `gyroTimes`) with compass headings (at `compassTimes`).
    /// Between compass readings the gyro samples in (t_prev, t_k] are integrated, each over
    /// the interval since the previous integration instant.
    ///
    /// - Complexity: O(gyro samples + compass samples).
    public func fuse(gyroTimes: [Double], yawRate: [Double], compassTimes: [Double], heading: [Double]) throws(SignalError) -> Output {
        guard gyroTimes.count == yawRate.count else { throw .countMismatch(what: "gyro yaw rate", expected: gyroTimes.count, found: yawRate.count) }
        guard compassTimes.count == heading.count else {
            throw .countMismatch(what: "compass headings", expected: compassTimes.count, found: heading.count)
        }
        guard let first = heading.first else { return Output(heading: [], accepted: []) }
        let walk = try HeadingKalman(processNoise: processNoise, measurementNoise: measurementNoise)
        var s = ScalarGaussian(mean: wrapDegrees360(first), variance: measurementNoise)
        var out = Output(heading: [s.mean], accepted: [true])
        var g = gyroTimes.firstIndex { $0 > compassTimes[0] } ?? gyroTimes.count
        var lastTime = compassTimes[0]
        for k in compassTimes.indices.dropFirst() {
            // Predict through the gyro samples up to this compass reading.
            while g < gyroTimes.count && gyroTimes[g] <= compassTimes[k] {
                let dt = gyroTimes[g] - lastTime
                s.mean -= yawRate[g] * dt * 180 / .pi
                s.variance += processNoise * dt
                lastTime = gyroTimes[g]
                g += 1
            }
            s.mean = wrapDegrees360(s.mean)
            let innovation = wrapDegrees180(heading[k] - s.mean)
            let accept = abs(innovation) <= gate * (s.variance + measurementNoise).squareRoot()
            if accept { s = walk.updated(s, measurement: heading[k]) }
            out.heading.append(s.mean)
            out.accepted.append(accept)
        }
        return out
    }
}
