import NavCore

/// End-point drift (TLIO, Liu et al. 2020): ‖p_est,end − p_ref,end‖ / reference path length.
public struct EndPointDrift: Sendable, Equatable, Codable {
    /// ‖p_est,end − p_ref,end‖, metres.
    public var endPointError: Double
    /// Reference path length, metres.
    public var pathLength: Double
    /// endPointError / pathLength (a fraction; × 100 for percent). NaN for a zero-length path.
    public var drift: Double
}

/// TLIO's drift of associated (already aligned) trajectories.
///
/// - Throws: `MetricError.countMismatch` or `.noErrors` for empty input.
/// - Complexity: O(n).
public func endPointDrift(reference q: [Vector3], estimate p: [Vector3]) throws(MetricError) -> EndPointDrift {
    guard q.count == p.count else { throw .countMismatch(reference: q.count, estimate: p.count) }
    guard let qe = q.last, let pe = p.last else { throw .noErrors }
    let length = cumulativePath(q).last ?? 0
    let e = (pe - qe).norm
    return EndPointDrift(endPointError: e, pathLength: length, drift: length > 0 ? e / length : .nan)
}
