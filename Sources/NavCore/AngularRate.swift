/// Body angular rate from consecutive orientations (body → world): ω = 2·vec(q_k⁻¹ q_{k+1}) / Δt
/// (small-angle; the relative rotation taken with w ≥ 0), assigned to the midpoint time.
///
/// - Complexity: O(n).
public func angularRate(timestamps: [Double], orientations: [Quaternion]) -> (times: [Double], rates: [Vector3]) {
    var t: [Double] = [], w: [Vector3] = []
    for k in timestamps.indices.dropFirst() {
        var d = orientations[k - 1].conjugate * orientations[k]
        if d.w < 0 { d = Quaternion(x: -d.x, y: -d.y, z: -d.z, w: -d.w) }
        let dt = timestamps[k] - timestamps[k - 1]
        t.append((timestamps[k] + timestamps[k - 1]) / 2)
        w.append(2 * Vector3(d.x, d.y, d.z) / dt)
    }
    return (t, w)
}
