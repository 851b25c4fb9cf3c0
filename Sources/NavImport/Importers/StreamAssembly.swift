import Foundation
import NavCore
import NavIO

// From source columns to trace streams: checks, unit and frame changes, invalid rows.

/// One stream's values read from a source, before checks: every field row-major with the
/// target's width, already in trace units and scaled, in the source frame.
struct SourceStream {
    var name: String
    var times: [Double]
    var fields: [String: [Double]]
    /// BLE: the beacon key of each row.
    var keys: [String]?
    /// Where row i's field came from, for messages: ("line 12, column 'ax'" or "/imu_acc, row 12").
    var label: (_ row: Int, _ field: String?) -> String
}

/// Checks and converts `src` into the session's stream, dropping or rejecting invalid rows.
///
/// A row is invalid when a value is not finite, lies outside the dataset's range (RSSI in
/// [−150, 20] dBm, latitude, longitude, accuracy ≥ 0, tracking state 0…2), an integer field is
/// not a whole number, or a quaternion's norm is not within 0.01 of 1. Headings are reduced
/// into [0, 360). World-frame fields are turned from `frame` (the stream's `frame:`, else the
/// mapping's) into ARKit's; with the stream's `body_rotation:` r, orientations become
/// W · q ⊗ r and body-frame vectors (accelerometer, gyroscope, magnetometer) R(r)ᵀ · v
/// (`BodyRotation`).
///
/// - Throws: for an invalid row under `.error`, for times out of order, and when no row is left.
func assembleStream(
    _ src: SourceStream, mapping: StreamMapping, beaconsInFrame: WorldFrame, frame: WorldFrame,
    policy: InvalidRowPolicy, file: String, into session: inout Session, notes: inout [String]
) throws(TraceError) {
    let targets = TargetField.fields(of: src.name)!
    let present = targets.filter { src.fields[$0.name] != nil }
    let n = src.times.count
    let change = frame.toARKit
    let body = mapping.bodyRotation
    var keep: [Int] = []
    keep.reserveCapacity(n)
    var dropped = 0
    var firstDrop = ""
    var fields = src.fields
    for r in 0..<n {
        let problem = rowProblem(r, of: src, fields: present, values: &fields)
        if let (field, text) = problem {
            if policy == .drop {
                dropped += 1
                if dropped == 1 { firstDrop = "\(src.label(r, field)): \(text)" }
                continue
            }
            throw TraceError(.badValue, file: file, object: src.label(r, field), text + " (invalid_rows: drop in the mapping leaves such rows out)")
        }
        keep.append(r)
    }
    if dropped > 0 { notes.append("\(file): \(src.name): \(dropped) of \(n) rows dropped as invalid (first: \(firstDrop))") }
    guard !keep.isEmpty else { throw TraceError(.empty, file: file, object: src.name, "no valid rows (\(n) read, \(dropped) invalid)") }

    let strict = TraceSchema.stream(named: src.name)?.timeOrder == .strictlyIncreasing
    if strict {
        // A time repeated exactly keeps its last row, as the TUM and EuRoC imports keep the last
        // pose (and evo does); a time that goes back is still an error below.
        var unique: [Int] = []
        unique.reserveCapacity(keep.count)
        var repeats = 0, firstRepeat = ""
        for r in keep {
            if let last = unique.last, src.times[r] == src.times[last] {
                repeats += 1
                if repeats == 1 { firstRepeat = "\(src.label(r, nil)), \(num(src.times[r])) s" }
                unique[unique.count - 1] = r
            } else {
                unique.append(r)
            }
        }
        if repeats > 0 {
            notes.append("\(file): \(src.name): \(repeats) repeated times; kept the last row of each repeat (first: \(firstRepeat))")
            keep = unique
        }
    }
    for j in 1..<max(1, keep.count) {
        let a = src.times[keep[j - 1]], b = src.times[keep[j]]
        if strict ? !(b > a) : b < a {
            throw TraceError(
                .badTimestamps, file: file, object: src.label(keep[j], nil),
                "time \(num(b)) s is \(strict ? "not after" : "before") \(num(a)) s (\(src.label(keep[j - 1], nil))); expected \(strict ? "strictly increasing" : "non-decreasing") times"
            )
        }
    }

    let times = keep.map { src.times[$0] }
    /// A world-frame vector (a position) turned by W, or a body-frame vector (an IMU reading) by R(r)ᵀ.
    func vectors(_ name: String, world: Bool) -> [Vector3]? {
        guard let v = fields[name] else { return nil }
        return keep.map { r in
            let x = Vector3(v[3 * r], v[3 * r + 1], v[3 * r + 2])
            return world ? change.apply(x) : (body?.apply(x) ?? x)
        }
    }
    /// A body-to-world rotation: W · q ⊗ r.
    func quaternions(_ name: String) -> [Quaternion]? {
        guard let v = fields[name] else { return nil }
        return keep.map { r in
            let q = Quaternion(x: v[4 * r], y: v[4 * r + 1], z: v[4 * r + 2], w: v[4 * r + 3])
            let u = change.applyToOrientation(q.unit)
            return body?.applyToOrientation(u) ?? u
        }
    }
    func scalars(_ name: String) -> [Double]? { fields[name].map { v in keep.map { v[$0] } } }
    func ints(_ name: String) -> [Int32]? { fields[name].map { v in keep.map { Int32(v[$0]) } } }
    func poses() -> [Pose] {
        zip(quaternions("orientation")!, vectors("position", world: true)!).map { Pose(rotation: $0, translation: $1) }
    }

    switch src.name {
    case "imu":
        session.imu = IMUStream(
            timestamps: times, accelerometer: vectors("accelerometer", world: false)!, gyroscope: vectors("gyroscope", world: false)!,
            attitude: quaternions("attitude"), magnetometer: vectors("magnetometer", world: false),
            moving: ints("moving").map { $0.map { $0 != 0 } })
    case "compass":
        session.compass = CompassStream(timestamps: times, heading: scalars("heading")!, accuracy: scalars("accuracy"))
    case "ble":
        let keys = keep.map { src.keys![$0] }
        var order: [String] = mapping.beacons.map(\.key)
        var index: [String: Int32] = [:]
        for (i, k) in order.enumerated() { index[k] = Int32(i) }
        for k in keys where index[k] == nil { index[k] = Int32(order.count); order.append(k) }
        let beaconChange = beaconsInFrame.toARKit
        let beacons = order.enumerated().map { (i, k) -> Beacon in
            let e = mapping.beacons.first { $0.key == k }
            return Beacon(
                uuid: e?.uuid ?? k, major: e?.major ?? 0, minor: e?.minor ?? Int32(min(i, 65535)),
                position: e?.position.map { beaconChange.apply($0) })
        }
        session.ble = BLEStream(timestamps: times, beaconIndex: keys.map { index[$0]! }, rssi: scalars("rssi")!, beacons: beacons)
    case "vio":
        session.vio = VIOStream(
            timestamps: times, poses: poses(),
            trackingState: ints("tracking_state").map { $0.map { TrackingState(rawValue: Int8($0)) ?? .normal } }
                ?? Array(repeating: .normal, count: times.count))
    case "anchors":
        session.anchors = AnchorStream(timestamps: times, anchorID: ints("anchor_id")!, poses: poses())
    case "location":
        session.location = LocationStream(
            timestamps: times, latitude: scalars("latitude")!, longitude: scalars("longitude")!,
            altitude: scalars("altitude")!, horizontalAccuracy: scalars("horizontal_accuracy")!,
            floor: ints("floor") ?? Array(repeating: LocationStream.noFloor, count: times.count))
    case "groundtruth":
        session.groundTruth = GroundTruthStream(timestamps: times, poses: poses(), floor: ints("floor"))
    default:
        break
    }
}

/// Rotations in a source layout (`QuaternionOrder`) as quaternions x, y, z, w, four values a row.
func reorderQuaternion(_ v: [Double], order: QuaternionOrder?) -> [Double] {
    switch order {
    case .wxyz:
        var out = v
        for r in 0..<(v.count / 4) {
            out[4 * r] = v[4 * r + 1]; out[4 * r + 1] = v[4 * r + 2]; out[4 * r + 2] = v[4 * r + 3]; out[4 * r + 3] = v[4 * r]
        }
        return out
    case .rowMajor, .columnMajor:
        // A matrix within 0.01 of a rotation (max |R·Rᵀ − I|, det > 0) becomes its quaternion;
        // another becomes (0, 0, 0, 0), which the row check refuses (norm 0: not a rotation).
        var out: [Double] = []
        out.reserveCapacity(v.count / 9 * 4)
        for r in 0..<(v.count / 9) {
            let e = Array(v[(9 * r)..<(9 * r + 9)])
            let m =
                order == .rowMajor
                ? [[e[0], e[1], e[2]], [e[3], e[4], e[5]], [e[6], e[7], e[8]]] : [[e[0], e[3], e[6]], [e[1], e[4], e[7]], [e[2], e[5], e[8]]]
            if let q = rotationFromMatrix(m, tolerance: 0.01) { out += [q.x, q.y, q.z, q.w] } else { out += [0, 0, 0, 0] }
        }
        return out
    default:
        return v
    }
}

/// Why row `r` of `src` cannot go into a trace (the field, or nil for the time, and the
/// problem), or nil when it can. Headings are reduced into [0, 360) in `values` on the way.
private func rowProblem(_ r: Int, of src: SourceStream, fields present: [TargetField], values fields: inout [String: [Double]]) -> (String?, String)?
{
    if !src.times[r].isFinite { return (nil, "time is \(num(src.times[r])), expected a finite number") }
    for t in present {
        let v = fields[t.name]!
        let row = Array(v[(t.width * r)..<(t.width * r + t.width)])
        if let k = row.firstIndex(where: { !$0.isFinite }) {
            let axis = t.width > 1 ? " " + ["x", "y", "z", "w"][k] : ""
            return (t.name, "\(t.name)\(axis) is \(num(row[k])), expected a finite number")
        }
        switch t.kind {
        case .quaternion:
            let nrm = (row.map { $0 * $0 }.reduce(0, +)).squareRoot()
            if abs(nrm - 1) > 0.01 {
                return (
                    t.name,
                    nrm == 0
                        ? "\(t.name) is not a rotation (a matrix not orthonormal within 0.01 with det +1, or a zero quaternion; check the columns and order)"
                        : "\(t.name) has norm \(num(nrm)), expected a unit quaternion (check the columns and order)"
                )
            }
        case .integer:
            if row[0] != row[0].rounded() || row[0] < -2_147_483_648 || row[0] > 2_147_483_647 {
                return (t.name, "\(t.name) is \(num(row[0])), expected a whole number")
            }
        case .scalar where t.name == "heading":
            var h = row[0].truncatingRemainder(dividingBy: 360)
            if h < 0 { h += 360 }
            if h >= 360 { h = 0 }
            fields[t.name]![r] = h
        default: break
        }
        if let range = t.range, !range.contains(row[0]) {
            return (
                t.name,
                "\(t.name) is \(num(row[0])) \(t.quantity.traceUnit), expected a value in [\(num(range.lowerBound)), \(num(range.upperBound))]"
            )
        }
    }
    return nil
}
