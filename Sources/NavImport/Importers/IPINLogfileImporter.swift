import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import NavStatistics

/// How `importIPINLogfile` places the reference points (`POSI`) in the venue frame.
public struct IPINImportOptions: Sendable, Equatable {
    /// Origin of the venue frame, degrees (WGS 84); nil: the lowest latitude and the lowest
    /// longitude of the reference points, as the organisers' scorer (`scoreIPINTrack3`).
    public var originLatitude: Double?
    public var originLongitude: Double?
    /// The height every point is given in the geodetic conversion, metres (the scorer's).
    public var venueAltitude: Double
    /// Storey height: a reference point's y is floor × `floorHeight` (0: every point at y = 0,
    /// the floor only in `groundtruth/floor`).
    public var floorHeight: Double

    public init(originLatitude: Double? = nil, originLongitude: Double? = nil, venueAltitude: Double = ipin2023VenueAltitude, floorHeight: Double = 0)
    {
        self.originLatitude = originLatitude; self.originLongitude = originLongitude
        self.venueAltitude = venueAltitude; self.floorHeight = floorHeight
    }
}

/// Imports an IPIN/EvAAL smartphone logfile (the competitions' Track 3 format, written by the
/// GetSensorData app: one text file per trial, `%` header lines, then one `TYPE;…` line per
/// reading) into trace format v1. What goes where (docs/importers.md, "IPIN logfiles"):
///
/// - **Clock**: the app's timestamp (`AppTimestamp`, common to every sensor and to the
///   reference points). Inertial readings keep their sensor's own sample times, moved onto
///   the app clock by the median of SensorTimestamp − AppTimestamp of their type.
/// - **`imu`**: `ACCE` rows (m/s², device frame: x right, y up the screen, z out of it, as the
///   trace's), with `GYRO` (rad/s) and `MAGN` (µT) linearly interpolated at their times and the
///   `AHRS` rotation vector (Android's x, y, z of the device-to-ENU quaternion, w ≥ 0) slerped
///   and turned into ARKit's world (+y up) as `attitude`; accelerometer rows outside the
///   gyroscope's time span are left out; magnetometer and attitude only when they cover every row.
/// - **`compass`**: Android's azimuth of each `AHRS` row, atan2(R₀₁, R₁₁) of its rotation
///   (clockwise from magnetic north, in [0, 360); the app's `YawZ` is its negative).
/// - **`ble`**: `BLE4` iBeacon rows (RSSI dBm; beacons by UUID, major, minor, sorted); Eddystone
///   rows have no iBeacon identity and are counted in a note.
/// - **`location`**: `GNSS` rows (latitude, longitude, altitude, accuracy).
/// - **`groundtruth`**: the `POSI` reference points: WGS 84 to the origin's north-east-down
///   (`geodeticToNED` at `venueAltitude`), then ARKit's venue frame (x east, z south, y =
///   floor × `floorHeight`), `floor` = the floor id. Orientation is not observed: identity (use
///   position metrics). Rows of a second building are refused (one venue frame per file).
/// - Other types (`PRES`, `WIFI`, `LIGH`, `SOUN`, …) have no stream in trace format v1: counted in a note.
///
/// - Throws: naming the line and field: a field that is not a finite number, a line with too
///   few fields, RSSI outside [−150, 20] dBm, a time that goes back (under `.drop`, such rows are
///   left out and listed); a log without `ACCE`/`GYRO` rows, reference points or anything to import.
public func importIPINLogfile(
    _ path: String, ipin: IPINImportOptions = IPINImportOptions(), options: ImportOptions = ImportOptions()
) throws(TraceError) -> ImportResult {
    let text = try readTextFile(path, expected: "an IPIN smartphone logfile (GetSensorData: ACCE;…, GYRO;…, POSI;… lines)")
    var log = IPINLog()
    var dropped = DroppedRowNotes()
    var lineNumber = 0
    for raw in textLines(text) {
        lineNumber += 1
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.isEmpty { continue }
        if line.hasPrefix("%") {
            log.readHeader(line)
            continue
        }
        do throws(TraceError) {
            try log.read(line, number: lineNumber, path: path)
        } catch {
            guard options.invalidRows == .drop else { throw error }
            dropped.add("\(error.description); row dropped")
        }
    }
    return try log.session(path: path, ipin: ipin, options: options, notes: dropped.notes(file: path))
}

/// The readings of a logfile by type, as read.
private struct IPINLog {
    struct Inertial { var line: Int; var app: Double; var sensor: Double; var value: Vector3 }
    struct Attitude { var line: Int; var app: Double; var sensor: Double; var rotation: Quaternion }
    struct BeaconReading { var line: Int; var time: Double; var uuid: String; var major: Int32; var minor: Int32; var rssi: Double }
    struct Fix { var time: Double; var latitude: Double; var longitude: Double; var altitude: Double; var accuracy: Double }
    struct ReferencePoint { var line: Int; var time: Double; var latitude: Double; var longitude: Double; var floor: Int32; var building: String }

    var accelerometer: [Inertial] = [], gyroscope: [Inertial] = [], magnetometer: [Inertial] = []
    var attitude: [Attitude] = []
    var beacons: [BeaconReading] = []
    var fixes: [Fix] = []
    var references: [ReferencePoint] = []
    var eddystone = 0
    var otherTypes: [String: Int] = [:]
    var manufacturer = "", model = ""

    mutating func readHeader(_ line: String) {
        let body = line.dropFirst().trimmingCharacters(in: .whitespaces)
        for (key, assign) in [("Manufacturer:", 0), ("Model:", 1)] where body.hasPrefix(key) {
            let value = String(body.dropFirst(key.count).trimmingCharacters(in: .whitespaces).prefix(128))
            if assign == 0 { manufacturer = value } else { model = value }
        }
    }

    /// Reads one data line into its stream.
    mutating func read(_ line: String, number lineNumber: Int, path: String) throws(TraceError) {
        let f = line.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let type = f[0]
        let object = "line \(lineNumber) (\(type.prefix(8)))"
        func need(_ count: Int, _ layout: String) throws(TraceError) {
            guard f.count >= count else {
                throw TraceError(.wrongShape, file: path, object: object, "expected \(layout) (\(count) fields), found \(f.count) fields")
            }
        }
        func number(_ k: Int, _ name: String) throws(TraceError) -> Double {
            guard let v = parseNumber(f[k]), v.isFinite else {
                throw TraceError(
                    .badValue, file: path, object: object, "field \(k + 1) (\(name)): expected a finite number, found '\(f[k].prefix(40))'")
            }
            return v
        }
        func vector(_ first: Int, _ names: [String]) throws(TraceError) -> Vector3 {
            Vector3(try number(first, names[0]), try number(first + 1, names[1]), try number(first + 2, names[2]))
        }
        switch type {
        case "ACCE", "GYRO", "MAGN":
            let axes = type == "ACCE" ? ["Acc_X", "Acc_Y", "Acc_Z"] : type == "GYRO" ? ["Gyr_X", "Gyr_Y", "Gyr_Z"] : ["Mag_X", "Mag_Y", "Mag_Z"]
            try need(6, "\(type);AppTimestamp;SensorTimestamp;\(axes.joined(separator: ";"))")
            let r = Inertial(
                line: lineNumber, app: try number(1, "AppTimestamp"), sensor: try number(2, "SensorTimestamp"), value: try vector(3, axes))
            if type == "ACCE" { accelerometer.append(r) } else if type == "GYRO" { gyroscope.append(r) } else { magnetometer.append(r) }
        case "AHRS":
            try need(9, "AHRS;AppTimestamp;SensorTimestamp;PitchX;RollY;YawZ;Quat(2);Quat(3);Quat(4)")
            let v = try vector(6, ["Quat(2)", "Quat(3)", "Quat(4)"])
            let s = v.dot(v)
            guard s <= 1 + 1e-6 else {
                throw TraceError(.badValue, file: path, object: object, "fields 7–9 (rotation vector): |(x, y, z)|² = \(num(s)), expected at most 1")
            }
            attitude.append(
                Attitude(
                    line: lineNumber, app: try number(1, "AppTimestamp"), sensor: try number(2, "SensorTimestamp"),
                    rotation: Quaternion(x: v.x, y: v.y, z: v.z, w: max(0, 1 - s).squareRoot()).normalized))
        case "BLE4":
            guard f.count > 2, f[2] == "iBeacon" else {
                eddystone += 1
                return
            }
            try need(9, "BLE4;AppTimestamp;iBeacon;MAC;RSSI;Power;MajorID;MinorID;UUID")
            let rssi = try number(4, "RSSI")
            guard (-150...20).contains(rssi) else {
                throw TraceError(.badValue, file: path, object: object, "field 5 (RSSI): \(num(rssi)) dBm is outside [−150, 20]")
            }
            func id(_ k: Int, _ name: String) throws(TraceError) -> Int32 {
                guard let v = Int32(f[k]), (0...65535).contains(v) else {
                    throw TraceError(
                        .badValue, file: path, object: object, "field \(k + 1) (\(name)): expected an integer 0–65535, found '\(f[k].prefix(40))'")
                }
                return v
            }
            guard !f[8].isEmpty, f[8].count <= 64 else {
                throw TraceError(.badValue, file: path, object: object, "field 9 (UUID): expected an iBeacon UUID of 1–64 characters")
            }
            beacons.append(
                BeaconReading(
                    line: lineNumber, time: try number(1, "AppTimestamp"), uuid: f[8].lowercased(), major: try id(6, "MajorID"),
                    minor: try id(7, "MinorID"),
                    rssi: rssi))
        case "GNSS":
            try need(9, "GNSS;AppTimestamp;SensorTimestamp;Latit;Long;Altitude;Bearing;Accuracy;…")
            let lat = try number(3, "Latit"), lon = try number(4, "Long")
            if let problem = geodeticPositionProblem(latitude: lat, longitude: lon) {
                throw TraceError(.badValue, file: path, object: object, "fields 4–5: \(problem)")
            }
            fixes.append(
                Fix(
                    time: try number(1, "AppTimestamp"), latitude: lat, longitude: lon, altitude: try number(5, "Altitude"),
                    accuracy: abs(try number(7, "Accuracy"))))
        case "POSI":
            try need(6, "POSI;Timestamp;Counter;Latitude;Longitude;floor ID;Building ID")
            let lat = try number(3, "Latitude"), lon = try number(4, "Longitude"), floor = try number(5, "floor ID")
            if let problem = geodeticPositionProblem(latitude: lat, longitude: lon) {
                throw TraceError(.badValue, file: path, object: object, "fields 4–5: \(problem)")
            }
            guard floor == floor.rounded(), abs(floor) <= 1_000 else {
                throw TraceError(.badValue, file: path, object: object, "field 6 (floor ID): expected a whole floor number, found \(num(floor))")
            }
            references.append(
                ReferencePoint(
                    line: lineNumber, time: try number(1, "Timestamp"), latitude: lat, longitude: lon, floor: Int32(floor),
                    building: f.count > 6 ? String(f[6].prefix(64)) : ""))
        default:
            otherTypes[String(type.prefix(16)), default: 0] += 1
        }
    }

    /// The session of what was read.
    func session(path: String, ipin: IPINImportOptions, options: ImportOptions, notes: [String]) throws(TraceError) -> ImportResult {
        var notes = notes
        guard !references.isEmpty else {
            throw TraceError(.missing, file: path, object: "POSI", "no reference points (POSI lines); expected an IPIN Track 3 logfile")
        }
        var session = Session(
            metadata: importMetadata(
                options, sessionID: (fileName(of: path) as NSString).deletingPathExtension,
                device: [manufacturer, model].filter { !$0.isEmpty }.joined(separator: " "),
                frameConvention: "ARKit (+y up; venue frame x east, z south) from Android's device frame and ENU world; "
                    + "groundtruth = the POSI reference points (orientation not observed: identity), y = floor × \(num(ipin.floorHeight)) m; quaternions x,y,z,w"
            ))
        session.groundTruth = try groundTruth(path: path, ipin: ipin)
        session.imu = try imu(path: path, options: options, notes: &notes)
        if !attitude.isEmpty {
            let times = try sensorTimes(attitude.map { ($0.line, $0.app, $0.sensor) }, type: "AHRS", path: path)
            session.compass = CompassStream(timestamps: times, heading: attitude.map { azimuthDegrees($0.rotation) })
        }
        if !beacons.isEmpty { session.ble = try ble(path: path) }
        if !fixes.isEmpty {
            try checkIncreasing(fixes.map(\.time), type: "GNSS", lines: nil, path: path)
            session.location = LocationStream(
                timestamps: fixes.map(\.time), latitude: fixes.map(\.latitude), longitude: fixes.map(\.longitude),
                altitude: fixes.map(\.altitude), horizontalAccuracy: fixes.map(\.accuracy), floor: fixes.map { _ in Int32.min })
        }
        if eddystone > 0 { notes.append("\(path): \(eddystone) BLE4 Eddystone rows not imported (no iBeacon UUID, major and minor)") }
        if !otherTypes.isEmpty {
            let list = otherTypes.keys.sorted().map { "\($0) \(otherTypes[$0]!)" }.joined(separator: ", ")
            notes.append("\(path): rows without a stream in trace format v1, not imported: \(list)")
        }
        return ImportResult(session: session, notes: notes)
    }

    /// `POSI` rows as ground truth in the venue frame.
    func groundTruth(path: String, ipin: IPINImportOptions) throws(TraceError) -> GroundTruthStream {
        let buildings = Set(references.map(\.building))
        if buildings.count > 1, let other = references.first(where: { $0.building != references[0].building }) {
            throw TraceError(
                .badValue, file: path, object: "line \(other.line) (POSI)",
                "building '\(other.building)' after '\(references[0].building)': one venue frame per file; split the log by building")
        }
        try checkIncreasing(references.map(\.time), type: "POSI", lines: references.map(\.line), path: path)
        let lat0 = ipin.originLatitude ?? references.map(\.latitude).min()!
        let lon0 = ipin.originLongitude ?? references.map(\.longitude).min()!
        let poses = references.map { r in
            let ned = geodeticToNED(
                latitude: r.latitude, longitude: r.longitude, height: ipin.venueAltitude, originLatitude: lat0, originLongitude: lon0,
                originHeight: ipin.venueAltitude)
            return Pose(rotation: .identity, translation: Vector3(ned.east, Double(r.floor) * ipin.floorHeight, -ned.north))
        }
        return GroundTruthStream(timestamps: references.map(\.time), poses: poses, floor: references.map(\.floor))
    }

    /// `ACCE` with `GYRO`, `MAGN` and `AHRS` at its times; nil without accelerometer or gyroscope rows.
    func imu(path: String, options: ImportOptions, notes: inout [String]) throws(TraceError) -> IMUStream? {
        guard !accelerometer.isEmpty || !gyroscope.isEmpty else { return nil }
        guard !accelerometer.isEmpty, gyroscope.count >= 2 else {
            notes.append(
                "\(path): imu not imported: it needs ACCE rows and at least 2 GYRO rows (found \(accelerometer.count) and \(gyroscope.count))")
            return nil
        }
        let ta = try sensorTimes(accelerometer.map { ($0.line, $0.app, $0.sensor) }, type: "ACCE", path: path)
        let tg = try sensorTimes(gyroscope.map { ($0.line, $0.app, $0.sensor) }, type: "GYRO", path: path)
        let tm = magnetometer.count >= 2 ? try sensorTimes(magnetometer.map { ($0.line, $0.app, $0.sensor) }, type: "MAGN", path: path) : nil
        let tq = attitude.count >= 2 ? try sensorTimes(attitude.map { ($0.line, $0.app, $0.sensor) }, type: "AHRS", path: path) : nil
        // Accelerometer rows within the time span of every stream interpolated at them.
        let spans = [tg, tm, tq].compactMap { $0 }.map { $0.first!...$0.last! }
        let kept = ta.indices.filter { i in spans.allSatisfy { $0.contains(ta[i]) } }
        if kept.count < ta.count {
            notes.append("\(path): \(ta.count - kept.count) ACCE rows outside the time span of GYRO, MAGN or AHRS left out")
        }
        guard !kept.isEmpty else {
            throw TraceError(.badTimestamps, file: path, object: "ACCE", "no accelerometer row lies within the time span of GYRO, MAGN and AHRS")
        }
        let times = kept.map { ta[$0] }
        var stream = IMUStream(
            timestamps: times, accelerometer: kept.map { accelerometer[$0].value },
            gyroscope: interpolated(tg, gyroscope.map(\.value), at: times, lerp)!)
        if let tm { stream.magnetometer = interpolated(tm, magnetometer.map(\.value), at: times, lerp) }
        if let tq {
            stream.attitude = interpolated(tq, attitude.map(\.rotation), at: times, slerpQuaternion)?.map(WorldFrame.enu.toARKit.applyToOrientation)
        }
        return stream
    }

    /// `BLE4` iBeacon rows with the beacon table sorted by (UUID, major, minor).
    func ble(path: String) throws(TraceError) -> BLEStream {
        try checkIncreasing(beacons.map(\.time), type: "BLE4", lines: beacons.map(\.line), path: path, strictly: false)
        struct Identity: Hashable, Comparable {
            var uuid: String, major: Int32, minor: Int32
            static func < (a: Identity, b: Identity) -> Bool { (a.uuid, a.major, a.minor) < (b.uuid, b.major, b.minor) }
        }
        let table = Set(beacons.map { Identity(uuid: $0.uuid, major: $0.major, minor: $0.minor) }).sorted()
        let index = Dictionary(uniqueKeysWithValues: table.enumerated().map { ($0.element, Int32($0.offset)) })
        return BLEStream(
            timestamps: beacons.map(\.time), beaconIndex: beacons.map { index[Identity(uuid: $0.uuid, major: $0.major, minor: $0.minor)]! },
            rssi: beacons.map(\.rssi), beacons: table.map { Beacon(uuid: $0.uuid, major: $0.major, minor: $0.minor, position: nil) })
    }
}

/// A sensor's sample times on the app clock: SensorTimestamp − median(SensorTimestamp −
/// AppTimestamp) of the rows. Throws when they are not strictly increasing (naming the line).
private func sensorTimes(_ rows: [(line: Int, app: Double, sensor: Double)], type: String, path: String) throws(TraceError) -> [Double] {
    let offset = Statistics.median(rows.map { $0.sensor - $0.app })
    let times = rows.map { $0.sensor - offset }
    try checkIncreasing(times, type: type, lines: rows.map(\.line), path: path)
    return times
}

/// Throws unless `t` increases (strictly, or without going back when `strictly` is false).
private func checkIncreasing(_ t: [Double], type: String, lines: [Int]?, path: String, strictly: Bool = true) throws(TraceError) {
    for i in t.indices.dropFirst() where strictly ? !(t[i] > t[i - 1]) : !(t[i] >= t[i - 1]) {
        throw TraceError(
            .badTimestamps, file: path, object: lines.map { "line \($0[i]) (\(type))" } ?? "\(type) row \(i + 1)",
            "time \(num(t[i])) s is \(t[i] == t[i - 1] ? "the previous row's" : "before the previous row's (\(num(t[i - 1])) s)"); expected \(strictly ? "increasing" : "non-decreasing") times"
        )
    }
}

/// a + u·(b − a).
private func lerp(_ a: Vector3, _ b: Vector3, _ u: Double) -> Vector3 { a + u * (b - a) }

/// Android's azimuth of a device-to-ENU rotation (`SensorManager.getOrientation`: atan2(R₀₁,
/// R₁₁), the east and north components of the device's y axis), degrees clockwise from north
/// in [0, 360).
func azimuthDegrees(_ q: Quaternion) -> Double {
    let r01 = 2 * (q.x * q.y - q.z * q.w), r11 = 1 - 2 * (q.x * q.x + q.z * q.z)
    var a = atan2(r01, r11) * 180 / .pi
    if a < 0 { a += 360 }
    return a < 360 ? a : 0  // −0.000…1 + 360 rounds to 360, which is north

}
