import Foundation
import NavCore
import NavIO
import NavImport
import NavSynth
import NavTestSupport
import Testing

// Importers on excerpts of the real recordings (Fixtures/import/real, cut by
// scripts/make_import_fixtures.py) and on malformed copies (Fixtures/import/bad).

func importFixture(_ name: String) -> String { fixture("import/" + name) }

/// Imports into a temporary trace and reads it back, as the CLI does.
func roundTrip(_ result: ImportResult, _ label: String = #function) throws -> (Session, String) {
    let dir = temporaryFolder(label)
    let path = dir + "/out.h5"
    try writeImportedTrace(result.session, to: path, processing: "navbench import test")
    return (try readTrace(at: path), path)
}

/// Expects `body` to throw exactly `expected` (file, object and problem).
func expectError(
    _ expected: TraceError, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected the error \(expected)", sourceLocation: sourceLocation)
    } catch let error as TraceError {
        #expect(error == expected, sourceLocation: sourceLocation)
        #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a TraceError, got \(error)", sourceLocation: sourceLocation)
    }
}

func rotationDistance(_ a: Quaternion, _ b: Quaternion) -> Double {
    let ma = a.rotationMatrix, mb = b.rotationMatrix
    var largest = 0.0
    for i in 0..<3 { for j in 0..<3 { largest = max(largest, abs(ma[i][j] - mb[i][j])) } }
    return largest
}

@Suite struct TrajectoryImportTests {
    static let gt = importFixture("real/tum-fr1-xyz/freiburg1_xyz-groundtruth.txt")
    static let est = importFixture("real/tum-fr1-xyz/freiburg1_xyz-rgbdslam.txt")

    /// TUM → trace → TUM gives back every line of the original at the precision it prints:
    /// timestamps and positions digit for digit; quaternions as the original normalised to unit
    /// length (a trace holds unit quaternions, within 1e-6; evo normalises the same way), equal
    /// up to the sign of the double cover.
    @Test func tumRoundTripIsLosslessToPrintedPrecision() throws {
        let r = try importTrajectories(
            [TrajectoryInput(path: Self.gt, stream: .groundtruth), TrajectoryInput(path: Self.est, stream: .vio)], format: .tum)
        let (_, h5) = try roundTrip(r)
        for (source, stream) in [(Self.gt, PoseStreamName.groundtruth), (Self.est, .vio)] {
            let out = h5 + ".\(stream.rawValue).tum"
            try exportTrajectory(h5, stream: stream, format: .tum, to: out)
            let original = try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            let exported = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(original.count == exported.count)
            var worst = 0.0
            for (a, b) in zip(original, exported) {
                let fa = a.split(separator: " "), fb = b.split(separator: " ").map { Double($0)! }
                let printed: [String] = (0..<4).map { (k: Int) -> String in
                    let decimals: Int = fa[k].split(separator: ".").last!.count
                    return String(format: "%.\(decimals)f", fb[k])
                }
                #expect(printed == fa[0..<4].map(String.init), "\(a)")
                let q = fa[4..<8].map { Double($0)! }
                let n = (q.map { $0 * $0 }.reduce(0, +)).squareRoot()
                let sign = (q[3] < 0) != (fb[7] < 0) ? -1.0 : 1.0
                for k in 0..<4 { worst = max(worst, abs(sign * fb[4 + k] - q[k] / n)) }
            }
            #expect(worst < 1e-15)
        }
    }

    @Test func importedTrajectoryEqualsTheOriginal() throws {
        let r = try importTrajectories([TrajectoryInput(path: Self.gt, stream: .groundtruth)], format: .tum)
        let (_, h5) = try roundTrip(r)
        let a = try readTrajectory(at: Self.gt, format: .tum).trajectory
        let b = try readTrajectory(at: h5, stream: "groundtruth").trajectory
        #expect(a.timestamps == b.timestamps)
        #expect(a.positions == b.positions)
        #expect(zip(a.poses.values, b.poses.values).allSatisfy { rotationDistance($0.rotation, $1.rotation) < 1e-14 })
    }

    @Test func kittiAndEuRoCImportLikeTUM() throws {
        let dir = temporaryFolder()
        let t = try readTrajectory(at: Self.gt, format: .tum).trajectory
        try writeKITTI(t, to: dir + "/gt.kitti", timesPath: dir + "/times.txt")
        try writeEuRoC(t, to: dir + "/gt.csv")
        let k = try importTrajectories([TrajectoryInput(path: dir + "/gt.kitti", stream: .vio, timesPath: dir + "/times.txt")], format: .kitti)
            .session.vio!
        let e = try importTrajectories([TrajectoryInput(path: dir + "/gt.csv", stream: .groundtruth)], format: .euroc).session.groundTruth!
        #expect(k.timestamps == t.timestamps)
        #expect(k.poses.map(\.translation) == t.positions)
        #expect(k.trackingState.allSatisfy { $0 == .normal })
        #expect(zip(k.poses, t.poses.values).allSatisfy { rotationDistance($0.rotation, $1.rotation) < 1e-12 })
        #expect(zip(e.timestamps, t.timestamps).allSatisfy { abs($0 - $1) < 1e-6 })  // EuRoC stores integer ns
        #expect(e.poses.map(\.translation) == t.positions)
    }

    @Test func badTrajectoriesNameTheLine() {
        expectError(
            TraceError(.badValue, file: importFixture("bad/tum_letters.txt"), object: "line 11", "field 3 (ty): expected a number, found \"0.6x2\"")
        ) {
            _ = try importTrajectories([TrajectoryInput(path: importFixture("bad/tum_letters.txt"), stream: .groundtruth)], format: .tum)
        }
        expectError(
            TraceError(
                .badTimestamps, file: importFixture("bad/tum_unordered.txt"), object: "line 14",
                "expected non-decreasing timestamps (repeats are accepted); 1305031098.7559 is before 1305031098.7658 (line 13)")
        ) {
            _ = try importTrajectories([TrajectoryInput(path: importFixture("bad/tum_unordered.txt"), stream: .groundtruth)], format: .tum)
        }
        expectError(TraceError(.missing, file: "x.kitti", "KITTI poses have no timestamps; give a times file (one time in seconds per line)")) {
            _ = try importTrajectories([TrajectoryInput(path: "x.kitti", stream: .vio)], format: .kitti)
        }
        expectError(TraceError(.badValue, file: Self.est, "a second trajectory for the groundtruth stream; give each input its own --stream")) {
            _ = try importTrajectories(
                [TrajectoryInput(path: Self.gt, stream: .groundtruth), TrajectoryInput(path: Self.est, stream: .groundtruth)], format: .tum)
        }
    }
}

@Suite struct LoggerImportTests {
    @Test func arkitLoggerExcerpt() throws {
        let r = try importARKitLogger(importFixture("real/arkit-data-logger"))
        let (s, _) = try roundTrip(r)
        let v = try #require(s.vio)
        #expect(v.timestamps.count == 300)
        #expect(v.timestamps[0] == 105230.574092166)
        #expect(v.poses[0].translation == Vector3(-0.042176, 0.137348, 0.463405))
        let m = [[-0.019570, 0.989337, -0.144322], [-0.973180, 0.014244, 0.229601], [0.229209, 0.144945, 0.962525]]
        let got = v.poses[0].rotation.rotationMatrix
        #expect((0..<3).allSatisfy { i in (0..<3).allSatisfy { j in abs(got[i][j] - m[i][j]) < 2e-5 } })
        #expect(v.trackingState.allSatisfy { $0 == .normal })
        let dt = zip(v.timestamps.dropFirst(), v.timestamps).map { $0 - $1 }
        #expect(dt.allSatisfy { abs($0 - 1.0 / 60) < 2e-3 })  // 60 Hz
    }

    @Test func arkitLoggerErrors() {
        let short = importFixture("bad/arkit_short_line/ARKit_camera_pose.txt")
        expectError(TraceError(.wrongShape, file: short, object: "line 9", "expected 13 fields like the first data line, found 12")) {
            _ = try importARKitLogger(importFixture("bad/arkit_short_line"))
        }
        let rot = importFixture("bad/arkit_not_rotation/ARKit_camera_pose.txt")
        expectError(
            TraceError(
                .badValue, file: rot, object: "line 6",
                "fields r11…r33 are not a rotation within 1e-3 (orthonormal, det +1); expected the camera-to-world rotation")
        ) {
            _ = try importARKitLogger(rot)
        }
    }

    /// Device axes, world axes, sign and scale of the accelerometer, all at once: the attitude
    /// turns the specific force to +y up (the phone lies still on a table at the start).
    @Test func coreMotionLoggerExcerpt() throws {
        let folder = importFixture("real/coremotion-data-logger")
        let r = try importCoreMotionLogger(folder)
        #expect(
            r.notes == [
                "\(folder)/gps.txt: location fixes are on the Unix clock and the motion files on the device's uptime clock; location left out (give --gps-offset SECONDS or --gps-align-start)"
            ])
        let (s, _) = try roundTrip(r)
        let imu = try #require(s.imu)
        #expect(imu.timestamps.count == 300 && s.location == nil)
        #expect(imu.timestamps[0] == 2713.981549542)
        // Line 2 of gravity.txt and linacce.txt: specific force −(g + u), CoreMotion (x, y, z) → (−y, x, z), × 9.80665/9.81.
        let k = 9.80665 / 9.81
        let f = -(Vector3(0.011233, -0.027203, -9.809956) + Vector3(-0.000306, -0.009321, 0.083482)) * k
        #expect(imu.accelerometer[0] == Vector3(-f.y, f.x, f.z))
        #expect(imu.gyroscope[0] == Vector3(-0.001769, 0.000883, 0.000381))
        #expect(imu.magnetometer?[0] == Vector3(11.616119, 57.427162, -35.794952))
        var up = Vector3.zero
        for (q, a) in zip(imu.attitude!, imu.accelerometer) { up += q.act(on: a) }
        up /= Double(imu.timestamps.count)
        #expect(abs(up.x) < 0.1 && abs(up.z) < 0.1 && abs(up.y - 9.72) < 0.05)
        #expect(s.compass?.heading[0] == 270.000183)

        let aligned = try importCoreMotionLogger(folder, locationClock: .alignFirstFix).session
        let loc = try #require(aligned.location)
        #expect(loc.timestamps.count == 8 && loc.timestamps[0] == imu.timestamps[0])
        #expect(loc.latitude[0] == 37.577586 && loc.horizontalAccuracy[0] == 65 && loc.altitude[0] == 49.91766)
        #expect(loc.floor.allSatisfy { $0 == LocationStream.noFloor })
        let offset = try importCoreMotionLogger(folder, locationClock: .offset(1_559_521_656)).session.location!
        #expect(abs(offset.timestamps[0] - (1_559_524_370.805430784 - 1_559_521_656)) < 1e-6)
    }

    @Test func coreMotionLoggerErrors() throws {
        let gyro = importFixture("bad/coremotion_time_mismatch/gyro.txt")
        expectError(
            TraceError(
                .badTimestamps, file: gyro, object: "line 8",
                "field 1 (timestamp_ns): 2714041590542 differs from game_rv.txt's 2714041589542 (line 8); the motion files must share CMDeviceMotion's instants"
            )
        ) {
            _ = try importCoreMotionLogger(importFixture("bad/coremotion_time_mismatch"))
        }
        let folder = importFixture("bad/coremotion_heading")
        expectError(
            TraceError(
                .badValue, file: folder + "/heading.txt", object: "line 5",
                "field 2 (heading_deg): expected degrees in [0, 360], found -1 (CoreMotion gives −1 when no heading is available; --drop-invalid-rows leaves such samples out)"
            )
        ) {
            _ = try importCoreMotionLogger(folder)
        }
        let dropped = try importCoreMotionLogger(folder, options: ImportOptions(invalidRows: .drop))
        #expect(dropped.session.compass?.heading.count == 19 && dropped.session.imu?.timestamps.count == 20)
        #expect(dropped.notes == ["\(folder)/heading.txt: line 5: heading -1 deg is outside [0, 360]; heading sample dropped"])
    }
}

@Suite struct MappedImportTests {
    @Test func csvUnitsAndSparseStreams() throws {
        let m = try ImportMapping.load(importFixture("csv/phone.mapping.yaml"))
        let (s, _) = try roundTrip(try importCSV(importFixture("csv/phone.csv"), mapping: m))
        let imu = try #require(s.imu), compass = try #require(s.compass)
        #expect(imu.timestamps.count == 20 && imu.timestamps[0] == 1 && imu.timestamps[19] == 1.19)
        #expect(imu.accelerometer[1] == Vector3(0.01 * 9.80665, 1.001 * 9.80665, -0.02 * 9.80665))
        #expect(imu.gyroscope[2] == Vector3(1.0 * Double.pi / 180, 0, -0.5 * Double.pi / 180))
        #expect(compass.timestamps == [1, 1.1])
        // −3.5 rad = −200.535…° → 159.464…° in [0, 360).
        #expect(abs(compass.heading[0] - (-3.5 * 180 / Double.pi + 360)) < 1e-12)
    }

    /// A time repeated exactly keeps its last row, with a note, as the TUM and EuRoC imports keep
    /// the last pose (issue 31: "time … is not after …" even with --drop-invalid-rows); a time
    /// that goes back is still refused in one line.
    @Test func csvRepeatedTimesKeepTheLastRow() throws {
        let dir = temporaryFolder()
        let m = try ImportMapping.load(importFixture("csv/enu_track.mapping.yaml"))
        var lines = try String(contentsOfFile: importFixture("csv/enu_track.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
        // Line 4 (t = 0.2 s) again with another position, right after it.
        let repeated = lines[3].split(separator: " ").enumerated().map { $0.offset == 1 ? "9.0" : String($0.element) }.joined(separator: " ")
        lines.insert(repeated, at: 4)
        try (lines.joined(separator: "\n") + "\n").write(toFile: dir + "/track.txt", atomically: true, encoding: .utf8)
        let r = try importCSV(dir + "/track.txt", mapping: m)
        let g = try #require(r.session.groundTruth)
        #expect(g.timestamps.count == 10)
        #expect(g.poses[2].translation.x == 9.0, "the last row of the repeat")
        #expect(r.notes.contains { $0.contains("groundtruth: 1 repeated times; kept the last row of each repeat") }, "\(r.notes)")
        lines[4] = lines[2]  // t = 0.1 s after t = 0.2 s: back in time
        try (lines.joined(separator: "\n") + "\n").write(toFile: dir + "/back.txt", atomically: true, encoding: .utf8)
        #expect(throws: TraceError.self) { _ = try importCSV(dir + "/back.txt", mapping: m) }
    }

    @Test func csvHeaderlessENUWithNanoseconds() throws {
        let m = try ImportMapping.load(importFixture("csv/enu_track.mapping.yaml"))
        let g = try #require(try importCSV(importFixture("csv/enu_track.txt"), mapping: m).session.groundTruth)
        #expect(g.timestamps.count == 10 && g.timestamps[0] == 1_700_000_000)
        #expect(abs(g.timestamps[3] - g.timestamps[0] - 0.3) < 1e-6)
        // (east, north, up) = (1.5, 0.75, 1.5) → ARKit (x, y, z) = (east, up, −north).
        #expect(g.poses[3].translation == Vector3(1.5, 1.5, -0.75))
        // Identity in ENU: the body's axes are ENU's; in ARKit terms body z (up) is +y.
        #expect(g.poses[0].rotation.act(on: Vector3(0, 0, 1)).y > 0.999999)
    }

    /// Every stream of a synthetic session: export csv → import csv (with the exported mapping)
    /// gives back the same values, bit for bit.
    @Test func csvExportImportRoundTripEveryStream() throws {
        let dir = temporaryFolder()
        let original = synthesizeVenue(seed: 4)[1].session
        try writeTrace(original, to: dir + "/s.h5")
        var back = Session(metadata: original.metadata)
        for stream in ["imu", "compass", "ble", "vio", "anchors", "location", "groundtruth"] {
            let csv = dir + "/\(stream).csv", yaml = dir + "/\(stream).yaml"
            try writeTextAtomically(try exportStreamCSV(dir + "/s.h5", stream: stream), to: csv)
            try writeTextAtomically(try exportStreamMapping(dir + "/s.h5", stream: stream), to: yaml)
            let s = try importCSV(csv, mapping: try ImportMapping.load(yaml)).session
            back.imu = back.imu ?? s.imu; back.compass = back.compass ?? s.compass; back.ble = back.ble ?? s.ble
            back.vio = back.vio ?? s.vio; back.anchors = back.anchors ?? s.anchors
            back.location = back.location ?? s.location; back.groundTruth = back.groundTruth ?? s.groundTruth
        }
        #expect(back.imu?.timestamps == original.imu?.timestamps)
        #expect(back.imu?.accelerometer == original.imu?.accelerometer)
        #expect(back.imu?.gyroscope == original.imu?.gyroscope)
        #expect(back.imu?.magnetometer == original.imu?.magnetometer)
        #expect(zip(back.imu!.attitude!, original.imu!.attitude!).allSatisfy { rotationDistance($0, $1) < 1e-15 })
        #expect(back.compass?.heading == original.compass?.heading && back.compass?.accuracy == original.compass?.accuracy)
        #expect(back.ble?.timestamps == original.ble?.timestamps && back.ble?.rssi == original.ble?.rssi)
        #expect(back.ble?.beaconIndex == original.ble?.beaconIndex)
        #expect(back.ble?.beacons == original.ble?.beacons)
        #expect(back.vio?.poses.map(\.translation) == original.vio?.poses.map(\.translation))
        #expect(back.vio?.trackingState == original.vio?.trackingState)
        #expect(back.anchors?.anchorID == original.anchors?.anchorID && back.anchors?.timestamps == original.anchors?.timestamps)
        #expect(back.location?.latitude == original.location?.latitude && back.location?.floor == original.location?.floor)
        #expect(back.groundTruth?.poses.map(\.translation) == original.groundTruth?.poses.map(\.translation))
        #expect(zip(back.groundTruth!.poses, original.groundTruth!.poses).allSatisfy { rotationDistance($0.rotation, $1.rotation) < 1e-15 })
        #expect(back.groundTruth?.floor == original.groundTruth?.floor)
    }

    /// Unknown floors (−2147483648) survive export csv → import csv.
    @Test func csvRoundTripKeepsUnknownFloors() throws {
        let dir = temporaryFolder()
        let (_, h5) = try roundTrip(try importCoreMotionLogger(importFixture("real/coremotion-data-logger"), locationClock: .alignFirstFix))
        try writeTextAtomically(try exportStreamCSV(h5, stream: "location"), to: dir + "/l.csv")
        try writeTextAtomically(try exportStreamMapping(h5, stream: "location"), to: dir + "/l.yaml")
        let back = try #require(try importCSV(dir + "/l.csv", mapping: try ImportMapping.load(dir + "/l.yaml")).session.location)
        #expect(back.floor == Array(repeating: LocationStream.noFloor, count: 8))
        #expect(back.timestamps == (try readTrace(at: h5)).location?.timestamps)
    }

    static let mappingErrors: [(mapping: String, csv: String, error: TraceError)] = [
        (
            "bad/mapping_unknown_unit.yaml", "csv/phone.csv",
            TraceError(
                .badValue, file: importFixture("bad/mapping_unknown_unit.yaml"), object: "line 8, streams.imu.gyroscope.units",
                "unknown units 'degrees/s' for gyroscope (angular rate); expected one of rad/s, deg/s, °/s")
        ),
        (
            "bad/mapping_unit_mismatch.yaml", "csv/phone.csv",
            TraceError(
                .badValue, file: importFixture("bad/mapping_unit_mismatch.yaml"), object: "line 8, streams.imu.gyroscope.units",
                "units 'm/s^2' measure acceleration, but gyroscope is angular rate; expected one of rad/s, deg/s, °/s")
        ),
        (
            "bad/mapping_missing_column.yaml", "csv/phone.csv",
            TraceError(
                .missing, file: importFixture("csv/phone.csv"), object: "column 'gz_dps_typo'",
                "not found (wanted by \(importFixture("bad/mapping_missing_column.yaml")) line 8, streams.imu.gyroscope); columns are t_ms, ax_g, ay_g, az_g, gx_dps, gy_dps, gz_dps, heading_rad"
            )
        ),
        (
            "bad/mapping_no_order.yaml", "csv/enu_track.txt",
            TraceError(
                .badValue, file: importFixture("bad/mapping_no_order.yaml"), object: "line 9, streams.groundtruth.orientation.order",
                "missing; say whether the quaternion is stored xyzw or wxyz (or the matrix row-major or column-major)")
        ),
        (
            "csv/phone.mapping.yaml", "bad/phone_not_a_number.csv",
            TraceError(
                .badValue, file: importFixture("bad/phone_not_a_number.csv"), object: "line 8, column 'gy_dps'", "expected a number, found 'zero'")
        ),
        (
            "csv/phone.mapping.yaml", "bad/phone_ragged.csv",
            TraceError(.wrongShape, file: importFixture("bad/phone_ragged.csv"), object: "line 6", "expected 8 fields (as the header), found 6")
        ),
        (
            "csv/phone.mapping.yaml", "bad/phone_half_empty.csv",
            TraceError(
                .missing, file: importFixture("bad/phone_half_empty.csv"), object: "line 10, column 'az_g'",
                "empty cell in the imu stream's row; a stream's cells must be all filled or all empty")
        ),
    ]

    @Test(arguments: mappingErrors.indices)
    func mappingAndCSVErrorsAreOneLine(_ i: Int) {
        let c = Self.mappingErrors[i]
        expectError(c.error) { _ = try importCSV(importFixture(c.csv), mapping: try ImportMapping.load(importFixture(c.mapping))) }
    }

    @Test func mappingSchemaErrors() {
        func parse(_ text: String) throws { _ = try ImportMapping.parse(text, file: "m.yaml") }
        expectError(
            TraceError(.badValue, file: "m.yaml", object: "line 1, navbench_mapping", "missing; expected navbench_mapping: 1 (the schema version)")
        ) {
            try parse("streams: {}\n")
        }
        expectError(
            TraceError(
                .badValue, file: "m.yaml", object: "line 2, streams.imu.speedometer",
                "unknown key; expected one of accelerometer, gyroscope, attitude, magnetometer, moving, time, invalid_rows, input, frame, body_rotation"
            )
        ) {
            try parse("navbench_mapping: 1\nstreams: {imu: {speedometer: {column: a, units: m}}}\n")
        }
        expectError(TraceError(.badValue, file: "m.yaml", object: "line 4, streams.vio.position.columns", "expected 3 columns for position, found 2"))
        {
            try parse(
                "navbench_mapping: 1\ntime: {column: t, units: s}\nstreams:\n  vio: {position: {columns: [a, b], units: m}, orientation: {columns: [c, d, e, f], order: xyzw}}\n"
            )
        }
        expectError(
            TraceError(
                .badValue, file: "m.yaml", object: "line 3, streams.imu.accelerometer", "missing; the imu stream requires accelerometer, gyroscope")
        ) {
            try parse("navbench_mapping: 1\nstreams:\n  imu:\n    gyroscope: {columns: [a, b, c], units: rad/s}\n")
        }
        expectError(TraceError(.badValue, file: "m.yaml", object: "line 2, time.units", "missing; expected the time unit: s, ms, us, ns or datetime"))
        {
            try parse("navbench_mapping: 1\ntime: {column: t}\nstreams: {compass: {heading: {column: h, units: deg}}}\n")
        }
    }

    static let broad = importFixture("real/broad/02_excerpt.hdf5")
    static var broadMapping: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Datasets/real/broad/broad.mapping.yaml").path
    }

    /// BROAD's layout: sample rate from an attribute, w-first ENU quaternions, NaN dropouts.
    @Test func hdf5MappedOnBROAD() throws {
        let r = try importHDF5Mapped(Self.broad, mapping: try ImportMapping.load(Self.broadMapping))
        #expect(
            r.notes == [
                "\(Self.broad): groundtruth: 1238 of 2000 rows dropped as invalid (first: /opt_quat, row 0: orientation x is nan, expected a finite number)"
            ])
        let (s, _) = try roundTrip(r)
        let imu = try #require(s.imu), gt = try #require(s.groundTruth)
        let fs = 285.7142857142857
        #expect(imu.timestamps.count == 2000 && imu.timestamps[7] == 7 / fs)
        let src = try HDF5Reader(path: Self.broad)
        let acc = try src.readDoubles("/imu_acc").values, pos = try src.readDoubles("/opt_pos").values, quat = try src.readDoubles("/opt_quat").values
        #expect(imu.accelerometer[5] == Vector3(acc[15], acc[16], acc[17]))
        let row = Int((gt.timestamps[0] * fs).rounded())  // the first row with finite optical data
        #expect((0..<row).allSatisfy { r in (0..<4).contains { !quat[4 * r + $0].isFinite } || (0..<3).contains { !pos[3 * r + $0].isFinite } })
        #expect(gt.poses[0].translation == Vector3(pos[3 * row], pos[3 * row + 2], -pos[3 * row + 1]))  // ENU → (x, up, −north)
        let q = Quaternion(x: quat[4 * row + 1], y: quat[4 * row + 2], z: quat[4 * row + 3], w: quat[4 * row])
        #expect(rotationDistance(gt.poses[0].rotation, WorldFrame.enu.toARKit.quaternion * q) < 1e-12)
        // The ground-truth orientation turns the resting IMU's specific force to +y (up).
        var up = Vector3.zero
        for (t, p) in zip(gt.timestamps, gt.poses) { up += p.rotation.act(on: imu.accelerometer[Int((t * fs).rounded())]) }
        up /= Double(gt.timestamps.count)
        #expect(abs(up.x) < 0.15 && abs(up.z) < 0.15 && abs(up.y - 9.81) < 0.1)
        // BROAD's `movement` is an HDF5 enumeration (h5py's numpy booleans): read as 0/1 into
        // imu/moving; these first 2000 rows are the rest phase (h5py: all False).
        #expect(try src.readDoubles("/movement").values == Array(repeating: 0, count: 2000))
        #expect(imu.moving == Array(repeating: false, count: 2000))
        // The committed trial 02 (30–120 s): 22,837 moving samples, as h5py counts `movement` in that window.
        let trial = Self.broadMapping.replacingOccurrences(of: "broad.mapping.yaml", with: "02_undisturbed_slow_rotation_B.h5")
        #expect(try readTrace(at: trial).imu?.moving?.filter { $0 }.count == 22_837)
    }

    @Test func hdf5MappedErrors() throws {
        let file = importFixture("bad/broad_units_attr.hdf5")
        expectError(
            TraceError(
                .wrongUnits, file: file, object: "/imu_gyr",
                "units attribute 'deg/s' contradicts \(Self.broadMapping) line 12, streams.imu.gyroscope.units 'rad/s'")
        ) {
            _ = try importHDF5Mapped(file, mapping: try ImportMapping.load(Self.broadMapping))
        }
        let typo = try ImportMapping.parse(
            """
            navbench_mapping: 1
            time: {sample_rate: 100}
            streams:
              imu:
                accelerometer: {dataset: imu_accel, units: m/s^2}
                gyroscope: {dataset: imu_gyr}
            """, file: "m.yaml")
        expectError(
            TraceError(
                .missing, file: file, object: "/imu_accel",
                "dataset not found (wanted by m.yaml line 5, streams.imu.accelerometer); the file has /imu_acc, /imu_gyr, /imu_mag, /opt_pos, /opt_quat"
            )
        ) {
            _ = try importHDF5Mapped(file, mapping: typo)
        }
        let narrow = try ImportMapping.parse(
            """
            navbench_mapping: 1
            source: hdf5
            time: {sample_rate: {attribute: sampling_rate}}
            streams:
              groundtruth: {position: {dataset: opt_pos, units: m}, orientation: {dataset: opt_pos, order: wxyz}}
            """, file: "m.yaml")
        expectError(
            TraceError(
                .wrongShape, file: file, object: "/opt_pos", "has 3 columns, orientation needs 4 (select them with columns: [i, …] in m.yaml line 5)")
        ) {
            _ = try importHDF5Mapped(file, mapping: narrow)
        }
        // Units from the dataset's own attribute when the mapping gives none; deg/s converted.
        let s = try importHDF5Mapped(
            file,
            mapping: try ImportMapping.parse(
                """
                navbench_mapping: 1
                time: {sample_rate: 100, start: 5}
                streams:
                  imu: {accelerometer: {dataset: imu_acc}, gyroscope: {dataset: imu_gyr}}
                """, file: "m.yaml")
        ).session.imu!
        let raw = try HDF5Reader(path: file).readDoubles("/imu_gyr").values
        #expect(s.timestamps[0] == 5 && s.timestamps[1] == 5.01)
        #expect(s.gyroscope[0].x == raw[0] * Double.pi / 180)
    }
}

@Suite struct BLEAndClewImportTests {
    static let track = importFixture("real/ble-position-annotated/trk/straight_05_all_sensors.mbd")

    @Test func bleAnnotatedTrack() throws {
        expectError(
            TraceError(
                .badValue, file: Self.track, object: "line 175",
                "field 4 (RSSI): 42 dBm is outside [−150, 20] (a corrupt reading; --drop-invalid-rows leaves it out)")
        ) {
            _ = try importBLEAnnotated(Self.track)
        }
        let r = try importBLEAnnotated(Self.track, options: ImportOptions(invalidRows: .drop))
        #expect(r.notes.first == "\(Self.track): line 175: field 4 (RSSI): 42 dBm is outside [−150, 20]; row dropped")
        let (s, _) = try roundTrip(r)
        let ble = try #require(s.ble), gt = try #require(s.groundTruth)
        #expect(ble.timestamps.count == 299 && ble.beacons.count == 12)
        // sensor10 b827eb4521b4 at (7.00, 7.09, 1.22) in the dataset frame → (x, z, −y).
        #expect(ble.beacons[0] == Beacon(uuid: "b827eb4521b4", major: 0, minor: 10, position: Vector3(7.0, 1.22, -7.09)))
        #expect(ble.beacons.map(\.minor) == [10, 11, 12, 20, 21, 22, 30, 31, 32, 40, 41, 42])
        // Line 1: at 1581248844.015187 b827eb4521b4 (row 0) heard −74 dBm; the tag at (18.001, 8.381, 1.872).
        #expect(ble.timestamps[0] == 1581248844.015187 && ble.beaconIndex[0] == 0 && ble.rssi[0] == -74)
        #expect(gt.timestamps[0] == 1581248844.015187 && gt.poses[0].translation == Vector3(18.001, 1.872, -8.381))
        #expect(s.metadata.routeID == "straight_05")
    }

    @Test func bleOrientationsAreFilledWhereTheSourceIsNoRotation() throws {
        let r = try importBLEAnnotated(importFixture("real/ble-position-annotated/trk/rectangular_with_rotation_all_sensors.mbd"))
        let gt = try #require(r.session.groundTruth)
        #expect(r.notes.contains { $0.hasSuffix("ground-truth rows; their orientation is slerped from the nearest rows that are") })
        #expect(gt.poses.allSatisfy { abs($0.rotation.norm - 1) < 1e-12 })
        #expect(zip(gt.timestamps.dropFirst(), gt.timestamps).allSatisfy { $0 > $1 })
    }

    @Test func bleErrors() {
        let dev = importFixture("bad/ble/cnf/tetam.dev")
        expectError(
            TraceError(
                .wrongShape, file: importFixture("bad/ble/trk/short_line.mbd"), object: "line 7",
                "expected 16 comma-separated fields (unix_time, receiver_MAC, beacon_MAC, RSSI, x, y, z, R00, R01, R02, R10, R11, R12, R20, R21, R22), found 15"
            )
        ) {
            _ = try importBLEAnnotated(importFixture("bad/ble/trk/short_line.mbd"))
        }
        expectError(
            TraceError(
                .badValue, file: importFixture("bad/ble/trk/unknown_receiver.mbd"), object: "line 10",
                "field 2 (receiver_MAC): 'aabbccddeeff' is not a receiver of \(dev) (b827eb4521b4, 000000000101, 000000000102, b827eb917e19, 000000000201, 000000000202, b827ebf7d096, 000000000301, 000000000302, b827ebfd7811, 000000000401, 000000000402)"
            )
        ) {
            _ = try importBLEAnnotated(importFixture("bad/ble/trk/unknown_receiver.mbd"))
        }
    }

    @Test func clewRoute() throws {
        let (s, _) = try roundTrip(try importClewRoute(importFixture("clew/route.crd")))
        let data = try Data(contentsOf: URL(fileURLWithPath: importFixture("clew/route.json")))
        let expected = try JSONSerialization.jsonObject(with: data) as! [String: [[Double]]]
        let vio = try #require(s.vio)
        let times: [Double] = vio.timestamps, lastTime: Double = 29 * 0.3
        #expect(times.count == 30 && times[10] == 3.0 && times[29] == lastTime)
        for (pose, m) in zip(vio.poses, expected["crumbs"]!) {
            #expect((pose.translation - Vector3(m[12], m[13], m[14])).norm < 1e-12)  // float32 values
            let r = pose.rotation.rotationMatrix
            #expect((0..<3).allSatisfy { i in (0..<3).allSatisfy { j in abs(r[i][j] - m[4 * j + i]) < 1e-6 } })
        }
        let anchors = try #require(s.anchors)
        #expect(anchors.anchorID == [0, 2, 1])  // begin, intermediate (nearest crumb 19), end
        let anchorTimes: [Double] = [0, 19 * 0.3, 29 * 0.3]
        #expect(anchors.timestamps == anchorTimes)
        #expect(
            (anchors.poses[1].translation - Vector3(expected["anchors"]![2][12], expected["anchors"]![2][13], expected["anchors"]![2][14])).norm
                < 1e-12)
        #expect(s.metadata.routeID == "navbench test route" && s.metadata.sessionID == "1630006601432" && s.metadata.kind == .recording)
    }

    @Test func clewVariants() throws {
        let old = try importClewRoute(importFixture("clew/route_old_anchor_key.crd")).session  // Clew_Dev., transformAsARAnchor
        #expect(old.anchors?.anchorID == [0, 2, 1])
        let bare = try importClewRoute(importFixture("clew/route_no_anchors.crd")).session  // Clew_More., no anchor points
        #expect(bare.vio?.timestamps.count == 30 && bare.anchors == nil)
    }

    @Test func clewErrors() {
        let cases: [(String, String, String)] = [
            ("bad_short_transform.crd", "route.crumbs[3].transform", "48 bytes, expected 64 (16 little-endian float32, column-major)"),
            ("bad_not_rigid.crd", "route.crumbs[5].transform", "not a rigid transform within 1e-3 (rotation and bottom row 0 0 0 1)"),
            ("bad_no_crumbs.crd", "route.crumbs", "missing; expected an array of LocationInfo"),
            ("bad_wrong_root.crd", "$top.root", "class Clew.SavedRoute, expected Clew.RouteDocumentData (or Clew_Dev., Clew_More.)"),
        ]
        for (name, object, problem) in cases {
            expectError(TraceError(.badValue, file: importFixture("clew/" + name), object: object, problem)) {
                _ = try importClewRoute(importFixture("clew/" + name))
            }
        }
        let text = importFixture("csv/phone.csv")
        expectError(
            TraceError(
                .badValue, file: text,
                "not a binary property list (no bplist00 signature); expected a Clew route (.crd, an NSKeyedArchiver binary plist)")
        ) {
            _ = try importClewRoute(text)
        }
    }

    /// A truncated or bit-flipped archive is an error, never a crash.
    @Test func corruptArchivesAreErrors() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: importFixture("clew/route.crd"))))
        let dir = temporaryFolder()
        var rng = SeededRandom(seed: 7)
        for trial in 0..<200 {
            var b = bytes
            if trial % 2 == 0 {
                b = Array(b.prefix(Int(rng.next() % UInt64(b.count))))
            } else {
                for _ in 0..<4 { b[Int(rng.next() % UInt64(b.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1) }
            }
            let p = dir + "/c.crd"
            try Data(b).write(to: URL(fileURLWithPath: p))
            do { _ = try importClewRoute(p) } catch { #expect(!error.description.contains("\n")) }
        }
    }
}

@Suite struct ImportWriteTests {
    @Test func sameInputGivesIdenticalBytes() throws {
        let dir = temporaryFolder()
        for name in ["a", "b"] {
            let r = try importHDF5Mapped(MappedImportTests.broad, mapping: try ImportMapping.load(MappedImportTests.broadMapping))
            try writeImportedTrace(r.session, to: dir + "/\(name).h5", processing: "navbench import hdf5-mapped 02_excerpt.hdf5")
        }
        #expect(try sha256Hex(ofFile: dir + "/a.h5") == sha256Hex(ofFile: dir + "/b.h5"))
        #expect(try HDF5Reader(path: dir + "/a.h5").attribute("processing") == .string("navbench import hdf5-mapped 02_excerpt.hdf5"))
    }

    /// A session the validator rejects is not written, and no temporary file stays behind.
    @Test func failedWriteLeavesNothing() throws {
        let dir = temporaryFolder()
        var s = Session(metadata: SessionMetadata(kind: .recording, sessionID: "x", routeID: "", venue: "", device: ""))
        s.compass = CompassStream(timestamps: [0, 1], heading: [10, 400])
        do {
            try writeImportedTrace(s, to: dir + "/out.h5", processing: "")
            Issue.record("expected a validation error")
        } catch {
            #expect(error.file == dir + "/out.h5" && error.object == "/compass/heading" && error.problem.hasPrefix("row 1: 400"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func trimKeepsAWindowOfEveryStream() throws {
        let r = try importCoreMotionLogger(importFixture("real/coremotion-data-logger"), locationClock: .alignFirstFix)
        let t0 = r.session.imu!.timestamps[0]
        let s = try trimSession(r.session, from: 1, to: 2, file: "x")
        #expect(s.imu!.timestamps.count == 100 && s.imu!.timestamps.allSatisfy { $0 >= t0 + 1 && $0 < t0 + 2 })
        #expect(s.compass!.timestamps.count == 100 && s.location == nil)
        expectError(TraceError(.empty, file: "x", "no samples between 100 s and 200 s after the session's start")) {
            _ = try trimSession(r.session, from: 100, to: 200, file: "x")
        }
    }
}
