import Foundation
import NavCore
import NavRosbag
import NavTestSupport
import Testing

// The ROS 1 bag and MCAP readers against fixtures written by the Python `rosbags` (bags, with
// no / bz2 / lz4 chunks) and `mcap` (MCAP with none / lz4 / zstd chunks, ROS 2 CDR) writers:
// scripts/make_rosbag_fixtures.py, values in Fixtures/expected.json (floats in hex). Every
// decoded value must equal what went in, bit for bit.

/// A fixture of this target (read in place, as NavImportTests does).
func fixture(_ name: String) -> String { rosFixture(name) }

/// Every decodable message of a file, per topic, in file order (TF: child frame base_link only).
func decodeAll(_ path: String) throws -> [String: [(UInt64, RosMessage)]] {
    let recording = try RobotRecording(path: path)
    var out: [String: [(UInt64, RosMessage)]] = [:]
    try recording.forEachMessage { channel, time, payload throws(RecordingError) in
        guard let type = channel.messageType, let encoding = channel.encoding else { return }
        do throws(MessageDecodingError) {
            var message = try decodeRosMessage(payload, type: type, encoding: encoding)
            if case .poses(let p) = message, type == .tfMessage { message = .poses(p.filter { $0.childFrameID == "base_link" }) }
            out[channel.topic, default: []].append((time, message))
        } catch {
            throw RecordingError(.corrupt, file: path, location: channel.topic, error.problem)
        }
    }
    return out
}

func v(_ x: Vector3) -> [Double] { [x.x, x.y, x.z] }
func q(_ x: Quaternion) -> [Double] { [x.x, x.y, x.z, x.w] }

@Suite struct RecordingReaderTests {
    static let samples = rosSamples

    @Test(arguments: samples)
    func decodesEveryValueExactly(_ name: String) throws {
        let e = RosExpected.shared
        let got = try decodeAll(fixture(name))
        let pairs: [(String, String)] = [
            ("/imu0", "imu"), ("/vicon/pose", "pose"), ("/odom", "odom"), ("/tf", "tf_base_link"),
            ("/imu0/mag", "mag"), ("/fix", "fix"),
        ]
        for (topic, key) in pairs {
            let messages = try #require(got[topic], "\(name): \(topic)")
            let expected = e.topics[key]!
            #expect(messages.count == expected.count, "\(name) \(topic)")
            for (k, (time, message)) in messages.prefix(expected.count).enumerated() {
                let x = expected[k]
                #expect(time == x.recv, "\(name) \(topic) #\(k) receive time")
                switch message {
                case .imu(let m):
                    #expect(m.stamp == RosStamp(sec: x.sec, nsec: x.nsec))
                    #expect(q(m.orientation) == x.values["orientation"]!)
                    #expect(v(m.angularVelocity) == x.values["angular_velocity"]!)
                    #expect(v(m.linearAcceleration) == x.values["linear_acceleration"]!)
                    #expect(m.hasOrientation)
                case .poses(let p):
                    #expect(p.count == 1)
                    #expect(p[0].stamp == RosStamp(sec: x.sec, nsec: x.nsec))
                    #expect(v(p[0].position) == x.values["position"]!)
                    #expect(q(p[0].orientation) == x.values["orientation"]!)
                case .magneticField(let m):
                    #expect(m.stamp == RosStamp(sec: x.sec, nsec: x.nsec))
                    #expect(v(m.field) == x.values["field"]!)
                case .navSatFix(let f):
                    #expect(f.stamp == RosStamp(sec: x.sec, nsec: x.nsec))
                    #expect(
                        [f.latitude, f.longitude, f.altitude] == [x.values["latitude"]![0], x.values["longitude"]![0], x.values["altitude"]![0]])
                    #expect(f.positionCovariance == x.values["covariance"]!)
                    #expect(f.covarianceType == 2 && f.status == 0)
                }
            }
        }
    }

    @Test(arguments: samples)
    func summaryListsTopicsTypesAndCounts(_ name: String) throws {
        let s = try RobotRecording(path: fixture(name)).summary()
        let e = RosExpected.shared
        #expect(Dictionary(uniqueKeysWithValues: s.topics.map { ($0.topic, $0.count) }) == e.counts)
        let chatter = try #require(s.topics.first { $0.topic == "/chatter" })
        #expect(chatter.messageType == nil)
        #expect(chatter.typeName.hasPrefix("std_msgs/"))
        #expect(s.topics.filter { $0.messageType != nil }.count == 6)
        // 40 IMU messages 10 ms apart (receive times jitter by < 1 µs): 100 Hz.
        let imu = try #require(s.topics.first { $0.topic == "/imu0" })
        #expect(abs(imu.rate! - 100) < 0.01)
        #expect(s.text.contains("std_msgs/String  (not read by navbench)") || s.text.contains("std_msgs/msg/String  (not read by navbench)"))
        let compression = name.split(separator: "-")[1].split(separator: ".")[0]
        #expect(s.chunks.keys.sorted() == [String(compression)], "\(s.chunks)")
        #expect(s.chunks.values.reduce(0, +) > 1, "several chunks")
    }

    @Test func ros1ConnectionsCarryTheStandardMD5() throws {
        var seen: [String: String] = [:]
        try RobotRecording(path: fixture("sample-lz4.bag")).forEachMessage { c, _, _ throws(RecordingError) in seen[c.typeName] = c.md5 }
        #expect(seen == RosExpected.shared.md5)
        for t in RosMessageType.allCases { #expect(seen[t.rawValue] == t.ros1MD5) }
    }

    @Test func aDifferentDefinitionUnderAKnownNameIsNotDecoded() {
        let c = RecordingChannel(
            id: 0, topic: "/imu", typeName: "sensor_msgs/Imu", encoding: .ros1, md5: "0123456789abcdef0123456789abcdef", encodingName: "ros1")
        #expect(c.messageType == nil)
        #expect(
            RecordingChannel(id: 0, topic: "/imu", typeName: "sensor_msgs/msg/Imu", encoding: .cdr, md5: nil, encodingName: "cdr").messageType == .imu
        )
        #expect(
            RecordingChannel(id: 0, topic: "/imu", typeName: "sensor_msgs/msg/Imu", encoding: nil, md5: nil, encodingName: "protobuf").messageType
                == nil)
    }
}

/// Malformed copies (cut by the fixture script) and hostile payloads: one line naming the
/// file, the record and what was expected.
@Suite struct RecordingBadInputTests {
    func failure(_ name: String) -> RecordingError? {
        do { _ = try decodeAll(fixture(name)); return nil } catch let e as RecordingError { return e } catch { return nil }
    }

    @Test func truncatedBag() throws {
        let e = try #require(failure("bad-truncated.bag"))
        #expect(e.kind == .truncated)
        #expect(
            e.description.hasSuffix(
                "/bad-truncated.bag: bag header record: the index starts at byte 25130, but the file has 21766 bytes (a truncated bag; expected the whole recording)"
            ), "\(e)")
        #expect(!e.description.contains("\n"))
    }

    @Test func bagChunkWithAWrongLength() throws {
        let e = try #require(failure("bad-chunk-size.bag"))
        #expect(e.kind == .corrupt)
        #expect(e.description.contains("bad-chunk-size.bag: chunk at byte 4109: lz4 chunk "), "\(e)")
        #expect(e.description.contains("expected its 'size' field to give the uncompressed length"), "\(e)")
    }

    @Test func bagWithAnUnknownCompression() throws {
        let e = try #require(failure("bad-compression.bag"))
        #expect(e.kind == .unsupported)
        #expect(e.description.hasSuffix("bad-compression.bag: chunk at byte 4109: compression 'xz4', expected none, bz2 or lz4"), "\(e)")
    }

    @Test func truncatedMCAP() throws {
        let e = try #require(failure("bad-truncated.mcap"))
        #expect(e.kind == .truncated)
        #expect(
            e.description.hasSuffix(
                "/bad-truncated.mcap: record at byte 15299: needs 1183 bytes at byte 15308, the file has 985 left (a truncated MCAP file)"), "\(e)")
        #expect(!e.description.contains("\n"))
    }

    @Test func mcapChunkWithAWrongLength() throws {
        let e = try #require(failure("bad-chunk-size.mcap"))
        #expect(e.kind == .corrupt)
        #expect(
            e.description.hasSuffix(
                "/bad-chunk-size.mcap: chunk record at byte 46: zstd chunk decompresses to 6210 bytes, but declares 6211 (expected uncompressed_size to give its length)"
            ), "\(e)")
    }

    @Test func mcapWithAnUnknownCompression() throws {
        let e = try #require(failure("bad-compression.mcap"))
        #expect(e.kind == .unsupported)
        #expect(e.description.hasSuffix("compression 'zstx', expected '' (none), lz4 or zstd"), "\(e)")
    }

    @Test func notARecording() throws {
        let dir = temporaryFolder()
        _ = FileManager.default.createFile(atPath: dir + "/x.bag", contents: Data("hello world".utf8))
        _ = FileManager.default.createFile(atPath: dir + "/empty.mcap", contents: Data())
        _ = FileManager.default.createFile(atPath: dir + "/old.bag", contents: Data("#ROSBAG V1.2\n".utf8))
        #expect(
            throws: RecordingError(
                .corrupt, file: dir + "/x.bag", location: "byte 0",
                "expected '#ROSBAG V2.0' (ROS 1 bag) or the MCAP magic 0x89 'MCAP0', found neither")
        ) { try RobotRecording(path: dir + "/x.bag") }
        #expect(throws: RecordingError(.truncated, file: dir + "/empty.mcap", "empty file (0 bytes), expected a ROS 1 bag or an MCAP file")) {
            try RobotRecording(path: dir + "/empty.mcap")
        }
        #expect(throws: RecordingError.self) { try RobotRecording(path: dir + "/old.bag") }
    }

    @Test func truncatedAndOverlongPayloads() throws {
        // A PoseStamped in ROS 1 serialisation is 4 + 8 + 4 + len(frame) + 56 bytes.
        var bytes = [UInt8](repeating: 0, count: 72)
        bytes[12] = 0  // frame_id length 0
        try bytes.withUnsafeBytes { raw in
            _ = try decodeRosMessage(raw, type: .poseStamped, encoding: .ros1)
            #expect(throws: MessageDecodingError.self) {
                try decodeRosMessage(UnsafeRawBufferPointer(rebasing: raw[0..<60]), type: .poseStamped, encoding: .ros1)
            }
        }
        bytes.append(0)
        _ = bytes.withUnsafeBytes { raw in
            #expect(throws: MessageDecodingError.self) { try decodeRosMessage(raw, type: .poseStamped, encoding: .ros1) }
        }
        // A string length far beyond the payload is refused before anything is read.
        var hostile = [UInt8](repeating: 0, count: 72)
        hostile[12] = 0xFF; hostile[13] = 0xFF; hostile[14] = 0xFF; hostile[15] = 0x7F
        _ = hostile.withUnsafeBytes { raw in
            #expect(throws: MessageDecodingError.self) { try decodeRosMessage(raw, type: .poseStamped, encoding: .ros1) }
        }
        // A TFMessage claiming 2³² − 1 transforms.
        let tf: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]
        _ = tf.withUnsafeBytes { raw in
            #expect(throws: MessageDecodingError.self) { try decodeRosMessage(raw, type: .tfMessage, encoding: .ros1) }
        }
        // CDR with an unknown encapsulation.
        let xcdr2: [UInt8] = [0x00, 0x07, 0, 0] + [UInt8](repeating: 0, count: 72)
        _ = xcdr2.withUnsafeBytes { raw in
            #expect(throws: MessageDecodingError.self) { try decodeRosMessage(raw, type: .poseStamped, encoding: .cdr) }
        }
    }
}
