import Foundation
import NavCore
import NavIO
import NavRosbag
import NavTestSupport
import Testing

@testable import NavImport

// `importRecording` (navbench import rosbag|mcap) on the rosbags / mcap fixtures: every trace
// value equals what the fixture script wrote (after the documented conversions), bags and
// MCAP give the same session, and each bad input is one line naming file, topic or record.

func v(_ x: Vector3) -> [Double] { [x.x, x.y, x.z] }
func q(_ x: Quaternion) -> [Double] { [x.x, x.y, x.z, x.w] }

let allTopics = RecordingTopicMapping(
    imu: TopicSelection(topic: "/imu0"), magnetometer: TopicSelection(topic: "/imu0/mag"),
    vio: TopicSelection(topic: "/odom"), groundtruth: TopicSelection(parsing: "/tf:base_link"),
    location: TopicSelection(topic: "/fix"), clock: .header, frame: .arkit)

func stampSeconds(_ s: RosExpected.Sample) -> Double { RosStamp(sec: s.sec, nsec: s.nsec).seconds }

/// Within 2 ulp of 1: what normalising an already-unit quaternion may change.
func nearlyEqual(_ a: [Double], _ b: [Double]) -> Bool {
    zip(a, b).allSatisfy { abs($0 - $1) <= 4e-16 * max(1, abs($1)) }
}

@Suite struct RecordingImportTests {
    @Test(arguments: rosSamples)
    func everyStreamMatchesTheFixtureValues(_ name: String) throws {
        let e = RosExpected.shared.topics
        let r = try importRecording(rosFixture(name), mapping: allTopics)
        let s = r.session
        let imu = try #require(s.imu)
        #expect(imu.timestamps == e["imu"]!.map(stampSeconds))
        #expect(imu.gyroscope.map(v) == e["imu"]!.map { $0.values["angular_velocity"]! })
        #expect(imu.accelerometer.map(v) == e["imu"]!.map { $0.values["linear_acceleration"]! })
        let attitude = try #require(imu.attitude)
        for (a, x) in zip(attitude, e["imu"]!) { #expect(nearlyEqual(q(a), x.values["orientation"]!)) }
        // Tesla → µT; the magnetometer shares the IMU's stamps, so no interpolation.
        #expect(try #require(imu.magnetometer).map(v) == e["mag"]!.map { $0.values["field"]!.map { $0 * 1e6 } })
        #expect(!r.notes.contains { $0.contains("interpolated") })
        let vio = try #require(s.vio)
        #expect(vio.timestamps == e["odom"]!.map(stampSeconds))
        #expect(vio.poses.map { v($0.translation) } == e["odom"]!.map { $0.values["position"]! })
        for (p, x) in zip(vio.poses, e["odom"]!) { #expect(nearlyEqual(q(p.rotation), x.values["orientation"]!)) }
        #expect(vio.trackingState.allSatisfy { $0 == .normal })
        let gt = try #require(s.groundTruth)
        #expect(gt.timestamps == e["tf_base_link"]!.map(stampSeconds))
        #expect(gt.poses.map { v($0.translation) } == e["tf_base_link"]!.map { $0.values["position"]! })
        let loc = try #require(s.location)
        #expect(loc.latitude == e["fix"]!.map { $0.values["latitude"]![0] })
        #expect(loc.longitude == e["fix"]!.map { $0.values["longitude"]![0] })
        #expect(loc.altitude == e["fix"]!.map { $0.values["altitude"]![0] })
        #expect(loc.horizontalAccuracy == e["fix"]!.map { max($0.values["covariance"]![0], $0.values["covariance"]![4]).squareRoot() })
        #expect(loc.floor.allSatisfy { $0 == LocationStream.noFloor })
        #expect(r.notes.contains { $0.contains("/chatter (std_msgs/") && $0.contains("3 messages") })
    }

    @Test func receiveTimesOnRequest() throws {
        var m = allTopics
        m.clock = .receive
        let s = try importRecording(rosFixture("sample-bz2.bag"), mapping: m).session
        #expect(s.imu!.timestamps == RosExpected.shared.topics["imu"]!.map { RosStamp(nanoseconds: $0.recv).seconds })
        #expect(s.groundTruth!.timestamps == RosExpected.shared.topics["tf_base_link"]!.map { RosStamp(nanoseconds: $0.recv).seconds })
    }

    @Test func enuPosesBecomeARKitYUp() throws {
        var m = allTopics
        m.frame = .enu
        let s = try importRecording(rosFixture("sample-none.mcap"), mapping: m).session
        for (p, x) in zip(s.vio!.poses, RosExpected.shared.topics["odom"]!) {
            let (ex, ey, ez) = (x.values["position"]![0], x.values["position"]![1], x.values["position"]![2])
            #expect(v(p.translation) == [ex, ez, -ey])  // (east, up, south)
            // q' = q_W · q: the body's axes are kept, only the world turns. q_W is written out here,
            // not taken from the importer: (east, north, up) → (east, up, south) is a −90° turn
            // about x, q_W = (x −√½, y 0, z 0, w √½).
            let qw = Quaternion(x: -0.5.squareRoot(), y: 0, z: 0, w: 0.5.squareRoot())
            let o = x.values["orientation"]!
            #expect(nearlyEqual(q(p.rotation), q((qw * Quaternion(x: o[0], y: o[1], z: o[2], w: o[3])).normalized)))
        }
    }

    @Test func bagsAndMCAPGiveTheSameTraceAfterARoundTrip() throws {
        let dir = temporaryFolder()
        var sessions: [Session] = []
        for name in ["sample-lz4.bag", "sample-zstd.mcap"] {
            let out = dir + "/\(name).h5"
            try writeImportedTrace(try importRecording(rosFixture(name), mapping: allTopics).session, to: out, processing: "navbench import test")
            sessions.append(try readTrace(at: out))
        }
        #expect(sessions[0].imu!.timestamps == sessions[1].imu!.timestamps)
        #expect(sessions[0].imu!.accelerometer == sessions[1].imu!.accelerometer)
        #expect(sessions[0].imu!.magnetometer! == sessions[1].imu!.magnetometer!)
        #expect(sessions[0].groundTruth!.poses == sessions[1].groundTruth!.poses)
        #expect(sessions[0].vio!.poses == sessions[1].vio!.poses)
        #expect(sessions[0].location!.horizontalAccuracy == sessions[1].location!.horizontalAccuracy)
        #expect(sessions[0].imu!.gyroscope.map(v) == RosExpected.shared.topics["imu"]!.map { $0.values["angular_velocity"]! })
    }

    @Test func magnetometerAtOtherStampsIsInterpolated() {
        let samples: [(Double, Vector3)] = [(0, Vector3(0, 0, 0)), (1, Vector3(10, 20, 30))]
        let (out, exact) = resample(samples, at: [-1, 0, 0.25, 1, 2])
        #expect(!exact)
        #expect(out == [Vector3(0, 0, 0), Vector3(0, 0, 0), Vector3(2.5, 5, 7.5), Vector3(10, 20, 30), Vector3(10, 20, 30)])
    }

    @Test func mappingFileAndFlags() throws {
        let dir = temporaryFolder()
        let path = dir + "/bag.mapping.yaml"
        try """
        navbench_mapping: 1
        source: rosbag
        frame: arkit
        time: receive
        streams:
          imu: {topic: /imu0, magnetometer: /imu0/mag}
          groundtruth: {topic: /tf, child_frame: base_link}
          location: {topic: /fix, invalid_rows: drop}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let m = try RecordingTopicMapping.load(path, format: .rosbag)
        #expect(m.imu == TopicSelection(topic: "/imu0") && m.magnetometer == TopicSelection(topic: "/imu0/mag"))
        #expect(m.groundtruth == TopicSelection(topic: "/tf", childFrame: "base_link"))
        #expect(m.clock == .receive && m.frame == .arkit && m.dropInvalidRows == ["location"])
        let flags = RecordingTopicMapping(groundtruth: TopicSelection(topic: "/vicon/pose"))
        let merged = m.overridden(by: flags, clockGiven: false, frameGiven: false)
        #expect(merged.groundtruth == TopicSelection(topic: "/vicon/pose") && merged.imu == m.imu && merged.clock == .receive)
        #expect(throws: TraceError(.badValue, file: path, object: "line 2, source", "expected mcap (the import format), found 'rosbag'")) {
            try RecordingTopicMapping.load(path, format: .mcap)
        }
        try "navbench_mapping: 1\nstreams:\n  imu: {topic: /imu0, magnetometr: /m}\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: TraceError.self) { try RecordingTopicMapping.load(path, format: .rosbag) }
    }
}

/// Each failure kind of the issue: one line naming the file, the topic or record, and what was expected.
@Suite struct RecordingImportBadInputTests {
    func error(_ name: String, _ mapping: RecordingTopicMapping = allTopics, format: RecordingFormat? = nil) -> TraceError? {
        do { _ = try importRecording(rosFixture(name), format: format, mapping: mapping); return nil } catch { return error }
    }

    @Test func missingTopic() throws {
        let e = try #require(error("sample-lz4.bag", RecordingTopicMapping(imu: TopicSelection(topic: "/imu1"))))
        #expect(
            e
                == TraceError(
                    .missing, file: rosFixture("sample-lz4.bag"), object: "/imu1",
                    "no such topic (for imu); the file has /chatter, /fix, /imu0, /imu0/mag, /odom, /tf, /vicon/pose"))
    }

    @Test func wrongTypeForTheStream() throws {
        let e = try #require(error("sample-none.mcap", RecordingTopicMapping(vio: TopicSelection(topic: "/imu0"))))
        #expect(
            e.description.hasSuffix(
                "sample-none.mcap: /imu0: sensor_msgs/msg/Imu; vio expects geometry_msgs/PoseStamped, nav_msgs/Odometry, tf2_msgs/TFMessage"))
        let u = try #require(error("sample-none.mcap", RecordingTopicMapping(vio: TopicSelection(topic: "/chatter"))))
        #expect(u.description.contains("/chatter: std_msgs/msg/String (a type navbench does not read)"))
    }

    @Test func tfNeedsAKnownChildFrame() throws {
        let a = try #require(error("sample-none.bag", RecordingTopicMapping(vio: TopicSelection(topic: "/tf"))))
        #expect(
            a.description.hasSuffix(
                "/tf: a tf2_msgs/TFMessage topic holds many frames; name the child frame as /tf:FRAME (or child_frame: in the mapping)"))
        let b = try #require(error("sample-none.bag", RecordingTopicMapping(vio: TopicSelection(topic: "/tf", childFrame: "base"))))
        #expect(b.description.hasSuffix("/tf: no transform with child frame 'base'; its child frames: base_link, camera"))
    }

    @Test(arguments: [
        (
            "bad-truncated.bag",
            "bag header record: the index starts at byte 25130, but the file has 21766 bytes (a truncated bag; expected the whole recording)"
        ),
        (
            "bad-chunk-size.bag",
            "chunk at byte 4109: lz4 chunk decompresses to 5988 bytes, but declares 5989 (expected its 'size' field to give the uncompressed length)"
        ),
        ("bad-compression.bag", "chunk at byte 4109: compression 'xz4', expected none, bz2 or lz4"),
        ("bad-truncated.mcap", "record at byte 15299: needs 1183 bytes at byte 15308, the file has 985 left (a truncated MCAP file)"),
        (
            "bad-chunk-size.mcap",
            "chunk record at byte 46: zstd chunk decompresses to 6210 bytes, but declares 6211 (expected uncompressed_size to give its length)"
        ),
        ("bad-compression.mcap", "chunk record at byte 46: compression 'zstx', expected '' (none), lz4 or zstd"),
    ])
    func malformedContainers(_ name: String, _ message: String) throws {
        let e = try #require(error(name))
        #expect(e.description == rosFixture(name) + ": " + message)
        #expect(!e.description.contains("\n"))
    }

    @Test func wrongContainerForTheCommand() throws {
        let e = try #require(error("sample-lz4.bag", format: .mcap))
        #expect(e.description.hasSuffix("sample-lz4.bag: byte 0: is a ROS 1 bag, expected an MCAP file; use navbench import rosbag"))
    }
}
