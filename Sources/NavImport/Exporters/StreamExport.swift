import Foundation
import NavCore
import NavIO

/// Writes a trace's `groundtruth` or `vio` stream as a TUM, KITTI or EuRoC trajectory (for
/// evo and other tools), with the writers of `TrajectoryFormats.swift`: TUM and KITTI values
/// in Swift's shortest round-trip form (reading back gives the same doubles), EuRoC times in
/// integer nanoseconds. `timesPath` (KITTI) also writes the timestamps, one per line.
///
/// - Throws: when the trace is invalid, lacks the stream, or the output cannot be written.
public func exportTrajectory(
    _ tracePath: String, stream: PoseStreamName, format: TrajectoryFormat, to path: String,
    timesPath: String? = nil, readPolicy: HDF5ReadPolicy = .standard
) throws(TraceError) {
    let t = try readTrajectory(at: tracePath, format: .h5, stream: stream.rawValue, policy: readPolicy).trajectory
    switch format {
    case .tum: try writeTUM(t, to: path)
    case .kitti: try writeKITTI(t, to: path, timesPath: timesPath)
    case .euroc: try writeEuRoC(t, to: path)
    case .h5: throw TraceError(.badValue, file: path, "h5 is not an export format; the input is already a trace")
    case .rosbag, .mcap: throw TraceError(.badValue, file: path, "\(format.rawValue) is not an export format; export tum, kitti or euroc")
    }
}

/// A trace stream as CSV: one row per sample, a header naming each column with its units in
/// brackets (`timestamps [s]`, `position_x [m]`, …, `orientation_w [1]`). Vectors get `_x _y _z`,
/// quaternions `_x _y _z _w`. For `ble`, each row also carries its beacon's table entry
/// (`beacon_uuid`, `beacon_major`, `beacon_minor`, `beacon_position_x [m]` …).
///
/// Numbers are written in the shortest form that reads back as the same double, so
/// CSV → `navbench import csv` gives the trace's values bit for bit; NaN as `nan`.
///
/// - Throws: when the trace is invalid or has no such stream.
public func exportStreamCSV(_ tracePath: String, stream: String, readPolicy: HDF5ReadPolicy = .standard) throws(TraceError) -> String {
    let report = validateTrace(at: tracePath, policy: readPolicy)
    if let first = report.errors.first { throw first.error }
    guard let trace = report.trace else { throw TraceError(.corrupt, file: tracePath, "cannot be read") }
    guard let spec = TraceSchema.stream(named: stream) else {
        throw TraceError(
            .badValue, file: tracePath, object: "/\(stream)",
            "not a trace stream; expected one of \(TraceSchema.streams.map(\.name).joined(separator: ", "))")
    }
    guard let s = trace.stream(stream) else {
        let present = trace.streams.map(\.name)
        throw TraceError(
            .missing, file: tracePath, object: "/\(stream)",
            "stream not found; the file has \(present.isEmpty ? "no streams" : present.joined(separator: ", "))")
    }
    return streamCSV(s, spec: spec).text
}

/// The CSV text of a loaded stream and its column names.
func streamCSV(_ s: LoadedStream, spec: TraceSchema.Stream) -> (text: String, columns: [String]) {
    let n = s.timestamps.count
    var header: [String] = []
    var columns: [(Int) -> String] = []
    func suffixes(_ k: Int, quaternion: Bool) -> [String] {
        quaternion ? ["_x", "_y", "_z", "_w"] : k == 3 ? ["_x", "_y", "_z"] : (0..<k).map { "_\($0)" }
    }
    for ds in spec.datasets where ds.rows == .samples {
        guard let raw = s.data[ds.name] else { continue }
        let units = s.units[ds.name] ?? ds.units ?? "1"
        let k = ds.columns ?? 1
        let names = k == 1 ? [ds.name] : suffixes(k, quaternion: ds.role == .quaternion).map { ds.name + $0 }
        for (c, name) in names.enumerated() {
            header.append(ds.kind == .string ? name : "\(name) [\(units)]")  // text has no units
            switch raw {
            case let .float(_, v): columns.append { formatNumber(v[$0 * k + c]) }
            case let .integer(_, v): columns.append { String(v[$0 * k + c]) }
            case let .string(v): columns.append { csvField(v[$0]) }
            }
        }
    }
    if spec.name == "ble", case let .integer(_, index)? = s.data["beacon"] {
        let uuid = s.data["beacons/uuid"]?.strings ?? []
        let major = s.data["beacons/major"]?.int32s ?? [], minor = s.data["beacons/minor"]?.int32s ?? []
        let pos = s.data["beacons/position"]?.doubles
        func entry(_ r: Int) -> Int { Int(index[r]) }
        header.append("beacon_uuid"); columns.append { csvField(uuid[entry($0)]) }
        header.append("beacon_major [1]"); columns.append { String(major[entry($0)]) }
        header.append("beacon_minor [1]"); columns.append { String(minor[entry($0)]) }
        if let pos {
            let units = s.units["beacons/position"] ?? "m"
            for (c, axis) in ["x", "y", "z"].enumerated() {
                header.append("beacon_position_\(axis) [\(units)]"); columns.append { formatNumber(pos[entry($0) * 3 + c]) }
            }
        }
    }
    var text = header.map(csvField).joined(separator: ",") + "\n"
    text.reserveCapacity(n * columns.count * 12)
    for r in 0..<n {
        text += columns.map { $0(r) }.joined(separator: ",")
        text += "\n"
    }
    return (text, header)
}

/// A mapping file (`navbench import csv --mapping`) that reads the CSV of `exportStreamCSV`
/// back into the same stream.
public func exportStreamMapping(_ tracePath: String, stream: String, readPolicy: HDF5ReadPolicy = .standard) throws(TraceError) -> String {
    let report = validateTrace(at: tracePath, policy: readPolicy)
    if let first = report.errors.first { throw first.error }
    guard let trace = report.trace, let spec = TraceSchema.stream(named: stream), let s = trace.stream(stream) else {
        throw TraceError(.missing, file: tracePath, object: "/\(stream)", "stream not found")
    }
    let header = streamCSV(s, spec: spec).columns
    func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
    var y = "# Reads the CSV written by navbench export csv --stream \(stream) back into a trace.\n"
    y += "navbench_mapping: 1\nsource: csv\nframe: arkit\n"
    y += "time: {column: \(q(header[0])), units: \(s.units["timestamps"] ?? "s")}\n"
    y += "streams:\n  \(stream):\n"
    for ds in spec.datasets where ds.rows == .samples && ds.name != "timestamps" {
        guard s.data[ds.name] != nil else { continue }
        let names = header.filter {
            $0 == "\(ds.name) [\(s.units[ds.name] ?? ds.units ?? "1")]" || $0.hasPrefix(ds.name + "_") && !$0.hasPrefix("beacon_")
        }
        let units = s.units[ds.name] ?? ds.units ?? "1"
        let field: String
        if ds.name == "beacon" {
            field = "{column: \(q(names[0]))}"  // keys "0", "1", …: the beacons table below, in the trace's order
        } else if names.count == 1 {
            field = "{column: \(q(names[0]))\(ds.kind == .float ? ", units: \(q(units))" : "")}"
        } else {
            field = "{columns: [\(names.map(q).joined(separator: ", "))]\(ds.role == .quaternion ? ", order: xyzw" : ", units: \(q(units))")}"
        }
        y += "    \(ds.name): \(field)\n"
    }
    if stream == "ble", let uuids = s.data["beacons/uuid"]?.strings {
        let major = s.data["beacons/major"]?.int32s ?? [], minor = s.data["beacons/minor"]?.int32s ?? []
        let pos = s.data["beacons/position"]?.doubles
        y += "    beacons:\n"
        for (i, u) in uuids.enumerated() {  // keyed by the beacon column's value: the table row
            var e = "uuid: \(q(u)), major: \(major[i]), minor: \(minor[i])"
            if let pos, pos[3 * i].isFinite {
                e += ", position: [\(formatNumber(pos[3 * i])), \(formatNumber(pos[3 * i + 1])), \(formatNumber(pos[3 * i + 2]))]"
            }
            y += "      \"\(i)\": {\(e)}\n"
        }
    }
    return y
}
