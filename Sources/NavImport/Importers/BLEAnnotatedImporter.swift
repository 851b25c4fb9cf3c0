import Foundation
import NavCore
import NavIO

/// Imports one track of the Position-Annotated BLE RSSI Dataset (Daniş et al., PMC 2022;
/// philotuxo/Position-Annotated-BLE-RSSI-Dataset): `trk/*.mbd`, CSV without a header,
/// `unix_time, receiver_MAC, beacon_MAC, RSSI, x, y, z, R00, R01, …, R22`, and the receivers'
/// positions from the JSON after `Dongles:` in `cnf/tetam.dev` (found beside `trk/` unless
/// `devicesPath` is given).
///
/// **Reinterpretation.** In the dataset one beacon (the tag) moves and twelve fixed receivers
/// hear it; navbench's `ble` stream is a phone hearing fixed beacons. By the reciprocity of
/// the radio channel the roles are swapped: each fixed receiver becomes a beacon of the table
/// (uuid = its MAC, major 0, minor = the number in its alias, e.g. sensor21 → 21, position
/// from `tetam.dev`), and the moving tag plays the phone. So `ble` row k says "receiver
/// `beacon[k]` heard the tag at `rssi[k]` dBm", and `groundtruth` is the tag's pose.
///
/// Conversions: time = unix_time s (Unix clock); the dataset frame (x, y on the floor plan,
/// z up, metres) becomes ARKit-like: (x, y, z)_trace = (x, z, −y) — the venue frame's x is
/// the floor plan's x, not east. Rows are sorted by time (the merged files step back by up to
/// 0.7 ms where per-receiver logs were interleaved). Ground truth takes each distinct time
/// once; its orientation is R (row-major, tag → dataset frame) where R is a rotation within
/// 0.01, else (the source holds element-wise interpolated matrices that are not rotations)
/// slerped in time between the nearest rows that are.
///
/// - Throws: naming the line and field (a malformed line, an unknown receiver, an RSSI outside
///   [−150, 20] dBm under `.error`), or the devices file.
public func importBLEAnnotated(
    _ trackPath: String, devicesPath: String? = nil, tag: String? = nil,
    options: ImportOptions = ImportOptions()
) throws(TraceError) -> ImportResult {
    let devFile = devicesPath ?? defaultBLEDevicesPath(trackPath)
    let receivers = try readBLEDevices(devFile)
    let text = try readTextFile(trackPath, expected: "a position-annotated BLE track (.mbd)")
    let names = ["unix_time", "receiver_MAC", "beacon_MAC", "RSSI", "x", "y", "z", "R00", "R01", "R02", "R10", "R11", "R12", "R20", "R21", "R22"]
    struct Row { var line: Int; var t: Double; var receiver: Int32; var rssi: Double; var position: Vector3; var rotation: Quaternion? }
    var rows: [Row] = []
    var notes: [String] = []
    var droppedRows = DroppedRowNotes()
    var tags: [String: Int] = [:]
    var lineNo = 0
    for raw in textLines(text) {
        lineNo += 1
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.isEmpty { continue }
        let f = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let here = "line \(lineNo)"
        guard f.count == 16 else {
            throw TraceError(
                .wrongShape, file: trackPath, object: here, "expected 16 comma-separated fields (\(names.joined(separator: ", "))), found \(f.count)")
        }
        var v = [Double](repeating: 0, count: 16)
        for k in [0, 3] + Array(4..<16) {
            guard let x = parseNumber(f[k]), x.isFinite else {
                throw TraceError(
                    .badValue, file: trackPath, object: here, "field \(k + 1) (\(names[k])): expected a finite number, found '\(f[k].prefix(40))'")
            }
            v[k] = x
        }
        let receiver = f[1].lowercased(), beacon = f[2].lowercased()
        guard let index = receivers.index[receiver] else {
            throw TraceError(
                .badValue, file: trackPath, object: here,
                "field 2 (receiver_MAC): '\(f[1])' is not a receiver of \(devFile) (\(receivers.macs.joined(separator: ", ")))")
        }
        if let tag, beacon != tag.lowercased() { continue }
        tags[beacon, default: 0] += 1
        guard (-150...20).contains(v[3]) else {
            let text = "field 4 (RSSI): \(num(v[3])) dBm is outside [−150, 20]"
            if options.invalidRows == .drop { droppedRows.add("\(trackPath): \(here): \(text); row dropped"); continue }
            throw TraceError(.badValue, file: trackPath, object: here, text + " (a corrupt reading; --drop-invalid-rows leaves it out)")
        }
        let m = [[v[7], v[8], v[9]], [v[10], v[11], v[12]], [v[13], v[14], v[15]]]
        rows.append(
            Row(
                line: lineNo, t: v[0], receiver: Int32(index), rssi: v[3], position: Vector3(v[4], v[5], v[6]),
                rotation: rotationFromMatrix(m, tolerance: 0.01)))
    }
    guard !rows.isEmpty else { throw TraceError(.empty, file: trackPath, "no readings\(tag.map { " of tag \($0)" } ?? "")") }
    if tag == nil, tags.count > 1 {
        throw TraceError(
            .badValue, file: trackPath, object: "beacon_MAC",
            "\(tags.count) moving beacons (\(tags.keys.sorted().joined(separator: ", "))); choose one with --tag MAC")
    }
    notes += droppedRows.notes(file: trackPath)
    // Stable sort by time.
    let order = rows.indices.sorted { rows[$0].t != rows[$1].t ? rows[$0].t < rows[$1].t : $0 < $1 }
    let sorted = order.map { rows[$0] }
    let reordered = zip(order.dropFirst(), order).filter { $0 < $1 }.count
    if reordered > 0 {
        notes.append("\(trackPath): \(reordered) rows out of time order (by up to \(num(maxStepBack(rows.map(\.t)))) s) sorted by time")
    }

    let frame = WorldFrame.enu.toARKit  // (x, y, z up) → (x, z, −y)
    let ble = BLEStream(
        timestamps: sorted.map(\.t), beaconIndex: sorted.map(\.receiver), rssi: sorted.map(\.rssi),
        beacons: receivers.beacons.map { Beacon(uuid: $0.uuid, major: $0.major, minor: $0.minor, position: $0.position.map(frame.apply)) })

    // Ground truth: one pose per distinct time.
    var gt: [Row] = []
    for r in sorted where gt.last.map({ r.t > $0.t }) ?? true { gt.append(r) }
    let valid = gt.indices.filter { gt[$0].rotation != nil }
    guard !valid.isEmpty else {
        throw TraceError(
            .badValue, file: trackPath, object: "R00…R22",
            "no row holds a rotation matrix (orthonormal within 0.01, det +1); cannot give the tag's orientation")
    }
    var orientations: [Quaternion] = []
    var v = 0  // index into valid of the last valid row at or before i
    for i in gt.indices {
        while v + 1 < valid.count && valid[v + 1] <= i { v += 1 }
        let a = valid[v]
        if let q = gt[i].rotation { orientations.append(q); continue }
        if i < a || v + 1 >= valid.count { orientations.append(gt[a].rotation!); continue }  // before the first / after the last: hold
        let b = valid[v + 1]
        let u = (gt[i].t - gt[a].t) / (gt[b].t - gt[a].t)
        orientations.append(slerpQuaternion(gt[a].rotation!, gt[b].rotation!, u))
    }
    let interpolated = gt.count - valid.count
    if interpolated > 0 {
        notes.append(
            "\(trackPath): R00…R22 is not a rotation matrix in \(interpolated) of \(gt.count) ground-truth rows; their orientation is slerped from the nearest rows that are"
        )
    }
    let poses = zip(gt, orientations).map { Pose(rotation: frame.applyToOrientation($1), translation: frame.apply($0.position)) }
    let groundTruth = GroundTruthStream(timestamps: gt.map(\.t), poses: poses)
    let base = (fileName(of: trackPath) as NSString).deletingPathExtension
    let route = base.hasSuffix("_all_sensors") ? String(base.dropLast("_all_sensors".count)) : base
    let meta = importMetadata(
        options, routeID: route, venue: "tetam (Position-Annotated BLE RSSI Dataset)",
        device: "BLE tag \(tags.keys.sorted().first ?? "") heard by 12 receivers",
        frameConvention: "dataset frame (x, y floor plan, z up; metres) as x, y = up, z = −y: right-handed, +y up, x not east; "
            + "ble = the fixed receivers (as beacons) hearing the moving tag; quaternions x,y,z,w")
    return ImportResult(session: Session(metadata: meta, ble: ble, groundTruth: groundTruth), notes: notes)
}

/// `cnf/tetam.dev` of the dataset holding `trk/TRACK.mbd`, as a path relative like the track's.
func defaultBLEDevicesPath(_ trackPath: String) -> String {
    var dir = parentFolder(of: trackPath)
    if dir == "." { dir = "" }
    if dir.isEmpty { return "../cnf/tetam.dev" }
    let parent = parentFolder(of: dir)
    return parent.isEmpty ? "cnf/tetam.dev" : (parent as NSString).appendingPathComponent("cnf/tetam.dev")
}

/// The largest backwards step of a time column.
private func maxStepBack(_ t: [Double]) -> Double {
    var worst = 0.0
    var top = -Double.infinity
    for x in t { if x < top { worst = max(worst, top - x) }; top = max(top, x) }
    return worst
}

/// The receivers of the BLE dataset's devices file, in alias order.
struct BLEDevices {
    var macs: [String]
    var index: [String: Int]
    var beacons: [(uuid: String, major: Int32, minor: Int32, position: Vector3?)]
}

/// Reads the `Dongles:` line of `tetam.dev`: `{"MAC": [[x, y, z], colour, "alias"], …}`.
func readBLEDevices(_ path: String) throws(TraceError) -> BLEDevices {
    let text = try readTextFile(path, expected: "the BLE dataset's devices file (tetam.dev)")
    var lineNo = 0
    for raw in textLines(text) {
        lineNo += 1
        let line = raw.trimmingCharacters(in: .whitespaces)
        guard line.hasPrefix("Dongles:") else { continue }
        let json = line.dropFirst("Dongles:".count)
        guard let obj = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw TraceError(.badValue, file: path, object: "line \(lineNo)", "the text after Dongles: is not a JSON object")
        }
        var entries: [(mac: String, alias: String, minor: Int32, position: Vector3)] = []
        for (mac, value) in obj {
            guard let a = value as? [Any], a.count >= 3, let p = a[0] as? [Any], p.count == 3,
                let xyz = p.map({ ($0 as? NSNumber)?.doubleValue }) as? [Double], xyz.allSatisfy(\.isFinite),
                let alias = a[2] as? String
            else {
                throw TraceError(.badValue, file: path, object: "line \(lineNo), receiver \(mac)", "expected [[x, y, z], colour, \"alias\"]")
            }
            let digits = alias.reversed().prefix { $0.isNumber }.reversed()
            let minor = Int32(String(digits)).flatMap { (0...65535).contains($0) ? $0 : nil } ?? 0
            entries.append((mac.lowercased(), alias, minor, Vector3(xyz[0], xyz[1], xyz[2])))
        }
        guard !entries.isEmpty else { throw TraceError(.empty, file: path, object: "line \(lineNo)", "no receivers after Dongles:") }
        entries.sort { ($0.minor, $0.mac) < ($1.minor, $1.mac) }
        var index: [String: Int] = [:]
        for (i, e) in entries.enumerated() { index[e.mac] = i }
        return BLEDevices(
            macs: entries.map(\.mac), index: index,
            beacons: entries.map { (uuid: $0.mac, major: 0, minor: $0.minor, position: $0.position) })
    }
    throw TraceError(.missing, file: path, "no line starting with Dongles:; expected the receivers' positions as JSON")
}
