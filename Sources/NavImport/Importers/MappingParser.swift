import Foundation
import NavCore
import NavIO
import Yams

// Parsing a mapping file (YAML) into an `ImportMapping`, failing with the line and key path.

extension ImportMapping {
    static let topKeys = ["navbench_mapping", "source", "frame", "csv", "time", "inputs", "streams"]

    /// Reads and checks a mapping file.
    ///
    /// - Throws: one line naming the file, the YAML line and the key path, e.g.
    ///   `m.yaml: line 9, streams.imu.gyroscope.units: units 'm/s^2' measure acceleration, …`.
    public static func load(_ path: String) throws(TraceError) -> ImportMapping {
        let text = try readTextFile(path, expected: "a YAML mapping file")
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(TraceError) -> ImportMapping {
        if let problem = yamlExpansionProblem(text) { throw TraceError(.tooLarge, file: file, problem) }
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            let first = String(describing: error).split(separator: "\n").first.map(String.init) ?? "syntax error"
            throw TraceError(.badValue, file: file, "not valid YAML (\(first))")
        }
        let p = MappingParser(file: file)
        guard let root, let top = root.mapping else { throw p.fail(root, "(top)", "expected a mapping with keys \(topKeys.joined(separator: ", "))") }
        try p.onlyKeys(top, topKeys, path: "")
        var m = ImportMapping(file: file)
        guard let v = top["navbench_mapping"] else {
            throw p.fail(root, "navbench_mapping", "missing; expected navbench_mapping: 1 (the schema version)")
        }
        guard v.int == version else { throw p.fail(v, "navbench_mapping", "expected \(version), found '\(v.string ?? "?")'") }
        if let s = top["source"] {
            guard let src = s.string.flatMap(Source.init(rawValue:)) else {
                throw p.fail(s, "source", "expected csv, hdf5 or mat, found '\(s.string ?? "?")'")
            }
            m.source = src
        }
        if let f = top["frame"] { m.frame = try p.worldFrame(f, "frame") }
        if let c = top["csv"] {
            guard let cm = c.mapping else { throw p.fail(c, "csv", "expected a mapping with keys header, delimiter, comment") }
            try p.onlyKeys(cm, ["header", "delimiter", "comment"], path: "csv")
            if let h = cm["header"] {
                guard let b = h.bool else { throw p.fail(h, "csv.header", "expected true or false") }
                m.csv.header = b
            }
            if let d = cm["delimiter"] {
                guard let s = d.string else { throw p.fail(d, "csv.delimiter", "expected one character, or \"whitespace\"") }
                if s == "whitespace" || s == " " {
                    m.csv.delimiter = nil
                } else if s == "\\t" || s == "\t" {
                    m.csv.delimiter = "\t"
                } else {
                    guard s.count == 1, s != "\"" else {
                        throw p.fail(d, "csv.delimiter", "expected one character (not a quote), or \"whitespace\"; found '\(s)'")
                    }
                    m.csv.delimiter = s.first
                }
            }
            if let c = cm["comment"] {
                guard let s = c.string, !s.isEmpty else { throw p.fail(c, "csv.comment", "expected a non-empty prefix such as \"#\"") }
                m.csv.comment = s
            }
        }
        if let t = top["time"] { m.time = try p.time(t, path: "time") }
        if let i = top["inputs"] {
            guard let seq = i.sequence, !seq.isEmpty, seq.count <= 64 else {
                throw p.fail(i, "inputs", "expected a list of 1–64 inputs, each {time: …, offset: SECONDS}, in command-line order")
            }
            for (k, entry) in seq.enumerated() {
                let path = "inputs[\(k + 1)]"
                guard let em = entry.mapping else { throw p.fail(entry, path, "expected {time: …, offset: SECONDS}") }
                try p.onlyKeys(em, ["time", "offset"], path: path)
                var input = InputMapping(line: entry.mark?.line ?? 1)
                if let t = em["time"] { input.time = try p.time(t, path: "\(path).time") }
                if let o = em["offset"] { input.offset = try p.number(o, "\(path).offset") }
                m.inputs.append(input)
            }
        }
        guard let s = top["streams"] else {
            throw p.fail(root, "streams", "missing; expected a mapping of trace streams (imu, compass, ble, vio, anchors, location, groundtruth)")
        }
        guard let sm = s.mapping, !sm.isEmpty else { throw p.fail(s, "streams", "expected a non-empty mapping of trace streams") }
        let names = TargetField.catalogue.map(\.stream)
        try p.onlyKeys(sm, names, path: "streams")
        for name in names {
            guard let node = sm[name] else { continue }
            let keyLine = sm.first { $0.key.string == name }?.key.mark?.line
            m.streams.append(try p.stream(name, node, line: keyLine))
        }
        let inputCount = max(1, m.inputs.count)
        for st in m.streams {
            for (line, k, key) in [(st.line, st.input, "streams.\(st.name).input")]
                + st.fields.values.map({ ($0.line, $0.input, "streams.\(st.name).\($0.target).input") })
            where (k ?? 1) > inputCount {
                throw p.fail(
                    line: line, key,
                    "input \(k!) is not among the \(inputCount) input\(inputCount == 1 ? "" : "s") of inputs: (give one entry per input file)")
            }
        }
        if let src = m.source {
            for st in m.streams {
                for f in st.fields.values {
                    switch (src, f.source) {
                    case (.csv, .dataset):
                        throw p.fail(line: f.line, "streams.\(st.name).\(f.target)", "a dataset in a mapping for csv; use column or columns")
                    case (.hdf5, .columns), (.mat, .columns):
                        throw p.fail(
                            line: f.line, "streams.\(st.name).\(f.target)",
                            "columns in a mapping for \(src.rawValue); use dataset (with columns: [i, …] to select)")
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
        guard n.scalar != nil, let d = n.float ?? n.int.map(Double.init), d.isFinite else {
            throw fail(n, key, "expected a number, found '\(n.string ?? "?")'")
        }
        return d
    }

    func worldFrame(_ f: Node, _ key: String) throws(TraceError) -> WorldFrame {
        guard let frame = f.string.flatMap(WorldFrame.init(rawValue:)) else {
            throw fail(f, key, "expected one of \(WorldFrame.allCases.map(\.rawValue).joined(separator: ", ")), found '\(f.string ?? "?")'")
        }
        return frame
    }

    /// `{quaternion: [w, x, y, z]}` (scalar first, unit within 1e-3) or `{axis: [x, y, z], angle_deg: A}`.
    func bodyRotation(_ n: Node, _ key: String) throws(TraceError) -> BodyRotation {
        let forms = "{quaternion: [w, x, y, z]} (scalar first) or {axis: [x, y, z], angle_deg: A}"
        guard let m = n.mapping else { throw fail(n, key, "expected \(forms)") }
        try onlyKeys(m, ["quaternion", "axis", "angle_deg"], path: key)
        func numbers(_ v: Node, _ count: Int, _ k: String, _ what: String) throws(TraceError) -> [Double] {
            let seq = v.sequence.map(Array.init) ?? []
            guard seq.count == count else { throw fail(v, k, "expected \(what), found \(seq.count) value\(seq.count == 1 ? "" : "s")") }
            return try seq.map { (x: Node) throws(TraceError) in try number(x, k) }
        }
        if let q = m["quaternion"] {
            guard m["axis"] == nil, m["angle_deg"] == nil else { throw fail(n, key, "give either \(forms), not both") }
            let v = try numbers(q, 4, "\(key).quaternion", "4 numbers [w, x, y, z] (scalar first)")
            let quaternion = Quaternion(x: v[1], y: v[2], z: v[3], w: v[0])
            guard abs(quaternion.norm - 1) <= 1e-3 else {
                throw fail(q, "\(key).quaternion", "norm \(num(quaternion.norm)), expected a unit quaternion [w, x, y, z] (norm within 1e-3 of 1)")
            }
            return BodyRotation(quaternion: quaternion)
        }
        guard let a = m["axis"], let d = m["angle_deg"] else {
            throw fail(n, key, m["axis"] == nil && m["angle_deg"] == nil ? "expected \(forms)" : "axis and angle_deg go together; expected \(forms)")
        }
        let v = try numbers(a, 3, "\(key).axis", "3 numbers [x, y, z]")
        let axis = Vector3(v[0], v[1], v[2])
        guard axis.norm > 1e-9, axis.norm.isFinite else { throw fail(a, "\(key).axis", "expected a non-zero axis [x, y, z]") }
        let angle = try number(d, "\(key).angle_deg")
        guard abs(angle) <= 360 else { throw fail(d, "\(key).angle_deg", "expected degrees in [−360, 360], found \(num(angle))") }
        return BodyRotation(axis: axis, angleDegrees: angle)
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
            throw fail(
                n, path, given.isEmpty ? "expected one of column, dataset or sample_rate" : "give only one of \(given.joined(separator: ", "))")
        }
        if let r = m["sample_rate"] {
            if m["units"] != nil { throw fail(m["units"], "\(path).units", "sample_rate is in Hz; units apply to a time column or dataset") }
            let start = try m["start"].map { (x: Node) throws(TraceError) in try number(x, "\(path).start") } ?? 0
            if let rm = r.mapping {
                try onlyKeys(rm, ["attribute", "of", "dataset"], path: "\(path).sample_rate")
                if let d = rm["dataset"] {
                    guard rm["attribute"] == nil, rm["of"] == nil else {
                        throw fail(r, "\(path).sample_rate", "give either {attribute: NAME, of: PATH} or {dataset: PATH}")
                    }
                    guard let ds = d.string, !ds.isEmpty else {
                        throw fail(d, "\(path).sample_rate.dataset", "expected the path of a dataset holding the rate in Hz")
                    }
                    return .sampleRate(.dataset(ds.hasPrefix("/") ? ds : "/" + ds), start: start)
                }
                guard let a = rm["attribute"]?.string, !a.isEmpty else {
                    throw fail(r, "\(path).sample_rate.attribute", "expected the name of an HDF5 attribute holding the rate in Hz")
                }
                var object = rm["of"]?.string ?? "/"
                if !object.hasPrefix("/") { object = "/" + object }
                return .sampleRate(.attribute(name: a, object: object), start: start)
            }
            let hz = try number(r, "\(path).sample_rate")
            guard hz > 0 else { throw fail(r, "\(path).sample_rate", "expected a rate > 0 Hz, found \(num(hz))") }
            return .sampleRate(.hz(hz), start: start)
        }
        if m["start"] != nil { throw fail(m["start"], "\(path).start", "start applies only with sample_rate") }
        guard let u = m["units"] else { throw fail(n, "\(path).units", "missing; expected the time unit: s, ms, us, ns or datetime") }
        guard let units = u.string, units == dateTimeUnits || UnitConversion.factor(from: units, to: .time) != nil else {
            throw fail(u, "\(path).units", UnitConversion.mismatch(u.string ?? "?", .time, target: "time") + " (or datetime: date-time text)")
        }
        if units == dateTimeUnits, m["dataset"] != nil {
            throw fail(u, "\(path).units", "datetime applies to a CSV column of date-time text; an HDF5 time dataset holds numbers")
        }
        if let c = m["column"] { return .values(.columns([try column(c, "\(path).column")]), units: units) }
        guard let d = m["dataset"]?.string, !d.isEmpty else { throw fail(m["dataset"], "\(path).dataset", "expected an HDF5 dataset path") }
        return .values(.dataset(d.hasPrefix("/") ? d : "/" + d, columns: nil), units: units)
    }

    /// An input number: 1-based, at most 64.
    func input(_ n: Node, _ key: String) throws(TraceError) -> Int {
        guard let i = n.int, (1...64).contains(i) else { throw fail(n, key, "expected the input's number, 1 for the first file on the command line") }
        return i
    }

    func stream(_ name: String, _ node: Node, line keyLine: Int?) throws(TraceError) -> StreamMapping {
        let targets = TargetField.fields(of: name)!
        guard let m = node.mapping else {
            throw fail(node, "streams.\(name)", "expected a mapping of \(targets.map(\.name).joined(separator: ", "))")
        }
        let extra =
            ["time", "invalid_rows", "input"] + (name == "ble" ? ["beacons"] : [])
            + (StreamMapping.worldFrameStreams.contains(name) ? ["frame"] : [])
            + (StreamMapping.bodyFrameStreams.contains(name) ? ["body_rotation"] : [])
        try onlyKeys(m, targets.map(\.name) + extra, path: "streams.\(name)")
        let line = keyLine ?? node.mark?.line ?? 1
        var s = StreamMapping(name: name, time: nil, invalidRows: nil, fields: [:], beacons: [], line: line)
        if let t = m["time"] { s.time = try time(t, path: "streams.\(name).time") }
        if let i = m["input"] { s.input = try input(i, "streams.\(name).input") }
        if let f = m["frame"] { s.frame = try worldFrame(f, "streams.\(name).frame") }
        if let b = m["body_rotation"] { s.bodyRotation = try bodyRotation(b, "streams.\(name).body_rotation") }
        if let r = m["invalid_rows"] {
            guard let p = r.string.flatMap(InvalidRowPolicy.init(rawValue:)) else {
                throw fail(r, "streams.\(name).invalid_rows", "expected error or drop")
            }
            s.invalidRows = p
        }
        for t in targets {
            guard let f = m[t.name] else {
                if t.required {
                    throw fail(
                        line: line, "streams.\(name).\(t.name)",
                        "missing; the \(name) stream requires \(targets.filter(\.required).map(\.name).joined(separator: ", "))")
                }
                continue
            }
            s.fields[t.name] = try field(t, f, path: "streams.\(name).\(t.name)")
        }
        if let b = m["beacons"] {
            guard let bm = b.mapping else {
                throw fail(b, "streams.ble.beacons", "expected a mapping from beacon key to {uuid, major, minor, position}")
            }
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
            throw fail(
                node, path,
                t.width == 1
                    ? "expected {column: NAME, units: U}, {dataset: PATH, units: U} or {value: NUMBER}"
                    : "expected {columns: [\(t.width) columns], units: U} or {dataset: PATH, units: U}")
        }
        try onlyKeys(m, ["column", "columns", "dataset", "value", "units", "order", "scale", "input"], path: path)
        let line = node.mark?.line ?? 1
        // A rotation may be a quaternion (4 values) or a rotation matrix (9): its order says which.
        var order: QuaternionOrder?
        if let o = m["order"] {
            guard t.kind == .quaternion else { throw fail(o, "\(path).order", "order applies only to quaternions and rotation matrices") }
            guard let q = o.string.flatMap(QuaternionOrder.init(rawValue:)) else {
                throw fail(
                    o, "\(path).order",
                    "expected xyzw or wxyz (a quaternion), row-major or column-major (a rotation matrix), found '\(o.string ?? "?")'")
            }
            order = q
        }
        let width = t.kind == .quaternion ? (order?.width ?? 4) : t.width
        var source: ValueSource
        if let d = m["dataset"] {
            // HDF5: a dataset, optionally with `columns: [i, …]` selecting 0-based columns of a 2-D dataset.
            let others = ["column", "value"].filter { m[$0] != nil }
            guard others.isEmpty else { throw fail(node, path, "give only one of dataset, \(others.joined(separator: ", "))") }
            guard let ds = d.string, !ds.isEmpty else { throw fail(d, "\(path).dataset", "expected an HDF5 dataset path") }
            var selection: [Int]?
            if let cs = m["columns"] {
                let seq = cs.sequence.map(Array.init) ?? []
                guard seq.count == width, seq.allSatisfy({ $0.scalar?.style == .plain && (Int($0.scalar!.string) ?? -1) >= 0 }) else {
                    throw fail(
                        cs, "\(path).columns",
                        "with dataset, columns selects \(width) 0-based column indices of it, e.g. [\((0..<width).map(String.init).joined(separator: ", "))]"
                    )
                }
                selection = seq.map { Int($0.scalar!.string)! }
            }
            source = .dataset(ds.hasPrefix("/") ? ds : "/" + ds, columns: selection)
        } else {
            let given = ["column", "columns", "value"].filter { m[$0] != nil }
            guard given.count == 1 else {
                throw fail(
                    node, path,
                    given.isEmpty ? "expected one of column, columns, dataset or value" : "give only one of \(given.joined(separator: ", "))")
            }
            if let c = m["column"] {
                guard t.width == 1 else { throw fail(c, "\(path).column", "\(t.name) has \(t.width) components; give columns: [\(t.width) columns]") }
                source = .columns([try column(c, "\(path).column")])
            } else if let cs = m["columns"] {
                let seq = cs.sequence.map(Array.init) ?? []
                guard seq.count == width else {
                    throw fail(
                        cs, "\(path).columns",
                        "expected \(width) column\(width == 1 ? "" : "s") for \(t.name)\(t.kind == .quaternion ? " (4 for a quaternion, 9 with order: row-major or column-major)" : ""), found \(seq.count)"
                    )
                }
                source = .columns(try seq.map { (n: Node) throws(TraceError) in try column(n, "\(path).columns") })
            } else {
                // One number (every component), or one per component: `position: {value: [0, 1.4, 0], units: m}`.
                let v = m["value"]!
                guard t.kind != .quaternion else {
                    throw fail(v, "\(path).value", "a constant orientation is not read from a mapping; map its columns or dataset")
                }
                if let seq = v.sequence.map(Array.init) {
                    guard seq.count == t.width else {
                        throw fail(v, "\(path).value", "expected \(t.width) number\(t.width == 1 ? "" : "s") for \(t.name), found \(seq.count)")
                    }
                    source = .constant(try seq.map { (n: Node) throws(TraceError) in try number(n, "\(path).value") })
                } else {
                    source = .constant(Array(repeating: try number(v, "\(path).value"), count: t.width))
                }
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
            if case .dataset = source {
            } else {  // a dataset may carry its own `units` attribute
                throw fail(node, "\(path).units", "missing; expected one of \(UnitConversion.units(of: t.quantity).joined(separator: ", "))")
            }
        }
        if order == nil, t.kind == .quaternion {
            if case .constant = source {
            } else {
                throw fail(
                    node, "\(path).order", "missing; say whether the quaternion is stored xyzw or wxyz (or the matrix row-major or column-major)")
            }
        }
        var scale = 1.0
        if let s = m["scale"] {
            guard t.kind == .vector || t.kind == .scalar else {
                throw fail(s, "\(path).scale", "scale applies to vectors and scalars, not to \(t.name)")
            }
            scale = try number(s, "\(path).scale")
        }
        var f = FieldMapping(target: t.name, source: source, units: units, order: order, scale: scale, line: line)
        if let i = m["input"] { f.input = try input(i, "\(path).input") }
        return f
    }
}
