import Foundation
import NavCore

/// Heading filter on the circle (spec `kalman-heading:q=…,r=…`): the scalar random walk of
/// `RandomWalkKalman` with the innovation wrapped into (−180°, 180°] and the state wrapped into
/// [0°, 360°), so a heading crossing north is not dragged the long way round.
///
/// Predict: P⁻ = P + q.  Update: ν = wrap(z − x), K = P⁻/(P⁻ + r), x = wrap₃₆₀(x + Kν), P = (1 − K)P⁻.
public struct HeadingKalman: Sendable {
    public let walk: RandomWalkKalman
    /// The stateful form's current belief (nil before the first measurement).
    public private(set) var state: ScalarGaussian?

    /// Stateful form: consumes one heading, returns the filtered heading.
    public mutating func step(_ z: Double) -> Double {
        if let s = state {
            state = updated(walk.predicted(s), measurement: z)
        } else {
            state = ScalarGaussian(mean: wrapDegrees360(z), variance: walk.measurementNoise)
        }
        return state!.mean
    }

    public init(processNoise: Double, measurementNoise: Double) throws(SignalError) {
        walk = try RandomWalkKalman(processNoise: processNoise, measurementNoise: measurementNoise)
    }

    public func updated(_ s: ScalarGaussian, measurement z: Double) -> ScalarGaussian {
        let innovation = wrapDegrees180(z - s.mean)
        var u = walk.updated(s, measurement: s.mean + innovation)
        u.mean = wrapDegrees360(u.mean)
        return u
    }

    /// Filters headings in degrees; output₀ = z₀ (wrapped).
    ///
    /// - Complexity: O(n).
    public func filter(_ z: [Double]) -> [Double] {
        guard let first = z.first else { return [] }
        var s = ScalarGaussian(mean: wrapDegrees360(first), variance: walk.measurementNoise)
        var out = [s.mean]
        for k in z.indices.dropFirst() {
            s = updated(walk.predicted(s), measurement: z[k])
            out.append(s.mean)
        }
        return out
    }
}
