import Foundation
import Testing

/// `navbench export mcap`: the exact output for a bundled walk, the same bytes on a rerun, the
/// file listed by `navbench import mcap --list`, and the usage and output errors.
@Suite(.serialized) struct ExportMCAPCLITests {
    static let walk = "Datasets/real/weallwalk/T1_ID2_1L_WC.h5"

    @Test func exportsABundledWalk() throws {
        let dir = try scratchFolder("export-mcap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try navbench(["export", "mcap", Self.walk, "--out", dir + "/walk.mcap"], cwd: repoRoot)
        #expect(r.status == 0 && r.err == "")
        #expect(
            r.out == """
                \(dir)/walk.mcap: 1258973 bytes
                  /imu: 2852 navbench.Imu
                  /annotations/events: 2 foxglove.Log
                  /annotations/steps: 150 foxglove.Log
                  /annotations/straight_segments: 4 foxglove.Log
                  /annotations/turns: 3 foxglove.Log

                """)
        let again = try navbench(["export", "mcap", Self.walk, "--out", dir + "/again.mcap"], cwd: repoRoot)
        #expect(again.status == 0)
        #expect(FileManager.default.contents(atPath: dir + "/walk.mcap") == FileManager.default.contents(atPath: dir + "/again.mcap"))
        let list = try navbench(["import", "mcap", dir + "/walk.mcap", "--list"], cwd: repoRoot)
        #expect(list.status == 0)
        #expect(
            list.out == """
                path:        \(dir)/walk.mcap
                format:      MCAP
                version:     profile '', library 'navbench'
                duration:    114.040 s
                start:       0.000000
                end:         114.040000
                size:        1258973 bytes
                messages:    3011
                compression: none [2/2 chunks]
                types:       foxglove.Log  (not read by navbench)
                             navbench.Imu  (not read by navbench)
                topics:      /annotations/events             2 msgs @ 0.0 Hz : foxglove.Log
                             /annotations/steps              150 msgs @ 1.4 Hz : foxglove.Log
                             /annotations/straight_segments  4 msgs @ 0.0 Hz : foxglove.Log
                             /annotations/turns              3 msgs @ 0.0 Hz : foxglove.Log
                             /imu                            2852 msgs @ 25.0 Hz : navbench.Imu

                """)
    }

    @Test func streamsWithoutASchemaAreNamedInANote() throws {
        let dir = try scratchFolder("export-mcap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try navbench(["export", "mcap", "Datasets/R1-corridor_nav1.h5", "--out", dir + "/r1.mcap"], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(r.err == "navbench: note: Datasets/R1-corridor_nav1.h5: left out of the MCAP file: anchors, ble, compass\n")
        #expect(
            r.out == """
                \(dir)/r1.mcap: 2956372 bytes
                  /groundtruth: 1679 foxglove.PoseInFrame
                  /groundtruth/path: 1 foxglove.PosesInFrame
                  /vio: 840 foxglove.PoseInFrame
                  /vio/path: 1 foxglove.PosesInFrame
                  /imu: 3357 navbench.Imu
                  /location: 34 foxglove.LocationFix

                """)
    }

    @Test func errors() throws {
        let dir = try scratchFolder("export-mcap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [([String], Int32, String)] = [
            (
                ["export", "mcap", Self.walk, "--stream", "imu", "--out", dir + "/x.mcap"], 64,
                "navbench: error: --stream applies to tum, kitti, euroc and csv; mcap holds every stream it can\n"
            ),
            (
                ["export", "mcap", Self.walk, "--out", "-"], 73,
                "navbench: error: '-': MCAP is a binary file and cannot go to standard output; name a .mcap file\n"
            ),
            (
                ["export", "mcap", Self.walk, "--out", Self.walk], 73,
                "navbench: error: \(Self.walk): --out: is the input \(Self.walk); inputs are never modified, choose another output\n"
            ),
            (["export", "mcap", dir + "/none.h5", "--out", dir + "/x.mcap"], 1, "navbench: error: \(dir)/none.h5: no such file\n"),
        ]
        for (args, status, err) in cases {
            let r = try navbench(args, cwd: repoRoot)
            #expect(r.status == status, "\(args)")
            #expect(r.err == err)
            #expect(r.out == "")
        }
        // The other formats still require --stream, in ArgumentParser's words.
        let tum = try navbench(["export", "tum", Self.walk, "--out", dir + "/x.tum"], cwd: repoRoot)
        #expect(tum.status == 64 && tum.err.hasPrefix("navbench: error: Missing expected argument '--stream <stream>'"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)  // nothing written, no temporary left
    }
}
