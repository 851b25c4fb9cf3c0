import Foundation
import NavCore
import NavIO

// Shared pieces of the importers: options, results, the validated atomic write, frame
// changes and trimming. Each format's logic lives in its own file beside this one.

/// What to do with a row whose values cannot go into a trace (NaN, an RSSI of +42 dBm, a
/// heading of −1, a zero quaternion): stop with an error naming it, or leave it out and
/// report it as a note.
public enum InvalidRowPolicy: String, Sendable, CaseIterable {
    case error, drop
}

/// Options every importer accepts. Metadata left nil keeps the importer's default (Clew's
/// route name and id, the BLE track's name, …; `navbench import` sets the session id to the
/// output file's name unless `--session-id` is given).
public struct ImportOptions: Sendable {
    public var kind: SessionKind = .recording
    public var sessionID: String?
    public var routeID: String?
    public var venue: String?
    public var device: String?
    public var invalidRows: InvalidRowPolicy = .error
    /// How an HDF5 input may be read (external links, memory budget).
    public var readPolicy: HDF5ReadPolicy = .standard
    /// Delimited-text imports: sort each input's rows by time (stable: equal times keep file
    /// order) instead of refusing rows out of order; each input's sorted rows are counted in a note.
    public var sortRowsByTime = false
    /// Why rows were sorted, in the note that counts them (a preset that always sorts names itself).
    var sortRowsReason = "--sort-by-time"

    public init(
        kind: SessionKind = .recording, sessionID: String? = nil, routeID: String? = nil, venue: String? = nil,
        device: String? = nil, invalidRows: InvalidRowPolicy = .error, readPolicy: HDF5ReadPolicy = .standard
    ) {
        self.kind = kind; self.sessionID = sessionID; self.routeID = routeID; self.venue = venue
        self.device = device; self.invalidRows = invalidRows; self.readPolicy = readPolicy
    }
}

/// An imported session and what the user should know about it.
public struct ImportResult: Sendable {
    public var session: Session
    /// One line each, `FILE: OBJECT: note` (rows dropped, clocks that could not be joined, …).
    public var notes: [String]

    public init(session: Session, notes: [String] = []) {
        self.session = session; self.notes = notes
    }

    /// Stream names present, in trace order, with their sample counts.
    public var streamCounts: [(name: String, samples: Int)] {
        let s = session
        var out: [(String, Int)] = []
        if let x = s.imu { out.append(("imu", x.timestamps.count)) }
        if let x = s.compass { out.append(("compass", x.timestamps.count)) }
        if let x = s.ble { out.append(("ble", x.timestamps.count)) }
        if let x = s.vio { out.append(("vio", x.timestamps.count)) }
        if let x = s.anchors { out.append(("anchors", x.timestamps.count)) }
        if let x = s.location { out.append(("location", x.timestamps.count)) }
        if let x = s.groundTruth { out.append(("groundtruth", x.timestamps.count)) }
        for a in s.annotations.sorted(by: { $0.name < $1.name }) { out.append(("annotations/\(a.name)", a.count)) }
        return out
    }
}

/// Session metadata from an importer's defaults, overridden by the options that are set.
func importMetadata(
    _ options: ImportOptions, sessionID: String = "", routeID: String = "", venue: String = "",
    device: String = "", frameConvention: String = SessionMetadata.arkitFrame
) -> SessionMetadata {
    SessionMetadata(
        kind: options.kind, sessionID: options.sessionID ?? sessionID, routeID: options.routeID ?? routeID,
        venue: options.venue ?? venue, device: options.device ?? device, frameConvention: frameConvention)
}

// MARK: - Writing

/// Writes an imported session as trace format v1: to a temporary file first, stamped with
/// the root attribute `processing` (the import command), validated with `validateTrace`,
/// then renamed into place. On any failure `path` is left as it was (no half-written file).
///
/// - Throws: the first validation error (naming `source`, the input the values came from, when
///   given, with the output named after the problem; else `path`) or a write error.
public func writeImportedTrace(_ session: Session, to path: String, processing: String, source: String? = nil) throws(TraceError) {
    guard path != "-", !path.isEmpty else {
        throw TraceError(
            .writeFailed, file: path.isEmpty ? "''" : path, "an HDF5 trace cannot go to standard output or an empty path; name a .h5 file")
    }
    let staged = try StagedOutput(path: path)
    let temporary = staged.temporary
    defer { staged.discard() }
    do { try writeTrace(session, to: temporary) } catch {
        var named = error  // the user's output, not the temporary file's name
        named.file = path
        throw named
    }
    if !processing.isEmpty { try setRootStringAttribute(file: temporary, name: "processing", value: processing, reportAs: path) }
    let report = validateTrace(at: temporary)
    if let first = report.errors.first {
        var e = first.error
        // A bad value is the input's, not the output's (it was blamed on the output file).
        e.file = source ?? path
        if report.errors.count > 1 { e.problem += " (and \(report.errors.count - 1) more problems)" }
        if source != nil { e.problem += " (as imported into \(fileName(of: path)))" }
        throw e
    }
    try staged.replaceTarget()
}

// MARK: - Frames

/// A fixed change of coordinates: a proper rotation given by its row-major matrix `m`
/// (`v_new = m · v_old`), with the same rotation as a quaternion.
public struct FrameChange: Sendable, Equatable {
    public let matrix: [[Double]]
    public let quaternion: Quaternion

    public init(matrix: [[Double]]) {
        self.matrix = matrix
        quaternion = Quaternion(rotationMatrix: matrix).normalized
    }

    public static let identity = FrameChange(matrix: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    /// `m · v`, exactly (the matrices used here hold only 0 and ±1).
    public func apply(_ v: Vector3) -> Vector3 {
        let m = matrix
        return Vector3(
            m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z,
            m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
            m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z)
    }

    /// The inverse change (the transpose).
    public var inverse: FrameChange {
        FrameChange(matrix: (0..<3).map { i in (0..<3).map { j in matrix[j][i] } })
    }

    /// A rotation R (body → old world) expressed as body → new world: `m · R`.
    public func applyToOrientation(_ q: Quaternion) -> Quaternion {
        self == .identity ? q : (quaternion * q).normalized
    }
}

/// The world frame a source's positions and orientations are given in; the importers convert
/// them to ARKit's (right-handed, +y up, x east, z south).
public enum WorldFrame: String, Sendable, CaseIterable {
    /// Already ARKit-like (+y up): kept as is.
    case arkit
    /// East, north, up: x_ARKit = east, y_ARKit = up, z_ARKit = −north.
    case enu
    /// North, east, down: x_ARKit = east, y_ARKit = −down, z_ARKit = −north.
    case ned
    /// North, west, up (CoreMotion's `xMagneticNorthZVertical` and `xTrueNorthZVertical`):
    /// x_ARKit = −west, y_ARKit = up, z_ARKit = −north.
    case nwu

    public var toARKit: FrameChange {
        switch self {
        case .arkit: return .identity
        case .enu: return FrameChange(matrix: [[1, 0, 0], [0, 0, 1], [0, -1, 0]])
        case .ned: return FrameChange(matrix: [[0, 1, 0], [0, 0, -1], [-1, 0, 0]])
        case .nwu: return FrameChange(matrix: [[0, -1, 0], [0, 0, 1], [-1, 0, 0]])
        }
    }
}

// MARK: - Trimming

/// Keeps the samples of every stream whose time lies in [t₀ + from, t₀ + to), where t₀ is
/// the earliest timestamp of any stream (the session's start). nil bounds are open.
///
/// - Throws: when no stream keeps a sample.
public func trimSession(_ s: Session, from: Double?, to: Double?, file: String) throws(TraceError) -> Session {
    if from == nil && to == nil { return s }
    let starts = [
        s.imu?.timestamps.first, s.compass?.timestamps.first, s.ble?.timestamps.first, s.vio?.timestamps.first,
        s.anchors?.timestamps.first, s.location?.timestamps.first, s.groundTruth?.timestamps.first,
    ].compactMap { $0 }
    guard let t0 = starts.min() else { return s }
    let lo = t0 + (from ?? -.infinity), hi = t0 + (to ?? .infinity)
    func keep(_ t: [Double]) -> [Int]? {
        let k = t.indices.filter { t[$0] >= lo && t[$0] < hi }
        return k.isEmpty ? nil : k
    }
    var out = Session(metadata: s.metadata, attributes: s.attributes)
    out.annotations = s.annotations.compactMap { a in
        keep(a.start).map { k in
            AnnotationStream(
                name: a.name, kind: a.kind, source: a.source, start: k.map { a.start[$0] }, end: k.map { a.end[$0] }, label: k.map { a.label[$0] },
                value: a.value.map { v in k.map { v[$0] } }, valueUnits: a.valueUnits)
        }
    }
    if let x = s.imu, let k = keep(x.timestamps) {
        out.imu = IMUStream(
            timestamps: k.map { x.timestamps[$0] }, accelerometer: k.map { x.accelerometer[$0] },
            gyroscope: k.map { x.gyroscope[$0] }, attitude: x.attitude.map { a in k.map { a[$0] } },
            magnetometer: x.magnetometer.map { m in k.map { m[$0] } }, moving: x.moving.map { m in k.map { m[$0] } })
    }
    if let x = s.compass, let k = keep(x.timestamps) {
        out.compass = CompassStream(
            timestamps: k.map { x.timestamps[$0] }, heading: k.map { x.heading[$0] },
            accuracy: x.accuracy.map { a in k.map { a[$0] } })
    }
    if let x = s.ble, let k = keep(x.timestamps) {
        out.ble = BLEStream(
            timestamps: k.map { x.timestamps[$0] }, beaconIndex: k.map { x.beaconIndex[$0] },
            rssi: k.map { x.rssi[$0] }, beacons: x.beacons)
    }
    if let x = s.vio, let k = keep(x.timestamps) {
        out.vio = VIOStream(timestamps: k.map { x.timestamps[$0] }, poses: k.map { x.poses[$0] }, trackingState: k.map { x.trackingState[$0] })
    }
    if let x = s.anchors, let k = keep(x.timestamps) {
        out.anchors = AnchorStream(timestamps: k.map { x.timestamps[$0] }, anchorID: k.map { x.anchorID[$0] }, poses: k.map { x.poses[$0] })
    }
    if let x = s.location, let k = keep(x.timestamps) {
        out.location = LocationStream(
            timestamps: k.map { x.timestamps[$0] }, latitude: k.map { x.latitude[$0] },
            longitude: k.map { x.longitude[$0] }, altitude: k.map { x.altitude[$0] },
            horizontalAccuracy: k.map { x.horizontalAccuracy[$0] }, floor: k.map { x.floor[$0] })
    }
    if let x = s.groundTruth, let k = keep(x.timestamps) {
        out.groundTruth = GroundTruthStream(
            timestamps: k.map { x.timestamps[$0] }, poses: k.map { x.poses[$0] },
            floor: x.floor.map { f in k.map { f[$0] } })
    }
    if out.imu == nil && out.compass == nil && out.ble == nil && out.vio == nil && out.anchors == nil
        && out.location == nil && out.groundTruth == nil
    {
        throw TraceError(
            .empty, file: file, "no samples between \(num(from ?? 0)) s and \(to.map { "\(num($0)) s" } ?? "the end") after the session's start")
    }
    return out
}

// MARK: - Small numeric helpers

/// Spherical linear interpolation between unit quaternions, along the shorter arc, with a
/// normalised linear blend for nearly equal rotations (dot > 0.9995) and the result in w ≥ 0.
/// Kept apart from `NavCore.slerp` (evo's conventions, exact to 1e-15) because the committed
/// `Datasets/real` BLE tracks were converted with it: switching would change their bytes.
func slerpQuaternion(_ a: Quaternion, _ b: Quaternion, _ u: Double) -> Quaternion {
    var b = b
    var d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w
    if d < 0 { b = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w); d = -d }
    if d > 0.9995 {
        return Quaternion(x: a.x + u * (b.x - a.x), y: a.y + u * (b.y - a.y), z: a.z + u * (b.z - a.z), w: a.w + u * (b.w - a.w)).normalized
    }
    let theta = acos(min(1, d))
    let s = sin(theta)
    let wa = sin((1 - u) * theta) / s, wb = sin(u * theta) / s
    return Quaternion(x: wa * a.x + wb * b.x, y: wa * a.y + wb * b.y, z: wa * a.z + wb * b.z, w: wa * a.w + wb * b.w).normalized
}

/// The lines of a text file, LF or CRLF ended (Swift reads "\r\n" as one Character, which
/// `split(separator: "\n")` does not split), empty ones kept so line numbers count from 1.
func textLines(_ text: String) -> [Substring] {
    text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
}

/// The values at `times` (each within [t₀, t_last], else nil) blended between the two samples
/// (t, v) around each (t increasing): `blend(a, b, u)`, u ∈ [0, 1] the position between them (a
/// sample's own time gives it unblended). Linear interpolation, slerp, or any other.
///
/// - Complexity: O(samples + times) for increasing `times`.
func interpolated<T>(_ t: [Double], _ v: [T], at times: [Double], _ blend: (T, T, Double) -> T) -> [T]? {
    guard let first = t.first, let last = t.last, times.allSatisfy({ $0 >= first && $0 <= last }) else { return nil }
    var k = 0
    return times.map { x in
        while k + 1 < t.count - 1 && t[k + 1] <= x { k += 1 }
        let j = min(k + 1, t.count - 1)
        return j == k ? v[k] : blend(v[k], v[j], (x - t[k]) / (t[j] - t[k]))
    }
}

/// Nanoseconds (an integer count that may exceed 2⁵³) as seconds, rounded once from the
/// exact split into whole seconds and remainder.
func secondsFromNanoseconds(_ ns: Double) -> Double {
    guard ns.isFinite, abs(ns) < 9.2e18 else { return ns / 1e9 }
    let i = Int64(ns)
    guard Double(i) == ns else { return ns / 1e9 }
    return Double(i / 1_000_000_000) + Double(i % 1_000_000_000) / 1e9
}

/// Reads a text file as UTF-8.
func readTextFile(_ path: String, expected: String) throws(TraceError) -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw TraceError(.notFound, file: path, "no such file, expected \(expected)")
    }
    if isDirectory.boolValue { throw TraceError(.notFound, file: path, "is a folder, expected \(expected)") }
    try requireRegularFile(path, expected: expected)
    guard let data = FileManager.default.contents(atPath: path) else { throw TraceError(.notFound, file: path, "cannot open for reading") }
    guard !data.isEmpty else { throw TraceError(.empty, file: path, "empty file (0 bytes), expected \(expected)") }
    if isMATLAB5Header([UInt8](data.prefix(128))) {  // binary, though its small numbers may pass as UTF-8
        throw TraceError(
            .badValue, file: path,
            "a MATLAB 5 MAT-file, not text: import it with navbench import mat-mapped FILE --mapping M.yaml (docs/importers.md)")
    }
    guard let text = String(data: data, encoding: .utf8) else { throw TraceError(.badValue, file: path, "not UTF-8 text, expected \(expected)") }
    return text
}

/// `String(describing:)` of a number for messages: shortest round-trip form.
func num(_ x: Double) -> String { formatNumber(x) }

/// Rows left out by `--drop-invalid-rows`, noted as the first `shown` (one line each) and one
/// line counting the rest: a file of 10^6 bad rows is a few notes, not 10^6 (113 MB of them).
struct DroppedRowNotes {
    static let shown = 5
    private(set) var count = 0
    private var first: [String] = []

    /// Notes one dropped row (`line`: `FILE: OBJECT: problem; row dropped`).
    mutating func add(_ line: String) {
        count += 1
        if first.count < Self.shown { first.append(line) }
    }

    /// The notes to print: the first rows, then how many more of `file` were dropped.
    func notes(file: String) -> [String] {
        first + (count > first.count ? ["\(file): \(count - first.count) more rows dropped as invalid (\(count) in all)"] : [])
    }
}
