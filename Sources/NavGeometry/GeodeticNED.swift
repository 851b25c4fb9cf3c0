import NavCore
import RealModule

/// WGS84 geodetic coordinates to a local north-east-down frame, as MATLAB's
/// `geodetic2ned(lat, lon, h, lat0, lon0, h0, wgs84Ellipsoid('meters'))` and pymap3d's
/// `geodetic2ned` compute them: each point and the origin to Earth-centred Earth-fixed
/// coordinates, x = (N + h) cos φ cos λ, y = (N + h) cos φ sin λ, z = (N(1 − e²) + h) sin φ with
/// N = a / √(1 − e² sin² φ) (a = 6,378,137 m, f = 1/298.257223563), then their difference
/// rotated into the origin's north, east and down axes.
///
/// Angles in degrees, heights in metres above the ellipsoid.
///
/// Complexity: O(1).
public func geodeticToNED(
    latitude: Double, longitude: Double, height: Double, originLatitude: Double, originLongitude: Double, originHeight: Double
) -> (north: Double, east: Double, down: Double) {
    let p = wgs84ECEF(latitude: latitude, longitude: longitude, height: height)
    let o = wgs84ECEF(latitude: originLatitude, longitude: originLongitude, height: originHeight)
    let dx = p.x - o.x, dy = p.y - o.y, dz = p.z - o.z
    let phi = originLatitude * .pi / 180, lambda = originLongitude * .pi / 180
    let sp = Double.sin(phi), cp = Double.cos(phi), sl = Double.sin(lambda), cl = Double.cos(lambda)
    // ENU of the difference (the rotation about the origin's meridian and parallel), then NED.
    let east = -sl * dx + cl * dy
    let t = cl * dx + sl * dy
    let north = -sp * t + cp * dz
    let up = cp * t + sp * dz
    return (north, east, -up)
}

/// What is wrong with a geodetic position (nil: nothing): latitude within ±90°, longitude within
/// ±180°, height within ±100 km of the ellipsoid — the one check of coordinates read from a file
/// or a flag before they are converted (1e308 would give NaN metres, 371° a silent wrap).
public func geodeticPositionProblem(latitude: Double, longitude: Double, height: Double = 0) -> String? {
    guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
        return "(\(formatNumber(latitude)), \(formatNumber(longitude))) is not a latitude within ±90° and a longitude within ±180°"
    }
    guard height.isFinite, abs(height) <= 100_000 else { return "height \(formatNumber(height)) m is not within ±100 km of the WGS84 ellipsoid" }
    return nil
}

/// WGS84 geodetic (degrees, metres) to Earth-centred Earth-fixed coordinates, metres.
func wgs84ECEF(latitude: Double, longitude: Double, height: Double) -> (x: Double, y: Double, z: Double) {
    let a = 6_378_137.0, f = 1 / 298.257_223_563
    let e2 = f * (2 - f)
    let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
    let sp = Double.sin(phi), cp = Double.cos(phi)
    let n = a / (1 - e2 * sp * sp).squareRoot()
    return ((n + height) * cp * Double.cos(lambda), (n + height) * cp * Double.sin(lambda), (n * (1 - e2) + height) * sp)
}
