import Foundation
import Testing

/// `navbench import` / `export`: exact output for successes and errors, APE on imported files
/// equal to APE on the originals, and Datasets/real regenerated bit for bit.
@Suite(.serialized) struct ImportCLITests {
    static let imp = "Tests/NavImportTests/Fixtures/import"

    func scratch(_ label: String = #function) throws -> String { try scratchFolder("import", label) }

    /// The statistics of `navbench ape` on the TUM text files and on the imported trace agree
    /// to the last printed digit, and equal evo's RMSE 0.013470 m (SE(3) alignment, 785 pairs).
    @Test func apeOnImportedTraceEqualsApeOnTheOriginals() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let gt = "\(Self.imp)/real/tum-fr1-xyz/freiburg1_xyz-groundtruth.txt", est = "\(Self.imp)/real/tum-fr1-xyz/freiburg1_xyz-rgbdslam.txt"
        let imported = try navbench(["import", "tum", gt, est, "--out", dir + "/fr1.h5"], cwd: repoRoot)
        #expect(imported.status == 0)
        #expect(imported.out == "\(dir)/fr1.h5: recording; vio 788, groundtruth 3000\n" && imported.err == "")
        for relation in ["translation_part", "rotation_angle_deg"] {
            let a = try navbench(["ape", gt, est, "--align", "se3", "--relation", relation], cwd: repoRoot)
            let b = try navbench(
                [
                    "ape", dir + "/fr1.h5", dir + "/fr1.h5", "--ref-stream", "groundtruth", "--est-stream", "vio",
                    "--align", "se3", "--relation", relation,
                ], cwd: repoRoot)
            #expect(a.status == 0 && b.status == 0)
            #expect(a.out == b.out, "\(relation)")
        }
        let a = try navbench(["ape", gt, est, "--align", "se3"], cwd: repoRoot)
        #expect(a.out.contains("rmse\t0.013470") && a.out.contains("pairs\t785"))
    }

    @Test func successPrintsTheStreams() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try navbench(["import", "clew-crd", "\(Self.imp)/clew/route.crd", "--out", dir + "/route.h5"], cwd: repoRoot)
        #expect(r.status == 0 && r.err == "")
        #expect(r.out == "\(dir)/route.h5: recording; vio 30, anchors 3\n")
        let e = try navbench(["export", "csv", dir + "/route.h5", "--stream", "vio", "--out", dir + "/vio.csv"], cwd: repoRoot)
        #expect(e.status == 0 && e.out == "\(dir)/vio.csv\n")
        let csv = try String(contentsOfFile: dir + "/vio.csv", encoding: .utf8).split(separator: "\n")
        #expect(csv.count == 31)
        #expect(
            csv[0]
                == "timestamps [s],position_x [m],position_y [m],position_z [m],orientation_x [1],orientation_y [1],orientation_z [1],orientation_w [1],tracking_state [1]"
        )
        #expect(csv[1].hasPrefix("0,0,0,0,"))
        let t = try navbench(["export", "tum", dir + "/route.h5", "--stream", "vio", "--out", dir + "/vio.tum"], cwd: repoRoot)
        #expect(t.status == 0)
        let back = try navbench(["import", "tum", dir + "/vio.tum", "--stream", "vio", "--out", dir + "/again.h5"], cwd: repoRoot)
        #expect(back.out == "\(dir)/again.h5: recording; vio 30\n")
    }

    @Test func importErrorsAreOneLineAndWriteNothing() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [([String], String)] = [
            (
                ["import", "csv", "\(Self.imp)/bad/phone_not_a_number.csv", "--mapping", "\(Self.imp)/csv/phone.mapping.yaml"],
                "navbench: error: \(Self.imp)/bad/phone_not_a_number.csv: line 8, column 'gy_dps': expected a number, found 'zero'\n"
            ),
            (
                ["import", "csv", "\(Self.imp)/csv/phone.csv", "--mapping", "\(Self.imp)/bad/mapping_unit_mismatch.yaml"],
                "navbench: error: \(Self.imp)/bad/mapping_unit_mismatch.yaml: line 8, streams.imu.gyroscope.units: units 'm/s^2' measure acceleration, but gyroscope is angular rate; expected one of rad/s, deg/s, °/s\n"
            ),
            (
                ["import", "hdf5-mapped", "\(Self.imp)/bad/broad_units_attr.hdf5", "--mapping", "Datasets/real/broad/broad.mapping.yaml"],
                "navbench: error: \(Self.imp)/bad/broad_units_attr.hdf5: /imu_gyr: units attribute 'deg/s' contradicts Datasets/real/broad/broad.mapping.yaml line 12, streams.imu.gyroscope.units 'rad/s'\n"
            ),
            (
                ["import", "ble-annotated", "\(Self.imp)/real/ble-position-annotated/trk/straight_05_all_sensors.mbd"],
                "navbench: error: \(Self.imp)/real/ble-position-annotated/trk/straight_05_all_sensors.mbd: line 175: field 4 (RSSI): 42 dBm is outside [−150, 20] (a corrupt reading; --drop-invalid-rows leaves it out)\n"
            ),
            (
                ["import", "clew-crd", "\(Self.imp)/clew/bad_short_transform.crd"],
                "navbench: error: \(Self.imp)/clew/bad_short_transform.crd: route.crumbs[3].transform: 48 bytes, expected 64 (16 little-endian float32, column-major)\n"
            ),
        ]
        for (args, err) in cases {
            let r = try navbench(args + ["--out", dir + "/x.h5"], cwd: repoRoot)
            #expect(r.status == 1, "\(args)")
            #expect(r.err == err)
            #expect(r.out == "")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)  // no file, no temporary left
    }

    /// `import mat-mapped` on the QTM-like export with the committed example mapping, and the
    /// one-line pointers between MAT-file kinds and importers (issue 52).
    @Test func matMappedImportsQTMAndMATFilesArePointedToTheirImporter() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mat = "\(Self.imp)/mat", qtm = "examples/mappings/qtm.mapping.yaml"
        let r = try navbench(["import", "mat-mapped", "\(mat)/qtm.mat", "--mapping", qtm, "--out", dir + "/qtm.h5"], cwd: repoRoot)
        #expect(r.status == 0 && r.err == "")
        #expect(r.out == "\(dir)/qtm.h5: recording; groundtruth 25\n")
        let e = try navbench(["export", "tum", dir + "/qtm.h5", "--stream", "groundtruth", "--out", dir + "/gt.tum"], cwd: repoRoot)
        #expect(e.status == 0)
        let tum = try String(contentsOfFile: dir + "/gt.tum", encoding: .utf8).split(separator: "\n")
        #expect(tum.count == 26 && tum[1].hasPrefix("0.0 ") && tum[2].hasPrefix("0.01 "))  // header, then frame k at k / 100 s
        try FileManager.default.removeItem(atPath: dir + "/qtm.h5")
        try FileManager.default.removeItem(atPath: dir + "/gt.tum")
        let cases: [([String], String)] = [
            (
                ["import", "mat-mapped", "\(mat)/bad/v73.mat", "--mapping", qtm],
                "navbench: error: \(mat)/bad/v73.mat: a MATLAB 7.3 MAT-file, which is HDF5: import it with navbench import hdf5-mapped FILE --mapping M.yaml (docs/importers.md)\n"
            ),
            (
                ["import", "hdf5-mapped", "\(mat)/qtm.mat", "--mapping", qtm],
                "navbench: error: \(mat)/qtm.mat: a MATLAB 5 MAT-file, not HDF5: import it with navbench import mat-mapped FILE --mapping M.yaml (docs/importers.md)\n"
            ),
            (
                ["import", "csv", "\(mat)/qtm.mat", "--mapping", "\(Self.imp)/csv/phone.mapping.yaml"],
                "navbench: error: \(mat)/qtm.mat: a MATLAB 5 MAT-file, not text: import it with navbench import mat-mapped FILE --mapping M.yaml (docs/importers.md)\n"
            ),
            (
                ["import", "mat-mapped", "\(mat)/bad/truncated.mat", "--mapping", qtm],
                "navbench: error: \(mat)/bad/truncated.mat: qtm/RigidBodies/Positions: element at byte 952: declares 600 bytes, only 100 follow (truncated)\n"
            ),
        ]
        for (args, err) in cases {
            let x = try navbench(args + ["--out", dir + "/x.h5"], cwd: repoRoot)
            #expect(x.status == 1, "\(args)")
            #expect(x.err == err)
            #expect(x.out == "")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func notesGoToStandardError() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try navbench(["import", "coremotion-logger", "\(Self.imp)/real/coremotion-data-logger", "--out", dir + "/cm.h5"], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(r.out == "\(dir)/cm.h5: recording; imu 300, compass 300\n")
        #expect(
            r.err
                == "navbench: note: \(Self.imp)/real/coremotion-data-logger/gps.txt: location fixes are on the Unix clock and the motion files on the device's uptime clock; location left out (give --gps-offset SECONDS or --gps-align-start)\n"
        )
    }

    /// `import ios-logger`: the whole output on the fixture folder (rows sorted, a repeat and an
    /// invalid heading noted), and one line for a missing required file (nothing written).
    @Test func iosLoggerFolder() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let walk = "Tests/NavImportTests/Fixtures/ios-logger/walk"
        let r = try navbench(["import", "ios-logger", walk, "--out", dir + "/walk.h5"], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(r.out == "\(dir)/walk.h5: recording; imu 10, compass 2, vio 4, location 2\n")
        #expect(
            r.err
                == [
                    "\(walk)/Gyro.txt: imu: 2 rows out of time order sorted (ios-logger sorts rows by time; largest step back 0.01 s)",
                    "\(walk)/Motion.txt: imu: 2 rows out of time order sorted (ios-logger sorts rows by time; largest step back 0.01 s)",
                    "\(walk)/Head.txt: compass: 1 of 4 rows dropped as invalid (first: line 3, column 'headingAccuracy(deg)': accuracy is -1 deg, expected a value in [0, 360])",
                    "\(walk)/Head.txt: compass: 1 repeated times; kept the last row of each repeat (first: line 2, column 'time(s)', 1600000000 s)",
                    "\(walk)/GPS.txt: location: 1 repeated times; kept the last row of each repeat (first: line 2, column 'time(s)', 1600000000.01 s)",
                ].map { "navbench: note: \($0)\n" }.joined())
        let m = try navbench(["import", "ios-logger", walk, "--gyroscope", "device-motion", "--quiet", "--out", dir + "/dm.h5"], cwd: repoRoot)
        #expect(m.status == 0 && m.err == "" && m.out == "\(dir)/dm.h5: recording; imu 10, compass 2, vio 4, location 2\n")

        let partial = dir + "/partial"
        try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repoRoot + "/" + walk + "/Accel.txt", toPath: partial + "/Accel.txt")
        let x = try navbench(["import", "ios-logger", partial, "--out", dir + "/x.h5"], cwd: repoRoot)
        #expect(x.status == 1 && x.out == "")
        #expect(
            x.err
                == "navbench: error: \(partial)/Gyro.txt: not found; expected ios_logger's gyroscope file, lines of time(s),gx(rad/s),gy(rad/s),gz(rad/s) (required)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.h5"))
    }

    @Test func usageErrors() throws {
        let k = try navbench(["import", "kitti", "a.kitti", "--out", "/tmp/x.h5"])
        #expect(
            k.status == 64 && k.err.hasPrefix("navbench: error: give one --times FILE per KITTI input (1), got 0: KITTI poses carry no timestamps"))
        let e = try navbench(["export", "tum", "a.h5", "--stream", "imu", "--out", "/tmp/x.tum"])
        #expect(e.status == 64 && e.err.hasPrefix("navbench: error: --stream imu: tum holds a trajectory; expected groundtruth or vio"))
    }

    static let source = repoRoot + "/../shared/real-data"

    /// The conversions of scripts/convert-real-data.sh for the TUM and ARKit files give the
    /// committed bytes (the whole script: run it twice and diff the manifests).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: source)))
    func realDatasetsRegenerateBitForBit() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: repoRoot + "/Datasets/real/manifest.json")))
            as! [String: Any]
        let sums = Dictionary(uniqueKeysWithValues: (manifest["files"] as! [[String: String]]).map { ($0["file"]!, $0["sha256"]!) })
        let tum = try navbench(
            [
                "import", "tum", "freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", "--stream", "groundtruth", "--stream", "vio",
                "--route-id", "freiburg1_xyz", "--venue", "TUM RGB-D fr1 (motion-capture frame)",
                "--device", "Microsoft Kinect (RGB-D SLAM estimate as vio)", "--out", dir + "/fr1_xyz.h5", "--quiet",
            ],
            cwd: Self.source + "/tum-fr1-xyz")
        #expect(tum.status == 0)
        let arkit = try navbench(
            [
                "import", "arkit-logger", "ARKit_camera_pose_LARR_letters.txt", "--device", "iPhone XS",
                "--out", dir + "/ARKit_camera_pose_LARR_letters.h5", "--quiet",
            ], cwd: Self.source + "/arkit-data-logger/Visualization")
        #expect(arkit.status == 0)
        for (file, key) in [
            ("fr1_xyz.h5", "tum-fr1-xyz/fr1_xyz.h5"), ("ARKit_camera_pose_LARR_letters.h5", "arkit-data-logger/ARKit_camera_pose_LARR_letters.h5"),
        ] {
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + file))
            let hex = sha256(data)
            #expect(hex == sums[key], "\(file)")
        }
    }

    /// A bad value of an input is blamed on the input, not on the output file (issue 29:
    /// `r.h5: /vio/position: row 0: 1e+308 outside …` for a bag's pose, a TUM row, an MCAP time).
    @Test func aBadValueNamesTheInputItCameFrom() throws {
        let dir = NSTemporaryDirectory() + "navbench-blame-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "0 0 0 0 0 0 0 1\n1 1e308 0 0 0 0 0 1\n".write(toFile: dir + "/bad.tum", atomically: true, encoding: .utf8)
        let r = try navbench(["import", "tum", dir + "/bad.tum", "--out", dir + "/bad.h5"])
        #expect(r.status == 1)
        #expect(
            r.err
                == "navbench: error: \(dir)/bad.tum: /groundtruth/position: row 1: 1e+308 outside [-10000000, 10000000] (as imported into bad.h5)\n",
            "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["bad.tum"])
    }
}

/// SHA-256 via the system's sha256sum (the CLI test target links only navbench).
func sha256(_ data: Data) -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["sha256sum"]
    let inPipe = Pipe(), outPipe = Pipe()
    p.standardInput = inPipe
    p.standardOutput = outPipe
    try? p.run()
    inPipe.fileHandleForWriting.write(data)
    try? inPipe.fileHandleForWriting.close()
    let out = outPipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: out, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
}
