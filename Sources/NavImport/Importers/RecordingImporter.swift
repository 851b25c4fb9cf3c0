import Foundation
import NavCore
import NavIO
import NavRosbag
import Yams

// `navbench import rosbag|mcap`: topics of a ROS 1 bag or an MCAP file → trace streams.
// The containers and messages are read by NavRosbag; this file maps topics to streams,
// converts units and frames, and checks rows as the other importers do.

/// Topic → stream assignments, from `--imu` … flags and/or a mapping file.
public struct RecordingTopicMapping: Sendable, Equatable {
    public var imu: TopicSelection?
    public var magnetometer: TopicSelection?
    public var vio: TopicSelection?
    public var groundtruth: TopicSelection?
    public var location: TopicSelection?
    public var clock: RecordingClock = .header
    /// World frame of the poses and the IMU attitude (ROS: z up, REP 103).
    public var frame: WorldFrame = .enu
    /// Streams whose invalid rows are dropped (mapping `invalid_rows: drop`).
    public var dropInvalidRows: Set<String> = []

    public init(
        imu: TopicSelection? = nil, magnetometer: TopicSelection? = nil, vio: TopicSelection? = nil,
        groundtruth: TopicSelection? = nil, location: TopicSelection? = nil, clock: RecordingClock = .header, frame: WorldFrame = .enu
    ) {
        self.imu = imu; self.magnetometer = magnetometer; self.vio = vio; self.groundtruth = groundtruth; self.location = location
        self.clock = clock; self.frame = frame
    }

    public var isEmpty: Bool { imu == nil && magnetometer == nil && vio == nil && groundtruth == nil && location == nil }

    /// `self`, with every assignment `other` makes taking precedence (flags over a mapping file).
    public func overridden(by other: RecordingTopicMapping, clockGiven: Bool, frameGiven: Bool) -> RecordingTopicMapping {
        var m = self
        m.imu = other.imu ?? imu; m.magnetometer = other.magnetometer ?? magnetometer
        m.vio = other.vio ?? vio; m.groundtruth = other.groundtruth ?? groundtruth; m.location = other.location ?? location
        if clockGiven { m.clock = other.clock }
        if frameGiven { m.frame = other.frame }
        return m
    }

    /// Reads a mapping file (the YAML of `import csv` / `hdf5-mapped`, with topics):
    ///
    /// ```yaml
    /// navbench_mapping: 1
    /// source: rosbag            # or mcap (optional; checked against the import format)
    /// frame: enu                # world frame of poses and attitude (default enu: ROS is z up)
    /// time: header              # header (default) or receive
    /// streams:
    ///   imu: {topic: /imu0, magnetometer: /imu0/mag}
    ///   vio: {topic: /odom}
    ///   groundtruth: {topic: /tf, child_frame: base_link, invalid_rows: drop}
    ///   location: {topic: /fix}
    /// ```
    public static func load(_ path: String, format: RecordingFormat) throws(TraceError) -> RecordingTopicMapping {
        let text = try readTextFile(path, expected: "a YAML mapping file")
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            let first = String(describing: error).split(separator: "\n").first.map(String.init) ?? "syntax error"
            throw TraceError(.badValue, file: path, "not valid YAML (\(first))")
        }
        let p = MappingParser(file: path)
        let keys = ["navbench_mapping", "source", "frame", "time", "streams"]
        guard let root, let top = root.mapping else { throw p.fail(root, "(top)", "expected a mapping with keys \(keys.joined(separator: ", "))") }
        try p.onlyKeys(top, keys, path: "")
        guard let v = top["navbench_mapping"] else {
            throw p.fail(root, "navbench_mapping", "missing; expected navbench_mapping: 1 (the schema version)")
        }
        guard v.int == 1 else { throw p.fail(v, "navbench_mapping", "expected 1, found '\(v.string ?? "?")'") }
        var m = RecordingTopicMapping()
        if let s = top["source"] {
            guard s.string == format.rawValue else {
                throw p.fail(s, "source", "expected \(format.rawValue) (the import format), found '\(s.string ?? "?")'")
            }
        }
        if let f = top["frame"] {
            guard let frame = f.string.flatMap(WorldFrame.init(rawValue:)) else {
                throw p.fail(f, "frame", "expected one of \(WorldFrame.allCases.map(\.rawValue).joined(separator: ", ")), found '\(f.string ?? "?")'")
            }
            m.frame = frame
        }
        if let t = top["time"] {
            guard let c = t.string.flatMap(RecordingClock.init(rawValue:)) else {
                throw p.fail(t, "time", "expected header or receive, found '\(t.string ?? "?")'")
            }
            m.clock = c
        }
        guard let s = top["streams"], let sm = s.mapping, !sm.isEmpty else {
            throw p.fail(
                top["streams"] ?? root, "streams", "missing or empty; expected a mapping of trace streams (imu, vio, groundtruth, location) to topics"
            )
        }
        try p.onlyKeys(sm, ["imu", "vio", "groundtruth", "location"], path: "streams")
        for (k, node) in sm {
            let name = k.string ?? "?"
            guard let nm = node.mapping else { throw p.fail(node, "streams.\(name)", "expected a mapping such as {topic: /imu0}") }
            let allowed =
                name == "imu"
                ? ["topic", "magnetometer", "invalid_rows"]
                : name == "location" ? ["topic", "invalid_rows"] : ["topic", "child_frame", "invalid_rows"]
            try p.onlyKeys(nm, allowed, path: "streams.\(name)")
            guard let topic = nm["topic"]?.string, topic.hasPrefix("/") || !topic.isEmpty else {
                throw p.fail(nm["topic"] ?? node, "streams.\(name).topic", "missing; expected the topic name, e.g. /imu0")
            }
            let sel = TopicSelection(topic: topic, childFrame: nm["child_frame"]?.string)
            if let r = nm["invalid_rows"] {
                guard let policy = r.string.flatMap(InvalidRowPolicy.init(rawValue:)) else {
                    throw p.fail(r, "streams.\(name).invalid_rows", "expected error or drop")
                }
                if policy == .drop { m.dropInvalidRows.insert(name) }
            }
            switch name {
            case "imu":
                m.imu = sel
                if let mag = nm["magnetometer"] {
                    guard let t = mag.string else { throw p.fail(mag, "streams.imu.magnetometer", "expected a topic name") }
                    m.magnetometer = TopicSelection(topic: t)
                }
            case "vio": m.vio = sel
            case "groundtruth": m.groundtruth = sel
            default: m.location = sel
            }
        }
        return m
    }
}

/// Imports a ROS 1 bag or an MCAP file: `sensor_msgs/Imu` → `imu` (accelerometer =
/// linear_acceleration, gyroscope = angular_velocity, attitude = orientation when every
/// message has one), `sensor_msgs/MagneticField` → `imu/magnetometer` (T → µT, linearly
/// interpolated at the IMU's stamps where they differ), `geometry_msgs/PoseStamped`,
/// `nav_msgs/Odometry` (pose.pose) or `tf2_msgs/TFMessage` (the transforms of one child frame)
/// → `vio` / `groundtruth`, `sensor_msgs/NavSatFix` → `location` (horizontal accuracy =
/// √max(σ²_east, σ²_north) of the covariance).
///
/// Samples are ordered by their time; a repeated time keeps the first sample (a note counts
/// them). Poses and attitude are turned from `mapping.frame` into ARKit's frame; the body
/// frames are kept. Topics of other types are listed in a note and skipped.
///
/// - Parameter format: the container expected (nil: either).
/// - Throws: one line naming the file and the topic: a topic that is not in the file, a type
///   that cannot feed the stream, a child frame never seen, a message that does not decode,
///   an invalid row (unless dropped), or any container error.
public func importRecording(
    _ path: String, format: RecordingFormat? = nil, mapping: RecordingTopicMapping,
    options: ImportOptions = ImportOptions()
) throws(TraceError) -> ImportResult {
    let recording: RobotRecording
    do { recording = try RobotRecording(path: path) } catch { throw traceError(error) }
    if let format, recording.format != format {
        throw TraceError(
            .badValue, file: path, object: "byte 0",
            "is \(recording.format == .rosbag ? "a ROS 1 bag" : "an MCAP file"), expected \(format == .rosbag ? "a ROS 1 bag" : "an MCAP file"); use navbench import \(recording.format.rawValue)"
        )
    }
    let file = path
    var mapping = mapping
    var notes: [String] = []
    if mapping.isEmpty { notes.append(try chooseOnlySensorTopics(recording, file: file, mapping: &mapping)) }

    let roles: [(String, TopicSelection?, Set<RosMessageType>)] = [
        ("imu", mapping.imu, [.imu]), ("magnetometer", mapping.magnetometer, [.magneticField]),
        ("vio", mapping.vio, [.poseStamped, .odometry, .tfMessage]), ("groundtruth", mapping.groundtruth, [.poseStamped, .odometry, .tfMessage]),
        ("location", mapping.location, [.navSatFix]),
    ]
    // Types each chosen topic may have (checked, with the messages, in one pass).
    var accepted: [String: Set<RosMessageType>] = [:]
    for (_, sel, types) in roles {
        guard let sel else { continue }
        accepted[sel.topic] = accepted[sel.topic].map { $0.intersection(types) } ?? types
    }
    var decoded = try DecodedTopics(recording, file: file, accepted: accepted, clock: mapping.clock)
    for (role, sel, types) in roles {
        guard let sel else { continue }
        // A topic with a connection but no messages is there, only empty.
        let defined = decoded.channels.first { $0.topic == sel.topic }.map { ($0.typeName, $0.messageType) }
        try checkRecordingTopic(
            file: file, role: role, selection: sel, found: decoded.seen[sel.topic].map { ($0.typeName, $0.messageType) } ?? defined,
            types: types, topics: Array(decoded.seen.keys))
    }
    let skipped = decoded.seen.filter { $0.value.messageType == nil }.sorted { $0.key < $1.key }
    if !skipped.isEmpty {
        notes.append(
            "\(file): skipped \(skipped.count) topic\(skipped.count == 1 ? "" : "s") of types navbench does not read: "
                + nameList(skipped.map { "\($0.key) (\($0.value.typeName), \($0.value.count) messages)" }))
    }

    var session = Session(
        metadata: importMetadata(
            options,
            frameConvention: SessionMetadata.arkitFrame
                + "; imported from \(recording.format == .rosbag ? "a ROS 1 bag" : "MCAP"), world frame \(mapping.frame.rawValue), body frames kept"))
    var rows = TopicRows(file: file, mapping: mapping, options: options, notes: notes)
    if let sel = mapping.imu {
        session.imu = try rows.imuStream(sel, decoded: &decoded)
    } else if mapping.magnetometer != nil {
        throw TraceError(
            .missing, file: file, object: mapping.magnetometer!.topic, "a magnetometer belongs to the imu stream; give the IMU topic too (--imu)")
    }
    for (role, sel) in [("vio", mapping.vio), ("groundtruth", mapping.groundtruth)] {
        guard let sel else { continue }
        let (t, ps) = try rows.poses(sel, role: role, decoded: &decoded)
        if role == "vio" {
            session.vio = VIOStream(timestamps: t, poses: ps, trackingState: Array(repeating: .normal, count: ps.count))
        } else {
            session.groundTruth = GroundTruthStream(timestamps: t, poses: ps)
        }
    }
    if let sel = mapping.location { session.location = try rows.locationStream(sel, decoded: &decoded) }
    // Notes name topics and types from the file: one line each, control bytes escaped.
    return ImportResult(session: session, notes: rows.notes.map { escapedForMessage($0, limit: 2000) })
}

/// With no topic named, the only topic of each sensor type (IMU, magnetometer beside it,
/// NavSatFix) set in `mapping` (this needs a first pass over the file); the note saying so.
///
/// - Throws: one line listing the file's topics when none is unambiguous.
private func chooseOnlySensorTopics(_ recording: RobotRecording, file: String, mapping: inout RecordingTopicMapping) throws(TraceError)
    -> String
{
    let summary: RecordingSummary
    do { summary = try recording.summary() } catch { throw traceError(error) }
    func only(_ t: RosMessageType) -> TopicSelection? {
        let c = summary.topics.filter { $0.messageType == t && $0.count > 0 }
        return c.count == 1 ? TopicSelection(topic: c[0].topic) : nil
    }
    mapping.imu = only(.imu); mapping.magnetometer = mapping.imu == nil ? nil : only(.magneticField); mapping.location = only(.navSatFix)
    if mapping.isEmpty {
        let list = nameList(summary.topics.map { "\($0.topic) (\($0.typeName))" })
        throw TraceError(.missing, file: file, "no topic chosen; give --imu, --vio, --groundtruth, --location or --mapping (topics: \(list))")
    }
    let chosen = [("imu", mapping.imu), ("magnetometer", mapping.magnetometer), ("location", mapping.location)].compactMap { n, s in
        s.map { "\(n) ← \($0.topic)" }
    }
    return "\(file): no topics named; taking the only \(chosen.joined(separator: ", "))"
}

/// One pass over a recording: every topic counted, the chosen ones (`accepted` types) decoded,
/// stamped by `clock`.
private struct DecodedTopics {
    struct Seen { var typeName: String; var messageType: RosMessageType?; var count: Int }
    var seen: [String: Seen] = [:]
    var imu: [(RosStamp, RosImu)] = [], mag: [(RosStamp, RosMagneticField)] = [], fixes: [(RosStamp, RosNavSatFix)] = []
    var poses: [String: [(RosStamp, RosPose)]] = [:]
    var childFramesSeen: [String: Set<String>] = [:]
    var channels: [RecordingChannel] = []

    init(_ recording: RobotRecording, file: String, accepted: [String: Set<RosMessageType>], clock: RecordingClock) throws(TraceError) {
        do throws(RecordingError) {
            channels = try recording.forEachMessage { channel, time, payload throws(RecordingError) in
                if seen[channel.topic] == nil {
                    seen[channel.topic] = Seen(typeName: channel.typeName, messageType: channel.messageType, count: 0)
                }
                seen[channel.topic]!.count += 1
                guard let types = accepted[channel.topic], let type = channel.messageType, types.contains(type), let encoding = channel.encoding
                else {
                    return
                }
                let message = try channel.decode(payload, as: type, encoding: encoding, at: time, file: file)
                let receive = RosStamp(nanoseconds: time)
                switch message {
                case .imu(let m): imu.append((clock == .header ? m.stamp : receive, m))
                case .magneticField(let m): mag.append((clock == .header ? m.stamp : receive, m))
                case .navSatFix(let m): fixes.append((clock == .header ? m.stamp : receive, m))
                case .poses(let list):
                    for p in list {
                        if type == .tfMessage {
                            childFramesSeen[channel.topic, default: []].insert(p.childFrameID)
                        }
                        poses[channel.topic, default: []].append((clock == .header ? p.stamp : receive, p))
                    }
                }
            }
        } catch { throw traceError(error) }
    }
}

/// The decoded messages of chosen topics made into streams: sorted by stamp, repeats and (by the
/// stream's policy) invalid messages left out with a note, or one line naming the message.
private struct TopicRows {
    let file: String
    let mapping: RecordingTopicMapping
    let options: ImportOptions
    var notes: [String]

    func policy(_ stream: String) -> InvalidRowPolicy { mapping.dropInvalidRows.contains(stream) ? .drop : options.invalidRows }

    /// Sorts by time (stable) and drops repeated times.
    mutating func ordered<T>(_ rows: [(RosStamp, T)], topic: String) -> [(RosStamp, T)] {
        let (out, repeated) = orderedByStamp(rows)
        if repeated > 0 {
            notes.append("\(file): \(topic): \(repeated) message\(repeated == 1 ? "" : "s") with a time already seen left out (the first kept)")
        }
        return out
    }

    /// Keeps or fails on invalid rows; `problem(row)` is nil for a valid row.
    mutating func screen<T>(_ rows: [(RosStamp, T)], stream: String, topic: String, _ problem: (T) -> String?) throws(TraceError) -> [(
        RosStamp, T
    )] {
        // Nothing invalid (the usual case): the rows themselves, not a copy (a 1 GB bag's IMU
        // rows are a few hundred MB).
        guard let firstInvalid = rows.firstIndex(where: { problem($0.1) != nil }) else { return rows }
        var kept = Array(rows[..<firstInvalid])
        kept.reserveCapacity(rows.count)
        var dropped = 0
        var first: String?
        for r in rows[firstInvalid...] {
            if let p = problem(r.1) {
                if policy(stream) == .error {
                    throw TraceError(
                        .badValue, file: file, object: "\(topic), message stamped \(r.0.text)", "\(p) (--drop-invalid-rows leaves it out)")
                }
                dropped += 1
                if first == nil { first = "stamped \(r.0.text): \(p)" }
                continue
            }
            kept.append(r)
        }
        if dropped > 0 { notes.append("\(file): \(topic): \(dropped) invalid message\(dropped == 1 ? "" : "s") left out (first \(first!))") }
        return kept
    }

    /// The imu stream of topic `sel` (attitude when every message has a unit orientation), with
    /// the magnetometer topic's field interpolated at its stamps.
    mutating func imuStream(_ sel: TopicSelection, decoded: inout DecodedTopics) throws(TraceError) -> IMUStream {
        let w = mapping.frame.toARKit
        var rows = ordered(decoded.imu, topic: sel.topic)
        decoded.imu = []  // `rows` holds them: one copy alive, not two
        rows = try screen(rows, stream: "imu", topic: sel.topic) { m in
            m.angularVelocity.isFinite && m.linearAcceleration.isFinite ? nil : "a non-finite angular velocity or acceleration"
        }
        guard !rows.isEmpty else { throw TraceError(.empty, file: file, object: sel.topic, "no messages, expected sensor_msgs/Imu samples") }
        let withAttitude = rows.allSatisfy { $0.1.hasOrientation && $0.1.orientation.unit(tolerance: 0.01) != nil }
        if !withAttitude && rows.contains(where: { $0.1.hasOrientation }) {
            notes.append("\(file): \(sel.topic): attitude left out: not every message has a unit orientation")
        }
        var stream = IMUStream(
            timestamps: rows.map { $0.0.seconds }, accelerometer: rows.map { $0.1.linearAcceleration },
            gyroscope: rows.map { $0.1.angularVelocity },
            attitude: withAttitude ? rows.map { w.applyToOrientation($0.1.orientation.unit(tolerance: 0.01)!) } : nil)
        if let msel = mapping.magnetometer {
            let m = try screen(ordered(decoded.mag, topic: msel.topic), stream: "imu", topic: msel.topic) {
                $0.field.isFinite ? nil : "a non-finite field"
            }
            decoded.mag = []
            guard !m.isEmpty else {
                throw TraceError(.empty, file: file, object: msel.topic, "no messages, expected sensor_msgs/MagneticField samples")
            }
            let (field, exact) = resample(m.map { ($0.0.seconds, $0.1.field * 1e6) }, at: stream.timestamps)
            if !exact { notes.append("\(file): \(msel.topic): magnetometer interpolated linearly at the IMU's stamps (held at the ends)") }
            stream.magnetometer = field
        }
        return stream
    }

    /// The poses of topic `sel` for stream `role` (vio or groundtruth): a tf topic's transforms
    /// of the chosen child frame, in ARKit's world frame.
    mutating func poses(_ sel: TopicSelection, role: String, decoded: inout DecodedTopics) throws(TraceError) -> ([Double], [Pose]) {
        let w = mapping.frame.toARKit
        var rows = decoded.poses[sel.topic] ?? []
        if role == "groundtruth" || mapping.groundtruth?.topic != sel.topic { decoded.poses[sel.topic] = nil }  // the last use of the topic
        if let child = sel.childFrame {
            rows = rows.filter { $0.1.childFrameID == child }
            guard !rows.isEmpty else {
                let seen = nameList((decoded.childFramesSeen[sel.topic] ?? []).sorted())
                throw TraceError(.missing, file: file, object: sel.topic, "no transform with child frame '\(child)'; its child frames: \(seen)")
            }
        }
        rows = ordered(rows, topic: sel.text)
        rows = try screen(rows, stream: role, topic: sel.text) { p in
            guard p.position.isFinite else { return "a non-finite position" }
            guard p.orientation.unit(tolerance: 0.01) != nil else {
                return
                    "orientation (\(num(p.orientation.x)), \(num(p.orientation.y)), \(num(p.orientation.z)), \(num(p.orientation.w))) is not a unit quaternion within 0.01"
            }
            return nil
        }
        guard !rows.isEmpty else { throw TraceError(.empty, file: file, object: sel.text, "no messages, expected poses") }
        let t = rows.map { $0.0.seconds }
        let ps = rows.map { Pose(rotation: w.applyToOrientation($0.1.orientation.unit(tolerance: 0.01)!), translation: w.apply($0.1.position)) }
        return (t, ps)
    }

    /// The location stream of NavSatFix topic `sel`: fixes with a status, finite coordinates and a
    /// horizontal accuracy from their covariance.
    mutating func locationStream(_ sel: TopicSelection, decoded: inout DecodedTopics) throws(TraceError) -> LocationStream {
        var rows = ordered(decoded.fixes, topic: sel.topic)
        decoded.fixes = []
        rows = try screen(rows, stream: "location", topic: sel.topic) { f in
            if f.status < 0 { return "status \(f.status) (no fix)" }
            guard f.latitude.isFinite, abs(f.latitude) <= 90 else { return "latitude \(num(f.latitude)) is outside [−90, 90]" }
            guard f.longitude.isFinite, abs(f.longitude) <= 180 else { return "longitude \(num(f.longitude)) is outside [−180, 180]" }
            guard f.altitude.isFinite else { return "a non-finite altitude" }
            guard f.covarianceType > 0 else { return "position_covariance_type 0 (unknown): no horizontal accuracy" }
            let h = horizontalAccuracy(f)
            guard h.isFinite, h >= 0 else {
                return
                    "position covariance gives no horizontal accuracy (σ² east \(num(f.positionCovariance[0])), north \(num(f.positionCovariance[4])))"
            }
            return nil
        }
        guard !rows.isEmpty else { throw TraceError(.empty, file: file, object: sel.topic, "no messages, expected sensor_msgs/NavSatFix fixes") }
        return LocationStream(
            timestamps: rows.map { $0.0.seconds }, latitude: rows.map { $0.1.latitude }, longitude: rows.map { $0.1.longitude },
            altitude: rows.map { $0.1.altitude }, horizontalAccuracy: rows.map { horizontalAccuracy($0.1) },
            floor: Array(repeating: LocationStream.noFloor, count: rows.count))
    }
}

/// √max(σ²_east, σ²_north): the larger horizontal standard deviation of a fix, metres.
func horizontalAccuracy(_ f: RosNavSatFix) -> Double {
    max(f.positionCovariance[0], f.positionCovariance[4]).squareRoot()
}

/// Values at `times`: exact where a sample has that time, else linear between the samples
/// around it, held at the first / last sample outside their span.
///
/// - Returns: the values and whether every time matched a sample exactly.
/// - Complexity: O(n + m) (both sorted).
func resample(_ samples: [(Double, Vector3)], at times: [Double]) -> ([Vector3], Bool) {
    var out: [Vector3] = []
    out.reserveCapacity(times.count)
    var exact = true
    var j = 0
    for t in times {
        while j + 1 < samples.count && samples[j + 1].0 <= t { j += 1 }
        if samples[j].0 == t { out.append(samples[j].1); continue }
        exact = false
        if t < samples[0].0 { out.append(samples[0].1); continue }
        if j + 1 >= samples.count { out.append(samples[samples.count - 1].1); continue }
        let (t0, v0) = samples[j], (t1, v1) = samples[j + 1]
        let u = (t - t0) / (t1 - t0)
        out.append(v0 + (v1 - v0) * u)
    }
    return (out, exact)
}
