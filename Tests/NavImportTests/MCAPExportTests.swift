import Foundation
import NavCore
import NavIO
import NavRosbag
import NavTestSupport
import Testing

@testable import NavImport

/// `exportMCAP`: what navbench's MCAP reader reads back, each payload parsed by Foundation's
/// JSONDecoder (numbers) or JSONSerialization (text), not the encoder that wrote it, equals the
/// trace; hostile label text stays valid JSON; times MCAP cannot hold are refused in one line.
@Suite struct MCAPExportTests {
    // Numbers are decoded by JSONDecoder into the test's own types: Foundation's JSONSerialization
    // on Linux misreads some 17-digit numbers by an ulp (-1.8361879083912025 → …023), JSONDecoder
    // reads them correctly rounded.
    struct Time: Decodable, Equatable { var sec: UInt64, nsec: UInt64 }
    struct Vector: Decodable { var x: Double, y: Double, z: Double }
    struct Rotation: Decodable { var x: Double, y: Double, z: Double, w: Double }
    struct Pose: Decodable { var position: Vector, orientation: Rotation }
    struct PoseInFrame: Decodable { var timestamp: Time, frame_id: String, pose: Pose }
    struct PosesInFrame: Decodable { var timestamp: Time, frame_id: String, poses: [Pose] }
    struct Imu: Decodable { var timestamp: Time, frame_id: String, linear_acceleration: Vector, angular_velocity: Vector }
    struct Fix: Decodable { var timestamp: Time, latitude: Double, longitude: Double, altitude: Double, position_covariance: [Double] }

    /// Every message of an MCAP file: topic → [(log time, payload)], and topic → schema name.
    func payloads(_ path: String) throws -> (messages: [String: [(UInt64, Data)]], schemas: [String: String]) {
        var messages: [String: [(UInt64, Data)]] = [:]
        let channels = try RobotRecording(path: path).forEachMessage { channel, time, payload throws(RecordingError) in
            messages[channel.topic, default: []].append((time, Data(payload)))
        }
        return (messages, Dictionary(uniqueKeysWithValues: channels.map { ($0.topic, $0.typeName) }))
    }

    func decode<T: Decodable>(_: T.Type, _ messages: [(UInt64, Data)]?) throws -> [(UInt64, T)] {
        try (messages ?? []).map { ($0.0, try JSONDecoder().decode(T.self, from: $0.1)) }
    }

    func ns(_ t: Double) -> UInt64 { UInt64((t * 1e9).rounded()) }
    func time(_ ns: UInt64) -> Time { Time(sec: ns / 1_000_000_000, nsec: ns % 1_000_000_000) }

    @Test func bundledTraceReadsBackValueForValue() throws {
        let trace = repositoryRoot + "/Datasets/R1-corridor_nav1.h5"
        let out = temporaryFolder() + "/r1.mcap"
        let summary = try exportMCAP(trace, to: out)
        #expect(summary.topics.map(\.topic) == ["/groundtruth", "/groundtruth/path", "/vio", "/vio/path", "/imu", "/location"])
        #expect(summary.skipped == ["anchors", "ble", "compass"])
        #expect(summary.bytes == (try FileManager.default.attributesOfItem(atPath: out)[.size] as? UInt64))
        let loaded = try #require(validateTrace(at: trace).trace)
        let (messages, schemas) = try payloads(out)
        #expect(schemas["/vio"] == "foxglove.PoseInFrame" && schemas["/vio/path"] == "foxglove.PosesInFrame" && schemas["/imu"] == "navbench.Imu")
        #expect(schemas["/location"] == "foxglove.LocationFix")
        for (name, frame) in [("groundtruth", "venue"), ("vio", "session")] {
            let s = try #require(loaded.stream(name))
            let t = s.timestamps, p = s.data["position"]?.doubles ?? [], q = s.data["orientation"]?.doubles ?? []
            let read = try decode(PoseInFrame.self, messages["/" + name])
            #expect(read.map(\.0) == t.map(ns))
            #expect(read.allSatisfy { $0.1.timestamp == time($0.0) && $0.1.frame_id == frame })
            #expect(read.flatMap { [$0.1.pose.position.x, $0.1.pose.position.y, $0.1.pose.position.z] } == p)
            #expect(read.flatMap { [$0.1.pose.orientation.x, $0.1.pose.orientation.y, $0.1.pose.orientation.z, $0.1.pose.orientation.w] } == q)
            let path = try decode(PosesInFrame.self, messages["/\(name)/path"])
            #expect(path.count == 1 && path.first?.0 == ns(t[0]) && path.first?.1.frame_id == frame)
            #expect((path.first?.1.poses ?? []).flatMap { [$0.position.x, $0.position.y, $0.position.z] } == p)
        }
        let imu = try #require(loaded.stream("imu"))
        let read = try decode(Imu.self, messages["/imu"])
        #expect(read.map(\.0) == imu.timestamps.map(ns) && read.allSatisfy { $0.1.frame_id == "device" })
        #expect(
            read.flatMap { [$0.1.linear_acceleration.x, $0.1.linear_acceleration.y, $0.1.linear_acceleration.z] }
                == imu.data["accelerometer"]?.doubles)
        #expect(read.flatMap { [$0.1.angular_velocity.x, $0.1.angular_velocity.y, $0.1.angular_velocity.z] } == imu.data["gyroscope"]?.doubles)
        let location = try #require(loaded.stream("location"))
        let fixes = try decode(Fix.self, messages["/location"])
        #expect(fixes.map(\.1.latitude) == location.data["latitude"]?.doubles && fixes.map(\.1.altitude) == location.data["altitude"]?.doubles)
        #expect(fixes.map { $0.1.position_covariance[0] } == (location.data["horizontal_accuracy"]?.doubles ?? []).map { $0 * $0 })
    }

    /// Quotes, backslashes, a line break, `</script>`, U+2028/U+2029, ESC: written through a trace
    /// and read back as the same text; JSON has them escaped (no raw control byte or separator).
    @Test func hostileLabelsRoundTripAsJSON() throws {
        let hostile = "say \"stop\" \\ now\nthen </script><!-- \u{2028}\u{2029}\u{1B}[31m é"
        let t = (0..<20).map { Double($0) * 0.05 }
        var s = Session(
            metadata: SessionMetadata(kind: .recording, sessionID: "walk", routeID: "T1", venue: "", device: "phone"),
            imu: IMUStream(timestamps: t, accelerometer: t.map { _ in Vector3(0, 9.8, 0) }, gyroscope: t.map { _ in Vector3(0, 0, 0) }))
        s.annotations = [
            AnnotationStream(name: "events", kind: .instants, source: "hand", start: [0.25, 0.5], label: [hostile, "plain"]),
            AnnotationStream(
                name: "turns", kind: .intervals, source: "hand", start: [0.2], end: [0.75], label: ["1-5"], value: [-90], valueUnits: "deg"),
        ]
        let dir = temporaryFolder()
        try writeTrace(s, to: dir + "/a.h5")
        try exportMCAP(dir + "/a.h5", to: dir + "/a.mcap")
        let (messages, schemas) = try payloads(dir + "/a.mcap")
        #expect(schemas["/annotations/events"] == "foxglove.Log")
        // Strings through Foundation's JSONSerialization, a parser apart from the encoder that wrote them.
        let events = try (messages["/annotations/events"] ?? []).map {
            ($0.0, try #require(try JSONSerialization.jsonObject(with: $0.1) as? [String: Any]))
        }
        #expect(events.map { $0.1["message"] as? String } == [hostile, "plain"])
        #expect(events.map { $0.1["name"] as? String } == ["annotations/events", "annotations/events"])
        #expect(events.map { $0.1["level"] as? Int } == [2, 2] && events.map(\.0) == [250_000_000, 500_000_000])
        let turn = try (messages["/annotations/turns"] ?? []).map { try JSONSerialization.jsonObject(with: $0.1) as? [String: Any] }
        #expect(turn.first??["message"] as? String == "1-5 (to 0.75 s; value -90 deg)")
        // The raw payload: the separators and ESC escaped, nothing below U+0020 left bare.
        var raw: [[UInt8]] = []
        try RobotRecording(path: dir + "/a.mcap").forEachMessage { channel, _, payload throws(RecordingError) in
            if channel.topic == "/annotations/events" { raw.append(Array(payload)) }
        }
        let text = String(decoding: raw.first ?? [], as: UTF8.self)
        #expect(text.contains("\\u2028") && text.contains("\\u2029") && text.contains("\\u001b") && text.contains("\\n"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" })
    }

    /// NUL cannot be in a trace's label; the JSON writer still escapes it (and the rest).
    @Test func jsonEscapesNulAndSeparators() throws {
        let text = "a\u{0}b\"c\\d\n</script>\u{2028}\u{2029}\u{7F}"
        let bytes = try MCAPJSON(file: "x.h5").encode(
            FoxgloveLog(timestamp: FoxgloveTime(1_500_000_001), level: 2, message: text, name: "annotations/x", file: "", line: 0))
        let o = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(o["message"] as? String == text)
        #expect((o["timestamp"] as? [String: Int]) == ["sec": 1, "nsec": 500_000_001])
        #expect(!bytes.contains(0) && !bytes.contains(0x0A) && String(decoding: bytes, as: UTF8.self).contains("\\u0000"))
        #expect(!String(decoding: bytes, as: UTF8.self).unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
    }

    @Test func timesMCAPCannotHoldAreRefusedInOneLine() throws {
        #expect(try mcapTime(1.25, file: "a.h5", stream: "vio", row: 0) == 1_250_000_000)
        #expect(try mcapTime(-0.0, file: "a.h5", stream: "vio", row: 0) == 0)
        #expect(try mcapTime(18_446_744_073, file: "a.h5", stream: "vio", row: 0) > 18_446_744_072_999_990_000)  // near 2^64 ns
        for (t, shown) in [(Double.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"), (-0.001, "-0.001"), (18_446_744_074, "18446744074")] {
            #expect(throws: TraceError.self) { try mcapTime(t, file: "a.h5", stream: "annotations/events", row: 3) }
            do {
                _ = try mcapTime(t, file: "a.h5", stream: "annotations/events", row: 3)
            } catch {
                #expect(error.kind == .badTimestamps)
                #expect(
                    error.description
                        == "a.h5: /annotations/events/timestamps: row 3: \(shown) s; expected a finite time from 0 to 18446744073 s (MCAP times are unsigned 64-bit nanoseconds)"
                )
            }
        }
    }

    @Test func standardOutputIsRefused() {
        #expect(throws: TraceError.self) { try exportMCAP(repositoryRoot + "/Datasets/R1-corridor_nav1.h5", to: "-") }
    }
}
