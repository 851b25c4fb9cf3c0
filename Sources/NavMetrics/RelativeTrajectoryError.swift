import NavCore

/// Relative trajectory error over a time window (RoNIN, Herath et al. 2020, 1 minute):
/// with Δ = the window in frames (window / median sampling interval, rounded),
/// RTE = √(mean_i ‖(p_{i+Δ} − p_i) − (q_{i+Δ} − q_i)‖²), metres. When the trajectory is
/// shorter than the window, RoNIN's rule is used: Δ = n − 1 and the value is scaled by
/// window / duration. Positions are compared as given (pass floor-plane projections for
/// RoNIN's 2-D figures).
///
/// - Throws: `MetricError` for mismatched counts, fewer than 2 poses or a non-positive window.
/// - Complexity: O(n).
public func relativeTrajectoryError(
    reference q: [Vector3], estimate p: [Vector3], timestamps t: [Double],
    window: Double = 60
) throws(MetricError) -> Double {
    guard q.count == p.count, t.count == q.count else { throw .countMismatch(reference: q.count, estimate: p.count) }
    guard q.count >= 2 else { throw .noErrors }
    guard window.isFinite && window > 0 else { throw .invalidArgument("RTE window must be positive seconds, got \(window)") }
    var gaps = [Double](); gaps.reserveCapacity(t.count - 1)
    for k in 1..<t.count { gaps.append(t[k] - t[k - 1]) }
    let dt = quantile(gaps, 0.5, method: .linear)
    let n = q.count
    var delta = dt > 0 ? Int((window / dt).rounded()) : n
    var scale = 1.0
    if delta >= n {
        delta = n - 1
        let duration = t[n - 1] - t[0]
        scale = duration > 0 ? window / duration : 1
    }
    var sum = CompensatedSum()
    for i in 0..<(n - delta) {
        let e = (p[i + delta] - p[i]) - (q[i + delta] - q[i])
        sum.add(e.dot(e))
    }
    return (sum.value / Double(n - delta)).squareRoot() * scale
}
