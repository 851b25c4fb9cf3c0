import Foundation
import NavCore
import NavGeometry
import NavIO
import NavTestSupport
import Testing

@testable import NavImport

/// `importIPINLogfile` on IPIN Track 3 logfiles this test writes (the GetSensorData layout),
/// checked against closed forms: linear signals interpolate exactly, a phone lying flat facing
/// a known azimuth, the geodetic conversion of the IPIN scorer.
@Suite struct IPINLogfileImportTests {
    /// The sensor clock runs 1000 s ahead of the app clock, read 3 ms late by the app.
    static let sensorAhead = 1000.0, readLate = 0.003

    /// A trial of `seconds`: ACCE at 50 Hz, GYRO at 100 Hz, MAGN at 50 Hz, AHRS at 50 Hz (a flat
    /// phone turning at `rate` deg/s from azimuth 10°), two iBeacons and one Eddystone, GNSS,
    /// WIFI and PRES rows, and reference points 0.0001° apart on floors 0 and 1.
    static func log(seconds: Double = 4, rate: Double = 20, extra: [String] = []) -> String {
        var lines = [
            "% LogFile created by the 'GetSensorData' App for Android.", "% Manufacturer:            \tacme", "% Model:                   \tP1",
            "%",
        ]
        func sensor(_ type: String, _ hz: Double, _ value: (Double) -> [Double]) {
            for k in 0..<Int(seconds * hz) {
                let t = 0.1 + Double(k) / hz
                lines.append(
                    ([type, String(format: "%.4f", t + readLate), String(format: "%.4f", t + sensorAhead)]
                        + value(t).map { String(format: "%.6f", $0) } + ["3"])
                        .joined(separator: ";"))
            }
        }
        sensor("ACCE", 50) { t in [0.1 * t, 9.81, 0.2] }
        sensor("GYRO", 100) { t in [1 + 2 * t, -t, 0.5] }
        sensor("MAGN", 50) { t in [20 - t, 3 * t, -40] }
        sensor("AHRS", 50) { t in
            let azimuth = (10 + rate * t) * .pi / 180  // device y axis at this azimuth, clockwise from north
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: -azimuth)  // about ENU up, counter-clockwise
            return [0, 0, -azimuth * 180 / .pi, q.x, q.y, q.z]
        }
        for k in 0..<Int(seconds) {
            let t = 0.5 + Double(k)
            lines.append("BLE4;\(t);iBeacon;BE:AC:00:00:00:02;-70;-59;1;2;AAAA-0002")
            lines.append("BLE4;\(t);iBeacon;BE:AC:00:00:00:01;-80;-59;1;1;AAAA-0001")
            lines.append("BLE4;\(t + 0.1);Eddystone;BE:AC:00:00:00:09;-60;12345")
            lines.append("GNSS;\(t);1686729678.0000;49.461269;11.111049;346.000;79.500;9.0;0.1;22;19")
            lines.append("WIFI;\(t);\(t);SSID;20:23:00:00:00:01;2437;-60")
            lines.append("PRES;\(t);\(t + sensorAhead);976.2;3")
        }
        lines += [
            "POSI;1.0;1;49.4612;11.1109;0;100", "POSI;2.0;2;49.4613;11.1109;0;100", "POSI;3.0;3;49.4613;11.1110;1;100",
        ]
        return (lines + extra).joined(separator: "\n") + "\n"
    }

    static func write(_ text: String, _ label: String = #function) throws -> String {
        let path = temporaryFolder(label) + "/trial.txt"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func streamsGoWhereTheDocsSay() throws {
        let path = try Self.write(Self.log())
        let result = try importIPINLogfile(path, options: ImportOptions(kind: .navigation))
        let (s, _) = try roundTrip(result)
        #expect(s.metadata.device == "acme P1" && s.metadata.sessionID == "trial")
        // imu: accelerometer rows within GYRO/MAGN/AHRS's span, on the app clock (sensor time − median offset).
        let imu = try #require(s.imu)
        #expect(abs(imu.timestamps[0] - (0.1 + Self.readLate)) < 1e-9)
        #expect(imu.timestamps.count == 200)  // every row within the spans of GYRO, MAGN and AHRS
        for (i, t) in imu.timestamps.enumerated() {
            let tt = t - Self.readLate  // the signals' own time
            #expect(abs(imu.gyroscope[i].x - (1 + 2 * tt)) < 1e-5 && abs(imu.gyroscope[i].y + tt) < 1e-5)
            #expect(abs(try #require(imu.magnetometer)[i].y - 3 * tt) < 1e-5)
            #expect(imu.accelerometer[i] == Vector3((0.1 * tt * 1e6).rounded() / 1e6, 9.81, 0.2))
        }
        // Attitude: ENU → ARKit world; facing azimuth ψ, the phone's top (device y) points at
        // (sin ψ, 0, −cos ψ) in ARKit's world (x east, z south).
        let attitude = try #require(imu.attitude)
        for i in [0, 100, 199] {
            let psi = (10 + 20 * (imu.timestamps[i] - Self.readLate)) * .pi / 180
            let top = attitude[i].act(on: Vector3(0, 1, 0))
            #expect((top - Vector3(sin(psi), 0, -cos(psi))).norm < 1e-5, "row \(i): \(top)")
        }
        // compass: Android's azimuth of each AHRS row, the negative of the app's YawZ.
        let compass = try #require(s.compass)
        #expect(compass.timestamps.count == 200)
        for (t, h) in zip(compass.timestamps, compass.heading) { #expect(abs(h - (10 + 20 * (t - Self.readLate))) < 1e-4) }
        // ble: iBeacons by (uuid, major, minor); Eddystone counted.
        let ble = try #require(s.ble)
        #expect(ble.beacons.map(\.minor) == [1, 2] && ble.beacons[0].uuid == "aaaa-0001")
        #expect(Array(ble.beaconIndex.prefix(2)) == [1, 0] && Array(ble.rssi.prefix(2)) == [-70, -80])
        #expect(result.notes.contains { $0.hasSuffix("4 BLE4 Eddystone rows not imported (no iBeacon UUID, major and minor)") })
        #expect(result.notes.contains { $0.hasSuffix("rows without a stream in trace format v1, not imported: PRES 4, WIFI 4") })
        #expect(try #require(s.location).latitude.count == 4)
        // groundtruth: NED about the lowest latitude and longitude at 314 m; x east, z south.
        let gt = try #require(s.groundTruth)
        #expect(gt.floor == [0, 0, 1] && gt.timestamps == [1, 2, 3])
        #expect(gt.poses[0].translation == Vector3(0, 0, 0))
        let ned = geodeticToNED(
            latitude: 49.4613, longitude: 11.1110, height: 314, originLatitude: 49.4612, originLongitude: 11.1109, originHeight: 314)
        #expect(gt.poses[2].translation == Vector3(ned.east, 0, -ned.north))
        #expect(abs(gt.poses[1].translation.z + 11.12) < 0.01 && abs(gt.poses[2].translation.x - 7.24) < 0.01)  // 0.0001° ≈ 11.1 m N, 7.2 m E
        #expect(gt.poses.allSatisfy { $0.rotation == .identity })
        // --floor-height and --origin.
        let placed = try importIPINLogfile(path, ipin: IPINImportOptions(originLatitude: 49.4613, originLongitude: 11.1109, floorHeight: 4))
        let p = try #require(placed.session.groundTruth).poses
        #expect(p[1].translation.z == 0 && p[2].translation.y == 4)
    }

    @Test func badRowsAreNamedOrDropped() throws {
        let bad = try Self.write(Self.log(extra: ["BLE4;9.0;iBeacon;BE:AC:00:00:00:01;42;-59;1;1;AAAA-0001"]))
        expectError(
            TraceError(
                .badValue, file: bad, object: "line \(Self.log().split(separator: "\n").count + 1) (BLE4)",
                "field 5 (RSSI): 42 dBm is outside [−150, 20]")
        ) {
            _ = try importIPINLogfile(bad)
        }
        let dropped = try importIPINLogfile(bad, options: ImportOptions(invalidRows: .drop))
        #expect(dropped.notes.first?.hasSuffix("field 5 (RSSI): 42 dBm is outside [−150, 20]; row dropped") == true)
        // 10,000 bad rows are five notes and a count, not 10,000 notes (issue 50, item 19).
        let many = try Self.write(Self.log(extra: Array(repeating: "BLE4;9.0;iBeacon;BE:AC:00:00:00:01;42;-59;1;1;AAAA-0001", count: 10_000)))
        let capped = try importIPINLogfile(many, options: ImportOptions(invalidRows: .drop)).notes.filter { $0.contains("dropped") }
        #expect(capped.count == 6 && capped.last == "\(many): 9995 more rows dropped as invalid (10000 in all)", "\(capped.last ?? "")")
        let garbled = try Self.write("POSI;1.0;1;49.46;eleven;0;100\n")
        expectError(TraceError(.badValue, file: garbled, object: "line 1 (POSI)", "field 5 (Longitude): expected a finite number, found 'eleven'")) {
            _ = try importIPINLogfile(garbled)
        }
        let short = try Self.write("ACCE;0.1;5.0;1.0\n")
        expectError(
            TraceError(
                .wrongShape, file: short, object: "line 1 (ACCE)",
                "expected ACCE;AppTimestamp;SensorTimestamp;Acc_X;Acc_Y;Acc_Z (6 fields), found 4 fields")
        ) { _ = try importIPINLogfile(short) }
        let noReference = try Self.write("ACCE;0.1;5.0;1;2;3;3\n")
        expectError(TraceError(.missing, file: noReference, object: "POSI", "no reference points (POSI lines); expected an IPIN Track 3 logfile")) {
            _ = try importIPINLogfile(noReference)
        }
        let twoBuildings = try Self.write("POSI;1.0;1;49.46;11.11;0;100\nPOSI;2.0;2;49.46;11.11;0;200\n")
        expectError(
            TraceError(
                .badValue, file: twoBuildings, object: "line 2 (POSI)",
                "building '200' after '100': one venue frame per file; split the log by building")
        ) { _ = try importIPINLogfile(twoBuildings) }
    }
}
