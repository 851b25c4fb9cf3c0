import Foundation
import NavCore
import NavRosbag

// `navbench ape|rpe|simplify REF.bag:/topic EST.mcap:/tf:base_link`: a pose topic of a ROS 1
// bag or MCAP file read as a trajectory, as evo's `evo_ape bag REF.bag /topic …` does. Also the
// pieces `navbench import rosbag|mcap` (NavImport's RecordingImporter) shares with it: topic
// selections, the topic checks, ordering by stamp and the container errors as one line.

/// Which clock stamps the samples.
public enum RecordingClock: String, Sendable, CaseIterable {
    /// `header.stamp` of each message (each transform of a TFMessage): when it was measured.
    case header
    /// When the recorder received it (ROS 1 record time, MCAP `log_time`).
    case receive
}

/// A topic and, for `tf2_msgs/TFMessage`, the child frame whose transforms make the trajectory.
public struct TopicSelection: Sendable, Equatable {
    public var topic: String
    public var childFrame: String?

    public init(topic: String, childFrame: String? = nil) { self.topic = topic; self.childFrame = childFrame }

    /// `TOPIC` or `TOPIC:CHILD_FRAME` (ROS names cannot contain ':').
    public init(parsing s: String) {
        if let i = s.firstIndex(of: ":") {
            topic = String(s[..<i]); childFrame = String(s[s.index(after: i)...])
        } else {
            topic = s; childFrame = nil
        }
    }

    public var text: String { childFrame.map { "\(topic):\($0)" } ?? topic }
}

/// Checks that a chosen topic exists (`found`: its type name and decodable type, nil when no
/// message has that topic), has one of `types`, and names a child frame exactly when it is a
/// TFMessage topic.
///
/// - Throws: one line naming the file and the topic, and what `role` expects.
package func checkRecordingTopic(
    file: String, role: String, selection sel: TopicSelection, found: (typeName: String, messageType: RosMessageType?)?,
    types: Set<RosMessageType>, topics: [String]
) throws(TraceError) {
    guard let found else {
        throw TraceError(
            .missing, file: file, object: sel.topic,
            "no such topic (for \(role)); the file has \(topics.isEmpty ? "no messages" : nameList(topics.sorted()))")
    }
    guard let type = found.messageType, types.contains(type) else {
        let expected = types.map(\.rawValue).sorted().joined(separator: ", ")
        let why = found.messageType == nil ? " (a type navbench does not read)" : ""
        throw TraceError(.wrongType, file: file, object: sel.topic, "\(found.typeName)\(why); \(role) expects \(expected)")
    }
    if type == .tfMessage && sel.childFrame == nil {
        throw TraceError(
            .missing, file: file, object: sel.topic,
            "a tf2_msgs/TFMessage topic holds many frames; name the child frame as \(sel.topic):FRAME (or child_frame: in the mapping)")
    }
    if type != .tfMessage && sel.childFrame != nil {
        throw TraceError(
            .badValue, file: file, object: sel.text, "a child frame applies only to tf2_msgs/TFMessage topics; \(sel.topic) is \(found.typeName)")
    }
}

/// Rows sorted by stamp (stable), a repeated stamp keeping the first row.
///
/// - Returns: the rows and how many repeats were left out.
/// - Complexity: O(n) when the stamps already increase strictly (a recording's usual order; the
///   rows are returned as they are), else O(n log n).
@inlinable
package func orderedByStamp<T>(_ rows: [(RosStamp, T)]) -> (rows: [(RosStamp, T)], repeated: Int) {
    var increasing = true
    for i in rows.indices.dropFirst() where !(rows[i - 1].0 < rows[i].0) { increasing = false; break }
    if increasing { return (rows, 0) }
    let sorted = rows.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
    var out: [(RosStamp, T)] = []
    out.reserveCapacity(sorted.count)
    var repeated = 0
    for r in sorted {
        if let last = out.last, last.0 == r.0 { repeated += 1; continue }
        out.append(r)
    }
    return (out, repeated)
}

/// Names from a file for a one-line message: the first `limit`, then how many in all (a file
/// can hold thousands of topics or frames); "none" when empty.
package func nameList(_ names: [String], limit: Int = 20) -> String {
    if names.isEmpty { return "none" }
    if names.count <= limit { return names.joined(separator: ", ") }
    return names.prefix(limit).joined(separator: ", ") + ", … (\(names.count) in all)"
}

/// A container error as the importers' one-line error.
package func traceError(_ e: RecordingError) -> TraceError {
    let kind: TraceError.Kind =
        switch e.kind {
        case .truncated, .corrupt: .corrupt
        case .unsupported: .unsupportedVersion
        case .missing: .missing
        case .unreadable: .notFound
        }
    return TraceError(kind, file: e.file, object: e.location, e.problem)
}

/// Splits `FILE:/topic` (or `FILE:/tf:CHILD`) when FILE is an existing recording: a `.bag` or
/// `.mcap` name, or any name when `format` is `rosbag` / `mcap`. A recording named without a
/// topic gives a nil topic. nil when the path is not a recording.
func recordingTrajectoryPath(_ path: String, format: TrajectoryFormat?) -> (file: String, topic: String?)? {
    guard format == nil || format == .rosbag || format == .mcap else { return nil }
    func isRecording(_ p: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: p, isDirectory: &isDirectory), !isDirectory.boolValue else { return false }
        let ext = (p as NSString).pathExtension.lowercased()
        return format != nil || ext == "bag" || ext == "mcap"
    }
    if isRecording(path) { return (path, nil) }
    var search = path.startIndex
    while let r = path.range(of: ":/", range: search..<path.endIndex) {
        let file = String(path[..<r.lowerBound])
        if isRecording(file) { return (file, String(path[path.index(after: r.lowerBound)...])) }
        search = r.upperBound
    }
    return nil
}

/// The poses of one topic (`PoseStamped`, `Odometry`, or `TFMessage` with `TOPIC:CHILD`), in
/// the file's own frame, stamped with the header stamps, ordered by stamp (a repeated stamp
/// keeps the first pose); a recording named without a topic uses its only pose topic.
///
/// - Throws: one line naming the file and the topic (missing, of another type, several pose
///   topics to choose from, a message that does not decode, a non-unit orientation) or the
///   record (any container error).
/// - Complexity: one pass over the recording (two when no topic is named), O(n log n) in the poses.
public func readRecordingTrajectory(file: String, topic: String?) throws(TraceError) -> TrajectoryFile {
    let recording: RobotRecording
    do { recording = try RobotRecording(path: file) } catch { throw traceError(error) }
    var selection: TopicSelection
    if let topic {
        selection = TopicSelection(parsing: topic)
    } else {
        let summary: RecordingSummary
        do { summary = try recording.summary() } catch { throw traceError(error) }
        let candidates = summary.topics.filter { ($0.messageType?.carriesPose ?? false) && $0.messageType != .tfMessage && $0.count > 0 }
        guard candidates.count == 1 else {
            let list = nameList(summary.topics.filter { $0.messageType?.carriesPose ?? false }.map { "\($0.topic) (\($0.typeName))" })
            throw TraceError(.missing, file: file, "name the pose topic as \(file):/topic (\(file):/tf:CHILD for TF); pose topics: \(list)")
        }
        selection = TopicSelection(topic: candidates[0].topic)
    }
    let types: Set<RosMessageType> = [.poseStamped, .odometry, .tfMessage]
    var seen: [String: (typeName: String, messageType: RosMessageType?)] = [:]
    var rows: [(RosStamp, RosPose)] = []
    var childFrames: Set<String> = []
    do throws(RecordingError) {
        let channels = try recording.forEachMessage { channel, time, payload throws(RecordingError) in
            if seen[channel.topic] == nil { seen[channel.topic] = (channel.typeName, channel.messageType) }
            guard channel.topic == selection.topic, let type = channel.messageType, types.contains(type), let encoding = channel.encoding else {
                return
            }
            let message = try channel.decode(payload, as: type, encoding: encoding, at: time, file: file)
            guard case .poses(let list) = message else { return }
            for p in list {
                childFrames.insert(p.childFrameID)
                if selection.childFrame == nil || p.childFrameID == selection.childFrame { rows.append((p.stamp, p)) }
            }
        }
        // A topic with a connection but no messages is there, only empty.
        if seen[selection.topic] == nil, let c = channels.first(where: { $0.topic == selection.topic }) {
            seen[selection.topic] = (c.typeName, c.messageType)
        }
    } catch { throw traceError(error) }
    try checkRecordingTopic(
        file: file, role: "a trajectory", selection: selection, found: seen[selection.topic], types: types, topics: Array(seen.keys))
    if let child = selection.childFrame, rows.isEmpty {
        throw TraceError(
            .missing, file: file, object: selection.topic,
            "no transform with child frame '\(child)'; its child frames: \(nameList(childFrames.sorted()))")
    }
    rows = orderedByStamp(rows).rows
    guard !rows.isEmpty else { throw TraceError(.empty, file: file, object: selection.text, "no messages, expected poses") }
    var poses: [Pose] = []
    poses.reserveCapacity(rows.count)
    for (stamp, p) in rows {
        guard p.position.isFinite else {
            throw TraceError(.badValue, file: file, object: "\(selection.text), message stamped \(stamp.text)", "a non-finite position")
        }
        guard let q = p.orientation.unit(tolerance: 0.01) else {
            throw TraceError(
                .badValue, file: file, object: "\(selection.text), message stamped \(stamp.text)",
                "orientation (\(formatNumber(p.orientation.x)), \(formatNumber(p.orientation.y)), \(formatNumber(p.orientation.z)), \(formatNumber(p.orientation.w))) is not a unit quaternion within 0.01"
            )
        }
        poses.append(Pose(rotation: q, translation: p.position))
    }
    let trajectory: Trajectory
    do { trajectory = try Trajectory(timestamps: rows.map { $0.0.seconds }, poses: poses) } catch {
        throw TraceError(.badTimestamps, file: file, object: selection.text, "timestamps are not strictly increasing")
    }
    return TrajectoryFile(
        path: file, format: recording.format == .rosbag ? .rosbag : .mcap, stream: selection.text,
        trajectory: trajectory, hasTimestamps: true)
}
