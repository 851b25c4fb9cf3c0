import NavCore
import NavGeometry

/// A ground-truth reference point of an IPIN Track 3 trial (the organisers' `GT_….csv` rows:
/// time, longitude, latitude, floor, point number).
public struct IPINReferencePoint: Sendable, Equatable {
    public var time: Double
    public var longitude: Double
    public var latitude: Double
    public var floor: Double
    public var number: Double
    public init(time: Double, longitude: Double, latitude: Double, floor: Double, number: Double) {
        self.time = time; self.longitude = longitude; self.latitude = latitude; self.floor = floor; self.number = number
    }
}

/// A competitor's position estimate (a `.est` row: time, longitude, latitude, floor).
public struct IPINEstimate: Sendable, Equatable {
    public var time: Double
    public var longitude: Double
    public var latitude: Double
    public var floor: Double
    public init(time: Double, longitude: Double, latitude: Double, floor: Double) {
        self.time = time; self.longitude = longitude; self.latitude = latitude; self.floor = floor
    }
}

/// The IPIN 2023 Track 3 evaluation of one trial (the organisers' `evaluateCompetitor2023.m` and
/// `runTrack03_zenodo.m`; docs/metrics.md, "IPIN Track 3").
public struct IPINTrack3Score: Sendable, Equatable, Codable {
    /// Reference points whose paired estimate is at most 0.5 s from them (the organisers' POINTS).
    public var points: Int
    /// Reference points scored (every row of the ground truth).
    public var referencePoints: Int
    /// The score: third quartile (MATLAB `quantile`, Hazen) of the point errors, metres.
    public var ipinScore: Double
    public var mean: Double
    public var rmse: Double
    public var median: Double
    /// 95th percentile (MATLAB `quantile`, Hazen) of the point errors.
    public var p95: Double
    /// Share of reference points whose estimate is on the right floor, 0–1.
    public var floorHitRate: Double
    /// Mean horizontal error without the floor penalty, metres.
    public var meanHorizontalError: Double
    /// Point errors (horizontal error + penalty × |floor difference|), in ground-truth order.
    public var errors: [Double]

    enum CodingKeys: String, CodingKey {
        case points, referencePoints = "reference_points", ipinScore = "ipin_score_m", mean = "mean_m", rmse = "rmse_m", median = "median_m"
        case p95 = "p95_m", floorHitRate = "floor_hit_rate", meanHorizontalError = "mpe_xy_m", errors = "errors_m"
    }
}

/// Why a trial cannot be scored.
public enum IPINScoreError: Error, Equatable, CustomStringConvertible {
    case noReferencePoints
    /// Reference point `index` (1-based) at `time` has no estimate at or before time + 0.01 s.
    case noEstimate(index: Int, time: Double)
    /// Reference point `index` (1-based) is not on the Earth (`geodeticPositionProblem`'s line).
    case badReferencePoint(index: Int, problem: String)
    /// Estimate `index` (1-based) is not on the Earth.
    case badEstimate(index: Int, problem: String)
    /// The venue altitude is not within ±100 km of the ellipsoid.
    case badVenueAltitude(problem: String)

    public var description: String {
        switch self {
        case .noReferencePoints: return "no reference points"
        case .noEstimate(let i, let t):
            return "reference point \(i) at t = \(t) s has no estimate at or before t + 0.01 s (the organisers' script stops there)"
        case .badReferencePoint(let i, let problem): return "reference point \(i): \(problem)"
        case .badEstimate(let i, let problem): return "estimate \(i): \(problem)"
        case .badVenueAltitude(let problem): return "the venue altitude: \(problem)"
        }
    }
}

/// The venue altitude of the 2023 competition (the Museum), metres: every point's height in the
/// geodetic-to-NED conversion (`evaluateCompetitor2023.m`, `altitudeForThisYear`).
public let ipin2023VenueAltitude = 314.0

/// Scores a trial as the IPIN 2023 Track 3 organisers do: each reference point is paired with the
/// latest estimate at or before its time + 0.01 s (the first of equal times); positions go from
/// WGS84 to north-east-down about the lowest reference latitude and longitude at `venueAltitude`
/// (`geodeticToNED`); a point's error is its horizontal distance + `floorPenalty` × |floor
/// difference|; the score is the third quartile of the errors. Mean, RMSE, median and 95th
/// percentile are of the point errors, the quantiles MATLAB's (Hazen).
///
/// - Throws: `IPINScoreError` for no reference points or a point without an estimate.
/// - Complexity: O(n log m) for n reference points and m estimates (estimates sorted once).
public func ipinTrack3Score(
    reference: [IPINReferencePoint], estimates: [IPINEstimate], venueAltitude: Double = ipin2023VenueAltitude, floorPenalty: Double = 15
) throws(IPINScoreError) -> IPINTrack3Score {
    guard !reference.isEmpty, let lat0 = reference.map(\.latitude).min(), let lon0 = reference.map(\.longitude).min() else {
        throw .noReferencePoints
    }
    // Every position is on the Earth before it is converted (1e308 gave a NaN score, 371° a wrap).
    if let p = geodeticPositionProblem(latitude: 0, longitude: 0, height: venueAltitude) {
        throw .badVenueAltitude(problem: p)
    }
    for (i, r) in reference.enumerated() {
        if let p = geodeticPositionProblem(latitude: r.latitude, longitude: r.longitude) {
            throw .badReferencePoint(index: i + 1, problem: p)
        }
    }
    for (i, e) in estimates.enumerated() {
        if let p = geodeticPositionProblem(latitude: e.latitude, longitude: e.longitude) { throw .badEstimate(index: i + 1, problem: p) }
    }
    // Estimates by time, ties in file order: the latest at or before t + 0.01 is the first of the
    // largest time not after it (MATLAB's max returns the first maximum).
    let order = estimates.indices.sorted { (estimates[$0].time, $0) < (estimates[$1].time, $1) }
    var errors: [Double] = [], horizontal: [Double] = [], hits = 0, timely = 0
    for (i, r) in reference.enumerated() {
        // Last position in `order` whose time − r.time ≤ 0.01 (as the script compares the difference).
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if estimates[order[mid]].time - r.time <= 0.01 { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { throw .noEstimate(index: i + 1, time: r.time) }
        // The first of the estimates sharing that time: a second binary search (walking back one
        // estimate at a time was O(n·m) when many share a time).
        let latest = estimates[order[lo - 1]].time
        var first = 0, last = lo - 1
        while first < last {
            let mid = (first + last) / 2
            if estimates[order[mid]].time < latest { first = mid + 1 } else { last = mid }
        }
        let k = first
        let e = estimates[order[k]]
        if abs(e.time - r.time) <= 0.5 { timely += 1 }
        let g = geodeticToNED(
            latitude: r.latitude, longitude: r.longitude, height: venueAltitude, originLatitude: lat0, originLongitude: lon0,
            originHeight: venueAltitude)
        let c = geodeticToNED(
            latitude: e.latitude, longitude: e.longitude, height: venueAltitude, originLatitude: lat0, originLongitude: lon0,
            originHeight: venueAltitude)
        let h = ((g.north - c.north) * (g.north - c.north) + (g.east - c.east) * (g.east - c.east)).squareRoot()
        let floorDifference = abs(r.floor - e.floor)
        if floorDifference == 0 { hits += 1 }
        horizontal.append(h)
        errors.append(h + floorPenalty * floorDifference)
    }
    let n = Double(errors.count)
    let sorted = errors.sorted()
    return IPINTrack3Score(
        points: timely, referencePoints: errors.count, ipinScore: quantile(sorted: sorted, 0.75, method: .hazen),
        mean: errors.reduce(0, +) / n, rmse: (errors.reduce(0) { $0 + $1 * $1 } / n).squareRoot(),
        median: quantile(sorted: sorted, 0.5, method: .hazen), p95: quantile(sorted: sorted, 0.95, method: .hazen),
        floorHitRate: Double(hits) / n, meanHorizontalError: horizontal.reduce(0, +) / n, errors: errors)
}
