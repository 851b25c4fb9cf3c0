import Foundation
import NavCore
import NavRosbag

// `navbench ape|rpe|simplify REF.bag:/topic EST.mcap:/tf:base_link`: a pose topic of a ROS 1
// bag or MCAP file read as a trajectory, as evo's `evo_ape bag REF.bag /topic …` does.

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
/// the file's own frame, stamped with the header stamps; a recording named without a topic
/// uses its only pose topic.
///
/// - Throws: one line naming the file and the topic (missing, of another type, several pose
///   topics to choose from) or the record (any container error).
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
            let list = summary.topics.filter { $0.messageType?.carriesPose ?? false }.map { "\($0.topic) (\($0.typeName))" }.joined(separator: ", ")
            throw TraceError(.missing, file: file, "name the pose topic as \(file):/topic (\(file):/tf:CHILD for TF); pose topics: \(list.isEmpty ? "none" : list)")
        }
        selection = TopicSelection(topic: candidates[0].topic)
    }
    let mapping = RecordingTopicMapping(groundtruth: selection, clock: .header, frame: .arkit)
    let session = try importRecording(file, mapping: mapping).session
    guard let gt = session.groundTruth else { throw TraceError(.empty, file: file, object: selection.text, "no poses") }
    let trajectory: Trajectory
    do { trajectory = try Trajectory(timestamps: gt.timestamps, poses: gt.poses) } catch {
        throw TraceError(.badTimestamps, file: file, object: selection.text, "timestamps are not strictly increasing")
    }
    return TrajectoryFile(path: file, format: recording.format == .rosbag ? .rosbag : .mcap, stream: selection.text,
                          trajectory: trajectory, hasTimestamps: true)
}
