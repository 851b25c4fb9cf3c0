import Foundation
import NavCore
import NavIO
import NavSynth
import NavTestSupport
import Testing

@Suite struct RoundTripTests {
    /// A position no venue has (1e308 m: finite, so the finiteness check passed it, and it
    /// crashed the guidance replay) is a validation error naming the dataset and the row.
    @Test func positionsBeyondTenThousandKilometresAreRefused() throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var s = try #require(synthesizeVenue(seed: 3).first { $0.session.anchors != nil }).session
        s.anchors!.poses[0].translation = Vector3(1e308, 0, 0)
        try writeTrace(s, to: dir + "/huge.h5")
        let report = validateTrace(at: dir + "/huge.h5")
        let e = try #require(report.errors.first?.error)
        #expect(e.object == "/anchors/position" && e.problem == "row 0: 1e+308 outside [-10000000, 10000000]", "\(e)")
        s.anchors!.poses[0].translation = Vector3(9.9e6, 0, -9.9e6)  // a UTM northing still fits
        try writeTrace(s, to: dir + "/utm.h5")
        #expect(validateTrace(at: dir + "/utm.h5").errors.isEmpty)
    }

    @Test func writeThenReadIsLossless() throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = synthesizeVenue(seed: 3)[1].session
        let path = dir + "/s.h5"
        try writeTrace(original, to: path)
        let back = try readTrace(at: path)
        #expect(back.metadata == original.metadata)
        #expect(back.imu?.accelerometer == original.imu?.accelerometer)
        #expect(back.imu?.attitude == original.imu?.attitude)
        #expect(back.compass?.heading == original.compass?.heading)
        #expect(back.ble?.beacons == original.ble?.beacons)
        #expect(back.ble?.beaconIndex == original.ble?.beaconIndex)
        #expect(back.vio?.poses == original.vio?.poses)
        #expect(back.vio?.trackingState == original.vio?.trackingState)
        #expect(back.anchors?.poses == original.anchors?.poses)
        #expect(back.location?.floor == original.location?.floor)
        #expect(back.groundTruth?.poses == original.groundTruth?.poses)
        #expect(back.groundTruth?.floor == original.groundTruth?.floor)
    }

    @Test func sameSessionGivesIdenticalBytes() throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = synthesizeVenue(seed: 11)[0].session
        try writeTrace(s, to: dir + "/a.h5")
        try writeTrace(s, to: dir + "/b.h5")
        #expect(try sha256Hex(ofFile: dir + "/a.h5") == sha256Hex(ofFile: dir + "/b.h5"))
    }

    @Test func largeStreamsAreChunkedAndCompressed() throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try writeTrace(synthesizeVenue(seed: 1)[0].session, to: dir + "/a.h5")
        let r = try HDF5Reader(path: dir + "/a.h5")
        #expect(try r.info("/imu/accelerometer").isChunked)
        #expect(try !r.info("/anchors/position").isChunked)
    }

    @Test func abandonedWriterLeavesNoFile() throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let w = try HDF5Writer(path: dir + "/x.h5")
            try w.write("/vio/timestamps", doubles: [0, 1], shape: [2], units: "s")
            // no commit: as if the run were killed
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
