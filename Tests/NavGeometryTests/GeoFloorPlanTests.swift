import NavCore
import NavGeometry
import Testing

/// Web Mercator map points, metres per map point, and the two-anchor floor-plan mapping.
@Suite struct GeoFloorPlanTests {
    @Test func webMercatorKnownValues() {
        let origin = WebMercator.mapPoint(GeoCoordinate(latitude: 0, longitude: 0))
        #expect(origin == SIMD2(WebMercator.worldSize / 2, WebMercator.worldSize / 2))
        #expect(abs(WebMercator.metresPerMapPoint(atLatitude: 0) - 0.149291070) < 1e-9)
        #expect(abs(WebMercator.metresPerMapPoint(atLatitude: 60) - 0.149291070 / 2) < 1e-9)
        let c = GeoCoordinate(latitude: 42.2932, longitude: -71.2633)
        let back = WebMercator.coordinate(WebMercator.mapPoint(c))
        #expect(abs(back.latitude - c.latitude) < 1e-12 && abs(back.longitude - c.longitude) < 1e-12)
    }

    @Test func roundTripUnderAMillimetre() throws {
        var rng = SeededRandom(seed: 51)
        for lat in [0.0, 42.2932, -33.9, 60.17, 78.2] {
            let a = FloorPlanAnchor(coordinate: GeoCoordinate(latitude: lat, longitude: 10.5), pixel: SIMD2(120, 340))
            let b = FloorPlanAnchor(coordinate: GeoCoordinate(latitude: lat + 0.0008, longitude: 10.5011), pixel: SIMD2(980, 95))
            let g = try FloorPlanGeoreference(a, b)
            let pb = g.pixel(for: b.coordinate)
            #expect(abs(pb.x - b.pixel.x) < 1e-6 && abs(pb.y - b.pixel.y) < 1e-6)
            for _ in 0..<200 {
                // Fixes within ~500 m of the anchors (building / campus scale).
                let c = GeoCoordinate(latitude: lat + rng.uniform(-0.004, 0.004), longitude: 10.5 + rng.uniform(-0.005, 0.005))
                let back = g.coordinate(for: g.pixel(for: c))
                #expect(g.distance(back, c) < 1e-3, "lat \(lat)")
                #expect(g.distance(back, c) < 1e-7)
            }
        }
    }

    @Test func scaleAndRotation() throws {
        // Anchor B 100 m east of A; on the plan it is 500 px straight down (+y): 5 px/m, rotation +90°.
        let lat = 45.0
        let mpp = WebMercator.metresPerMapPoint(atLatitude: lat)
        let pa = WebMercator.mapPoint(GeoCoordinate(latitude: lat, longitude: 7))
        let bCoord = WebMercator.coordinate(pa + SIMD2(100 / mpp, 0))
        let g = try FloorPlanGeoreference(
            FloorPlanAnchor(coordinate: GeoCoordinate(latitude: lat, longitude: 7), pixel: SIMD2(0, 0)),
            FloorPlanAnchor(coordinate: bCoord, pixel: SIMD2(0, 500)))
        #expect(abs(g.pixelsPerMetre - 5) < 1e-6)
        #expect(abs(g.rotation - .pi / 2) < 1e-9)
        #expect(throws: GeoFloorPlanError.coincidentAnchors) {
            try FloorPlanGeoreference(
                FloorPlanAnchor(coordinate: GeoCoordinate(latitude: 1, longitude: 1), pixel: SIMD2(0, 0)),
                FloorPlanAnchor(coordinate: GeoCoordinate(latitude: 1, longitude: 1), pixel: SIMD2(5, 0)))
        }
    }
}
