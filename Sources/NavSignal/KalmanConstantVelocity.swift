import NavCore

/// A 2×2 matrix, row-major, for the two-state filters.
public struct Matrix2: Sendable, Equatable {
    public var a, b, c, d: Double  // [[a, b], [c, d]]
    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double) { self.a = a; self.b = b; self.c = c; self.d = d }
    public static let identity = Matrix2(1, 0, 0, 1)
    public static func * (m: Matrix2, n: Matrix2) -> Matrix2 {
        Matrix2(m.a * n.a + m.b * n.c, m.a * n.b + m.b * n.d, m.c * n.a + m.d * n.c, m.c * n.b + m.d * n.d)
    }
    public static func + (m: Matrix2, n: Matrix2) -> Matrix2 { Matrix2(m.a + n.a, m.b + n.b, m.c + n.c, m.d + n.d) }
    public static func - (m: Matrix2, n: Matrix2) -> Matrix2 { Matrix2(m.a - n.a, m.b - n.b, m.c - n.c, m.d - n.d) }
    public var transposed: Matrix2 { Matrix2(a, c, b, d) }
    public var inverse: Matrix2 { let det = a * d - b * c; return Matrix2(d / det, -b / det, -c / det, a / det) }
    public func times(_ v: (Double, Double)) -> (Double, Double) { (a * v.0 + b * v.1, c * v.0 + d * v.1) }
}

/// A two-state Gaussian belief (position, velocity).
public struct Gaussian2: Sendable, Equatable {
    public var mean: (Double, Double)
    public var covariance: Matrix2
    public init(mean: (Double, Double), covariance: Matrix2) { self.mean = mean; self.covariance = covariance }
    public static func == (l: Gaussian2, r: Gaussian2) -> Bool { l.mean == r.mean && l.covariance == r.covariance }
}

/// 1-D constant-velocity Kalman filter (spec `kalman-cv:q=…,r=…`), position measured.
///
/// Model: F = [[1, Δt], [0, 1]], Q = q·[[Δt⁴/4, Δt³/2], [Δt³/2, Δt²]] (discrete white
/// acceleration of variance q, filterpy's `Q_discrete_white_noise(2, Δt, q)`), H = [1, 0], R = r.
/// Predict: x⁻ = Fx, P⁻ = FPFᵀ + Q.  Update: S = HP⁻Hᵀ + R, K = P⁻Hᵀ/S, x = x⁻ + K(z − Hx⁻),
/// P = (I − KH)P⁻ (filterpy uses the Joseph form, equal in exact arithmetic). Each
/// measurement is predicted to, then used.
public struct ConstantVelocityKalman: Sendable {
    /// White-acceleration variance q, (units/s²)².
    public let processNoise: Double
    /// Position measurement variance r.
    public let measurementNoise: Double

    public init(processNoise: Double, measurementNoise: Double) throws(SignalError) {
        guard processNoise >= 0, processNoise.isFinite else {
            throw .invalidParameter(name: "q", value: "\(processNoise)", expected: "an acceleration variance ≥ 0")
        }
        guard measurementNoise > 0, measurementNoise.isFinite else {
            throw .invalidParameter(name: "r", value: "\(measurementNoise)", expected: "a measurement noise variance > 0")
        }
        self.processNoise = processNoise
        self.measurementNoise = measurementNoise
    }

    public func transition(_ dt: Double) -> Matrix2 { Matrix2(1, dt, 0, 1) }

    /// Stateful form: the belief after the measurements given so far.
    public struct Tracker: Sendable {
        public let model: ConstantVelocityKalman
        public private(set) var state: Gaussian2
        public init(model: ConstantVelocityKalman, prior: Gaussian2) { self.model = model; state = prior }
        /// Predicts over `dt`, updates with `z`, returns the position estimate.
        public mutating func step(_ z: Double, dt: Double) -> Double {
            state = model.updated(model.predicted(state, dt: dt), measurement: z)
            return state.mean.0
        }
    }

    public func processCovariance(_ dt: Double) -> Matrix2 {
        let dt2 = dt * dt
        return Matrix2(dt2 * dt2 / 4 * processNoise, dt2 * dt / 2 * processNoise, dt2 * dt / 2 * processNoise, dt2 * processNoise)
    }

    public func predicted(_ s: Gaussian2, dt: Double) -> Gaussian2 {
        let f = transition(dt)
        return Gaussian2(mean: f.times(s.mean), covariance: f * s.covariance * f.transposed + processCovariance(dt))
    }

    public func updated(_ s: Gaussian2, measurement z: Double) -> Gaussian2 {
        let p = s.covariance
        let innovationVariance = p.a + measurementNoise
        let k0 = p.a / innovationVariance, k1 = p.c / innovationVariance
        let y = z - s.mean.0
        let ikh = Matrix2(1 - k0, 0, -k1, 1)
        return Gaussian2(mean: (s.mean.0 + k0 * y, s.mean.1 + k1 * y), covariance: ikh * p)
    }

    /// Filters measurements at `timestamps` from the prior `initial` (predict, then update,
    /// for every measurement; the first prediction spans `firstInterval`).
    ///
    /// - Complexity: O(n).
    public func filter(_ z: [Double], timestamps: [Double], initial: Gaussian2, firstInterval: Double) throws(SignalError) -> [Gaussian2] {
        guard z.count == timestamps.count else { throw .countMismatch(what: "timestamps", expected: z.count, found: timestamps.count) }
        var s = initial
        var out: [Gaussian2] = []
        out.reserveCapacity(z.count)
        for k in z.indices {
            let dt = k == 0 ? firstInterval : timestamps[k] - timestamps[k - 1]
            s = updated(predicted(s, dt: dt), measurement: z[k])
            out.append(s)
        }
        return out
    }

    /// Fast path for a constant interval: the same recurrence with F and Q computed once.
    /// The covariance recursion does not depend on the data; once it reaches a fixed point
    /// (the next covariance equals the current one bit for bit) every later gain is the same,
    /// so the loop continues with the mean update alone — identical numbers, less work.
    ///
    /// - Complexity: O(n), no allocation per step.
    public func filterPositions(_ z: [Double], interval dt: Double, initial: Gaussian2) -> [Double] {
        let q = processCovariance(dt)
        var x0 = initial.mean.0, x1 = initial.mean.1
        var p = initial.covariance
        let r = measurementNoise
        return [Double].large(count: z.count) { out in
            z.withUnsafeBufferPointer { z in
                var k = 0
                var k0 = 0.0, k1 = 0.0
                while k < z.count {
                    // predict: x = Fx; P = FPFᵀ + Q
                    x0 += dt * x1
                    let a = p.a + dt * (p.c + p.b) + dt * dt * p.d + q.a
                    let b = p.b + dt * p.d + q.b
                    let c = p.c + dt * p.d + q.c
                    let d = p.d + q.d
                    // update
                    let s = a + r
                    k0 = a / s; k1 = c / s
                    let y = z[k] - x0
                    x0 += k0 * y; x1 += k1 * y
                    let next = Matrix2((1 - k0) * a, (1 - k0) * b, c - k1 * a, d - k1 * b)
                    out[k] = x0
                    k += 1
                    if next == p { break }
                    p = next
                }
                while k < z.count {  // converged: constant gain
                    x0 += dt * x1
                    let y = z[k] - x0
                    x0 += k0 * y; x1 += k1 * y
                    out[k] = x0
                    k += 1
                }
            }
        }
    }
}
