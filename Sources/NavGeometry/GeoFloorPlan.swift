import NavCore
import RealModule

/// A WGS 84 latitude and longitude in degrees.
public struct GeoCoordinate: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) { self.latitude = latitude; self.longitude = longitude }
}

/// Web Mercator "map points", as MapKit's `MKMapPoint`: x grows east, y grows south, and the
/// whole world is `worldSize` = 2²⁸ points square (MKMapSizeWorld).
public enum WebMercator {
    public static let worldSize = 268_435_456.0
    /// WGS 84 equatorial radius, metres (the sphere of the Web Mercator projection).
    public static let earthRadius = 6_378_137.0

    /// x = (λ + 180)/360 · W, y = (1/2 − ln tan(π/4 + φ/2) / (2π)) · W.
    ///
    /// - Complexity: O(1).
    public static func mapPoint(_ c: GeoCoordinate) -> SIMD2<Double> {
        let phi = c.latitude * .pi / 180
        let x = (c.longitude + 180) / 360 * worldSize
        let y = (0.5 - Double.log(Double.tan(.pi / 4 + phi / 2)) / (2 * .pi)) * worldSize
        return SIMD2(x, y)
    }

    /// Inverse of `mapPoint`: λ = x/W·360 − 180, φ = atan(sinh(π·(1 − 2y/W))).
    ///
    /// - Complexity: O(1).
    public static func coordinate(_ p: SIMD2<Double>) -> GeoCoordinate {
        let lon = p.x / worldSize * 360 - 180
        let lat = Double.atan(Double.sinh(.pi * (1 - 2 * p.y / worldSize))) * 180 / .pi
        return GeoCoordinate(latitude: lat, longitude: lon)
    }

    /// Metres per map point at a latitude (MKMetersPerMapPointAtLatitude): 2πR·cos φ / W.
    ///
    /// - Complexity: O(1).
    public static func metresPerMapPoint(atLatitude latitude: Double) -> Double {
        2 * .pi * earthRadius * Double.cos(latitude * .pi / 180) / worldSize
    }
}

/// A point known both on the floor plan (pixels, x right, y down) and on the Earth.
public struct FloorPlanAnchor: Hashable, Sendable, Codable {
    public var coordinate: GeoCoordinate
    public var pixel: SIMD2<Double>
    public init(coordinate: GeoCoordinate, pixel: SIMD2<Double>) { self.coordinate = coordinate; self.pixel = pixel }
}

/// Why two anchors cannot define a floor-plan mapping.
public enum GeoFloorPlanError: Error, Equatable, Sendable, CustomStringConvertible {
    case coincidentAnchors
    case nonFinite

    public var description: String {
        switch self {
        case .coincidentAnchors: return "the two floor-plan anchors must differ both on the map and in pixels"
        case .nonFinite: return "floor-plan anchors must have finite coordinates and latitudes inside (−90°, 90°)"
        }
    }
}

/// Geographic ↔ floor-plan pixel mapping from two anchor points, as in Apple's "Core
/// Location indoors" talk: project both anchors to Web Mercator map points; scale =
/// pixels per metre from the anchors' pixel distance over their distance in metres (map
/// points × metres per map point); rotation = angle of the anchors' pixel vector minus the
/// angle of their (east, south) map vector. A fix is mapped by subtracting anchor A,
/// converting to metres, to pixels, and rotating; `coordinate(for:)` applies the same steps
/// backwards.
///
/// navbench evaluates metres per map point once, at the mean latitude of the two anchors
/// (over a building the scale varies by < 1e-6 relative), so the two directions are exact
/// inverses.
///
/// Numerical contract: `coordinate(for: pixel(for: c))` returns c within 1 mm (in fact ~1e-8 m)
/// for fixes within a few kilometres of the anchors; anchor B maps onto its pixel exactly up
/// to rounding.
public struct FloorPlanGeoreference: Sendable, Equatable {
    public var anchorA: FloorPlanAnchor
    public var anchorB: FloorPlanAnchor
    /// Latitude where metres per map point is evaluated (mean of the anchors'), degrees.
    public var referenceLatitude: Double
    public var metresPerMapPoint: Double
    public var pixelsPerMetre: Double
    /// Rotation from the (east, south) frame to the pixel frame, radians.
    public var rotation: Double
    let mapPointA: SIMD2<Double>

    /// - Throws: `GeoFloorPlanError` for coincident or non-finite anchors.
    /// - Complexity: O(1).
    public init(_ a: FloorPlanAnchor, _ b: FloorPlanAnchor) throws(GeoFloorPlanError) {
        for p in [a, b] {
            guard p.coordinate.latitude.isFinite, p.coordinate.longitude.isFinite, abs(p.coordinate.latitude) < 90,
                p.pixel.x.isFinite, p.pixel.y.isFinite
            else { throw .nonFinite }
        }
        anchorA = a; anchorB = b
        mapPointA = WebMercator.mapPoint(a.coordinate)
        let mapVector = WebMercator.mapPoint(b.coordinate) - mapPointA
        let pixelVector = b.pixel - a.pixel
        referenceLatitude = (a.coordinate.latitude + b.coordinate.latitude) / 2
        metresPerMapPoint = WebMercator.metresPerMapPoint(atLatitude: referenceLatitude)
        let metres = (mapVector * mapVector).sum().squareRoot() * metresPerMapPoint
        let pixels = (pixelVector * pixelVector).sum().squareRoot()
        guard metres > 0, pixels > 0 else { throw .coincidentAnchors }
        pixelsPerMetre = pixels / metres
        rotation = Double.atan2(y: pixelVector.y, x: pixelVector.x) - Double.atan2(y: mapVector.y, x: mapVector.x)
    }

    /// Floor-plan pixel of a geographic fix.
    ///
    /// - Complexity: O(1).
    public func pixel(for c: GeoCoordinate) -> SIMD2<Double> {
        let metres = (WebMercator.mapPoint(c) - mapPointA) * metresPerMapPoint  // east, south
        let px = metres * pixelsPerMetre
        let cr = Double.cos(rotation), sr = Double.sin(rotation)
        return anchorA.pixel + SIMD2(cr * px.x - sr * px.y, sr * px.x + cr * px.y)
    }

    /// Geographic coordinate of a floor-plan pixel (the inverse of `pixel(for:)`).
    ///
    /// - Complexity: O(1).
    public func coordinate(for pixel: SIMD2<Double>) -> GeoCoordinate {
        let d = pixel - anchorA.pixel
        let cr = Double.cos(rotation), sr = Double.sin(rotation)
        let px = SIMD2(cr * d.x + sr * d.y, -sr * d.x + cr * d.y)
        let mp = px / pixelsPerMetre / metresPerMapPoint + mapPointA
        return WebMercator.coordinate(mp)
    }

    /// Ground distance between two coordinates near the anchors, metres (map-point
    /// distance × metres per map point at the reference latitude).
    ///
    /// - Complexity: O(1).
    public func distance(_ a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
        let d = WebMercator.mapPoint(a) - WebMercator.mapPoint(b)
        return (d * d).sum().squareRoot() * metresPerMapPoint
    }
}
