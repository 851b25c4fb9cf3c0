import NavCore
import NavIO

/// The pose stream an imported trajectory becomes.
public enum PoseStreamName: String, Sendable, CaseIterable {
    /// True device pose in the venue frame.
    case groundtruth
    /// Odometry in the session's own frame (every sample gets tracking state 2, normal).
    case vio
}

/// One trajectory file and the stream it goes to.
public struct TrajectoryInput: Sendable {
    public var path: String
    public var stream: PoseStreamName
    /// KITTI only: one timestamp per pose, seconds (required: a trace needs times).
    public var timesPath: String?

    public init(path: String, stream: PoseStreamName, timesPath: String? = nil) {
        self.path = path; self.stream = stream; self.timesPath = timesPath
    }
}

/// Imports TUM, KITTI or EuRoC trajectories (through `readTrajectory`, so the same parser and
/// line-numbered errors as `navbench ape`) into one session, each file to `groundtruth` or `vio`.
///
/// Values are kept as read: seconds (EuRoC's nanoseconds ÷ 10⁹), metres, and quaternions
/// normalised to unit length (as evo does). No frame change: the file's frame is taken to
/// be the trace's (ARKit: +y up); TUM RGB-D and EuRoC ground truth are z-up, which matters
/// only to yaw-only alignment and floor-plane tools, not to SE(3)/Sim(3) APE/RPE.
///
/// - Throws: a one-line `TraceError` naming the file and line; also when two inputs go to the
///   same stream, or a KITTI file has no times file.
public func importTrajectories(
    _ inputs: [TrajectoryInput], format: TrajectoryFormat,
    options: ImportOptions = ImportOptions()
) throws(TraceError) -> ImportResult {
    guard format != .h5 else {
        throw TraceError(.badValue, file: inputs.first?.path ?? "-", "h5 is not an import format; the file is already a trace")
    }
    guard !inputs.isEmpty else { throw TraceError(.missing, file: "-", "no input trajectory") }
    var session = Session(
        metadata: importMetadata(
            options,
            frameConvention: SessionMetadata.arkitFrame
                + "; imported \(format.rawValue) trajectory, frame and quaternion order kept (x, y, z, w)"))
    var notes: [String] = []
    for input in inputs {
        if format == .kitti && input.timesPath == nil {
            throw TraceError(.missing, file: input.path, "KITTI poses have no timestamps; give a times file (one time in seconds per line)")
        }
        // A trace's time axis is strictly increasing: a run of repeated stamps keeps its last
        // pose (the one evo's association pairs with that stamp).
        let (t, dropped) = removingDuplicateTimestamps(try readTrajectory(at: input.path, format: format, timesPath: input.timesPath).trajectory)
        if dropped > 0 { notes.append("\(input.path): \(dropped) repeated timestamps; kept the last pose of each repeat") }
        switch input.stream {
        case .groundtruth:
            guard session.groundTruth == nil else {
                throw TraceError(.badValue, file: input.path, "a second trajectory for the groundtruth stream; give each input its own --stream")
            }
            session.groundTruth = GroundTruthStream(timestamps: t.timestamps, poses: t.poses.values)
        case .vio:
            guard session.vio == nil else {
                throw TraceError(.badValue, file: input.path, "a second trajectory for the vio stream; give each input its own --stream")
            }
            session.vio = VIOStream(
                timestamps: t.timestamps, poses: t.poses.values,
                trackingState: Array(repeating: .normal, count: t.count))
        }
    }
    return ImportResult(session: session, notes: notes)
}
