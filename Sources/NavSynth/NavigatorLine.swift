import Foundation
import NavCore

/// The line a navigation session's walker takes through a venue with walls: a slow
/// Ornstein–Uhlenbeck offset u from the recorder's centre line (std σ, time constant τ; one
/// step uₖ₊₁ = a·uₖ + σ·√(1 − a²)·ξ, a = e^(−dt/τ)), added to the fast wander w and bounded by
/// the walls: the lateral offset is b·tanh((u + w)/b), b the free width on that side of the
/// centre line minus `margin` (rays of up to `maxReach` m across the line to the walls of its
/// floor, the smallest within ±`lookahead` m of arc length, so the line narrows before a door
/// rather than jumping). In open areas the walker passes keypoints metres aside; in a door it
/// stays within the door. SynthParameters.navigationLineStd; docs/synthetic-data.md.
///
/// - Complexity: O(length / `gridStep` · walls) to build, O(1) per sample.
struct NavigatorLine {
    static let gridStep = 0.25, maxReach = 8.0, lookahead = 2.0
    /// Free width minus the margin, left (+normal) and right (−normal), every `gridStep` of arc.
    let left: [Double], right: [Double]
    let std: Double, a: Double
    var u: Double
    var rng: SeededRandom

    init(
        plan: FloorPlan, centre: (Double) -> (Vector3, Vector3), length: Double, std: Double, timeConstant: Double,
        margin: Double, dt: Double, rng: SeededRandom
    ) {
        var l: [Double] = [], r: [Double] = []
        let count = Int((length / Self.gridStep).rounded(.up)) + 1
        for k in 0..<count {
            let (c, d) = centre(min(length, Double(k) * Self.gridStep))
            let floor = plan.floor(phoneAt: c.y + plan.phoneHeight)
            let nx = -d.z, nz = d.x
            func reach(_ sign: Double) -> Double {
                let dx = sign * nx * Self.maxReach, dz = sign * nz * Self.maxReach
                return (plan.firstHit(x: c.x, z: c.z, dx: dx, dz: dz, floor: floor)?.0 ?? 1) * Self.maxReach
            }
            l.append(reach(1)); r.append(reach(-1))
        }
        let w = Int((Self.lookahead / Self.gridStep).rounded())
        func bound(_ x: [Double]) -> [Double] {
            x.indices.map { i in max(0, x[max(0, i - w)...min(x.count - 1, i + w)].min()! - margin) }
        }
        left = bound(l); right = bound(r)
        self.std = std
        a = Foundation.exp(-dt / max(dt, timeConstant))
        self.rng = rng
        u = self.rng.gaussian() * std * 0.5
    }

    /// The bounded lateral offset at arc length `s` (positive along +normal), the line moving
    /// only while walking.
    mutating func offset(adding wander: Double, at s: Double, walking: Bool) -> Double {
        if walking { u = a * u + rng.gaussian() * std * (1 - a * a).squareRoot() }
        let k = min(left.count - 1, max(0, Int((s / Self.gridStep).rounded())))
        let total = u + wander
        let b = total >= 0 ? left[k] : right[k]
        return b > 0 ? b * Foundation.tanh(total / b) : 0
    }
}
