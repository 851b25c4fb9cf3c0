import NavCore

/// The trajectory with each run of equal stamps reduced to its last pose, and how many poses
/// were dropped. evo's nearest-stamp association (searchsorted side "right") pairs a stamp
/// with the last pose of a run, so this is the pose an evo evaluation would use.
///
/// - Complexity: O(n).
public func removingDuplicateTimestamps(_ t: Trajectory) -> (trajectory: Trajectory, dropped: Int) {
    let stamps = t.timestamps, poses = t.poses.values
    guard countDuplicateTimestamps(stamps) > 0 else { return (t, 0) }
    var ks: [Double] = [], kp: [Pose] = []
    ks.reserveCapacity(stamps.count); kp.reserveCapacity(stamps.count)
    for i in stamps.indices {
        if let last = ks.last, last == stamps[i] { kp[kp.count - 1] = poses[i]; continue }
        ks.append(stamps[i]); kp.append(poses[i])
    }
    // Non-decreasing input without repeats is strictly increasing: this cannot throw.
    let out = (try? Trajectory(timestamps: ks, poses: kp)) ?? t
    return (out, stamps.count - ks.count)
}
