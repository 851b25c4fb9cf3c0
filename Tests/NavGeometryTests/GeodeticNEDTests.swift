import Foundation
import NavGeometry
import Testing

/// `geodeticToNED` against closed forms of the WGS84 ellipsoid (pymap3d parity: the IPIN CLI test).
@Suite struct GeodeticNEDTests {
    let a = 6_378_137.0, f = 1 / 298.257_223_563

    /// The origin is (0, 0, 0); a small step north is M(φ)·Δφ metres north (M the meridian radius
    /// of curvature), a small step east N(φ)·cos φ·Δλ metres east (N the prime vertical's), a
    /// metre up is one metre down negative: relative 1e-6 for steps of 1e-5°.
    @Test func smallStepsFollowTheRadiiOfCurvature() {
        let e2 = f * (2 - f)
        for lat in [-33.9, 0.0, 40.4168, 49.4611, 78.2] {
            let lon = 11.1111, h = 314.0, d = 1e-5
            let o = geodeticToNED(latitude: lat, longitude: lon, height: h, originLatitude: lat, originLongitude: lon, originHeight: h)
            #expect(abs(o.north) < 1e-9 && abs(o.east) < 1e-9 && abs(o.down) < 1e-9)
            let s = sin(lat * .pi / 180)
            let m = a * (1 - e2) / pow(1 - e2 * s * s, 1.5) + h, n = a / (1 - e2 * s * s).squareRoot() + h
            let north = geodeticToNED(latitude: lat + d, longitude: lon, height: h, originLatitude: lat, originLongitude: lon, originHeight: h)
            #expect(abs(north.north - m * d * .pi / 180) <= 1e-6 * m * d * .pi / 180, "lat \(lat): \(north.north)")
            #expect(abs(north.east) < 1e-6)
            let east = geodeticToNED(latitude: lat, longitude: lon + d, height: h, originLatitude: lat, originLongitude: lon, originHeight: h)
            let expected = n * cos(lat * .pi / 180) * d * .pi / 180
            #expect(abs(east.east - expected) <= 1e-6 * expected, "lat \(lat): \(east.east)")
            let up = geodeticToNED(latitude: lat, longitude: lon, height: h + 1, originLatitude: lat, originLongitude: lon, originHeight: h)
            #expect(abs(up.down + 1) < 1e-8 && abs(up.north) < 1e-8 && abs(up.east) < 1e-8)
        }
    }
}
