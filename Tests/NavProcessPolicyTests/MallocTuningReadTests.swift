import Foundation
import NavCore
import NavIO
import NavProcessPolicy
import NavTestSupport
import Testing

/// `keepLargeBuffersMapped` (glibc's thresholds and the small-allocation reserve, as the CLI sets
/// them) changes where arrays live, never what a read returns.
@Suite struct MallocTuningReadTests {
    /// Three datasets of the peer-bench IMU shape (N, N×3, N×3; 7.2 MB each, above the huge-page
    /// size), contiguous and shuffle + gzip, read three times in a row after the tuning: every
    /// value equals the one written, bit for bit (signed zeros, subnormals and NaN payloads too).
    @Test func repeatedLargeReadsAfterTheTuningAreBitIdentical() throws {
        keepLargeBuffersMapped()
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let n = 300_000
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(bitPattern: state)
        }
        let t = (0..<n).map { Double($0) / 100 }
        var accel = (0..<(3 * n)).map { _ in next() }
        accel[0] = -0.0
        accel[1] = .leastNonzeroMagnitude
        let gyro = (0..<(3 * n)).map { _ in next() }
        for compression in [HDF5Compression.none, .gzip(level: 1)] {
            let path = dir + "/imu-\(compression).h5"
            let w = try HDF5Writer(path: path)
            w.compression = compression
            try w.write("/imu/timestamps", doubles: t, shape: [n], units: "s")
            try w.write("/imu/accel", doubles: accel, shape: [n, 3], units: "m/s^2")
            try w.write("/imu/gyro", doubles: gyro, shape: [n, 3], units: "rad/s")
            try w.commit()
            for _ in 0..<3 {
                let r = try HDF5Reader(path: path)
                for (name, expected) in [("/imu/timestamps", t), ("/imu/accel", accel), ("/imu/gyro", gyro)] {
                    let values = try r.readDoubles(name).values
                    #expect(values.map(\.bitPattern) == expected.map(\.bitPattern), "\(compression) \(name)")
                }
            }
        }
    }
}
