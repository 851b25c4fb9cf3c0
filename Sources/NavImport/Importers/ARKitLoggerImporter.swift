import Foundation
import NavCore
import NavIO

/// Imports the camera trajectory of the ARKit Data Logger (PyojinKim/ARKit-Data-Logger):
/// `ARKit_camera_pose.txt`, one line per frame, `t_ns r11 r12 r13 tx r21 r22 r23 ty r31 r32 r33 tz`
/// (the 3×4 camera-to-world transform [R|t], row-major, in ARKit's gravity-aligned world
/// frame: +y up), `#` comment lines skipped.
///
/// `path` is the file, or a folder holding it (directly or in `Visualization/`).
///
/// - Output: a `vio` stream; time = t_ns ÷ 10⁹ s (the device's uptime clock); position in
///   metres as logged; orientation from R (Shepperd's method, normalised); tracking state 2
///   (normal) for every frame, since the logger does not record ARKit's tracking state.
/// - Throws: naming the line and field when a line does not have 13 numbers, R is not a
///   rotation within 1e-3 (the logger prints 6 decimals), or times do not increase.
public func importARKitLogger(_ path: String, options: ImportOptions = ImportOptions()) throws(TraceError) -> ImportResult {
    let file = try locateARKitPoseFile(path)
    let bytes = try readFileBytes(file)
    guard !bytes.isEmpty else { throw TraceError(.empty, file: file, "empty file (0 bytes), expected ARKit Data Logger camera poses") }
    let names = ["t_ns", "r11", "r12", "r13", "tx", "r21", "r22", "r23", "ty", "r31", "r32", "r33", "tz"]
    let table = try parseNumericTable(bytes, path: file, columns: 13...13, fieldNames: names, formatName: "ARKit Data Logger camera pose")
    var stamps: [Double] = [], poses: [Pose] = []
    stamps.reserveCapacity(table.rows); poses.reserveCapacity(table.rows)
    var droppedRows = DroppedRowNotes()
    var dropped = 0
    for r in 0..<table.rows {
        let v = Array(table.values[(13 * r)..<(13 * r + 13)])
        let line = "line \(table.lineNumbers[r])"
        if let k = v.firstIndex(where: { !$0.isFinite }) {
            if options.invalidRows == .drop {
                dropped += 1; droppedRows.add("\(file): \(line): field \(k + 1) (\(names[k])) is \(num(v[k])); row dropped"); continue
            }
            throw TraceError(.badValue, file: file, object: line, "field \(k + 1) (\(names[k])): expected a finite number, found \(num(v[k]))")
        }
        let m = [[v[1], v[2], v[3]], [v[5], v[6], v[7]], [v[9], v[10], v[11]]]
        guard let q = rotationFromMatrix(m, tolerance: 1e-3) else {
            if options.invalidRows == .drop { dropped += 1; droppedRows.add("\(file): \(line): r11…r33 are not a rotation; row dropped"); continue }
            throw TraceError(
                .badValue, file: file, object: line,
                "fields r11…r33 are not a rotation within 1e-3 (orthonormal, det +1); expected the camera-to-world rotation")
        }
        let t = secondsFromNanoseconds(v[0])
        if let last = stamps.last, !(t > last) {
            throw TraceError(
                .badTimestamps, file: file, object: line,
                "field 1 (t_ns): expected strictly increasing times; \(num(v[0])) ns is not after the previous frame's")
        }
        stamps.append(t)
        poses.append(Pose(rotation: q, translation: Vector3(v[4], v[8], v[12])))
    }
    guard !stamps.isEmpty else { throw TraceError(.empty, file: file, "every line was dropped (\(dropped)); no frames left") }
    let vio = VIOStream(timestamps: stamps, poses: poses, trackingState: Array(repeating: .normal, count: stamps.count))
    let meta = importMetadata(
        options, device: "ARKit Data Logger",
        frameConvention: SessionMetadata.arkitFrame
            + "; ARKit world frame of the logging session (gravity: +y up, x/z arbitrary yaw); camera frame as ARKit's")
    return ImportResult(session: Session(metadata: meta, vio: vio), notes: droppedRows.notes(file: file))
}

func locateARKitPoseFile(_ path: String) throws(TraceError) -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw TraceError(.notFound, file: path, "no such file or folder, expected ARKit_camera_pose.txt or its folder")
    }
    guard isDirectory.boolValue else { return path }
    for candidate in ["ARKit_camera_pose.txt", "Visualization/ARKit_camera_pose.txt"] {
        let p = (path as NSString).appendingPathComponent(candidate)
        if FileManager.default.fileExists(atPath: p) { return p }
    }
    throw TraceError(.notFound, file: path, "folder without ARKit_camera_pose.txt (looked in it and in Visualization/)")
}
