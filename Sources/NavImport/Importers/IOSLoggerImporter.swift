import Foundation
import NavCore
import NavIO

/// The gyroscope of an `ios-logger` import.
public enum IOSLoggerGyroscope: String, Sendable, CaseIterable {
    /// `Gyro.txt`: CMGyroData, the raw rate (with its bias).
    case raw
    /// `MotARH.txt` columns 2–4: CMDeviceMotion's bias-corrected `rotationRate`.
    case deviceMotion = "device-motion"
}

/// One file of an ios_logger dataset folder: its name, its fields (README order) and what it is.
struct IOSLoggerFile: Sendable {
    let name: String
    let fields: [String]
    let what: String

    static let accel = IOSLoggerFile(name: "Accel.txt", fields: ["time(s)", "ax(g)", "ay(g)", "az(g)"], what: "accelerometer")
    static let gyro = IOSLoggerFile(name: "Gyro.txt", fields: ["time(s)", "gx(rad/s)", "gy(rad/s)", "gz(rad/s)"], what: "gyroscope")
    static let motion = IOSLoggerFile(
        name: "Motion.txt", fields: ["time(s)", "quaternion.w", "quaternion.x", "quaternion.y", "quaternion.z"], what: "attitude")
    static let motARH = IOSLoggerFile(
        name: "MotARH.txt",
        fields: [
            "time(s)", "rotationRate.x(rad/s)", "rotationRate.y(rad/s)", "rotationRate.z(rad/s)", "gravity.x(g)", "gravity.y(g)",
            "gravity.z(g)", "userAccel.x(g)", "userAccel.y(g)", "userAccel.z(g)", "motionHeading(deg)",
        ], what: "device motion")
    static let magnet = IOSLoggerFile(
        name: "Magnet.txt", fields: ["time(s)", "magneticField.x(uT)", "magneticField.y(uT)", "magneticField.z(uT)"], what: "magnetometer")
    static let head = IOSLoggerFile(
        name: "Head.txt", fields: ["time(s)", "trueHeading(deg)", "magneticHeading(deg)", "headingAccuracy(deg)"], what: "heading")
    static let gps = IOSLoggerFile(
        name: "GPS.txt",
        fields: [
            "time(s)", "latitude(deg)", "longitude(deg)", "horizontalAccuracy(m)", "altitude(m)", "verticalAccuracy(m)", "floorLevel",
            "course(deg)", "speed(m/s)",
        ], what: "location")
    static let arPoses = IOSLoggerFile(
        name: "ARposes.txt", fields: ["time(s)", "x(m)", "y(m)", "z(m)", "quaternion.w", "quaternion.x", "quaternion.y", "quaternion.z"],
        what: "ARKit camera pose")

    /// What a line holds, for messages: "time(s),ax(g),ay(g),az(g)".
    var layout: String { fields.joined(separator: ",") }
}

/// Imports a dataset folder of the iOS app ios_logger (github.com/Varvrar/ios_logger): comma
/// separated text files without a header, one sample a line, the first field the time in
/// seconds on the Unix clock (the app adds its boot time to CoreMotion's and ARKit's uptime
/// stamps; CoreLocation's fixes and headings carry their own Unix times), so every file is on
/// one clock.
///
/// The files become one mapping (`ImportMapping`, built here, not read from YAML) imported by
/// the delimited-text importer with every file's rows sorted by time (the app's queues write a
/// few rows out of order; a note counts each file's moved rows):
/// - `imu`: rows of `Accel.txt` (specific force = −acceleration, g → m/s²); the gyroscope of
///   `Gyro.txt` (or `MotARH.txt`'s rotationRate), the attitude of `Motion.txt` (w, x, y, z;
///   CoreMotion's xTrueNorthZVertical: `frame: nwu`) and the field of `Magnet.txt` (µT)
///   interpolated at the accelerometer's times; CoreMotion's device axes turned into ARKit's
///   camera axes by `coreMotionBodyToARKitCamera` (`body_rotation`);
/// - `vio`: `ARposes.txt` (ARKit camera-to-world translation and quaternion w, x, y, z; world +y up);
/// - `compass`: `Head.txt`'s magneticHeading with headingAccuracy (rows with a negative accuracy,
///   CoreLocation's invalid heading, are left out with a note);
/// - `location`: `GPS.txt`'s latitude, longitude, horizontal accuracy and altitude.
///
/// Required: `Accel.txt` and the gyroscope's file; the others are optional (a note names each
/// one absent or empty).
///
/// - Throws: one line naming the file (a required file missing, a line with too few fields, a
///   field that is not a number, a row out of range).
/// - Complexity: O(n log n) in the rows (the sort), O(n) when in order.
public func importIOSLogger(
    _ folder: String, gyroscope: IOSLoggerGyroscope = .raw, options: ImportOptions = ImportOptions()
) throws(TraceError) -> ImportResult {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw TraceError(.notFound, file: folder, "no such folder, expected an ios_logger dataset folder (Accel.txt, Gyro.txt, …)")
    }
    func path(_ f: IOSLoggerFile) -> String { (folder as NSString).appendingPathComponent(f.name) }
    let gyroFile: IOSLoggerFile = gyroscope == .raw ? .gyro : .motARH
    var notes: [String] = []
    var paths: [String] = []
    var tables: [Int: DelimitedText] = [:]
    var inputOf: [String: Int] = [:]
    var layout = CSVLayout()
    layout.header = false
    layout.delimiter = ","

    /// Splits a file and checks its field count; nil (with a note) for an optional file absent or empty.
    func read(_ f: IOSLoggerFile, required: Bool, columns: Int) throws(TraceError) {
        let p = path(f)
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: p, isDirectory: &isDir) && !isDir.boolValue
        let size = exists ? ((try? FileManager.default.attributesOfItem(atPath: p))?[.size] as? NSNumber)?.intValue ?? 0 : 0
        guard exists, size > 0 else {
            let problem = exists ? "empty file (0 bytes)" : "not found"
            if required {
                throw TraceError(
                    exists ? .empty : .missing, file: p,
                    "\(problem); expected ios_logger's \(f.what) file, lines of \(f.layout) (required\(gyroscope == .deviceMotion && f.name == "MotARH.txt" ? " with --gyroscope device-motion" : ""))"
                )
            }
            notes.append("\(p): \(problem); no \(f.what) imported")
            return
        }
        var table = try DelimitedText.parse(try readTextFile(p, expected: "ios_logger's \(f.what) file (\(f.layout))"), file: p, layout: layout)
        let found = table.rows[0].count
        guard found >= columns else {
            throw TraceError(
                .wrongShape, file: p, object: "line \(table.lines[0])",
                "expected \(columns) comma-separated fields (\(f.fields.prefix(columns).joined(separator: ","))), found \(found)")
        }
        table.header = (0..<found).map { $0 < f.fields.count ? f.fields[$0] : "field \($0 + 1)" }
        paths.append(p)
        inputOf[f.name] = paths.count
        tables[paths.count] = table
    }
    try read(.accel, required: true, columns: 4)
    try read(gyroFile, required: true, columns: 4)
    try read(.motion, required: false, columns: 5)
    try read(.magnet, required: false, columns: 4)
    try read(.arPoses, required: false, columns: 8)
    try read(.head, required: false, columns: 4)
    try read(.gps, required: false, columns: 5)

    var mapping = ImportMapping(file: "\(folder) (ios-logger preset)")
    mapping.source = .csv
    mapping.csv = layout
    mapping.inputs = paths.map { _ in InputMapping(time: .values(.columns([.index(0)]), units: "s"), line: 0) }
    func field(_ target: String, _ file: IOSLoggerFile, _ columns: [Int], _ units: String?, order: QuaternionOrder? = nil, scale: Double = 1)
        -> FieldMapping
    {
        FieldMapping(
            target: target, source: .columns(columns.map { .index($0) }), units: units, order: order, scale: scale, line: 0,
            input: inputOf[file.name])
    }
    func stream(_ name: String, _ file: IOSLoggerFile, _ fields: [FieldMapping]) -> StreamMapping {
        StreamMapping(
            name: name, input: inputOf[file.name], time: nil, invalidRows: nil,
            fields: Dictionary(uniqueKeysWithValues: fields.map { ($0.target, $0) }), beacons: [], line: 0)
    }
    var imu = stream(
        "imu", .accel,
        [field("accelerometer", .accel, [1, 2, 3], "g", scale: -1), field("gyroscope", gyroFile, [1, 2, 3], "rad/s")]
            + (inputOf[IOSLoggerFile.motion.name] != nil ? [field("attitude", .motion, [1, 2, 3, 4], nil, order: .wxyz)] : [])
            + (inputOf[IOSLoggerFile.magnet.name] != nil ? [field("magnetometer", .magnet, [1, 2, 3], "uT")] : []))
    imu.frame = .nwu
    imu.bodyRotation = coreMotionBodyToARKitCamera
    mapping.streams.append(imu)
    if inputOf[IOSLoggerFile.head.name] != nil {
        var compass = stream("compass", .head, [field("heading", .head, [2], "deg"), field("accuracy", .head, [3], "deg")])
        compass.invalidRows = .drop  // headingAccuracy < 0: CoreLocation's invalid heading
        mapping.streams.append(compass)
    }
    if inputOf[IOSLoggerFile.arPoses.name] != nil {
        mapping.streams.append(
            stream(
                "vio", .arPoses, [field("position", .arPoses, [1, 2, 3], "m"), field("orientation", .arPoses, [4, 5, 6, 7], nil, order: .wxyz)]))
    }
    if inputOf[IOSLoggerFile.gps.name] != nil {
        mapping.streams.append(
            stream(
                "location", .gps,
                [
                    field("latitude", .gps, [1], "deg"), field("longitude", .gps, [2], "deg"), field("horizontal_accuracy", .gps, [3], "m"),
                    field("altitude", .gps, [4], "m"),
                ]))
    }

    var sorted = options
    sorted.sortRowsByTime = true
    sorted.sortRowsReason = "ios-logger sorts rows by time"
    var result: ImportResult
    do {
        result = try importDelimited(paths, mapping: mapping, options: sorted, tables: tables)
    } catch {
        var e = error
        let hint = " (invalid_rows: drop in the mapping leaves such rows out)"
        if e.problem.hasSuffix(hint) { e.problem = String(e.problem.dropLast(hint.count)) + " (--drop-invalid-rows leaves such rows out)" }
        throw e
    }
    result.session.metadata.device = options.device ?? "iOS device (ios_logger)"
    result.session.metadata.frameConvention =
        SessionMetadata.arkitFrame
        + "; imu in ARKit's camera axes (x = −y, y = x, z = z of CoreMotion's device frame), attitude world = CoreMotion's xTrueNorthZVertical (x north, y west, z up) turned to x east, y up, z south; vio = ARKit's camera pose as logged; compass = CLHeading.magneticHeading (the app's headingOrientation is landscape-left)"
    result.notes = notes + result.notes
    return result
}
