import Foundation

/// Statistics of angles, which wrap: the mean of 350° and 10° is 0°, not 180°.
///
/// Conventions as `scipy.stats.circmean` / `circstd` with `low=0, high=2π` (or 360°):
/// mean = atan2(Σ sin θ, Σ cos θ) wrapped into [0, 2π); std = √(−2 ln R̄), R̄ = |Σ e^{iθ}| / n.
public enum CircularStatistics {
    public enum Unit: String, Sendable { case degrees, radians }

    public static func toRadians(_ v: Double, _ u: Unit) -> Double { u == .degrees ? v * .pi / 180 : v }
    public static func fromRadians(_ v: Double, _ u: Unit) -> Double { u == .degrees ? v * 180 / .pi : v }

    /// Circular mean in [0, 360) degrees or [0, 2π) radians; NaN for an empty input.
    ///
    /// - Complexity: O(n).
    public static func mean(_ angles: [Double], unit: Unit = .degrees) -> Double {
        guard !angles.isEmpty else { return .nan }
        var s = 0.0, c = 0.0
        for a in angles { let r = toRadians(a, unit); s += sin(r); c += cos(r) }
        var m = atan2(s, c)
        if m < 0 { m += 2 * .pi }
        if m >= 2 * .pi { m -= 2 * .pi }
        return fromRadians(m, unit)
    }

    /// Mean resultant length R̄ ∈ [0, 1]: 1 when all angles agree.
    public static func resultantLength(_ angles: [Double], unit: Unit = .degrees) -> Double {
        guard !angles.isEmpty else { return .nan }
        var s = 0.0, c = 0.0
        for a in angles { let r = toRadians(a, unit); s += sin(r); c += cos(r) }
        return hypot(s, c) / Double(angles.count)
    }

    /// Circular standard deviation √(−2 ln R̄), in the input's unit.
    public static func standardDeviation(_ angles: [Double], unit: Unit = .degrees) -> Double {
        let r = resultantLength(angles, unit: unit)
        return fromRadians((-2 * log(min(1, r))).squareRoot(), unit)
    }

    /// Expanding circular mean: yₖ = circular mean of θ₀ … θₖ.
    ///
    /// - Complexity: O(n).
    public static func expandingMean(_ angles: [Double], unit: Unit = .degrees) -> [Double] {
        var s = 0.0, c = 0.0
        return angles.map { a in
            let r = toRadians(a, unit); s += sin(r); c += cos(r)
            var m = atan2(s, c)
            if m < 0 { m += 2 * .pi }
            return fromRadians(m, unit)
        }
    }

}
