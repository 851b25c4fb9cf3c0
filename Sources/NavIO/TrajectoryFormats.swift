import Foundation
import NavCore

/// Trajectory file formats navbench reads and writes.
public enum TrajectoryFormat: String, Sendable, CaseIterable, Codable {
    /// TUM RGB-D: `timestamp tx ty tz qx qy qz qw` per line, seconds, `#` comments.
    case tum
    /// KITTI odometry: 12 numbers per line, the 3×4 row-major [R|t] of the pose; no
    /// timestamps unless a times file (one stamp per line) is given.
    case kitti
    /// EuRoC MAV ground truth CSV: `#timestamp [ns], p_RS_R_x [m], p_RS_R_y, p_RS_R_z,
    /// q_RS_w [], q_RS_x, q_RS_y, q_RS_z, …` (further columns ignored).
    case euroc
    /// navbench trace format v1 (HDF5): the `/groundtruth` or `/vio` stream.
    case h5
    /// A pose topic of a ROS 1 bag, `FILE.bag:/topic` (`/tf:CHILD` for TF): `readRecordingTrajectory`.
    case rosbag
    /// A pose topic of an MCAP file, `FILE.mcap:/topic`.
    case mcap
}

/// A trajectory read from a file.
public struct TrajectoryFile: Sendable {
    public var path: String
    public var format: TrajectoryFormat
    /// The HDF5 stream read (`groundtruth` or `vio`) or the recording's topic, nil for text formats.
    public var stream: String?
    public var trajectory: Trajectory
    /// False for KITTI files without a times file: the stamps are the row indices 0, 1, 2, …
    /// and such files can only be paired with another trajectory by index.
    public var hasTimestamps: Bool
    /// How many poses repeat the previous pose's timestamp (kept, as evo keeps them; real TUM
    /// and EuRoC ground truths have a few). The commands print one warning line when > 0.
    public var duplicateTimestamps: Int = 0
    /// The rotations as the file printed them, one per pose (KITTI: r11…r33, a rotation only to
    /// the printed digits); nil for formats that store quaternions. APE and RPE compose these
    /// matrices as evo does (`MatrixPose`), the trajectory's quaternions are made from them.
    public var printedRotations: [Matrix3]? = nil

    public init(path: String, format: TrajectoryFormat, stream: String?, trajectory: Trajectory, hasTimestamps: Bool) {
        self.path = path; self.format = format; self.stream = stream; self.trajectory = trajectory; self.hasTimestamps = hasTimestamps
        duplicateTimestamps = hasTimestamps ? countDuplicateTimestamps(trajectory.timestamps) : 0
    }

    /// A trajectory made in memory (timestamped poses, as in a TUM file); `name` stands for the
    /// path in messages and reports.
    public init(name: String, trajectory: Trajectory) {
        self.init(path: name, format: .tum, stream: nil, trajectory: trajectory, hasTimestamps: true)
    }
}

/// Number of stamps equal to their predecessor.
///
/// - Complexity: O(n).
public func countDuplicateTimestamps(_ t: [Double]) -> Int {
    var n = 0
    for i in t.indices.dropFirst() where t[i] == t[i - 1] { n += 1 }
    return n
}

/// Tells the format of a trajectory file from its extension, else from its content:
/// `.h5`/`.hdf5` → h5, `.csv` → euroc, `.kitti` → kitti, `.tum` → tum; otherwise the HDF5
/// signature, then the first data line: comma-separated with ≥ 8 fields → euroc, 8 fields →
/// tum, 12 → kitti.
///
/// - Throws: a one-line `TraceError` when the file is missing or the format cannot be told.
/// - Complexity: reads at most the first 64 KiB.
public func detectTrajectoryFormat(path: String) throws(TraceError) -> TrajectoryFormat {
    var ext = (path as NSString).pathExtension.lowercased()
    if ext == "gz" { ext = ((path as NSString).deletingPathExtension as NSString).pathExtension.lowercased() }
    switch ext {
    case "h5", "hdf5": return .h5
    case "csv": return .euroc
    case "kitti": return .kitti
    case "tum": return .tum
    default: break
    }
    if FileManager.default.fileExists(atPath: path) { try requireRegularFile(path, expected: "a trajectory file") }
    guard let h = FileHandle(forReadingAtPath: path) else {
        throw TraceError(.notFound, file: path, "cannot open for reading (no such file or no permission)")
    }
    defer { try? h.close() }
    var head = [UInt8](h.readData(ofLength: 65536))
    if isGzip(head) { head = Array(try readTextFileBytes(path).prefix(65536)) }
    if head.count >= 8 && head.prefix(8) == [0x89, 0x48, 0x44, 0x46, 0x0D, 0x0A, 0x1A, 0x0A] { return .h5 }
    var lineNo = 0
    for rawLine in head.split(separator: 10, omittingEmptySubsequences: false) {
        lineNo += 1
        let line = String(decoding: rawLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.isEmpty || line.hasPrefix("#") { continue }
        let commas = line.contains(",")
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).count
        if commas && fields >= 8 { return .euroc }
        if fields == 8 { return .tum }
        if fields == 12 { return .kitti }
        throw TraceError(
            .wrongShape, file: path, object: "line \(lineNo)",
            "cannot tell the trajectory format: \(fields) fields; expected 8 (TUM), 12 (KITTI) or ≥ 8 comma-separated (EuRoC); name it with --format (--vio-format for guide --vio)"
        )
    }
    throw TraceError(.empty, file: path, "no data lines, expected a TUM, KITTI or EuRoC trajectory")
}

/// Reads a trajectory file.
///
/// - `format` nil: `detectTrajectoryFormat`.
/// - `stream` (h5 only): `groundtruth` or `vio`; nil takes `groundtruth` when present, else `vio`.
/// - `timesPath` (KITTI only): one timestamp per line (seconds), as many as poses.
///
/// Quaternions are normalised (as evo does); a zero quaternion, a KITTI rotation that is not
/// orthonormal within 1e-3, a non-finite value or a timestamp not after the previous one is
/// an error naming the line. Repeated stamps are kept, as evo keeps them
/// (`duplicateTimestamps` counts them); a stamp before its predecessor is an error (evo
/// silently falls back to a slower unsorted search). gzip-compressed text is inflated
/// transparently (told from the content; `.tum.gz`, `.csv.gz` name the inner format).
///
/// - Throws: one-line `TraceError`s (`FILE: line N: problem`).
/// - Complexity: O(file size).
public func readTrajectory(
    at path: String, format: TrajectoryFormat? = nil, stream: String? = nil,
    timesPath: String? = nil, policy: HDF5ReadPolicy = .standard
) throws(TraceError) -> TrajectoryFile {
    if let r = recordingTrajectoryPath(path, format: format) { return try readRecordingTrajectory(file: r.file, topic: r.topic) }
    let fmt: TrajectoryFormat
    if let format { fmt = format } else { fmt = try detectTrajectoryFormat(path: path) }
    switch fmt {
    case .h5: return try readTraceTrajectory(path: path, stream: stream, policy: policy)
    case .tum: return try readTUM(path: path)
    case .kitti: return try readKITTI(path: path, timesPath: timesPath)
    case .euroc: return try readEuRoC(path: path)
    case .rosbag, .mcap: return try readRecordingTrajectory(file: path, topic: nil)
    }
}

private let tumFields = ["timestamp", "tx", "ty", "tz", "qx", "qy", "qz", "qw"]
private let kittiFields = ["r11", "r12", "r13", "tx", "r21", "r22", "r23", "ty", "r31", "r32", "r33", "tz"]
private let eurocFields = ["timestamp [ns]", "p_RS_R_x", "p_RS_R_y", "p_RS_R_z", "q_RS_w", "q_RS_x", "q_RS_y", "q_RS_z"]

/// Rows `t tx ty tz` and a quaternion whose x, y, z, w stand at the `quaternion` columns:
/// the stamps (`seconds(t)`) and unit-quaternion poses, each value checked finite.
private func timedPoses(
    _ table: NumericTable, names: [String], path: String, quaternion c: (Int, Int, Int, Int),
    seconds: (Double) -> Double
) throws(TraceError) -> (stamps: [Double], poses: [Pose]) {
    let n = table.rows
    // Appended into reserved room: each array's memory is written once (a `repeating:` fill
    // first wrote the 200,000 poses of a TUM file twice).
    var stamps: [Double] = [], poses: [Pose] = []
    stamps.reserveCapacity(n)
    poses.reserveCapacity(n)
    try table.values.withUnsafeBufferPointer { v throws(TraceError) in
        for r in 0..<n {
            let b = 8 * r
            try checkFinite(v, from: b, count: 8, names: names, path: path, line: table.lineNumbers[r])
            stamps.append(seconds(v[b]))
            let q = try unitQuaternion(x: v[b + c.0], y: v[b + c.1], z: v[b + c.2], w: v[b + c.3], path: path, line: table.lineNumbers[r])
            poses.append(Pose(rotation: q, translation: Vector3(v[b + 1], v[b + 2], v[b + 3])))
        }
    }
    return (stamps, poses)
}

func readTUM(path: String) throws(TraceError) -> TrajectoryFile {
    let bytes = try readTextFileBytes(path)
    guard !bytes.isEmpty else { throw TraceError(.empty, file: path, "empty file (0 bytes), expected TUM lines: timestamp tx ty tz qx qy qz qw") }
    let table = try parseNumericTable(bytes, path: path, columns: 8...8, fieldNames: tumFields, formatName: "TUM")
    let (stamps, poses) = try timedPoses(table, names: tumFields, path: path, quaternion: (4, 5, 6, 7), seconds: { $0 })
    return TrajectoryFile(
        path: path, format: .tum, stream: nil,
        trajectory: try makeTrajectory(stamps, poses, path: path, lines: table.lineNumbers), hasTimestamps: true)
}

func readEuRoC(path: String) throws(TraceError) -> TrajectoryFile {
    let bytes = try readTextFileBytes(path)
    guard !bytes.isEmpty else { throw TraceError(.empty, file: path, "empty file (0 bytes), expected EuRoC ground-truth CSV") }
    let table = try parseNumericTable(bytes, path: path, columns: 8...64, keep: 8, fieldNames: eurocFields, formatName: "EuRoC CSV")
    let (stamps, poses) = try timedPoses(table, names: eurocFields, path: path, quaternion: (5, 6, 7, 4), seconds: { $0 / 1e9 })  // ns, as evo
    return TrajectoryFile(
        path: path, format: .euroc, stream: nil,
        trajectory: try makeTrajectory(stamps, poses, path: path, lines: table.lineNumbers), hasTimestamps: true)
}

func readKITTI(path: String, timesPath: String?) throws(TraceError) -> TrajectoryFile {
    let bytes = try readTextFileBytes(path)
    guard !bytes.isEmpty else { throw TraceError(.empty, file: path, "empty file (0 bytes), expected KITTI lines of 12 numbers") }
    let table = try parseNumericTable(bytes, path: path, columns: 12...12, fieldNames: kittiFields, formatName: "KITTI")
    let n = table.rows
    var poses = [Pose](repeating: .identity, count: n)
    var printed = [Matrix3](repeating: .identity, count: n)
    try table.values.withUnsafeBufferPointer { v throws(TraceError) in
        for r in 0..<n {
            let b = 12 * r
            let line = table.lineNumbers[r]
            try checkFinite(v, from: b, count: 12, names: kittiFields, path: path, line: line)
            let m = [[v[b], v[b + 1], v[b + 2]], [v[b + 4], v[b + 5], v[b + 6]], [v[b + 8], v[b + 9], v[b + 10]]]
            let (worst, det) = rotationDeviation(m)
            guard worst <= 1e-3, det > 0 else {
                throw TraceError(
                    .badValue, file: path, object: "line \(line)",
                    "fields r11…r33 are not a rotation (max |R·Rᵀ − I| = \(worst), det = \(det)); expected an orthonormal matrix with det +1")
            }
            poses[r] = Pose(rotation: Quaternion(rotationMatrix: m).normalized, translation: Vector3(v[b + 3], v[b + 7], v[b + 11]))
            printed[r] = Matrix3(m)
        }
    }
    var stamps = (0..<n).map(Double.init)
    var hasTimes = false
    if let timesPath {
        let tb = try readTextFileBytes(timesPath)
        let tt = try parseNumericTable(tb, path: timesPath, columns: 1...1, fieldNames: ["timestamp"], formatName: "KITTI times")
        guard tt.rows == n else {
            throw TraceError(.wrongShape, file: timesPath, "expected one timestamp per pose of \(path) (\(n)), found \(tt.rows)")
        }
        stamps = tt.values
        hasTimes = true
        let traj: Trajectory
        do { traj = Trajectory(try TimeSeries(timestamps: stamps, values: poses, order: .nonDecreasing)) } catch {
            throw timestampTraceError(error, path: timesPath, lines: tt.lineNumbers)
        }
        var file = TrajectoryFile(path: path, format: .kitti, stream: nil, trajectory: traj, hasTimestamps: hasTimes)
        file.printedRotations = printed
        return file
    }
    var file = TrajectoryFile(
        path: path, format: .kitti, stream: nil,
        trajectory: try makeTrajectory(stamps, poses, path: path, lines: table.lineNumbers), hasTimestamps: hasTimes)
    file.printedRotations = printed
    return file
}

func readTraceTrajectory(path: String, stream: String?, policy: HDF5ReadPolicy) throws(TraceError) -> TrajectoryFile {
    let session = try readTrace(at: path, policy: policy)
    let choice = stream ?? (session.groundTruth != nil ? "groundtruth" : "vio")
    let stamps: [Double], poses: [Pose]
    switch choice {
    case "groundtruth":
        guard let g = session.groundTruth else {
            throw TraceError(.missing, file: path, object: "/groundtruth", "stream not found; expected /groundtruth (or choose /vio)")
        }
        stamps = g.timestamps; poses = g.poses
    case "vio":
        guard let v = session.vio else {
            throw TraceError(.missing, file: path, object: "/vio", "stream not found; expected /vio (or choose /groundtruth)")
        }
        stamps = v.timestamps; poses = v.poses
    default:
        throw TraceError(.badValue, file: path, object: "/\(choice)", "not a pose stream; expected groundtruth or vio")
    }
    let traj: Trajectory
    do { traj = try Trajectory(timestamps: stamps, poses: poses.map { Pose(rotation: $0.rotation.normalized, translation: $0.translation) }) } catch {
        throw TraceError(.badTimestamps, file: path, object: "/\(choice)/timestamps", error.description)
    }
    return TrajectoryFile(path: path, format: .h5, stream: choice, trajectory: traj, hasTimestamps: true)
}

private func checkFinite(_ v: UnsafeBufferPointer<Double>, from b: Int, count: Int, names: [String], path: String, line: Int32) throws(TraceError) {
    for k in 0..<count where !v[b + k].isFinite {
        throw TraceError(.badValue, file: path, object: "line \(line)", "field \(k + 1) (\(names[k])): expected a finite number, found \(v[b + k])")
    }
}

private func unitQuaternion(x: Double, y: Double, z: Double, w: Double, path: String, line: Int32) throws(TraceError) -> Quaternion {
    let q = Quaternion(x: x, y: y, z: z, w: w)
    let n = q.norm
    guard n > 1e-12 else {
        throw TraceError(.badValue, file: path, object: "line \(line)", "quaternion (qx qy qz qw) has zero norm; expected a rotation")
    }
    return q.unit
}

/// Stamps must not decrease; repeated stamps are kept (evo keeps them; `duplicateTimestamps`).
private func makeTrajectory(_ stamps: [Double], _ poses: [Pose], path: String, lines: [Int32]) throws(TraceError) -> Trajectory {
    do { return Trajectory(try TimeSeries(timestamps: stamps, values: poses, order: .nonDecreasing)) } catch {
        throw timestampTraceError(error, path: path, lines: lines)
    }
}

private func timestampTraceError(_ e: TimestampError, path: String, lines: [Int32]) -> TraceError {
    switch e {
    case let .notIncreasing(i, p, c, strict):
        return TraceError(
            .badTimestamps, file: path, object: "line \(lines[i])",
            strict
                ? "expected strictly increasing timestamps; \(c) is not after \(p) (line \(lines[i - 1]))"
                : "expected non-decreasing timestamps (repeats are accepted); \(c) is before \(p) (line \(lines[i - 1]))")
    case let .notFinite(i):
        return TraceError(.badTimestamps, file: path, object: "line \(lines[i])", "timestamp is not finite")
    case let .countMismatch(t, v):
        return TraceError(.wrongShape, file: path, "expected one pose per timestamp, found \(t) and \(v)")
    }
}

// MARK: - Writers

/// Writes TUM text (`# timestamp tx ty tz qx qy qz qw` header), values in Swift's shortest
/// round-trip form, so reading back gives the same doubles.
///
/// - Complexity: O(n).
public func writeTUM(_ t: Trajectory, to path: String) throws(TraceError) {
    var s = "# timestamp tx ty tz qx qy qz qw\n"
    s.reserveCapacity(t.count * 120)
    for (time, p) in zip(t.timestamps, t.poses.values) {
        let q = p.rotation, x = p.translation
        s += "\(time) \(x.x) \(x.y) \(x.z) \(q.x) \(q.y) \(q.z) \(q.w)\n"
    }
    try writeTextAtomically(s, to: path)
}

/// Writes KITTI text (12 numbers per line) and, when `timesPath` is given, the timestamps one per line.
///
/// - Complexity: O(n).
public func writeKITTI(_ t: Trajectory, to path: String, timesPath: String? = nil) throws(TraceError) {
    var s = ""
    s.reserveCapacity(t.count * 200)
    for p in t.poses.values {
        let r = p.rotation.rotationMatrix, x = p.translation
        s += "\(r[0][0]) \(r[0][1]) \(r[0][2]) \(x.x) \(r[1][0]) \(r[1][1]) \(r[1][2]) \(x.y) \(r[2][0]) \(r[2][1]) \(r[2][2]) \(x.z)\n"
    }
    try writeTextAtomically(s, to: path)
    if let timesPath { try writeTextAtomically(t.timestamps.map { "\($0)\n" }.joined(), to: timesPath) }
}

/// Writes EuRoC ground-truth CSV (timestamps in integer nanoseconds, quaternion w first).
///
/// - Complexity: O(n).
public func writeEuRoC(_ t: Trajectory, to path: String) throws(TraceError) {
    var s = "#timestamp [ns],p_RS_R_x [m],p_RS_R_y [m],p_RS_R_z [m],q_RS_w [],q_RS_x [],q_RS_y [],q_RS_z []\n"
    for (time, p) in zip(t.timestamps, t.poses.values) {
        let q = p.rotation, x = p.translation
        guard let ns = Int64(exactly: (time * 1e9).rounded()) else {
            throw TraceError(
                .badTimestamps, file: path, object: "timestamp",
                "\(time) s is not representable as 64-bit integer nanoseconds (|t| < 9.2e9 s), expected by EuRoC")
        }
        s += "\(ns),\(x.x),\(x.y),\(x.z),\(q.w),\(q.x),\(q.y),\(q.z)\n"
    }
    try writeTextAtomically(s, to: path)
}
