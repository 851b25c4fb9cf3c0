import Foundation
import NavCore
import NavIO
import NavTestSupport
import Testing

@testable import NavImport

/// Issue 31 item 4: a phone log as labs write it — accelerometer and gyroscope in separate files
/// with their own clocks and rates, a date-time column, CoreMotion's north-west-up world frame
/// and motion-capture ground truth as rotation matrices — imported with one mapping file.
@Suite struct MultiFileImportTests {
    /// Unix time of 2021-03-13 10:05:11 UTC (the accelerometer's first row).
    static let start = 1_615_629_911.0
    /// The gyroscope's clock: nanoseconds since boot; boot was at this Unix time.
    static let boot = 1_615_629_000.5

    static let mapping = """
        navbench_mapping: 1
        source: csv
        frame: nwu                       # CoreMotion's xMagneticNorthZVertical
        inputs:
          - time: {column: time, units: datetime}
          - time: {column: t_ns, units: ns}
            offset: \(boot)
          - time: {column: time, units: datetime}
        streams:
          imu:
            accelerometer: {columns: [ax, ay, az], units: g, scale: -1}
            gyroscope: {input: 2, columns: [gx, gy, gz], units: rad/s}
          groundtruth:
            input: 3
            position: {columns: [px, py, pz], units: mm}
            orientation: {columns: [r11, r12, r13, r21, r22, r23, r31, r32, r33], order: row-major}
          ble:
            input: 3
            beacon: {value: 1}
            rssi: {column: rssi, units: dBm}
        """

    /// The three files: accelerometer 100 Hz for 2 s, gyroscope 94 Hz from 0.045 s to 1.885 s, and
    /// ground truth at 10 Hz: the body turned ψ = 0.3 t rad about up, at (1 + t, 2, 0.5) m north-west-up.
    static func files(_ dir: String) throws -> [String] {
        var acc = "time,ax,ay,az\n"
        for k in 0..<200 {
            let t = Double(k) / 100
            let stamp = String(format: "2021-03-13 10:05:%02d.%03d", 11 + k / 100, (k % 100) * 10)
            acc += "\(stamp),\(0.01 * t),0,-1\n"
        }
        var gyro = "t_ns,gx,gy,gz\n"
        for k in 0..<174 {
            let t = 0.045 + Double(k) / 94
            let ns = Int64(((start + t - boot) * 1e9).rounded())
            gyro += "\(ns),\(1 + 2 * t),\(-t),0.25\n"
        }
        var gt = "time,px,py,pz,r11,r12,r13,r21,r22,r23,r31,r32,r33,rssi\n"
        for k in 0..<20 {
            let t = Double(k) / 10
            let psi = 0.3 * t, c = cos(psi), s = sin(psi)
            let r = [c, -s, 0, s, c, 0, 0, 0, 1].map { String(format: "%.7f", $0) }.joined(separator: ",")
            gt += String(format: "2021-03-13 10:05:%02d.%03d", 11 + k / 10, (k % 10) * 100) + ",\((1 + t) * 1000),2000,500,\(r),-70\n"
        }
        let paths = ["acc.csv", "gyro.csv", "mocap.csv"].map { dir + "/" + $0 }
        for (p, text) in zip(paths, [acc, gyro, gt]) { try text.write(toFile: p, atomically: true, encoding: .utf8) }
        return paths
    }

    @Test func onePhoneLogFromThreeFilesWithOneMapping() throws {
        let dir = temporaryFolder()
        let paths = try Self.files(dir)
        let mapping = try ImportMapping.parse(Self.mapping, file: "phone.mapping.yaml")
        let result = try importCSV(paths, mapping: mapping)
        let (s, _) = try roundTrip(result)
        let imu = try #require(s.imu)
        // Accelerometer rows within the gyroscope's span [0.045, 1.885] s: 0.05 … 1.88 s.
        #expect(imu.timestamps.count == 184)
        #expect(imu.timestamps.first == Self.start + 0.05)
        #expect(result.notes.contains { $0.contains("imu: 16 rows outside the time span of \(paths[1]) left out") })
        for (t, g) in zip(imu.timestamps, imu.gyroscope) {
            let u = t - Self.start
            #expect(abs(g.x - (1 + 2 * u)) < 1e-6 && abs(g.y + u) < 1e-6 && g.z == 0.25)
        }
        // Specific force: CoreMotion's −1 g on z, scaled by −1, in m/s².
        #expect(imu.accelerometer.allSatisfy { $0.z == 9.80665 })
        // Ground truth: north-west-up → ARKit (x east = −west, y up, z south = −north), mm → m; the
        // world side of each orientation turned (W·R), the body's axes kept: its z (up) is ARKit's +y.
        let gt = try #require(s.groundTruth)
        #expect(gt.timestamps.count == 20 && gt.timestamps[3] == Self.start + 0.3)
        #expect((gt.poses[3].translation - Vector3(-2, 0.5, -1.3)).norm < 1e-12)
        for (i, pose) in gt.poses.enumerated() {
            let psi = 0.3 * Double(i) / 10
            let expected = WorldFrame.nwu.toARKit.quaternion * Quaternion(axis: Vector3(0, 0, 1), angle: psi)
            #expect((pose.rotation.conjugate * expected).normalized.angle < 1e-6, "row \(i)")
            #expect((pose.rotation.act(on: Vector3(0, 0, 1)) - Vector3(0, 1, 0)).norm < 1e-6)
        }
        // A constant beacon key.
        let ble = try #require(s.ble)
        #expect(ble.beacons.map(\.uuid) == ["1"] && ble.rssi.count == 20)
    }

    /// Windows line ends (CRLF, one Character in Swift's strings) split lines as LF does: the same
    /// session from both (was: a CRLF file read as one line).
    @Test func crlfFilesReadAsLFFiles() throws {
        let dir = temporaryFolder()
        let paths = try Self.files(dir)
        let mapping = try ImportMapping.parse(Self.mapping, file: "phone.mapping.yaml")
        let lf = try importCSV(paths, mapping: mapping).session
        for p in paths {
            let text = try String(contentsOfFile: p, encoding: .utf8)
            try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: p, atomically: true, encoding: .utf8)
        }
        let crlf = try importCSV(paths, mapping: mapping).session
        #expect(crlf.imu?.timestamps == lf.imu?.timestamps && crlf.imu?.gyroscope == lf.imu?.gyroscope)
        #expect(crlf.groundTruth?.poses == lf.groundTruth?.poses && crlf.imu?.timestamps.count == 184)
        let ipinPath = dir + "/trial.txt"
        try IPINLogfileImportTests.log().replacingOccurrences(of: "\n", with: "\r\n").write(toFile: ipinPath, atomically: true, encoding: .utf8)
        let ipin = try importIPINLogfile(ipinPath).session
        #expect(ipin.groundTruth?.timestamps == [1, 2, 3] && ipin.imu?.timestamps.count == 200)
    }

    @Test func theSameMatrixStoredColumnMajor() throws {
        let m = [0.0, -1, 0, 1, 0, 0, 0, 0, 1]  // 90° about z, row-major
        let q = reorderQuaternion(m, order: .rowMajor)
        let c = reorderQuaternion([0, 1, 0, -1, 0, 0, 0, 0, 1], order: .columnMajor)
        #expect(zip(q, c).allSatisfy { abs($0 - $1) < 1e-15 })
        #expect(abs(q[2] - 0.5.squareRoot()) < 1e-15 && abs(q[3] - 0.5.squareRoot()) < 1e-15)
        #expect(reorderQuaternion([2.0, 0, 0, 0, 1, 0, 0, 0, 1], order: .rowMajor) == [0, 0, 0, 0])  // not a rotation
    }

    /// ios_logger's files hold a few swapped rows (issue 52): `--sort-by-time` imports them as the
    /// ordered files import (every stream equal), each input's sorted rows counted in a note;
    /// without it the first row out of order is refused.
    @Test func rowsOutOfOrderAreSortedWhenAsked() throws {
        let dir = temporaryFolder()
        let paths = try Self.files(dir)
        let mapping = try ImportMapping.parse(Self.mapping, file: "phone.mapping.yaml")
        let ordered = try importCSV(paths, mapping: mapping).session
        for (p, swaps) in zip(paths.prefix(2), [[(101, 102)], [(51, 52), (120, 121)]]) {
            var lines = try String(contentsOfFile: p, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (a, b) in swaps { lines.swapAt(a, b) }
            try lines.joined(separator: "\n").write(toFile: p, atomically: true, encoding: .utf8)
        }
        #expect(throws: TraceError.self) { _ = try importCSV(paths, mapping: mapping) }
        var options = ImportOptions()
        options.sortRowsByTime = true
        let sorted = try importCSV(paths, mapping: mapping, options: options)
        let imu = try #require(sorted.session.imu), orderedIMU = try #require(ordered.imu)
        #expect(imu.timestamps == orderedIMU.timestamps)
        #expect(imu.accelerometer == orderedIMU.accelerometer && imu.gyroscope == orderedIMU.gyroscope)
        let gt = try #require(sorted.session.groundTruth), orderedGT = try #require(ordered.groundTruth)
        #expect(gt.timestamps == orderedGT.timestamps && gt.poses == orderedGT.poses)
        #expect(sorted.notes.contains("\(paths[0]): imu: 2 rows out of time order sorted (--sort-by-time; largest step back 0.01 s)"))
        #expect(sorted.notes.contains { $0.hasPrefix("\(paths[1]): imu: 4 rows out of time order sorted") })
    }

    /// Constant values for any component count (issue 52): one number for every component, or one
    /// per component, converted by the units like a column; a wrong count is named.
    @Test func constantVectorsForAnyComponentCount() throws {
        let dir = temporaryFolder()
        let csv = dir + "/a.csv"
        try "t,ax,ay,az\n0.00,0,0,9.8\n0.01,0,0,9.7\n0.02,0,0,9.8\n".write(toFile: csv, atomically: true, encoding: .utf8)
        func mapping(_ gyro: String) throws(TraceError) -> ImportMapping {
            try ImportMapping.parse(
                "navbench_mapping: 1\nsource: csv\ntime: {column: t, units: s}\nstreams:\n  imu:\n"
                    + "    accelerometer: {columns: [ax, ay, az], units: m/s^2}\n    gyroscope: \(gyro)\n", file: "m.yaml")
        }
        let each = try importCSV(csv, mapping: try mapping("{value: [90, 0, -45], units: deg/s}")).session
        #expect(each.imu?.gyroscope == Array(repeating: Vector3(Double.pi / 2, 0, -Double.pi / 4), count: 3))
        let one = try importCSV(csv, mapping: try mapping("{value: 0, units: rad/s}")).session
        #expect(one.imu?.gyroscope == Array(repeating: Vector3(0, 0, 0), count: 3))
        expectError(TraceError(.badValue, file: "m.yaml", object: "line 7, streams.imu.gyroscope.value", "expected 3 numbers for gyroscope, found 2"))
        {
            _ = try mapping("{value: [1, 2], units: rad/s}")
        }
    }

    @Test func mistakesAreNamed() throws {
        let dir = temporaryFolder()
        let paths = try Self.files(dir)
        let mapping = try ImportMapping.parse(Self.mapping, file: "phone.mapping.yaml")
        expectError(
            TraceError(
                .badValue, file: "phone.mapping.yaml", object: "inputs",
                "the mapping describes 3 input files (inputs:), 1 given; give them in the order of inputs:")
        ) { _ = try importCSV(paths[0], mapping: mapping) }
        let wrongInput = Self.mapping.replacingOccurrences(of: "gyroscope: {input: 2,", with: "gyroscope: {input: 4,")
        expectError(
            TraceError(
                .badValue, file: "m.yaml", object: "line 12, streams.imu.gyroscope.input",
                "input 4 is not among the 3 inputs of inputs: (give one entry per input file)")
        ) { _ = try ImportMapping.parse(wrongInput, file: "m.yaml") }
        try "time,ax,ay,az\n2021-02-29 10:00:00,0,0,-1\n".write(toFile: paths[0], atomically: true, encoding: .utf8)
        expectError(
            TraceError(
                .badValue, file: paths[0], object: "line 2, column 'time'",
                "expected date-time text such as 2021-03-13 10:05:11.250 (UTC unless a zone Z or ±hh:mm follows), found '2021-02-29 10:00:00'")
        ) { _ = try importCSV(paths, mapping: mapping) }
    }

    /// Date-time text against Foundation's calendar (UTC), zones and fractions included.
    @Test func dateTimeTextIsUnixTime() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func reference(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> Double {
            calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!.timeIntervalSince1970
        }
        #expect(secondsSinceEpoch(dateTime: "1970-01-01T00:00:00Z") == 0)
        #expect(secondsSinceEpoch(dateTime: "2021-03-13 10:05:11") == reference(2021, 3, 13, 10, 5, 11))
        #expect(secondsSinceEpoch(dateTime: "2000-02-29T12:00:00+01:30") == reference(2000, 2, 29, 12, 0, 0) - 5400)
        #expect(secondsSinceEpoch(dateTime: "1969-12-31T23:59:59.5-0100") == reference(1970, 1, 1, 0, 59, 59) + 0.5)
        #expect(secondsSinceEpoch(dateTime: "2024-12-31 23:59:59,25") == reference(2024, 12, 31, 23, 59, 59) + 0.25)
        for y in stride(from: 1900, through: 2100, by: 7) {
            #expect(secondsSinceEpoch(dateTime: String(format: "%04d-07-04T06:30:00", y)) == reference(y, 7, 4, 6, 30, 0))
        }
        for bad in [
            "2021-02-29 00:00:00", "2021-13-01 00:00:00", "2021-04-31T00:00:00", "2021-01-01 24:00:00", "2021-01-01", "2021-01-01 10:00:00 UTC",
            "1615629911",
        ] {
            #expect(secondsSinceEpoch(dateTime: bad) == nil, "\(bad)")
        }
    }
}
