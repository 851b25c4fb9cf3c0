import Foundation
import NavCore
import NavIO
import NavRosbag

/// One channel of a trace's MCAP export: its topic, its schema, and its messages in time order
/// (log time in nanoseconds, JSON payload).
public struct MCAPTraceChannel: Sendable {
    public var topic: String
    public var schema: MCAPSchema
    public var messages: [(time: UInt64, json: [UInt8])]
}

/// What `exportMCAP` wrote.
public struct MCAPExportSummary: Sendable {
    /// Per channel, in channel order: topic, schema name, messages.
    public var topics: [(topic: String, schema: String, messages: Int)]
    /// Streams of the trace with no channel (compass, ble, anchors).
    public var skipped: [String]
    public var bytes: UInt64
}

/// Writes a trace as an MCAP file that Foxglove opens without code (https://mcap.dev/spec;
/// channels: `mcapChannels`): JSON messages (`json`) under JSON schemas (`jsonschema`), in
/// uncompressed, indexed chunks, with a summary. Messages of all channels are merged by log time
/// (ties: channel order), log time = publish time, and each channel's sequence counts from 0.
/// The file is written through `AtomicTextWriter` (a temporary renamed into place); the same
/// trace gives the same bytes.
///
/// - Complexity: O(samples × channels) for the merge (a handful of channels), O(samples) otherwise.
/// - Throws: an invalid trace, a time MCAP cannot hold (`mcapTime`), or a write error.
@discardableResult
public func exportMCAP(_ tracePath: String, to path: String, readPolicy: HDF5ReadPolicy = .standard) throws(TraceError) -> MCAPExportSummary {
    guard path != "-" else {
        throw TraceError(.writeFailed, file: "'-'", "MCAP is a binary file and cannot go to standard output; name a .mcap file")
    }
    let report = validateTrace(at: tracePath, policy: readPolicy)
    if let first = report.errors.first { throw first.error }
    guard let trace = report.trace else { throw TraceError(.corrupt, file: tracePath, "cannot be read") }
    let (channels, skipped) = try mcapChannels(of: trace)
    let out = try AtomicTextWriter(path: path)
    var bytes: UInt64 = 0
    let writer = MCAPWriter(
        library: "navbench",
        sink: { chunk in
            bytes += UInt64(chunk.count)
            out.write(bytes: chunk)
        })
    do throws(MCAPWriterError) {
        var schemaIDs: [MCAPSchema: UInt16] = [:]
        var ids: [UInt16] = []
        for c in channels {
            let schemaID: UInt16
            if let known = schemaIDs[c.schema] {
                schemaID = known
            } else {
                schemaID = try writer.addSchema(name: c.schema.name, encoding: "jsonschema", data: Array(c.schema.json.utf8))
                schemaIDs[c.schema] = schemaID
            }
            ids.append(try writer.addChannel(topic: c.topic, messageEncoding: "json", schema: schemaID))
        }
        // k-way merge: each channel is already in time order.
        var next = [Int](repeating: 0, count: channels.count)
        while true {
            var best = -1
            for k in channels.indices where next[k] < channels[k].messages.count {
                if best < 0 || channels[k].messages[next[k]].time < channels[best].messages[next[best]].time { best = k }
            }
            guard best >= 0 else { break }
            let m = channels[best].messages[next[best]]
            try writer.addMessage(
                channel: ids[best], sequence: UInt32(truncatingIfNeeded: next[best]), logTime: m.time, publishTime: m.time, data: m.json)
            next[best] += 1
        }
        try writer.finish()
    } catch {
        throw TraceError(.tooLarge, file: path, "cannot be written as MCAP: \(error.description)")
    }
    try out.commit()
    return MCAPExportSummary(
        topics: channels.map { ($0.topic, $0.schema.name, $0.messages.count) }, skipped: skipped, bytes: bytes)
}

/// A trace's MCAP channels, in this order:
/// - `groundtruth`, `vio` → `/groundtruth`, `/vio`: `foxglove.PoseInFrame` per sample (frame_id
///   `venue`, `session`), and `/groundtruth/path`, `/vio/path`: the whole walked path as one
///   `foxglove.PosesInFrame` at the first sample's time;
/// - `imu` → `/imu`: `navbench.Imu` (frame_id `device`);
/// - `location` → `/location`: `foxglove.LocationFix` (horizontal accuracy² on the East and North
///   variances, `APPROXIMATED`);
/// - `annotations/NAME` → `/annotations/NAME`: `foxglove.Log` (INFO, name `annotations/NAME`) per
///   row at its start: the label, then `(to END s; value V UNITS)` for an interval (END in the
///   trace's seconds, as the MCAP times) or a value.
/// The other streams are returned in `skipped`.
///
/// - Complexity: O(samples).
/// - Throws: a time that is negative, not finite or past 2^64 ns (`mcapTime`); rows that
///   disagree with their timestamps.
public func mcapChannels(of trace: LoadedTrace) throws(TraceError) -> (channels: [MCAPTraceChannel], skipped: [String]) {
    var channels: [MCAPTraceChannel] = []
    let encoder = MCAPJSON(file: trace.file)
    for (name, frame) in [("groundtruth", "venue"), ("vio", "session")] {
        guard let s = trace.stream(name) else { continue }
        let t = try times(s, trace.file)
        let p = try values(s, "position", 3, t.count, trace.file), q = try values(s, "orientation", 4, t.count, trace.file)
        var poses: [FoxglovePose] = []
        poses.reserveCapacity(t.count)
        for i in t.indices {
            poses.append(
                FoxglovePose(
                    position: FoxgloveVector(x: p[3 * i], y: p[3 * i + 1], z: p[3 * i + 2]),
                    orientation: FoxgloveQuaternion(x: q[4 * i], y: q[4 * i + 1], z: q[4 * i + 2], w: q[4 * i + 3])))
        }
        var single = MCAPTraceChannel(topic: "/" + name, schema: .poseInFrame, messages: [])
        for i in t.indices {
            single.messages.append((t[i], try encoder.encode(FoxglovePoseInFrame(timestamp: FoxgloveTime(t[i]), frame_id: frame, pose: poses[i]))))
        }
        channels.append(single)
        var path = MCAPTraceChannel(topic: "/\(name)/path", schema: .posesInFrame, messages: [])
        if let first = t.first {
            path.messages.append((first, try encoder.encode(FoxglovePosesInFrame(timestamp: FoxgloveTime(first), frame_id: frame, poses: poses))))
        }
        channels.append(path)
    }
    if let s = trace.stream("imu") {
        let t = try times(s, trace.file)
        let a = try values(s, "accelerometer", 3, t.count, trace.file), g = try values(s, "gyroscope", 3, t.count, trace.file)
        let attitude = s.data["attitude"] == nil ? nil : try values(s, "attitude", 4, t.count, trace.file)
        let magnetometer = s.data["magnetometer"] == nil ? nil : try values(s, "magnetometer", 3, t.count, trace.file)
        let moving = s.data["moving"]?.int32s
        var c = MCAPTraceChannel(topic: "/imu", schema: .imu, messages: [])
        for i in t.indices {
            let m = NavbenchImu(
                timestamp: FoxgloveTime(t[i]), frame_id: "device", linear_acceleration: FoxgloveVector(a, i),
                angular_velocity: FoxgloveVector(g, i),
                orientation: attitude.map { FoxgloveQuaternion(x: $0[4 * i], y: $0[4 * i + 1], z: $0[4 * i + 2], w: $0[4 * i + 3]) },
                magnetic_field: magnetometer.map { FoxgloveVector($0, i) },
                moving: moving.flatMap { i < $0.count ? Int($0[i]) : nil })
            c.messages.append((t[i], try encoder.encode(m)))
        }
        channels.append(c)
    }
    if let s = trace.stream("location") {
        let t = try times(s, trace.file)
        let lat = try values(s, "latitude", 1, t.count, trace.file), lon = try values(s, "longitude", 1, t.count, trace.file)
        let alt = try values(s, "altitude", 1, t.count, trace.file), h = try values(s, "horizontal_accuracy", 1, t.count, trace.file)
        var c = MCAPTraceChannel(topic: "/location", schema: .locationFix, messages: [])
        for i in t.indices {
            let v = h[i] * h[i]
            let m = FoxgloveLocationFix(
                timestamp: FoxgloveTime(t[i]), frame_id: "device", latitude: lat[i], longitude: lon[i], altitude: alt[i],
                position_covariance: [v, 0, 0, 0, v, 0, 0, 0, 0], position_covariance_type: 1)
            c.messages.append((t[i], try encoder.encode(m)))
        }
        channels.append(c)
    }
    let annotations = trace.streams.filter { TraceSchema.annotationName($0.name) != nil }.sorted { $0.name < $1.name }
    for s in annotations {
        let t = try times(s, trace.file)
        let start = s.timestamps
        let end = try values(s, "end", 1, t.count, trace.file)
        let labels = s.data["label"]?.strings ?? []
        guard labels.count == t.count else { throw rowMismatch(s.name, "label", labels.count, t.count, trace.file) }
        let value = s.data["value"] == nil ? nil : try values(s, "value", 1, t.count, trace.file)
        let units = s.units["value"].map { " " + $0 } ?? ""
        var c = MCAPTraceChannel(topic: "/" + s.name, schema: .log, messages: [])
        for i in t.indices {
            var notes: [String] = []
            if end[i] > start[i] { notes.append("to \(formatNumber(end[i])) s") }
            if let v = value?[i], !v.isNaN { notes.append("value \(formatNumber(v))\(units)") }
            let text = labels[i] + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
            let m = FoxgloveLog(timestamp: FoxgloveTime(t[i]), level: 2, message: text, name: s.name, file: "", line: 0)
            c.messages.append((t[i], try encoder.encode(m)))
        }
        channels.append(c)
    }
    let exported: Set<String> = ["groundtruth", "vio", "imu", "location"]
    let skipped = trace.streams.map(\.name).filter { !exported.contains($0) && TraceSchema.annotationName($0) == nil }.sorted()
    return (channels, skipped)
}

/// A trace time (seconds) as an MCAP time (nanoseconds, rounded to nearest, ties away from
/// zero). MCAP times are unsigned 64-bit, so a time that is negative, not finite or 2^64 ns
/// (about 18,446,744,073.7 s) and more is refused with one line naming the file, the stream's
/// timestamps and the row (0-based).
public func mcapTime(_ seconds: Double, file: String, stream: String, row: Int) throws(TraceError) -> UInt64 {
    let ns = (seconds * 1e9).rounded()
    guard seconds.isFinite, seconds >= 0, ns < 18_446_744_073_709_551_616.0, let v = UInt64(exactly: ns) else {
        throw TraceError(
            .badTimestamps, file: file, object: "/\(stream)/timestamps",
            "row \(row): \(formatNumber(seconds)) s; expected a finite time from 0 to 18446744073 s (MCAP times are unsigned 64-bit nanoseconds)")
    }
    return v
}

private func times(_ s: LoadedStream, _ file: String) throws(TraceError) -> [UInt64] {
    var out: [UInt64] = []
    let t = s.timestamps
    out.reserveCapacity(t.count)
    for (i, x) in t.enumerated() { out.append(try mcapTime(x, file: file, stream: s.name, row: i)) }
    return out
}

/// A float dataset of `rows` × `columns` values, row-major.
private func values(_ s: LoadedStream, _ name: String, _ columns: Int, _ rows: Int, _ file: String) throws(TraceError) -> [Double] {
    let v = s.data[name]?.doubles ?? []
    guard v.count == rows * columns else { throw rowMismatch(s.name, name, v.count / max(columns, 1), rows, file) }
    return v
}

private func rowMismatch(_ stream: String, _ name: String, _ found: Int, _ rows: Int, _ file: String) -> TraceError {
    TraceError(.wrongShape, file: file, object: "/\(stream)/\(name)", "\(found) rows, expected \(rows) (one per timestamp)")
}

// MARK: - Messages (field names as the schemas spell them)

struct FoxgloveTime: Encodable {
    var sec: UInt64
    var nsec: UInt64
    init(_ ns: UInt64) { sec = ns / 1_000_000_000; nsec = ns % 1_000_000_000 }
}

struct FoxgloveVector: Encodable {
    var x: Double, y: Double, z: Double
    init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
    init(_ v: [Double], _ row: Int) { self.init(x: v[3 * row], y: v[3 * row + 1], z: v[3 * row + 2]) }
}

struct FoxgloveQuaternion: Encodable { var x: Double, y: Double, z: Double, w: Double }
struct FoxglovePose: Encodable { var position: FoxgloveVector, orientation: FoxgloveQuaternion }
struct FoxglovePoseInFrame: Encodable { var timestamp: FoxgloveTime, frame_id: String, pose: FoxglovePose }
struct FoxglovePosesInFrame: Encodable { var timestamp: FoxgloveTime, frame_id: String, poses: [FoxglovePose] }

struct FoxgloveLog: Encodable {
    var timestamp: FoxgloveTime, level: Int, message: String, name: String, file: String, line: Int
}

struct FoxgloveLocationFix: Encodable {
    var timestamp: FoxgloveTime, frame_id: String, latitude: Double, longitude: Double, altitude: Double
    var position_covariance: [Double], position_covariance_type: Int
}

struct NavbenchImu: Encodable {
    var timestamp: FoxgloveTime, frame_id: String, linear_acceleration: FoxgloveVector, angular_velocity: FoxgloveVector
    var orientation: FoxgloveQuaternion?, magnetic_field: FoxgloveVector?, moving: Int?
}

/// JSON payloads through Foundation's `JSONEncoder`: keys sorted (the same bytes on every run),
/// numbers in Swift's shortest round-trip form, quotes, backslashes and control characters
/// escaped; U+2028 and U+2029 then written as `\u2028` and `\u2029`, as `pythonStringLiteral` does.
struct MCAPJSON {
    let file: String
    let encoder = JSONEncoder()

    init(file: String) {
        self.file = file
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func encode<T: Encodable>(_ value: T) throws(TraceError) -> [UInt8] {
        let data: Data
        do { data = try encoder.encode(value) } catch {
            throw TraceError(.badValue, file: file, "a value cannot be written as JSON (\(error))")
        }
        let bytes = [UInt8](data)
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8; they occur only inside strings.
        guard bytes.contains(0xE2) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
                out += Array((bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}
