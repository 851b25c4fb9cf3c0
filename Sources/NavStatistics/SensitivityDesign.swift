import NavCore

/// Where a sensitivity analysis evaluates its model: points of the unit hypercube [0, 1]^D, in
/// the order the estimators read them (`MorrisElementaryEffects`, `SobolIndices`). A caller maps
/// each coordinate onto its parameter's range (`scaled(to:)`).
///
/// Both designs draw from named `SeededRandom` streams, so a design is a function of its
/// arguments alone, on every machine.
public struct SensitivityDesign: Sendable, Equatable {
    /// The points, each of D coordinates in [0, 1].
    public var points: [[Double]]
    /// Parameters per point.
    public var dimensions: Int

    /// A design from given points (each of `dimensions` coordinates in [0, 1]).
    public init(points: [[Double]], dimensions: Int) { self.points = points; self.dimensions = dimensions }

    /// Morris' one-at-a-time trajectories (Morris 1991, the design SALib's `morris.sample` makes
    /// without optimisation): per trajectory a base point on the grid {0, 1/(p−1), …, 1} whose
    /// coordinates lie in the lower half (so that x + Δ ≤ 1), then D steps, each moving one
    /// parameter, in a random order, by +Δ or −Δ from the base (a random sign per parameter: a
    /// parameter that goes down starts at its base + Δ), Δ = p / (2(p − 1)). `trajectories` × (D + 1)
    /// points; every step changes exactly one coordinate by exactly Δ, as `MorrisElementaryEffects`
    /// requires.
    ///
    /// nil when D < 1, trajectories < 1 or `levels` is odd or < 2 (Δ on the grid needs an even p).
    ///
    /// Complexity: O(trajectories · D²).
    public static func morris(parameters d: Int, trajectories: Int, levels: Int = 4, seed: UInt64) -> SensitivityDesign? {
        guard d >= 1, trajectories >= 1, levels >= 2, levels % 2 == 0 else { return nil }
        var rng = SeededRandom(seed: seed, label: "morris-design")
        let step = Double(levels) / (2 * Double(levels - 1))
        let grid = Double(levels - 1)
        var points: [[Double]] = []
        points.reserveCapacity(trajectories * (d + 1))
        for _ in 0..<trajectories {
            // Base in the lower half of the grid: levels 0 … p/2 − 1.
            var x = (0..<d).map { _ in Double(Int(UInt64(levels / 2).multipliedFullWidth(by: rng.next()).high)) / grid }
            // A random sign per parameter: going down means starting Δ higher.
            let up = (0..<d).map { _ in rng.next() >> 63 == 0 }
            for j in 0..<d where !up[j] { x[j] += step }
            // A random order (Fisher–Yates with Lemire's multiply-shift index).
            var order = Array(0..<d)
            for i in stride(from: d - 1, to: 0, by: -1) {
                let k = Int(UInt64(i + 1).multipliedFullWidth(by: rng.next()).high)
                order.swapAt(i, k)
            }
            points.append(x)
            for j in order {
                x[j] += up[j] ? step : -step
                points.append(x)
            }
        }
        return SensitivityDesign(points: points, dimensions: d)
    }

    /// Saltelli's design for first-order and total indices (Saltelli et al. 2010), in the block
    /// order `SobolIndices` reads: per base sample i, Aᵢ, A_B⁽¹⁾ᵢ … A_B⁽ᴰ⁾ᵢ (Aᵢ with coordinate j
    /// from Bᵢ), Bᵢ. A and B are independent uniform draws (pseudo-random, not SALib's scrambled
    /// Sobol' sequence: the estimators are the same, they converge as N^−1/2 instead of nearly
    /// N^−1). `base` × (D + 2) points.
    ///
    /// nil when D < 1 or base < 2.
    ///
    /// Complexity: O(base · D²).
    public static func saltelli(parameters d: Int, base: Int, seed: UInt64) -> SensitivityDesign? {
        guard d >= 1, base >= 2 else { return nil }
        var rng = SeededRandom(seed: seed, label: "saltelli-design")
        var points: [[Double]] = []
        points.reserveCapacity(base * (d + 2))
        for _ in 0..<base {
            let a = (0..<d).map { _ in rng.uniform() }, b = (0..<d).map { _ in rng.uniform() }
            points.append(a)
            for j in 0..<d {
                var ab = a
                ab[j] = b[j]
                points.append(ab)
            }
            points.append(b)
        }
        return SensitivityDesign(points: points, dimensions: d)
    }

    /// The points mapped onto `ranges` (one per coordinate): low + u · (high − low).
    ///
    /// Precondition: `ranges.count == dimensions`.
    public func scaled(to ranges: [ClosedRange<Double>]) -> [[Double]] {
        precondition(ranges.count == dimensions, "one range per parameter")
        return points.map { p in zip(p, ranges).map { $1.lowerBound + $0 * ($1.upperBound - $1.lowerBound) } }
    }
}
