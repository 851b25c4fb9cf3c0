import NavCore

/// A simplified route (RDP keypoints) and how faithful it is to the crumbs it replaces.
public struct RouteSimplification: Sendable, Equatable, Codable {
    public var tolerance: Double
    public var distance: RDPDistance
    public var plane: RoutePlane
    /// Indices of the kept crumbs (keypoints), ascending; first and last always kept.
    public var keptIndices: [Int]
    /// Number of crumbs in.
    public var crumbCount: Int
    /// Largest distance from a crumb to the simplified route's leg that spans it, in metres
    /// (segment distance in `plane`). With `.line` RDP this can exceed the tolerance where
    /// crumbs overshoot a leg's end (the walker passed a turn and came back).
    public var maxDeviation: Double
    /// The crumb where `maxDeviation` occurs.
    public var maxDeviationIndex: Int
    /// Length of the crumb path in `plane`, metres.
    public var originalLength: Double
    /// Length of the keypoint polyline in `plane`, metres.
    public var simplifiedLength: Double

    public var keptCount: Int { keptIndices.count }
    /// simplified / original length (1 for a straight route; < 1 as detail is cut). 1 for a
    /// zero-length route.
    public var lengthRatio: Double { originalLength > 0 ? simplifiedLength / originalLength : 1 }

    enum CodingKeys: String, CodingKey {
        case tolerance, distance, plane, keptIndices = "kept_indices", crumbCount = "crumbs"
        case maxDeviation = "max_deviation", maxDeviationIndex = "max_deviation_index"
        case originalLength = "original_length", simplifiedLength = "simplified_length"
        case keptCount = "kept", lengthRatio = "length_ratio"
    }

    public init(
        tolerance: Double, distance: RDPDistance, plane: RoutePlane, keptIndices: [Int], crumbCount: Int,
        maxDeviation: Double, maxDeviationIndex: Int, originalLength: Double, simplifiedLength: Double
    ) {
        self.tolerance = tolerance; self.distance = distance; self.plane = plane; self.keptIndices = keptIndices
        self.crumbCount = crumbCount; self.maxDeviation = maxDeviation; self.maxDeviationIndex = maxDeviationIndex
        self.originalLength = originalLength; self.simplifiedLength = simplifiedLength
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tolerance = try c.decode(Double.self, forKey: .tolerance)
        distance = try c.decode(RDPDistance.self, forKey: .distance)
        plane = try c.decode(RoutePlane.self, forKey: .plane)
        keptIndices = try c.decode([Int].self, forKey: .keptIndices)
        crumbCount = try c.decode(Int.self, forKey: .crumbCount)
        maxDeviation = try c.decode(Double.self, forKey: .maxDeviation)
        maxDeviationIndex = try c.decode(Int.self, forKey: .maxDeviationIndex)
        originalLength = try c.decode(Double.self, forKey: .originalLength)
        simplifiedLength = try c.decode(Double.self, forKey: .simplifiedLength)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tolerance, forKey: .tolerance)
        try c.encode(distance, forKey: .distance)
        try c.encode(plane, forKey: .plane)
        try c.encode(keptIndices, forKey: .keptIndices)
        try c.encode(keptCount, forKey: .keptCount)
        try c.encode(crumbCount, forKey: .crumbCount)
        try c.encode(maxDeviation, forKey: .maxDeviation)
        try c.encode(maxDeviationIndex, forKey: .maxDeviationIndex)
        try c.encode(originalLength, forKey: .originalLength)
        try c.encode(simplifiedLength, forKey: .simplifiedLength)
        try c.encode(lengthRatio, forKey: .lengthRatio)
    }
}

/// Simplifies a crumb path with `ramerDouglasPeucker` and measures the result: kept count,
/// the largest deviation of a crumb from the simplified route, and the length ratio.
///
/// Deviation of crumb i between keypoints k_a < i < k_b: its distance to the segment
/// [p_{k_a}, p_{k_b}] in `plane` (what a walker following the keypoints would be off by).
///
/// - Throws: `RouteError` as `ramerDouglasPeucker`.
/// - Complexity: that of RDP plus O(n) for the measures.
public func simplifyRoute(
    _ points: [Vector3], tolerance: Double, distance: RDPDistance = .line,
    plane: RoutePlane = .xyz
) throws(RouteError) -> RouteSimplification {
    let kept = try ramerDouglasPeucker(points, tolerance: tolerance, distance: distance, plane: plane)
    return measureRoute(points, keptIndices: kept, tolerance: tolerance, distance: distance, plane: plane)
}

/// The measures of `simplifyRoute` for a given set of kept indices (ascending, first and last included).
///
/// - Complexity: O(n).
public func measureRoute(
    _ points: [Vector3], keptIndices kept: [Int], tolerance: Double, distance: RDPDistance,
    plane: RoutePlane
) -> RouteSimplification {
    func proj(_ p: Vector3) -> Vector3 {
        switch plane {
        case .xyz: return p
        case .xz: return Vector3(p.x, 0, p.z)
        case .xy: return Vector3(p.x, p.y, 0)
        }
    }
    var original = 0.0
    for i in points.indices.dropFirst() { original += (proj(points[i]) - proj(points[i - 1])).norm }
    var simplified = 0.0, maxDev = 0.0, maxIdx = kept.first ?? 0
    for k in kept.indices.dropFirst() {
        let a = proj(points[kept[k - 1]]), b = proj(points[kept[k]])
        simplified += (b - a).norm
        for i in (kept[k - 1] + 1)..<max(kept[k - 1] + 1, kept[k]) {
            let d = segmentDistance(proj(points[i]), a, b)
            if d > maxDev { maxDev = d; maxIdx = i }
        }
    }
    return RouteSimplification(
        tolerance: tolerance, distance: distance, plane: plane, keptIndices: kept,
        crumbCount: points.count, maxDeviation: maxDev, maxDeviationIndex: maxIdx,
        originalLength: original, simplifiedLength: simplified)
}

/// Distance from p to the segment [a, b].
///
/// - Complexity: O(1).
public func segmentDistance(_ p: Vector3, _ a: Vector3, _ b: Vector3) -> Double {
    let d = b - a
    let len2 = d.dot(d)
    if len2 == 0 { return (p - a).norm }
    let t = (p - a).dot(d) / len2
    if t <= 0 { return (p - a).norm }
    if t >= 1 { return (p - b).norm }
    return (p - (a + t * d)).norm
}

/// `simplifyRoute` at each tolerance, in the order given (a tolerance sweep: how many
/// keypoints each tolerance keeps and how far the route strays).
///
/// - Throws: `RouteError` for the first invalid tolerance.
/// - Complexity: k × `simplifyRoute`.
public func toleranceSweep(
    _ points: [Vector3], tolerances: [Double], distance: RDPDistance = .line,
    plane: RoutePlane = .xyz
) throws(RouteError) -> [RouteSimplification] {
    var out: [RouteSimplification] = []
    for t in tolerances { out.append(try simplifyRoute(points, tolerance: t, distance: distance, plane: plane)) }
    return out
}
