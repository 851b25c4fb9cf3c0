import Foundation
import NavAids
import NavCore
import NavSynth
import Testing

@Suite struct BeaconProximityTests {
    /// The least-squares fit recovers a noiseless log-distance model exactly.
    @Test func fitRecoversTheModel() {
        let d = [0.5, 1, 2, 4, 8, 16.0]
        let m = PathLossModel(rssiAtOneMetre: -61.9, exponent: 1.4)
        let fit = PathLossModel.fit(rssi: d.map { m.rssiAtOneMetre - 10 * m.exponent * log10($0) }, distance: d)!
        #expect(abs(fit.rssiAtOneMetre - m.rssiAtOneMetre) < 1e-9 && abs(fit.exponent - m.exponent) < 1e-12)
        #expect(abs(m.distance(rssi: -61.9 - 14) - 10) < 1e-9)
    }

    /// One missed scan keeps the beacon (scansSinceLastFound > 1 exits); two missed scans exit on the second.
    @Test func missedScanHysteresis() throws {
        let beacon = Beacon(uuid: "U", major: 1, minor: 1, position: Vector3(0, 0, 0))
        // Scans at t = 0…6: present, present, missing, present, missing, missing, present.
        let present = [0.0, 1, 3, 6]
        var p = ProximityParameters()
        p.filter = "none"
        // Scans are the readings' timestamps, so add empty scans via a second beacon far away.
        let far = Beacon(uuid: "U", major: 1, minor: 2, position: Vector3(100, 0, 0))
        var t: [Double] = [], idx: [Int32] = [], rssi: [Double] = []
        for s in 0...6 {
            if present.contains(Double(s)) { t.append(Double(s)); idx.append(0); rssi.append(-60) }
            t.append(Double(s)); idx.append(1); rssi.append(-100)
        }
        let both = BLEStream(timestamps: t, beaconIndex: idx, rssi: rssi, beacons: [beacon, far])
        let r = try runProximity(
            both, truePosition: { _ in Vector3(0.5, 0, 0) }, model: PathLossModel(rssiAtOneMetre: -59, exponent: 2), parameters: p)
        let events = r.events.filter { $0.beacon == 0 }
        #expect(events.map(\.kind) == [.enter, .exit, .enter])
        #expect(events.map(\.time) == [0, 5, 6])
    }

    /// On a synthetic session (path loss −59 dBm, n = 2, shadowing 4 dB): the fit is close to the
    /// generator's model, and a Kalman filter lowers the distance error.
    @Test func syntheticSession() throws {
        let s = synthesizeVenue(seed: 9).first { $0.session.metadata.kind == .navigation }!.session
        let gt = s.groundTruth!
        func position(_ t: Double) -> Vector3? { gt.timestamps.lastIndex { $0 <= t }.map { gt.poses[$0].translation } }
        var p = ProximityParameters()
        let raw = try runProximity(s.ble!, truePosition: position, model: nil, parameters: p)
        #expect(abs(raw.model.exponent - 2) < 0.6)
        #expect(abs(raw.model.rssiAtOneMetre + 59) < 6)
        p.filter = "kalman:q=0.5,r=16"
        let smooth = try runProximity(s.ble!, truePosition: position, model: raw.model, parameters: p)
        let e = { (r: ProximityResult) in proximityMetrics(r, parameters: p).first { $0.name == "distance_error_rmse" }!.value }
        #expect(e(smooth) < e(raw))
    }
}

@Suite struct ScanGroupingTests {
    /// Readings at 0.1, 0.4, 0.9 (beacon 0) and 1.2 (beacons 0, 1) in 1 s scans: two scans, means per beacon.
    @Test func meansPerBeaconPerScan() {
        let b = [Beacon(uuid: "U", major: 1, minor: 1, position: nil), Beacon(uuid: "U", major: 1, minor: 2, position: nil)]
        let s = BLEStream(timestamps: [0.1, 0.4, 0.9, 1.2, 1.2], beaconIndex: [0, 0, 0, 1, 0], rssi: [-60, -70, -80, -50, -65], beacons: b)
        let g = groupIntoScans(s, window: 1)
        #expect(g.timestamps == [0.1, 1.1, 1.1])
        #expect(g.beaconIndex == [0, 0, 1])
        #expect(g.rssi == [-70, -65, -50])
    }
}
