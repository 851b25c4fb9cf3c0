import NavCore

/// Dynamic time warping between a walked path and a reference path, and the path-fidelity
/// scores vision-and-language navigation reports beside SPL (Ilharco, Jain, Ku, Ie, Baldridge,
/// "General Evaluation for Instruction Conditioned Navigation using Dynamic Time Warping",
/// ViGIL @ NeurIPS 2019):
///
///     DTW(W, R) = min over monotone alignments of Σ d(wᵢ, rⱼ)   (steps (i−1, j), (i, j−1), (i−1, j−1))
///     nDTW = exp(−DTW(W, R) / (d_th · |R|)),    SDTW = success · nDTW
///
/// with d the horizontal (x, z) distance in metres, as navbench's other route metrics.
///
/// - Complexity: O(|W| · |R|) time, O(|R|) memory.
public func dynamicTimeWarping(walk: [Vector3], route: [Vector3]) -> Double {
    guard !walk.isEmpty, !route.isEmpty else { return walk.isEmpty && route.isEmpty ? 0 : .infinity }
    let m = route.count
    var previous = [Double](repeating: .infinity, count: m + 1)
    var current = [Double](repeating: .infinity, count: m + 1)
    previous[0] = 0
    for w in walk {
        current[0] = .infinity
        for j in 1...m {
            // √(dx² + dz²), not hypot: glibc's overflow-safe hypot was a tenth of a closed-loop
            // walk's time (perf); a distance beyond 10^154 m becomes +∞ (nDTW 0), never a trap.
            let dx = w.x - route[j - 1].x, dz = w.z - route[j - 1].z
            current[j] = (dx * dx + dz * dz).squareRoot() + min(previous[j], current[j - 1], previous[j - 1])
        }
        swap(&previous, &current)
    }
    return previous[m]
}

/// nDTW in (0, 1]: 1 for a walk that follows the route exactly. `threshold` (d_th, m, > 0) is the
/// success distance of the task.
public func normalizedDynamicTimeWarping(walk: [Vector3], route: [Vector3], threshold: Double) -> Double {
    guard threshold > 0, !route.isEmpty else { return .nan }
    return Double.exp(-dynamicTimeWarping(walk: walk, route: route) / (threshold * Double(route.count)))
}

/// SDTW: nDTW of a successful walk, 0 of a failed one.
public func successWeightedDynamicTimeWarping(walk: [Vector3], route: [Vector3], threshold: Double, success: Bool) -> Double {
    success ? normalizedDynamicTimeWarping(walk: walk, route: route, threshold: threshold) : 0
}

/// Points every `spacing` metres of horizontal arc length along a polyline (its first and last
/// point included): a walk sampled every tick and a route of sparse keypoints compared at one
/// resolution, so DTW's sum does not grow with the sampling rate.
///
/// - Complexity: O(n + length / spacing).
public func resampledByArcLength(_ points: [Vector3], spacing: Double) -> [Vector3] {
    guard points.count > 1, spacing > 0 else { return points }
    var out = [points[0]]
    var carried = 0.0  // arc length since the last emitted point
    for k in 1..<points.count {
        let a = points[k - 1], b = points[k]
        let segment = (b - a).horizontalNorm
        guard segment > 0 else { continue }
        var s = spacing - carried
        while s <= segment {
            out.append(a + (b - a) * (s / segment))
            s += spacing
        }
        carried = segment - (s - spacing)
    }
    if let last = points.last, out.last.map({ ($0 - last).horizontalNorm > 1e-12 }) ?? true { out.append(last) }
    return out
}
