import Foundation
import NavTestSupport
import Testing

// `navbench import rosbag|mcap` and `navbench ape|rpe FILE.bag:/topic`, exact output, on the
// fixtures of Tests/NavRosbagTests (written by rosbags and mcap: scripts/make_rosbag_fixtures.py).

let rosFixtures = "Tests/NavRosbagTests/Fixtures"

@Suite(.serialized) struct RecordingCLITests {
    @Test func listIsLikeRosbagInfo() throws {
        let r = try navbench(["import", "rosbag", "\(rosFixtures)/sample-bz2.bag", "--list"], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(
            r.out == """
                path:        \(rosFixtures)/sample-bz2.bag
                format:      ROS 1 bag
                version:     2.0
                duration:    0.760 s
                start:       1700000000.123457
                end:         1700000000.883457
                size:        32649 bytes
                messages:    135
                compression: bz2 [11/11 chunks]
                types:       geometry_msgs/PoseStamped
                             nav_msgs/Odometry
                             sensor_msgs/Imu
                             sensor_msgs/MagneticField
                             sensor_msgs/NavSatFix
                             std_msgs/String  (not read by navbench)
                             tf2_msgs/TFMessage
                topics:      /chatter     3 msgs @ 10.0 Hz : std_msgs/String
                             /fix         4 msgs @ 5.0 Hz : sensor_msgs/NavSatFix
                             /imu0        40 msgs @ 100.0 Hz : sensor_msgs/Imu
                             /imu0/mag    40 msgs @ 100.0 Hz : sensor_msgs/MagneticField
                             /odom        16 msgs @ 20.0 Hz : nav_msgs/Odometry
                             /tf          16 msgs @ 20.0 Hz : tf2_msgs/TFMessage
                             /vicon/pose  16 msgs @ 20.0 Hz : geometry_msgs/PoseStamped

                """)
    }

    @Test func importWritesAValidTraceAndNamesSkippedTopics() throws {
        let dir = NSTemporaryDirectory() + "navbench-rosbag-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let out = dir + "/run.h5"
        let r = try navbench(
            [
                "import", "mcap", "\(rosFixtures)/sample-lz4.mcap", "--imu", "/imu0", "--magnetometer", "/imu0/mag",
                "--vio", "/odom", "--groundtruth", "/tf:base_link", "--location", "/fix", "--out", out,
            ], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(r.out == "\(out): recording; imu 40, vio 16, location 4, groundtruth 16\n")
        #expect(
            r.err
                == "navbench: note: \(rosFixtures)/sample-lz4.mcap: skipped 1 topic of types navbench does not read: /chatter (std_msgs/msg/String, 3 messages)\n"
        )
        let v = try navbench(["validate", out], cwd: repoRoot)
        #expect(v.status == 0)
        let bad = try navbench(["import", "rosbag", "\(rosFixtures)/bad-truncated.bag", "--imu", "/imu0", "--out", dir + "/bad.h5"], cwd: repoRoot)
        #expect(bad.status == 1)
        #expect(
            bad.err
                == "navbench: error: \(rosFixtures)/bad-truncated.bag: bag header record: the index starts at byte 25130, but the file has 21766 bytes (a truncated bag; expected the whole recording)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir + "/bad.h5"))
        let missing = try navbench(["import", "rosbag", "\(rosFixtures)/sample-none.bag", "--list", "--out", out], cwd: repoRoot)
        #expect(missing.status == 64)
        #expect(missing.err.hasPrefix("navbench: error: --list prints the topics; it writes no --out file"))
    }

    /// A bag topic gives the same APE as the same poses in TUM files.
    @Test func apeOnTopicsEqualsApeOnTheSamePosesAsTUM() throws {
        let dir = NSTemporaryDirectory() + "navbench-rosbag-ape-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let data = FileManager.default.contents(atPath: repoRoot + "/\(rosFixtures)/expected.json")!
        let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        func tum(_ key: String) throws -> String {
            let rows = json[key] as! [[String: Any]]
            let lines = rows.map { row -> String in
                let sec = (row["sec"] as! NSNumber).int64Value, nsec = (row["nsec"] as! NSNumber).int64Value
                let t = Double(sec) + Double(nsec) / 1e9
                let p = (row["position"] as! [String]).map { Double($0)! }, q = (row["orientation"] as! [String]).map { Double($0)! }
                return ([t] + p + q).map { "\($0)" }.joined(separator: " ")
            }
            let path = dir + "/\(key).tum"
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let gt = try tum("pose"), est = try tum("tf_base_link")
        for command in [["ape", "--align", "se3"], ["rpe", "--delta", "2"]] {
            let a = try navbench(
                command + ["\(rosFixtures)/sample-lz4.bag:/vicon/pose", "\(rosFixtures)/sample-zstd.mcap:/tf:base_link"], cwd: repoRoot)
            let b = try navbench(command + [gt, est], cwd: repoRoot)
            #expect(a.status == 0 && b.status == 0, "\(a.err)\(b.err)")
            #expect(!a.out.isEmpty && a.out == b.out)
        }
        let noTopic = try navbench(["ape", "\(rosFixtures)/sample-lz4.bag:/nope", gt], cwd: repoRoot)
        #expect(noTopic.status == 1)
        #expect(noTopic.err.hasPrefix("navbench: error: \(rosFixtures)/sample-lz4.bag: /nope: no such topic"))
    }
}

@Suite(.serialized) struct ProtocolCLITests {
    static let kitti = "Tests/NavMetricsTests/Fixtures/kitti"
    static let tum = "Tests/NavMetricsTests/Fixtures/tum-rpe"

    @Test func kittiPresetPrintsTheDevkitFigures() throws {
        let r = try navbench(["rpe", "--protocol", "kitti", "\(Self.kitti)/gt.kitti", "\(Self.kitti)/est.kitti"], cwd: repoRoot)
        #expect(r.status == 0)
        #expect(
            r.out.hasPrefix(
                """
                kitti: KITTI odometry devkit evaluate_odometry.cpp (Geiger et al., CVPR 2012)
                translation_error           1.160759 %
                rotation_error              0.006067 deg/m
                segments                    804
                   100 m:   131 segments, 1.196471 %, 0.010356 deg/m

                """), "\(r.out)")
    }

    @Test func presetsBelongToTheirCommand() throws {
        let r = try navbench(["ape", "--protocol", "tum-rpe", "\(Self.tum)/gt.tum", "\(Self.tum)/est.tum"], cwd: repoRoot)
        #expect(r.status == 1)
        #expect(r.err == "navbench: error: --protocol tum-rpe belongs to navbench rpe; use navbench rpe --protocol tum-rpe\n")
        let ipin = try navbench(["ape", "--protocol", "ipin", "\(Self.tum)/gt.tum", "\(Self.tum)/est.tum"], cwd: repoRoot)
        #expect(ipin.status == 1 && ipin.err == "navbench: error: --protocol ipin belongs to navbench score; use navbench score --protocol ipin\n")
        let h = try navbench(
            ["ape", "--protocol", "hilti", "--max-diff", "0.02", "\(Self.tum)/gt.tum", "\(Self.tum)/est.tum", "--json"], cwd: repoRoot)
        #expect(h.status == 0)
        #expect(h.out.contains("\"protocolName\" : \"hilti\""))
    }
}

/// Hostile bags through the binary: names from the file escaped in `--list` and errors, a
/// zip-bomb chunk one line and exit 1. The bytes are built here from the bag specification.
@Suite struct RecordingHostileCLITests {
    static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { RosbagBytes.le(v) }
    static func fields(_ f: [(String, [UInt8])]) -> [UInt8] { RosbagBytes.fields(f) }
    static func record(_ f: [(String, [UInt8])], _ data: [UInt8] = []) -> [UInt8] { RosbagBytes.record(f, data: data) }
    static func bag(_ records: [UInt8]) -> [UInt8] {
        Array("#ROSBAG V2.0\n".utf8) + record([("op", [3]), ("index_pos", le(UInt64(0)))]) + records
    }

    @Test func namesAreEscapedAndABombIsOneLine() throws {
        let dir = NSTemporaryDirectory() + "navbench-rosbag-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let topic = Array("/a\n/b\u{1B}[31m".utf8)
        let inner =
            Self.record(
                [("op", [7]), ("conn", Self.le(UInt32(0))), ("topic", topic)],
                Self.fields([("topic", topic), ("type", Array("std_msgs/String".utf8)), ("md5sum", Array("*".utf8))]))
            + Self.record([("op", [2]), ("conn", Self.le(UInt32(0))), ("time", Self.le(UInt64(1)))], Self.le(UInt32(0)))
        let names = dir + "/names.bag"
        _ = FileManager.default.createFile(
            atPath: names,
            contents: Data(
                Self.bag(
                    Self.record(
                        [
                            ("op", [5]), ("compression", Array("none".utf8)),
                            ("size", Self.le(UInt32(inner.count))),
                        ], inner))))
        let list = try navbench(["import", "rosbag", names, "--list"])
        #expect(list.status == 0)
        #expect(list.out.split(separator: "\n").last == "topics:      /a\\n/b\\u{1B}[31m  1 msgs : std_msgs/String", "\(list.out)")
        #expect(!list.out.contains("\u{1B}"))
        let missing = try navbench(["import", "rosbag", names, "--imu", "/nope", "--out", dir + "/x.h5"])
        #expect(missing.status == 1)
        #expect(missing.err == "navbench: error: \(names): /nope: no such topic (for imu); the file has /a\\n/b\\u{1B}[31m\n")

        // A connection without messages: the topic exists, it is empty.
        let imu = Array("/imu".utf8)
        let conn = Self.record(
            [("op", [7]), ("conn", Self.le(UInt32(0))), ("topic", imu)],
            Self.fields([("topic", imu), ("type", Array("sensor_msgs/Imu".utf8)), ("md5sum", Array("*".utf8))]))
        let empty = dir + "/empty.bag"
        _ = FileManager.default.createFile(
            atPath: empty,
            contents: Data(
                Self.bag(
                    Self.record(
                        [
                            ("op", [5]), ("compression", Array("none".utf8)),
                            ("size", Self.le(UInt32(conn.count))),
                        ], conn))))
        let e = try navbench(["import", "rosbag", empty, "--imu", "/imu", "--out", dir + "/e.h5"])
        #expect(e.status == 1)
        #expect(e.err == "navbench: error: \(empty): /imu: no messages, expected sensor_msgs/Imu samples\n")
        let t = try navbench(["ape", empty + ":/imu", empty + ":/imu"])
        #expect(
            t.err
                == "navbench: error: \(empty): /imu: sensor_msgs/Imu; a trajectory expects geometry_msgs/PoseStamped, nav_msgs/Odometry, tf2_msgs/TFMessage\n"
        )

        // 79 bytes of bz2 that expand to 64 MiB, in a chunk that declares 1,000 bytes.
        let bomb: [UInt8] = stride(from: 0, to: bz2BombHex.count, by: 2).map {
            UInt8(bz2BombHex[bz2BombHex.index(bz2BombHex.startIndex, offsetBy: $0)...].prefix(2), radix: 16)!
        }
        let bombPath = dir + "/bomb.bag"
        _ = FileManager.default.createFile(
            atPath: bombPath,
            contents: Data(
                Self.bag(
                    Self.record(
                        [
                            ("op", [5]), ("compression", Array("bz2".utf8)),
                            ("size", Self.le(UInt32(1000))),
                        ], bomb))))
        let r = try navbench(["import", "rosbag", bombPath, "--list"])
        #expect(r.status == 1)
        #expect(
            r.err
                == "navbench: error: \(bombPath): chunk at byte 51: bz2 chunk decompresses to more than the declared 1000 bytes (expected its 'size' field to give the uncompressed length)\n"
        )
    }
}

/// `bz2.compress(b"\0" * (64 << 20), 9)`, as hex.
let bz2BombHex =
    "425a68393141592653590e09e2df015f8e4000c0000008200030804d4642a025a90a8097314159265359bc04b5c300a275c000c0000008200020a40836328a884d2a2a2138bb9229c2848500bb83e8"
