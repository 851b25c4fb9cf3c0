import Foundation
import NavCore
import NavIO
import Testing

/// Facts about h5py_session.h5 computed by numpy when scripts/make_fixtures.py wrote it.
struct H5pyFacts: Decodable {
    var imu_samples: Int
    var accelerometer_sum: Double
    var accelerometer_row_4321: [Double]
    var compass_heading_sum_as_float64: Double
    var ble_rows: Int
    var beacon_minor: [Int32]
    var vio_samples: Int
    var vio_position_last: [Double]
    var anchor_ids: [Int32]
    var location_floor_sum: Int
    var groundtruth_samples: Int
    var groundtruth_path_length: Double
}

@Suite struct H5pyInteropTests {
    let facts = try! JSONDecoder().decode(H5pyFacts.self, from: Data(contentsOf: URL(fileURLWithPath: fixture("h5py_session.json"))))

    @Test func readsAFileWrittenByH5py() throws {
        let s = try readTrace(at: fixture("h5py_session.h5"))
        #expect(s.metadata.kind == .navigation)
        #expect(s.metadata.routeID == "F1")
        let imu = try #require(s.imu)
        #expect(imu.timestamps.count == facts.imu_samples)
        // Sums in a different order than numpy's pairwise sum: equal to 1e-12 relative.
        let sum = imu.accelerometer.reduce(0.0) { $0 + $1.sum() }
        #expect(abs(sum - facts.accelerometer_sum) <= 1e-12 * abs(facts.accelerometer_sum))
        // Single values are bit-exact.
        let row = imu.accelerometer[4321]
        #expect([row.x, row.y, row.z] == facts.accelerometer_row_4321)
        // float32 storage converted to float64 exactly.
        let headingSum = try #require(s.compass).heading.reduce(0, +)
        #expect(abs(headingSum - facts.compass_heading_sum_as_float64) <= 1e-9)
        let ble = try #require(s.ble)
        #expect(ble.rssi.count == facts.ble_rows)
        #expect(ble.beacons.map(\.minor) == facts.beacon_minor)
        #expect(ble.beacons[0].position == Vector3(1, 2.5, -3))
        #expect(ble.beacons[1].position == nil)  // NaN means unknown
        #expect(ble.beacons[0].uuid == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        let vio = try #require(s.vio)
        #expect(vio.poses.count == facts.vio_samples)
        let last = vio.poses.last!.translation
        #expect([last.x, last.y, last.z] == facts.vio_position_last)
        #expect(vio.trackingState.allSatisfy { $0 == .normal })
        #expect(try #require(s.anchors).anchorID == facts.anchor_ids)
        #expect(try #require(s.location).floor.reduce(0) { $0 + Int($1) } == facts.location_floor_sum)
        let gt = try #require(s.groundTruth)
        #expect(gt.poses.count == facts.groundtruth_samples)
        let length = try gt.trajectory.pathLength
        #expect(abs(length - facts.groundtruth_path_length) <= 1e-12 * facts.groundtruth_path_length)
    }

    @Test func inspectReportsRatesAndUnits() throws {
        let s = try inspectTrace(at: fixture("h5py_session.h5"))
        let imu = try #require(s.streams.first { $0.name == "imu" })
        #expect(imu.samples == 5000)
        #expect(abs(imu.meanRateHz - 100) < 1e-9)
        #expect(abs(imu.durationSeconds - 49.99) < 1e-9)
        #expect(imu.datasets.first { $0.name == "accelerometer" }?.units == "m/s^2")
        let ble = try #require(s.streams.first { $0.name == "ble" })
        #expect(ble.largestGapSeconds == 1)
        #expect(s.errors == 0)
    }
}
