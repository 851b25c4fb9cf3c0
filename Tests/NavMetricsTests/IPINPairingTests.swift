import NavMetrics
import Testing

/// The IPIN pairing and its inputs (issue 50, items 5 and 11): the first of estimates sharing a
/// time is found by binary search (200,000 estimates at one time, then 20,000 reference points:
/// the walk back took minutes), and positions off the Earth are one error, not a NaN score.
@Suite struct IPINPairingTests {
    @Test func theFirstOfEqualTimesIsPairedWithoutWalkingBack() throws {
        // Every estimate at t = 0; the first (in file order) is at the reference point, the others 100 m east.
        let lat = 49.4, lon = 11.1
        let far = lon + 100 / 72_600.0
        var estimates = [IPINEstimate(time: 0, longitude: lon, latitude: lat, floor: 0)]
        estimates += Array(repeating: IPINEstimate(time: 0, longitude: far, latitude: lat, floor: 0), count: 199_999)
        let reference = (0..<20_000).map {
            IPINReferencePoint(time: 1 + Double($0) * 1e-3, longitude: lon, latitude: lat, floor: 0, number: Double($0))
        }
        let s = try ipinTrack3Score(reference: reference, estimates: estimates)
        #expect(s.errors.count == 20_000 && s.errors.allSatisfy { $0 < 1e-6 }, "every point paired with the first estimate")
    }

    @Test func positionsOffTheEarthAreRefused() {
        let r = [IPINReferencePoint(time: 1, longitude: 11.1, latitude: 49.4, floor: 0, number: 1)]
        for (lon, lat) in [(371.0, 49.4), (11.1, 95.0), (11.1, 1e308), (.nan, 49.4)] {
            #expect(throws: IPINScoreError.self) {
                try ipinTrack3Score(reference: r, estimates: [IPINEstimate(time: 0, longitude: lon, latitude: lat, floor: 0)])
            }
        }
        #expect(throws: IPINScoreError.self) {
            try ipinTrack3Score(reference: r, estimates: [IPINEstimate(time: 0, longitude: 11.1, latitude: 49.4, floor: 0)], venueAltitude: 1e308)
        }
    }
}
