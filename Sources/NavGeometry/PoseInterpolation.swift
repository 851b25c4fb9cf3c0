import NavCore
import RealModule

/// Interpolates a pose: linear in position, `slerp` in orientation, at fraction f ∈ [0, 1]
/// (values outside extrapolate linearly and along the great circle).
///
/// - Complexity: O(1).
public func interpolatePose(_ a: Pose, _ b: Pose, fraction f: Double) -> Pose {
    Pose(
        rotation: slerp(a.rotation, b.rotation, fraction: f),
        translation: a.translation + f * (b.translation - a.translation))
}

/// Poses of `trajectory` at the given times: lerp/slerp between the two samples that
/// bracket each time, as evo's `PoseTrajectory3D.interpolate(timestamps, extrapolate=False)`:
/// segment k = the first sample with t_k ≥ t (clamped to 1…n−1), fraction clamped to
/// [0, 1] so times outside the trajectory get its first or last pose.
///
/// - Precondition on data: `trajectory` has at least two poses (callers check; a
///   single-pose trajectory returns that pose for every time).
/// - Complexity: O(m log n) for m times (one binary search each).
public func interpolate(_ trajectory: Trajectory, at times: [Double]) -> [Pose] {
    let stamps = trajectory.timestamps
    let poses = trajectory.poses.values
    let n = stamps.count
    if n == 0 { return [] }
    if n == 1 { return Array(repeating: poses[0], count: times.count) }
    var out: [Pose] = []
    out.reserveCapacity(times.count)
    for t in times {
        // searchsorted(side="left"): first k with stamps[k] >= t.
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if stamps[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        let k = min(max(lo, 1), n - 1)
        let dt = stamps[k] - stamps[k - 1]
        var f = dt > 0 ? (t - stamps[k - 1]) / dt : 0
        f = min(max(f, 0), 1)
        out.append(interpolatePose(poses[k - 1], poses[k], fraction: f))
    }
    return out
}
