import NavCore

/// Horizontal (floor-plane) errors between associated positions in an ARKit frame
/// (+y up): ‖(x, z)_est − (x, z)_ref‖, metres.
///
/// - Throws: `MetricError.countMismatch`.
/// - Complexity: O(n).
public func horizontalErrors(reference: [Vector3], estimate: [Vector3]) throws(MetricError) -> [Double] {
    guard reference.count == estimate.count else { throw .countMismatch(reference: reference.count, estimate: estimate.count) }
    return zip(reference, estimate).map { ($1 - $0).horizontalNorm }
}

/// The IPIN indoor-positioning competition score (EvAAL/IPIN rules): per point
/// e_i = horizontal error_i + `floorPenalty` · |floor error_i| (15 m per floor), score = the
/// 75th percentile of e with the Hazen (type 5) quantile.
///
/// - Throws: `MetricError.countMismatch`, `.noErrors` for empty input, `.nonFinite`.
/// - Complexity: O(n log n).
public func ipinScore(horizontalErrors h: [Double], floorErrors f: [Int], floorPenalty: Double = 15) throws(MetricError) -> Double {
    guard h.count == f.count else { throw .countMismatch(reference: h.count, estimate: f.count) }
    guard !h.isEmpty else { throw .noErrors }
    if let i = h.firstIndex(where: { !$0.isFinite }) { throw .nonFinite(index: i, value: h[i]) }
    let e = zip(h, f).map { $0 + floorPenalty * Double(abs($1)) }
    return quantile(e, 0.75, method: .hazen)
}

/// Circular error CEp (ISO/IEC 18305): the p-th percentile (e.g. 50, 95) of horizontal
/// errors, with the quantile method named (Hazen by default, as IPIN).
///
/// - Throws: `MetricError.noErrors` for empty input, `.invalidArgument` for p outside 0…100.
/// - Complexity: O(n log n).
public func circularError(
    _ horizontalErrors: [Double], percentile p: Double,
    method: QuantileMethod = .hazen
) throws(MetricError) -> Double {
    guard !horizontalErrors.isEmpty else { throw .noErrors }
    guard p >= 0 && p <= 100 else { throw .invalidArgument("percentile must be within 0…100, got \(p)") }
    return percentile(horizontalErrors, p, method: method)
}
