import Foundation
import NavCore
import NavIO
import NavImport
import NavTestSupport
import Testing

// Issue 52, item 1: the `ios-logger` preset (a mapping built from the folder's files, with a
// stream frame and a body rotation). Every expected value is a closed form of the fixture's
// rows (Fixtures/ios-logger/walk/README.md), not the importer's output.

@Suite struct IOSLoggerImportTests {
    static let t0 = 1_600_000_000.0
    static let g = 9.80665

    /// Every stream against closed forms of the fixture's rows (Fixtures/ios-logger/walk/README.md):
    /// the accelerometer, the gyroscope, attitude and magnetometer interpolated at its times, the
    /// two swapped rows of Gyro, Motion and MotARH sorted with a note each, repeats and an invalid
    /// heading noted.
    @Test func walkAgainstClosedForms() throws {
        let folder = fixture("ios-logger/walk")
        let r = try importIOSLogger(folder)
        let expectedNotes: [String] = [
            "\(folder)/Gyro.txt: imu: 2 rows out of time order sorted (ios-logger sorts rows by time; largest step back 0.01 s)",
            "\(folder)/Motion.txt: imu: 2 rows out of time order sorted (ios-logger sorts rows by time; largest step back 0.01 s)",
            "\(folder)/Head.txt: compass: 1 of 4 rows dropped as invalid (first: line 3, column 'headingAccuracy(deg)': accuracy is -1 deg, expected a value in [0, 360])",
            "\(folder)/Head.txt: compass: 1 repeated times; kept the last row of each repeat (first: line 2, column 'time(s)', 1600000000 s)",
            "\(folder)/GPS.txt: location: 1 repeated times; kept the last row of each repeat (first: line 2, column 'time(s)', 1600000000.01 s)",
        ]
        #expect(r.notes == expectedNotes)
        let (s, _) = try roundTrip(r)
        let imu = try #require(s.imu)
        #expect(imu.timestamps.count == 10)
        let world = mul(nwuToARKit, [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
        var worstAttitude = 0.0
        for k in 0..<10 {
            let sa = 0.002 + 0.01 * Double(k)  // seconds after t0
            #expect(abs(imu.timestamps[k] - (Self.t0 + sa)) < 1e-6)
            // Accel (0.01k, 0.02, −1) g → specific force (−0.01k, −0.02, 1) g → camera axes (−y, x, z).
            #expect(near(imu.accelerometer[k], Vector3(0.02 * Self.g, -0.01 * Double(k) * Self.g, Self.g), 1e-12))
            // Gyro (0.1 + s, −0.2, 0.5 s), linear in time, at the accelerometer's time → (0.2, 0.1 + s, 0.5 s).
            #expect(near(imu.gyroscope[k], Vector3(0.2, 0.1 + sa, 0.5 * sa), 1e-6))
            // Magnet (20 + 100 s, −5, −40) µT → (5, 20 + 100 s, −40).
            #expect(near(imu.magnetometer![k], Vector3(5, 20 + 100 * sa, -40), 1e-4))
            // Motion: θ = 0.2 + 5 s about CoreMotion's z; trace attitude W · Rz(θ) · R(r).
            let expected = mul(mul(world, rz(0.2 + 5 * sa)), cameraInDevice)
            worstAttitude = max(worstAttitude, maxDifference(imu.attitude![k].rotationMatrix, expected))
            // The phone lies flat: the world specific force W · Rz(θ) · f_CM has +g on the up axis (+y).
            let f = [-0.01 * Double(k) * Self.g, -0.02 * Self.g, Self.g]
            let m = mul(world, rz(0.2 + 5 * sa))
            let fw = Vector3(
                m[0][0] * f[0] + m[0][1] * f[1] + m[0][2] * f[2], m[1][0] * f[0] + m[1][1] * f[1] + m[1][2] * f[2],
                m[2][0] * f[0] + m[2][1] * f[1] + m[2][2] * f[2])
            #expect(fw.y == Self.g && near(imu.attitude![k].act(on: imu.accelerometer[k]), fw, 1e-4))
        }
        #expect(worstAttitude < 1e-5)
        let vio = try #require(s.vio)
        #expect(vio.timestamps.count == 4)
        for k in 0..<4 {
            #expect(abs(vio.timestamps[k] - (Self.t0 + 0.0333 * Double(k))) < 1e-6)
            #expect(near(vio.poses[k].translation, Vector3(0.1 * Double(k), 0.01, -0.2 * Double(k)), 1e-12))
            #expect(maxDifference(vio.poses[k].rotation.rotationMatrix, ry(0.1 * Double(k))) < 2e-6)
        }
        let compass = try #require(s.compass)
        #expect(compass.timestamps.map { ($0 - Self.t0).rounded(toPlaces: 6) } == [0, 0.08])
        #expect(compass.heading == [350.5, 10.25] && compass.accuracy == [15, 12])
        let loc = try #require(s.location)
        #expect(loc.timestamps.map { ($0 - Self.t0).rounded(toPlaces: 6) } == [0.01, 0.09])
        #expect(loc.latitude == [48.85837, 48.858371] && loc.longitude == [2.294481, 2.294483])
        #expect(loc.horizontalAccuracy == [5, 6.5] && loc.altitude == [35, 35.5])
        #expect(loc.floor == [LocationStream.noFloor, LocationStream.noFloor])
        #expect(s.metadata.device == "iOS device (ios_logger)")
    }

    /// `--gyroscope device-motion`: MotARH's rotationRate (0.05, 0.2 s, −0.3), its two swapped rows
    /// sorted, → camera axes (−0.2 s, 0.05, −0.3) at the accelerometer's times.
    @Test func deviceMotionGyroscope() throws {
        let folder = fixture("ios-logger/walk")
        let r = try importIOSLogger(folder, gyroscope: .deviceMotion)
        #expect(
            r.notes.contains("\(folder)/MotARH.txt: imu: 2 rows out of time order sorted (ios-logger sorts rows by time; largest step back 0.01 s)"))
        #expect(!r.notes.contains { $0.hasPrefix("\(folder)/Gyro.txt") })
        let imu = try #require(r.session.imu)
        for k in 0..<10 {
            let sa = 0.002 + 0.01 * Double(k)
            #expect(near(imu.gyroscope[k], Vector3(-0.2 * sa, 0.05, -0.3), 1e-6))
        }
    }

    @Test func missingFiles() throws {
        let dir = temporaryFolder()
        let src = fixture("ios-logger/walk")
        try FileManager.default.copyItem(atPath: src + "/Accel.txt", toPath: dir + "/Accel.txt")
        expectError(
            TraceError(
                .missing, file: dir + "/Gyro.txt",
                "not found; expected ios_logger's gyroscope file, lines of time(s),gx(rad/s),gy(rad/s),gz(rad/s) (required)")
        ) {
            _ = try importIOSLogger(dir)
        }
        try FileManager.default.copyItem(atPath: src + "/Gyro.txt", toPath: dir + "/Gyro.txt")
        try Data().write(to: URL(fileURLWithPath: dir + "/GPS.txt"))
        let r = try importIOSLogger(dir)
        #expect(
            r.notes.prefix(5) == [
                "\(dir)/Motion.txt: not found; no attitude imported", "\(dir)/Magnet.txt: not found; no magnetometer imported",
                "\(dir)/ARposes.txt: not found; no ARKit camera pose imported", "\(dir)/Head.txt: not found; no heading imported",
                "\(dir)/GPS.txt: empty file (0 bytes); no location imported",
            ])
        #expect(r.session.imu?.timestamps.count == 10 && r.session.imu?.attitude == nil && r.session.vio == nil)
        expectError(
            TraceError(
                .missing, file: dir + "/MotARH.txt",
                "not found; expected ios_logger's device motion file, lines of time(s),rotationRate.x(rad/s),rotationRate.y(rad/s),rotationRate.z(rad/s),gravity.x(g),gravity.y(g),gravity.z(g),userAccel.x(g),userAccel.y(g),userAccel.z(g),motionHeading(deg) (required with --gyroscope device-motion)"
            )
        ) {
            _ = try importIOSLogger(dir, gyroscope: .deviceMotion)
        }
    }

    /// Hostile numbers: a short line, text in a number field, a NaN and a time far out of range
    /// are one line each naming the file and line; nothing traps.
    @Test func hostileRows() throws {
        let src = fixture("ios-logger/walk")
        func folder(gyro: String, _ label: String = #function) throws -> String {
            let dir = temporaryFolder(label)
            try FileManager.default.copyItem(atPath: src + "/Accel.txt", toPath: dir + "/Accel.txt")
            try gyro.write(toFile: dir + "/Gyro.txt", atomically: true, encoding: .utf8)
            return dir
        }
        let short = try folder(gyro: "1600000000.0,0.1,0.2\r\n", "short")
        expectError(
            TraceError(
                .wrongShape, file: short + "/Gyro.txt", object: "line 1",
                "expected 4 comma-separated fields (time(s),gx(rad/s),gy(rad/s),gz(rad/s)), found 3")
        ) { _ = try importIOSLogger(short) }
        let text = try folder(gyro: "1600000000.0,0.1,0.2,0.3\r\n1600000000.1,zero,0.2,0.3\r\n", "text")
        expectError(
            TraceError(.badValue, file: text + "/Gyro.txt", object: "line 2, column 'gx(rad/s)'", "expected a number, found 'zero'")
        ) { _ = try importIOSLogger(text) }
        let huge = try folder(gyro: "1600000000.0,0.1,0.2,0.3\r\n1e400,0.1,0.2,0.3\r\n", "huge")
        expectError(
            TraceError(
                .badTimestamps, file: huge + "/Gyro.txt", object: "line 2, column 'time(s)'",
                "time inf s, expected a finite number (an input interpolated from needs finite, increasing times)")
        ) { _ = try importIOSLogger(huge) }
        let nan = try folder(gyro: "1600000000.0,0.1,0.2,0.3\r\n1600000000.1,nan,0.2,0.3\r\n", "nan")
        expectError(
            TraceError(
                .badValue, file: nan + "/Accel.txt", object: "line 1, gyroscope interpolated from Gyro.txt",
                "gyroscope x is nan, expected a finite number (--drop-invalid-rows leaves such rows out)")
        ) { _ = try importIOSLogger(nan) }
    }
}

extension Double {
    fileprivate func rounded(toPlaces p: Int) -> Double {
        let f = Foundation.pow(10.0, Double(p))
        return (self * f).rounded() / f
    }
}
