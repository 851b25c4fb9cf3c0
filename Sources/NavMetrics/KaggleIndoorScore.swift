import NavCore

/// A position of the Indoor Location & Navigation competition: metres on the site's floor plan
/// and a floor number.
public struct IndoorFloorPosition: Sendable, Equatable {
    public var x: Double, y: Double, floor: Double
    public init(x: Double, y: Double, floor: Double) { self.x = x; self.y = y; self.floor = floor }
}

/// The score of the Indoor Location & Navigation competition (Kaggle, Microsoft Research and
/// XYZ10, 2021), its "mean position error":
///
///     MPE = (1/N) Σᵢ [ √((x̂ᵢ − xᵢ)² + (ŷᵢ − yᵢ)²) + p·|f̂ᵢ − fᵢ| ],  p = 15
///
/// over the N ground-truth points, each paired with the submission's row of the same
/// `site_path_timestamp` (lower is better). Also reported: the mean horizontal error (p = 0) and
/// the share of points on the right floor.
public struct KaggleIndoorScore: Sendable, Equatable, Codable {
    public var points: Int
    public var meanPositionError: Double
    public var meanHorizontalError: Double
    /// Points whose floor is right, 0–1.
    public var floorHitRate: Double
    /// Per point, in ground-truth order: horizontal error + p·|floor error|, metres.
    public var errors: [Double]

    enum CodingKeys: String, CodingKey {
        case points, meanPositionError = "mean_position_error_m", meanHorizontalError = "mean_horizontal_error_m"
        case floorHitRate = "floor_hit_rate", errors = "errors_m"
    }
}

/// The competition's mean position error of `estimates` against `reference` (paired by index).
///
/// Numerical contract: equal to numpy's `mean(sqrt(dx² + dy²) + 15·|df|)` within 1e-12 relative
/// on the committed fixture (`scripts/make_kaggle_indoor_fixtures.py`).
///
/// - Throws: `MetricError.countMismatch`, `.noErrors` for no points, `.nonFinite` for a value
///   that is not finite, `.invalidArgument` for a negative penalty.
/// - Complexity: O(n).
public func kaggleIndoorScore(
    reference: [IndoorFloorPosition], estimates: [IndoorFloorPosition], floorPenalty: Double = 15
) throws(MetricError) -> KaggleIndoorScore {
    guard reference.count == estimates.count else { throw .countMismatch(reference: reference.count, estimate: estimates.count) }
    guard !reference.isEmpty else { throw .noErrors }
    guard floorPenalty.isFinite, floorPenalty >= 0 else { throw .invalidArgument("the floor penalty must be ≥ 0 metres, got \(floorPenalty)") }
    var errors: [Double] = [], horizontal = 0.0, hits = 0
    errors.reserveCapacity(reference.count)
    for (i, (r, e)) in zip(reference, estimates).enumerated() {
        let dx = e.x - r.x, dy = e.y - r.y, df = abs(e.floor - r.floor)
        let h = (dx * dx + dy * dy).squareRoot()
        let value = h + floorPenalty * df
        guard value.isFinite else { throw .nonFinite(index: i, value: value) }
        errors.append(value)
        horizontal += h
        if df == 0 { hits += 1 }
    }
    let n = Double(errors.count)
    return KaggleIndoorScore(
        points: errors.count, meanPositionError: errors.reduce(0, +) / n, meanHorizontalError: horizontal / n,
        floorHitRate: Double(hits) / n, errors: errors)
}
