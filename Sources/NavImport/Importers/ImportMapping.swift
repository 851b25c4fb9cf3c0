import Foundation
import NavCore
import NavIO
import Yams

// The mapping file of the `csv` and `hdf5-mapped` importers: which column or dataset feeds
// which trace dataset, in which units, on which clock. Schema and examples: docs/importers.md.

/// A reference to a CSV column: by header name or by 0-based index.
public enum ColumnReference: Sendable, Equatable, CustomStringConvertible {
    case name(String), index(Int)
    public var description: String {
        switch self {
        case let .name(n): return "'\(n)'"
        case let .index(i): return "\(i)"
        }
    }
}

/// Where a field's values come from.
public enum ValueSource: Sendable, Equatable {
    /// CSV columns, one per component.
    case columns([ColumnReference])
    /// An HDF5 dataset, optionally a selection of its columns (0-based).
    case dataset(String, columns: [Int]?)
    /// The same number for every sample.
    case constant(Double)
}

/// Quaternion component order in the source.
public enum QuaternionOrder: String, Sendable, CaseIterable {
    /// x, y, z, w (scipy, ROS, TUM, the trace itself).
    case xyzw
    /// w, x, y, z (Eigen's coefficients constructor, BROAD, EuRoC).
    case wxyz
}

/// How a stream's sample times are obtained.
public enum TimeSpec: Sendable, Equatable {
    /// A column or dataset of times in `units` (s, ms, us, ns).
    case values(ValueSource, units: String)
    /// Sample k is at `start + k / rate` seconds.
    case sampleRate(RateSource, start: Double)
}

/// A sample rate in Hz: a number, or an HDF5 attribute holding it.
public enum RateSource: Sendable, Equatable {
    case hz(Double)
    case attribute(name: String, object: String)
}

/// One trace dataset's source.
public struct FieldMapping: Sendable {
    public var target: String
    public var source: ValueSource
    public var units: String?
    public var order: QuaternionOrder?
    /// Multiplies the value after unit conversion (e.g. −1 for Core Motion's accelerations).
    public var scale: Double
    /// Line of the field in the mapping file.
    public var line: Int
}

/// An entry of the BLE beacon table given in the mapping (keyed by the beacon column's value).
public struct BeaconMapping: Sendable {
    /// The value of the beacon column that names this beacon.
    public var key: String
    public var uuid: String?
    public var major: Int32?
    public var minor: Int32?
    /// In the mapping's `frame`, metres.
    public var position: Vector3?
}

/// One stream of the mapping.
public struct StreamMapping: Sendable {
    public var name: String
    public var time: TimeSpec?
    public var invalidRows: InvalidRowPolicy?
    public var fields: [String: FieldMapping]
    /// BLE only: beacon identities and positions by key, in table order (these come first in
    /// the trace's beacon table, heard or not; other keys follow in order of appearance).
    public var beacons: [BeaconMapping]
    public var line: Int
}

/// Layout of a delimited text file.
public struct CSVLayout: Sendable {
    /// Whether line 1 (after comments) names the columns.
    public var header = true
    /// The field separator; nil splits on runs of spaces and tabs.
    public var delimiter: Character? = ","
    /// Lines starting with this (after blanks) are skipped.
    public var comment: String?
    public init() {}
}

/// A parsed mapping file.
public struct ImportMapping: Sendable {
    public enum Source: String, Sendable { case csv, hdf5 }

    public var file: String
    public var source: Source?
    /// World frame of positions, orientations and attitudes in the source.
    public var frame: WorldFrame = .arkit
    public var csv = CSVLayout()
    /// The clock of every stream that does not give its own.
    public var time: TimeSpec?
    /// In the order of the trace's streams.
    public var streams: [StreamMapping] = []

    public static let version = 1
}

// MARK: - What each trace dataset needs

/// A trace dataset a mapping may fill.
struct TargetField: Sendable {
    enum Kind: Sendable { case vector, quaternion, scalar, integer, key }
    let name: String
    let width: Int
    let kind: Kind
    let quantity: PhysicalQuantity
    /// Positions and orientations in the world frame (changed by `frame`).
    let world: Bool
    let required: Bool
    /// Inclusive range the value must lie in (after conversion), else the row is invalid.
    let range: ClosedRange<Double>?

    init(_ name: String, _ width: Int, _ kind: Kind, _ quantity: PhysicalQuantity, world: Bool = false, required: Bool = true,
         range: ClosedRange<Double>? = nil) {
        self.name = name; self.width = width; self.kind = kind; self.quantity = quantity
        self.world = world; self.required = required; self.range = range
    }

    static let catalogue: [(stream: String, fields: [TargetField])] = [
        ("imu", [TargetField("accelerometer", 3, .vector, .acceleration), TargetField("gyroscope", 3, .vector, .angularRate),
                 TargetField("attitude", 4, .quaternion, .dimensionless, world: true, required: false),
                 TargetField("magnetometer", 3, .vector, .magneticField, required: false)]),
        ("compass", [TargetField("heading", 1, .scalar, .angle), TargetField("accuracy", 1, .scalar, .angle, required: false, range: 0...360)]),
        ("ble", [TargetField("beacon", 1, .key, .dimensionless), TargetField("rssi", 1, .scalar, .signalStrength, range: -150...20)]),
        ("vio", [TargetField("position", 3, .vector, .length, world: true), TargetField("orientation", 4, .quaternion, .dimensionless, world: true),
                 TargetField("tracking_state", 1, .integer, .dimensionless, required: false, range: 0...2)]),
        ("anchors", [TargetField("anchor_id", 1, .integer, .dimensionless), TargetField("position", 3, .vector, .length, world: true),
                     TargetField("orientation", 4, .quaternion, .dimensionless, world: true)]),
        ("location", [TargetField("latitude", 1, .scalar, .angle, range: -90...90), TargetField("longitude", 1, .scalar, .angle, range: -180...180),
                      TargetField("altitude", 1, .scalar, .length), TargetField("horizontal_accuracy", 1, .scalar, .length, range: 0...Double.infinity),
                      TargetField("floor", 1, .integer, .level, required: false)]),
        ("groundtruth", [TargetField("position", 3, .vector, .length, world: true), TargetField("orientation", 4, .quaternion, .dimensionless, world: true),
                         TargetField("floor", 1, .integer, .level, required: false)]),
    ]

    static func fields(of stream: String) -> [TargetField]? { catalogue.first { $0.stream == stream }?.fields }
}

// MARK: - Parsing the YAML

extension ImportMapping {
    static let topKeys = ["navbench_mapping", "source", "frame", "csv", "time", "streams"]

    /// Reads and checks a mapping file.
    ///
    /// - Throws: one line naming the file, the YAML line and the key path, e.g.
    ///   `m.yaml: line 9, streams.imu.gyroscope.units: units 'm/s^2' measure acceleration, …`.
    public static func load(_ path: String) throws(TraceError) -> ImportMapping {
        let text = try readTextFile(path, expected: "a YAML mapping file")
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(TraceError) -> ImportMapping {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            let first = String(describing: error).split(separator: "\n").first.map(String.init) ?? "syntax error"
            throw TraceError(.badValue, file: file, "not valid YAML (\(first))")
        }
        let p = MappingParser(file: file)
        guard let root, let top = root.mapping else { throw p.fail(root, "(top)", "expected a mapping with keys \(topKeys.joined(separator: ", "))") }
        try p.onlyKeys(top, topKeys, path: "")
        var m = ImportMapping(file: file)
        guard let v = top["navbench_mapping"] else { throw p.fail(root, "navbench_mapping", "missing; expected navbench_mapping: 1 (the schema version)") }
        guard v.int == version else { throw p.fail(v, "navbench_mapping", "expected \(version), found '\(v.string ?? "?")'") }
        if let s = top["source"] {
            guard let src = s.string.flatMap(Source.init(rawValue:)) else { throw p.fail(s, "source", "expected csv or hdf5, found '\(s.string ?? "?")'") }
            m.source = src
        }
        if let f = top["frame"] {
            guard let frame = f.string.flatMap(WorldFrame.init(rawValue:)) else {
                throw p.fail(f, "frame", "expected one of \(WorldFrame.allCases.map(\.rawValue).joined(separator: ", ")), found '\(f.string ?? "?")'")
            }
            m.frame = frame
        }
        if let c = top["csv"] {
            guard let cm = c.mapping else { throw p.fail(c, "csv", "expected a mapping with keys header, delimiter, comment") }
            try p.onlyKeys(cm, ["header", "delimiter", "comment"], path: "csv")
            if let h = cm["header"] {
                guard let b = h.bool else { throw p.fail(h, "csv.header", "expected true or false") }
                m.csv.header = b
            }
            if let d = cm["delimiter"] {
                guard let s = d.string else { throw p.fail(d, "csv.delimiter", "expected one character, or \"whitespace\"") }
                if s == "whitespace" || s == " " { m.csv.delimiter = nil } else if s == "\\t" || s == "\t" { m.csv.delimiter = "\t" } else {
                    guard s.count == 1, s != "\"" else { throw p.fail(d, "csv.delimiter", "expected one character (not a quote), or \"whitespace\"; found '\(s)'") }
                    m.csv.delimiter = s.first
                }
            }
            if let c = cm["comment"] {
                guard let s = c.string, !s.isEmpty else { throw p.fail(c, "csv.comment", "expected a non-empty prefix such as \"#\"") }
                m.csv.comment = s
            }
        }
        if let t = top["time"] { m.time = try p.time(t, path: "time") }
        guard let s = top["streams"] else { throw p.fail(root, "streams", "missing; expected a mapping of trace streams (imu, compass, ble, vio, anchors, location, groundtruth)") }
        guard let sm = s.mapping, !sm.isEmpty else { throw p.fail(s, "streams", "expected a non-empty mapping of trace streams") }
        let names = TargetField.catalogue.map(\.stream)
        try p.onlyKeys(sm, names, path: "streams")
        for name in names {
            guard let node = sm[name] else { continue }
            let keyLine = sm.first { $0.key.string == name }?.key.mark?.line
            m.streams.append(try p.stream(name, node, line: keyLine))
        }
        if let src = m.source {
            for st in m.streams {
                for f in st.fields.values {
                    switch (src, f.source) {
                    case (.csv, .dataset): throw p.fail(line: f.line, "streams.\(st.name).\(f.target)", "a dataset in a mapping for csv; use column or columns")
                    case (.hdf5, .columns): throw p.fail(line: f.line, "streams.\(st.name).\(f.target)", "columns in a mapping for hdf5; use dataset (with columns: [i, …] to select)")
                    default: break
                    }
                }
            }
        }
        return m
    }
}

/// Turns YAML nodes into mapping values, failing with the line and key path.
struct MappingParser {
    let file: String

    func fail(_ node: Node?, _ key: String, _ problem: String) -> TraceError {
        fail(line: node?.mark?.line ?? 1, key, problem)
    }

    func fail(line: Int, _ key: String, _ problem: String) -> TraceError {
        TraceError(.badValue, file: file, object: "line \(line), \(key)", problem)
    }

    func onlyKeys(_ m: Node.Mapping, _ allowed: [String], path: String) throws(TraceError) {
        for (k, _) in m {
            guard let s = k.string, allowed.contains(s) else {
                let key = path.isEmpty ? (k.string ?? "?") : "\(path).\(k.string ?? "?")"
                throw fail(k, key, "unknown key; expected one of \(allowed.joined(separator: ", "))")
            }
        }
    }

    func number(_ n: Node, _ key: String) throws(TraceError) -> Double {
        guard n.scalar != nil, let d = n.float ?? n.int.map(Double.init), d.isFinite else { throw fail(n, key, "expected a number, found '\(n.string ?? "?")'") }
        return d
    }

    func column(_ n: Node, _ key: String) throws(TraceError) -> ColumnReference {
        guard let s = n.scalar else { throw fail(n, key, "expected a column name or a 0-based column index") }
        if s.style == .plain, let i = Int(s.string) {
            guard i >= 0 else { throw fail(n, key, "column indices are 0-based and ≥ 0, found \(i)") }
            return .index(i)
        }
        guard !s.string.isEmpty else { throw fail(n, key, "empty column name") }
        return .name(s.string)
    }

    func time(_ n: Node, path: String) throws(TraceError) -> TimeSpec {
        guard let m = n.mapping else { throw fail(n, path, "expected {column: NAME, units: ns}, {dataset: PATH, units: s} or {sample_rate: HZ}") }
        try onlyKeys(m, ["column", "dataset", "units", "sample_rate", "start"], path: path)
        let given = ["column", "dataset", "sample_rate"].filter { m[$0] != nil }
        guard given.count == 1 else {
            throw fail(n, path, given.isEmpty ? "expected one of column, dataset or sample_rate" : "give only one of \(given.joined(separator: ", "))")
        }
        if let r = m["sample_rate"] {
            if m["units"] != nil { throw fail(m["units"], "\(path).units", "sample_rate is in Hz; units apply to a time column or dataset") }
            let start = try m["start"].map { (x: Node) throws(TraceError) in try number(x, "\(path).start") } ?? 0
            if let rm = r.mapping {
                try onlyKeys(rm, ["attribute", "of"], path: "\(path).sample_rate")
                guard let a = rm["attribute"]?.string, !a.isEmpty else { throw fail(r, "\(path).sample_rate.attribute", "expected the name of an HDF5 attribute holding the rate in Hz") }
                var object = rm["of"]?.string ?? "/"
                if !object.hasPrefix("/") { object = "/" + object }
                return .sampleRate(.attribute(name: a, object: object), start: start)
            }
            let hz = try number(r, "\(path).sample_rate")
            guard hz > 0 else { throw fail(r, "\(path).sample_rate", "expected a rate > 0 Hz, found \(num(hz))") }
            return .sampleRate(.hz(hz), start: start)
        }
        if m["start"] != nil { throw fail(m["start"], "\(path).start", "start applies only with sample_rate") }
        guard let u = m["units"] else { throw fail(n, "\(path).units", "missing; expected the time unit: s, ms, us or ns") }
        guard let units = u.string, UnitConversion.factor(from: units, to: .time) != nil else {
            throw fail(u, "\(path).units", UnitConversion.mismatch(u.string ?? "?", .time, target: "time"))
        }
        if let c = m["column"] { return .values(.columns([try column(c, "\(path).column")]), units: units) }
        guard let d = m["dataset"]?.string, !d.isEmpty else { throw fail(m["dataset"], "\(path).dataset", "expected an HDF5 dataset path") }
        return .values(.dataset(d.hasPrefix("/") ? d : "/" + d, columns: nil), units: units)
    }

    func stream(_ name: String, _ node: Node, line keyLine: Int?) throws(TraceError) -> StreamMapping {
        let targets = TargetField.fields(of: name)!
        guard let m = node.mapping else { throw fail(node, "streams.\(name)", "expected a mapping of \(targets.map(\.name).joined(separator: ", "))") }
        let extra = ["time", "invalid_rows"] + (name == "ble" ? ["beacons"] : [])
        try onlyKeys(m, targets.map(\.name) + extra, path: "streams.\(name)")
        let line = keyLine ?? node.mark?.line ?? 1
        var s = StreamMapping(name: name, time: nil, invalidRows: nil, fields: [:], beacons: [], line: line)
        if let t = m["time"] { s.time = try time(t, path: "streams.\(name).time") }
        if let r = m["invalid_rows"] {
            guard let p = r.string.flatMap(InvalidRowPolicy.init(rawValue:)) else { throw fail(r, "streams.\(name).invalid_rows", "expected error or drop") }
            s.invalidRows = p
        }
        for t in targets {
            guard let f = m[t.name] else {
                if t.required { throw fail(line: line, "streams.\(name).\(t.name)", "missing; the \(name) stream requires \(targets.filter(\.required).map(\.name).joined(separator: ", "))") }
                continue
            }
            s.fields[t.name] = try field(t, f, path: "streams.\(name).\(t.name)")
        }
        if let b = m["beacons"] {
            guard let bm = b.mapping else { throw fail(b, "streams.ble.beacons", "expected a mapping from beacon key to {uuid, major, minor, position}") }
            for (k, v) in bm {
                guard let key = k.string else { throw fail(k, "streams.ble.beacons", "expected beacon keys as strings") }
                let path = "streams.ble.beacons.\(key)"
                guard let e = v.mapping else { throw fail(v, path, "expected {uuid, major, minor, position}") }
                try onlyKeys(e, ["uuid", "major", "minor", "position"], path: path)
                guard !s.beacons.contains(where: { $0.key == key }) else { throw fail(k, path, "beacon key given twice") }
                var entry = BeaconMapping(key: key)
                entry.uuid = e["uuid"]?.string
                for (kk, dest) in [("major", \BeaconMapping.major), ("minor", \BeaconMapping.minor)] {
                    if let x = e[kk] {
                        guard let i = x.int, (0...65535).contains(i) else { throw fail(x, "\(path).\(kk)", "expected an integer in 0…65535") }
                        entry[keyPath: dest] = Int32(i)
                    }
                }
                if let pnode = e["position"] {
                    let seq = pnode.sequence.map(Array.init) ?? []
                    guard seq.count == 3 else { throw fail(pnode, "\(path).position", "expected [x, y, z] in metres") }
                    let xyz = try seq.map { (n: Node) throws(TraceError) in try number(n, "\(path).position") }
                    entry.position = Vector3(xyz[0], xyz[1], xyz[2])
                }
                s.beacons.append(entry)
            }
        }
        return s
    }

    func field(_ t: TargetField, _ node: Node, path: String) throws(TraceError) -> FieldMapping {
        guard let m = node.mapping else {
            throw fail(node, path, t.width == 1 ? "expected {column: NAME, units: U}, {dataset: PATH, units: U} or {value: NUMBER}"
                                                : "expected {columns: [\(t.width) columns], units: U} or {dataset: PATH, units: U}")
        }
        try onlyKeys(m, ["column", "columns", "dataset", "value", "units", "order", "scale"], path: path)
        let line = node.mark?.line ?? 1
        var source: ValueSource
        if let d = m["dataset"] {
            // HDF5: a dataset, optionally with `columns: [i, …]` selecting 0-based columns of a 2-D dataset.
            let others = ["column", "value"].filter { m[$0] != nil }
            guard others.isEmpty else { throw fail(node, path, "give only one of dataset, \(others.joined(separator: ", "))") }
            guard let ds = d.string, !ds.isEmpty else { throw fail(d, "\(path).dataset", "expected an HDF5 dataset path") }
            var selection: [Int]?
            if let cs = m["columns"] {
                let seq = cs.sequence.map(Array.init) ?? []
                guard seq.count == t.width, seq.allSatisfy({ $0.scalar?.style == .plain && (Int($0.scalar!.string) ?? -1) >= 0 }) else {
                    throw fail(cs, "\(path).columns", "with dataset, columns selects \(t.width) 0-based column indices of it, e.g. [\((0..<t.width).map(String.init).joined(separator: ", "))]")
                }
                selection = seq.map { Int($0.scalar!.string)! }
            }
            source = .dataset(ds.hasPrefix("/") ? ds : "/" + ds, columns: selection)
        } else {
            let given = ["column", "columns", "value"].filter { m[$0] != nil }
            guard given.count == 1 else {
                throw fail(node, path, given.isEmpty ? "expected one of column, columns, dataset or value" : "give only one of \(given.joined(separator: ", "))")
            }
            if let c = m["column"] {
                guard t.width == 1 else { throw fail(c, "\(path).column", "\(t.name) has \(t.width) components; give columns: [\(t.width) columns]") }
                source = .columns([try column(c, "\(path).column")])
            } else if let cs = m["columns"] {
                let seq = cs.sequence.map(Array.init) ?? []
                guard seq.count == t.width else { throw fail(cs, "\(path).columns", "expected \(t.width) column\(t.width == 1 ? "" : "s") for \(t.name), found \(seq.count)") }
                source = .columns(try seq.map { (n: Node) throws(TraceError) in try column(n, "\(path).columns") })
            } else {
                let v = m["value"]!
                guard t.width == 1, t.kind != .key else { throw fail(v, "\(path).value", "a constant value fits only a one-component dataset") }
                source = .constant(try number(v, "\(path).value"))
            }
        }
        var units: String?
        if let u = m["units"] {
            guard let s = u.string else { throw fail(u, "\(path).units", "expected a unit such as \(t.quantity.traceUnit)") }
            guard UnitConversion.factor(from: s, to: t.quantity) != nil else {
                throw fail(u, "\(path).units", UnitConversion.mismatch(s, t.quantity, target: "\(t.name)"))
            }
            units = s
        } else if t.kind == .vector || t.kind == .scalar {
            if case .dataset = source {} else {  // a dataset may carry its own `units` attribute
                throw fail(node, "\(path).units", "missing; expected one of \(UnitConversion.units(of: t.quantity).joined(separator: ", "))")
            }
        }
        var order: QuaternionOrder?
        if let o = m["order"] {
            guard t.kind == .quaternion else { throw fail(o, "\(path).order", "order applies only to quaternions") }
            guard let q = o.string.flatMap(QuaternionOrder.init(rawValue:)) else { throw fail(o, "\(path).order", "expected xyzw or wxyz, found '\(o.string ?? "?")'") }
            order = q
        } else if t.kind == .quaternion, case .constant = source {} else if t.kind == .quaternion {
            throw fail(node, "\(path).order", "missing; say whether the quaternion is stored xyzw or wxyz")
        }
        var scale = 1.0
        if let s = m["scale"] {
            guard t.kind == .vector || t.kind == .scalar else { throw fail(s, "\(path).scale", "scale applies to vectors and scalars, not to \(t.name)") }
            scale = try number(s, "\(path).scale")
        }
        return FieldMapping(target: t.name, source: source, units: units, order: order, scale: scale, line: line)
    }
}

// MARK: - From source columns to trace streams

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
/// into [0, 360). World-frame fields are turned from `frame` into ARKit's.
///
/// - Throws: for an invalid row under `.error`, for times out of order, and when no row is left.
func assembleStream(_ src: SourceStream, mapping: StreamMapping, beaconsInFrame: WorldFrame, frame: WorldFrame,
                    policy: InvalidRowPolicy, file: String, into session: inout Session, notes: inout [String]) throws(TraceError) {
    let targets = TargetField.fields(of: src.name)!
    let present = targets.filter { src.fields[$0.name] != nil }
    let n = src.times.count
    let change = frame.toARKit
    var keep: [Int] = []
    keep.reserveCapacity(n)
    var dropped = 0
    var firstDrop = ""
    var fields = src.fields
    for r in 0..<n {
        var problem: (String?, String)?
        if !src.times[r].isFinite { problem = (nil, "time is \(num(src.times[r])), expected a finite number") }
        if problem == nil {
            check: for t in present {
                let v = fields[t.name]!
                let row = Array(v[(t.width * r)..<(t.width * r + t.width)])
                if let k = row.firstIndex(where: { !$0.isFinite }) {
                    let axis = t.width > 1 ? " " + ["x", "y", "z", "w"][k] : ""
                    problem = (t.name, "\(t.name)\(axis) is \(num(row[k])), expected a finite number")
                    break check
                }
                switch t.kind {
                case .quaternion:
                    let nrm = (row.map { $0 * $0 }.reduce(0, +)).squareRoot()
                    if abs(nrm - 1) > 0.01 {
                        problem = (t.name, "\(t.name) has norm \(num(nrm)), expected a unit quaternion (check the columns and order)")
                        break check
                    }
                case .integer:
                    if row[0] != row[0].rounded() || row[0] < -2_147_483_648 || row[0] > 2_147_483_647 {
                        problem = (t.name, "\(t.name) is \(num(row[0])), expected a whole number")
                        break check
                    }
                case .scalar where t.name == "heading":
                    var h = row[0].truncatingRemainder(dividingBy: 360)
                    if h < 0 { h += 360 }
                    if h >= 360 { h = 0 }
                    fields[t.name]![r] = h
                default: break
                }
                if let range = t.range, !range.contains(row[0]) {
                    problem = (t.name, "\(t.name) is \(num(row[0])) \(t.quantity.traceUnit), expected a value in [\(num(range.lowerBound)), \(num(range.upperBound))]")
                    break check
                }
            }
        }
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

    let strict = src.name != "ble" && src.name != "anchors"
    for j in 1..<max(1, keep.count) {
        let a = src.times[keep[j - 1]], b = src.times[keep[j]]
        if strict ? !(b > a) : b < a {
            throw TraceError(.badTimestamps, file: file, object: src.label(keep[j], nil),
                             "time \(num(b)) s is \(strict ? "not after" : "before") \(num(a)) s (\(src.label(keep[j - 1], nil))); expected \(strict ? "strictly increasing" : "non-decreasing") times")
        }
    }

    let times = keep.map { src.times[$0] }
    func vectors(_ name: String, world: Bool) -> [Vector3]? {
        guard let v = fields[name] else { return nil }
        return keep.map { r in
            let x = Vector3(v[3 * r], v[3 * r + 1], v[3 * r + 2])
            return world ? change.apply(x) : x
        }
    }
    func quaternions(_ name: String, world: Bool) -> [Quaternion]? {
        guard let v = fields[name] else { return nil }
        return keep.map { r in
            let q = Quaternion(x: v[4 * r], y: v[4 * r + 1], z: v[4 * r + 2], w: v[4 * r + 3])
            let u = Quaternion(x: q.x / q.norm, y: q.y / q.norm, z: q.z / q.norm, w: q.w / q.norm)
            return world ? change.applyToOrientation(u) : u
        }
    }
    func scalars(_ name: String) -> [Double]? { fields[name].map { v in keep.map { v[$0] } } }
    func ints(_ name: String) -> [Int32]? { fields[name].map { v in keep.map { Int32(v[$0]) } } }
    func poses() -> [Pose] {
        zip(quaternions("orientation", world: true)!, vectors("position", world: true)!).map { Pose(rotation: $0, translation: $1) }
    }

    switch src.name {
    case "imu":
        session.imu = IMUStream(timestamps: times, accelerometer: vectors("accelerometer", world: false)!, gyroscope: vectors("gyroscope", world: false)!,
                                attitude: quaternions("attitude", world: true), magnetometer: vectors("magnetometer", world: false))
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
            return Beacon(uuid: e?.uuid ?? k, major: e?.major ?? 0, minor: e?.minor ?? Int32(min(i, 65535)),
                          position: e?.position.map { beaconChange.apply($0) })
        }
        session.ble = BLEStream(timestamps: times, beaconIndex: keys.map { index[$0]! }, rssi: scalars("rssi")!, beacons: beacons)
    case "vio":
        session.vio = VIOStream(timestamps: times, poses: poses(),
                                trackingState: ints("tracking_state").map { $0.map { TrackingState(rawValue: Int8($0)) ?? .normal } }
                                    ?? Array(repeating: .normal, count: times.count))
    case "anchors":
        session.anchors = AnchorStream(timestamps: times, anchorID: ints("anchor_id")!, poses: poses())
    case "location":
        session.location = LocationStream(timestamps: times, latitude: scalars("latitude")!, longitude: scalars("longitude")!,
                                          altitude: scalars("altitude")!, horizontalAccuracy: scalars("horizontal_accuracy")!,
                                          floor: ints("floor") ?? Array(repeating: LocationStream.noFloor, count: times.count))
    case "groundtruth":
        session.groundTruth = GroundTruthStream(timestamps: times, poses: poses(), floor: ints("floor"))
    default:
        break
    }
}

/// Reorders a quaternion's components to x, y, z, w.
func reorderQuaternion(_ v: [Double], order: QuaternionOrder?) -> [Double] {
    guard order == .wxyz else { return v }
    var out = v
    for r in 0..<(v.count / 4) {
        out[4 * r] = v[4 * r + 1]; out[4 * r + 1] = v[4 * r + 2]; out[4 * r + 2] = v[4 * r + 3]; out[4 * r + 3] = v[4 * r]
    }
    return out
}
