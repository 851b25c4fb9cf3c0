import Foundation
import NavCore

extension CircularStatistics {
    /// Causal moving circular mean over the last `window` angles.
    ///
    /// - Complexity: O(n).
    public static func movingMean(_ angles: [Double], window: Int, unit: Unit = .degrees) throws(SignalError) -> [Double] {
        let r = angles.map { toRadians($0, unit) }
        let s = try MovingAverage.causal(r.map(sin), window: window)
        let c = try MovingAverage.causal(r.map(cos), window: window)
        return zip(s, c).map { s, c in
            var m = atan2(s, c)
            if m < 0 { m += 2 * .pi }
            return fromRadians(m, unit)
        }
    }
}
