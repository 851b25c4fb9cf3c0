import Foundation
import NavCore
import NavIO

/// How the location fixes of the CoreMotion logger, stamped on the Unix clock, are put on the
/// motion files' clock (the device's uptime, `CMDeviceMotion.timestamp`). The log holds no
/// pair of readings of both clocks, so the offset must come from the user.
public enum LocationClock: Sendable, Equatable {
    /// Leave the location fixes out (with a note).
    case omit
    /// Session time = Unix time − offset (seconds).
    case offset(Double)
    /// Place the first fix at the first motion sample (an approximation: the logger starts
    /// both at the Start button, but a fix may be older than the button press).
    case alignFirstFix
}

/// Imports a folder written by the CoreLocation/CoreMotion Data Logger
/// (PyojinKim/CoreLocationMotion-Data-Logger; also accepts the folder above `Visualization/`).
///
/// Files (space separated, `#` comments, first column a time in nanoseconds):
/// - required, all `CMDeviceMotion` at the same instants: `game_rv.txt` (attitude quaternion
///   x y z w, reference frame x = magnetic north, z up), `gyro.txt` (rotation rate, rad/s),
///   `gravity.txt` and `linacce.txt` (gravity and user acceleration, in g × 9.81 as the logger
///   writes them);
/// - optional: `magnet.txt` (calibrated field, µT) and `heading.txt` (degrees) at the same
///   instants, and `gps.txt` (Unix-time ns, latitude, longitude, horizontal accuracy m,
///   altitude m, floor, vertical accuracy m).
///
/// Conversions (docs/importers.md):
/// - time: ns ÷ 10⁹ → seconds on the device's uptime clock;
/// - device axes → ARKit's camera frame as used by navbench (+x along the long axis toward the
///   bottom edge): (x, y, z)_ARKit = (−y, x, z)_CoreMotion;
/// - world axes (x north, y west, z up) → ARKit's (x east, y up, z south);
/// - accelerometer: specific force = −(gravity + user acceleration) × 9.80665 / 9.81 (Core
///   Motion reports acceleration in g with gravity as −1 g on the up axis, the logger
///   multiplied by 9.81; navbench uses standard gravity), so +9.80665 m/s² along +y at rest
///   with the phone upright;
/// - compass heading: `CMDeviceMotion.heading` as logged (degrees clockwise from the reference
///   frame's north), reduced into [0, 360);
/// - location: floor = the logged level when finite and not the logger's −9, else unknown.
///
/// - Throws: one-line errors naming the file, line and field; also when a motion file's times
///   differ from `game_rv.txt`'s.
public func importCoreMotionLogger(
    _ folder: String, locationClock: LocationClock = .omit,
    options: ImportOptions = ImportOptions()
) throws(TraceError) -> ImportResult {
    let dir = try locateCoreMotionFolder(folder)
    func path(_ name: String) -> String { (dir as NSString).appendingPathComponent(name) }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }
    var notes: [String] = []

    func table(_ name: String, _ fields: [String]) throws(TraceError) -> NumericTable {
        let p = path(name)
        let bytes = try readFileBytes(p)
        guard !bytes.isEmpty else { throw TraceError(.empty, file: p, "empty file (0 bytes), expected lines of \(fields.joined(separator: " "))") }
        return try parseNumericTable(bytes, path: p, columns: fields.count...fields.count, fieldNames: fields, formatName: name)
    }

    let rv = try table("game_rv.txt", ["timestamp_ns", "qx", "qy", "qz", "qw"])
    let n = rv.rows
    /// A motion file's rows, checked to be at game_rv's instants.
    func motion(_ name: String, _ fields: [String]) throws(TraceError) -> NumericTable {
        let t = try table(name, fields)
        let k = fields.count
        for r in 0..<min(n, t.rows) where t.values[k * r] != rv.values[5 * r] {
            throw TraceError(
                .badTimestamps, file: path(name), object: "line \(t.lineNumbers[r])",
                "field 1 (timestamp_ns): \(num(t.values[k * r])) differs from game_rv.txt's \(num(rv.values[5 * r])) (line \(rv.lineNumbers[r])); the motion files must share CMDeviceMotion's instants"
            )
        }
        guard t.rows == n else {
            throw TraceError(.wrongShape, file: path(name), "expected \(n) samples (as game_rv.txt), found \(t.rows)")
        }
        return t
    }
    let gyro = try motion("gyro.txt", ["timestamp_ns", "wx", "wy", "wz"])
    let gravity = try motion("gravity.txt", ["timestamp_ns", "gx", "gy", "gz"])
    let user = try motion("linacce.txt", ["timestamp_ns", "ax", "ay", "az"])
    let magnet = exists("magnet.txt") ? try motion("magnet.txt", ["timestamp_ns", "mx", "my", "mz"]) : nil
    let heading = exists("heading.txt") ? try motion("heading.txt", ["timestamp_ns", "heading_deg"]) : nil

    let body = coreMotionBodyToARKitCamera, world = coreMotionWorldToARKit
    let gScale = 9.80665 / 9.81
    func vec(_ t: NumericTable, _ r: Int) -> Vector3 { Vector3(t.values[4 * r + 1], t.values[4 * r + 2], t.values[4 * r + 3]) }

    var imuT: [Double] = [], acc: [Vector3] = [], gyr: [Vector3] = [], att: [Quaternion] = [], mag: [Vector3] = []
    var compT: [Double] = [], head: [Double] = []
    for r in 0..<n {
        let q = Quaternion(x: rv.values[5 * r + 1], y: rv.values[5 * r + 2], z: rv.values[5 * r + 3], w: rv.values[5 * r + 4])
        var problem: (file: String, line: Int32, text: String)?
        let sources: [(String, NumericTable, [String])] =
            [
                ("gyro.txt", gyro, ["wx", "wy", "wz"]), ("gravity.txt", gravity, ["gx", "gy", "gz"]),
                ("linacce.txt", user, ["ax", "ay", "az"]),
            ] + (magnet.map { [("magnet.txt", $0, ["mx", "my", "mz"])] } ?? [])
        search: for (name, t, fields) in sources {
            for k in 0..<3 where !t.values[4 * r + 1 + k].isFinite {
                problem = (name, t.lineNumbers[r], "field \(k + 2) (\(fields[k])): expected a finite number, found \(num(t.values[4 * r + 1 + k]))")
                break search
            }
        }
        let unit = q.unit(tolerance: 0.01)
        if problem == nil && unit == nil {
            problem = ("game_rv.txt", rv.lineNumbers[r], "quaternion (qx qy qz qw) is not of unit length (norm \(num(q.norm)))")
        }
        if let problem {
            if options.invalidRows == .drop { notes.append("\(path(problem.file)): line \(problem.line): \(problem.text); sample dropped"); continue }
            throw TraceError(.badValue, file: path(problem.file), object: "line \(problem.line)", problem.text)
        }
        guard let u = unit else { continue }
        let t = secondsFromNanoseconds(rv.values[5 * r])
        if !t.isFinite || (imuT.last.map { !(t > $0) } ?? false) {
            throw TraceError(
                .badTimestamps, file: path("game_rv.txt"), object: "line \(rv.lineNumbers[r])",
                "field 1 (timestamp_ns): expected finite, strictly increasing times; \(num(rv.values[5 * r])) is not after the previous sample's")
        }
        imuT.append(t)
        gyr.append(body.apply(vec(gyro, r)))
        acc.append(body.apply(-(vec(gravity, r) + vec(user, r)) * gScale))
        // q_ARKit = W · q_CM ⊗ r: device (ARKit axes) → device (CoreMotion axes) → world (CoreMotion) → world (ARKit).
        att.append(body.applyToOrientation(world.quaternion * u))
        if let magnet { mag.append(body.apply(vec(magnet, r))) }
        if let heading {
            let h = heading.values[2 * r + 1]
            if h.isFinite && h >= 0 && h <= 360 {
                compT.append(t); head.append(h == 360 ? 0 : h)
            } else if options.invalidRows == .drop {
                notes.append(
                    "\(path("heading.txt")): line \(heading.lineNumbers[r]): heading \(num(h)) deg is outside [0, 360]; heading sample dropped")
            } else {
                throw TraceError(
                    .badValue, file: path("heading.txt"), object: "line \(heading.lineNumbers[r])",
                    "field 2 (heading_deg): expected degrees in [0, 360], found \(num(h)) (CoreMotion gives −1 when no heading is available; --drop-invalid-rows leaves such samples out)"
                )
            }
        }
    }
    guard !imuT.isEmpty else { throw TraceError(.empty, file: path("game_rv.txt"), "every sample was dropped; nothing to import") }
    var session = Session(
        metadata: importMetadata(
            options, device: "iPhone (CoreLocation/CoreMotion Data Logger)",
            frameConvention: SessionMetadata.arkitFrame
                + "; imu in ARKit's camera axes (x = −y, y = x, z = z of CoreMotion's device frame), attitude world = CoreMotion's reference frame (x north, z up) turned to x east, y up, z south; compass = CMDeviceMotion.heading"
        ))
    session.imu = IMUStream(timestamps: imuT, accelerometer: acc, gyroscope: gyr, attitude: att, magnetometer: magnet == nil ? nil : mag)
    if heading != nil, !compT.isEmpty { session.compass = CompassStream(timestamps: compT, heading: head) }

    if exists("gps.txt") {
        let gps = try table(
            "gps.txt", ["timestamp_unix_ns", "latitude", "longitude", "horizontal_accuracy", "altitude", "floor", "vertical_accuracy"])
        switch locationClock {
        case .omit:
            notes.append(
                "\(path("gps.txt")): location fixes are on the Unix clock and the motion files on the device's uptime clock; location left out (give --gps-offset SECONDS or --gps-align-start)"
            )
        case .offset, .alignFirstFix:
            // t_k = origin + (ns_k − ns_0) / 10⁹: the differences are exact, so aligned fixes land exactly.
            let base = gps.values[0]
            let origin: Double
            if case let .offset(o) = locationClock { origin = secondsFromNanoseconds(base) - o } else { origin = imuT[0] }
            var lt: [Double] = [], lat: [Double] = [], lon: [Double] = [], alt: [Double] = [], acc: [Double] = [], floor: [Int32] = []
            for r in 0..<gps.rows {
                let v = Array(gps.values[(7 * r)..<(7 * r + 7)])
                let line = "line \(gps.lineNumbers[r])"
                var problem: String?
                if !(v[1].isFinite && abs(v[1]) <= 90) {
                    problem = "field 2 (latitude): expected degrees in [−90, 90], found \(num(v[1]))"
                } else if !(v[2].isFinite && abs(v[2]) <= 180) {
                    problem = "field 3 (longitude): expected degrees in [−180, 180], found \(num(v[2]))"
                } else if !(v[3].isFinite && v[3] >= 0) {
                    problem = "field 4 (horizontal_accuracy): expected metres ≥ 0, found \(num(v[3])) (CoreLocation's invalid fix)"
                } else if !v[4].isFinite {
                    problem = "field 5 (altitude): expected a finite number of metres, found \(num(v[4]))"
                }
                if let problem {
                    if options.invalidRows == .drop { notes.append("\(path("gps.txt")): \(line): \(problem); fix dropped"); continue }
                    throw TraceError(.badValue, file: path("gps.txt"), object: line, problem)
                }
                let t = origin + secondsFromNanoseconds(v[0] - base)
                if let last = lt.last, !(t > last) {
                    throw TraceError(
                        .badTimestamps, file: path("gps.txt"), object: line, "field 1 (timestamp_unix_ns): expected strictly increasing times")
                }
                lt.append(t); lat.append(v[1]); lon.append(v[2]); acc.append(v[3]); alt.append(v[4])
                floor.append(v[5].isFinite && v[5] != -9 && abs(v[5]) < 1000 ? Int32(v[5].rounded()) : LocationStream.noFloor)
            }
            if !lt.isEmpty {
                session.location = LocationStream(timestamps: lt, latitude: lat, longitude: lon, altitude: alt, horizontalAccuracy: acc, floor: floor)
            }
            if case .alignFirstFix = locationClock {
                notes.append(
                    "\(path("gps.txt")): first fix placed at the first motion sample (offset \(num(secondsFromNanoseconds(base) - origin)) s, an approximation)"
                )
            }
        }
    }
    return ImportResult(session: session, notes: notes)
}

/// CoreMotion's reference frame xMagneticNorthZVertical (x north, y west, z up) → ARKit world
/// (x east, y up, z south).
let coreMotionWorldToARKit = FrameChange(matrix: [[0, -1, 0], [0, 0, 1], [-1, 0, 0]])

func locateCoreMotionFolder(_ path: String) throws(TraceError) -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw TraceError(.notFound, file: path, "no such folder, expected the CoreMotion logger's folder (game_rv.txt, gyro.txt, …)")
    }
    for candidate in [path, (path as NSString).appendingPathComponent("Visualization")]
    where FileManager.default.fileExists(atPath: (candidate as NSString).appendingPathComponent("game_rv.txt")) {
        return candidate
    }
    throw TraceError(
        .missing, file: (path as NSString).appendingPathComponent("game_rv.txt"),
        "not found (nor in Visualization/); expected the CoreMotion logger's attitude file")
}
