import Foundation
import NavCore

/// The values of one dataset as loaded.
public enum RawData: Sendable {
    case float(shape: [Int], values: [Double])
    case integer(shape: [Int], values: [Int32])
    case string([String])

    public var shape: [Int] {
        switch self {
        case let .float(s, _), let .integer(s, _): return s
        case let .string(v): return [v.count]
        }
    }
    public var doubles: [Double] {
        switch self {
        case let .float(_, v): return v
        case let .integer(_, v): return v.map(Double.init)
        case .string: return []
        }
    }
    public var int32s: [Int32] {
        switch self {
        case let .integer(_, v): return v
        case let .float(_, v): return v.map { $0.isFinite ? Int32(clamping: Int64($0)) : 0 }
        case .string: return []
        }
    }
    public var strings: [String] { if case let .string(v) = self { return v }; return [] }
}

/// One stream's datasets as loaded, keyed by their path inside the stream group.
public struct LoadedStream: Sendable {
    public let name: String
    public var data: [String: RawData] = [:]
    public var units: [String: String] = [:]
    /// String attributes of the stream's group (an annotation stream's `kind` and `source`).
    public var attributes: [String: String] = [:]
    public var timestamps: [Double] { data["timestamps"]?.doubles ?? [] }
    /// Float datasets checked block by block but not loaded (`validateTrace(…, loadValues: false)`): their shapes.
    public var deferredShapes: [String: [Int]] = [:]
    /// The median positive interval of a time axis that was not loaded (nil when loaded or invalid).
    public var medianInterval: Double?
}

/// A trace file's attributes and streams, as loaded (possibly with problems).
public struct LoadedTrace: Sendable {
    public let file: String
    public var attributes: [String: HDF5Attribute] = [:]
    public var streams: [LoadedStream] = []
    public var unknownGroups: [String] = []

    public func stream(_ name: String) -> LoadedStream? { streams.first { $0.name == name } }
}

/// A finding of `validate`: an error makes the file invalid, a warning does not.
public struct ValidationProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }
    public var severity: Severity
    public var error: TraceError

    public var description: String {
        severity == .error
            ? error.description
            : (error.object.map {
                "\(escapedForMessage(error.file)): \(escapedForMessage($0)): warning: \(escapedForMessage(error.problem, limit: 400))"
            }
                ?? "\(escapedForMessage(error.file)): warning: \(escapedForMessage(error.problem, limit: 400))")
    }
}

/// The outcome of validating one file.
public struct ValidationReport: Sendable {
    public let file: String
    public var problems: [ValidationProblem]
    public var trace: LoadedTrace?

    public var errors: [ValidationProblem] { problems.filter { $0.severity == .error } }
    public var warnings: [ValidationProblem] { problems.filter { $0.severity == .warning } }
    public var isValid: Bool { errors.isEmpty }
}

/// Options of the gap check.
public struct GapPolicy: Sendable {
    /// A gap is reported when it exceeds `factor` × the median interval …
    public var factor: Double = 10
    /// … and is at least this long, in seconds.
    public var minimumSeconds: Double = 0.5
    public init() {}
}

/// Checks a file against trace format v1, collecting every problem (one line each).
///
/// Checks: HDF5 opens; root attributes; at least one stream; each present stream's required
/// datasets, value kinds, shapes, row counts, `units`; finite values; ordered timestamps;
/// unit-norm quaternions; value ranges; beacon indices; gaps (warning).
///
/// With `loadValues: false` float datasets are checked block by block (`traceBlockRows`) and not
/// kept (`LoadedStream.deferredShapes`), so memory does not grow with the recording; the
/// problems found are the same.
///
/// - Complexity: O(total samples) plus O(n log n) per time axis for the gap median (O(5 n)
///   without loading).
public func validateTrace(
    at path: String, gaps: GapPolicy = GapPolicy(), loadValues: Bool = true,
    policy: HDF5ReadPolicy = .standard
) -> ValidationReport {
    var report = ValidationReport(file: path, problems: [], trace: nil)
    func fail(_ kind: TraceError.Kind, _ object: String?, _ text: String) {
        report.problems.append(ValidationProblem(severity: .error, error: TraceError(kind, file: path, object: object, text)))
    }
    func warn(_ object: String?, _ text: String) {
        report.problems.append(ValidationProblem(severity: .warning, error: TraceError(.badValue, file: path, object: object, text)))
    }
    func add(_ error: TraceError) { report.problems.append(ValidationProblem(severity: .error, error: error)) }

    let reader: HDF5Reader
    do { reader = try HDF5Reader(path: path, policy: policy) } catch {
        report.problems.append(ValidationProblem(severity: .error, error: error))
        return report
    }
    var trace = LoadedTrace(file: path)

    // HDF5 indirections: every external link is reported (an error unless --allow-external-links).
    for link in reader.externalLinks() {
        do {
            try reader.checkLink(link)
            warn(link, "external link followed (--allow-external-links)")
        } catch {
            report.problems.append(ValidationProblem(severity: .error, error: error))
        }
    }

    readRootAttributes(reader, &trace, fail: fail)

    let topLevel = (try? reader.children(of: "/")) ?? []
    let known = Set(TraceSchema.streams.map(\.name) + [TraceSchema.annotationsGroup])
    trace.unknownGroups = topLevel.filter { !known.contains($0) }
    for g in trace.unknownGroups { warn("/\(g)", "not a trace format v1 stream; ignored") }

    var present = TraceSchema.streams.filter { topLevel.contains($0.name) }
    if present.isEmpty {
        fail(.noStreams, nil, "no streams; expected at least one of \(TraceSchema.streams.map(\.name).joined(separator: ", "))")
    }
    if topLevel.contains(TraceSchema.annotationsGroup) {
        present += annotationStreamSchemas(reader, fail: fail)
    }
    if let json = trace.attributes["session_attributes"], decodeSessionAttributes(json) == nil {
        fail(.badValue, "/@session_attributes", "expected a JSON object of string values (at most \(sessionAttributesMaximumBytes) bytes)")
    }

    for spec in present {
        let group = "/\(spec.name)"
        guard reader.isGroup(group) else { fail(.wrongType, group, "expected a group"); continue }
        var stream = LoadedStream(name: spec.name)
        var sampleRows: Int?
        var beaconRows: Int?
        for ds in spec.datasets {
            validateDataset(
                reader, ds, of: spec, loadValues: loadValues, stream: &stream, sampleRows: &sampleRows, beaconRows: &beaconRows, fail: fail,
                add: add)
        }
        if spec.isAnnotation { checkAnnotationGroup(reader, spec, &stream, fail: fail) }
        validateTimeAxis(reader, spec, &stream, gaps: gaps, fail: fail, warn: warn, add: add)
        // Cross-references.
        if spec.name == "ble", let idx = stream.data["beacon"]?.int32s, let m = beaconRows {
            if let bad = idx.firstIndex(where: { $0 < 0 || Int($0) >= m }) {
                fail(.badValue, "/ble/beacon", "row \(bad): beacon index \(idx[bad]) outside 0..<\(m) (the beacon table's rows)")
            }
        }
        trace.streams.append(stream)
    }
    report.trace = trace
    return report
}

/// One dataset of stream `spec`: its value kind, shape, row count (one per timestamp, or per
/// beacon) and `units` checked, its values read into `stream` and checked (or, without
/// `loadValues`, checked block by block and not kept).
private func validateDataset(
    _ reader: HDF5Reader, _ ds: TraceSchema.Dataset, of spec: TraceSchema.Stream, loadValues: Bool, stream: inout LoadedStream,
    sampleRows: inout Int?, beaconRows: inout Int?, fail: (TraceError.Kind, String?, String) -> Void, add: (TraceError) -> Void
) {
    let objectPath = "/\(spec.name)/\(ds.name)"
    guard reader.exists(objectPath) else {
        if ds.required { fail(.missing, objectPath, "required dataset not found") }
        return
    }
    let info: HDF5DatasetInfo
    do { info = try reader.info(objectPath) } catch { add(error); return }
    // Kind.
    let kindOK: Bool
    switch ds.kind {
    case .float: kindOK = info.typeClass == .float || info.typeClass == .integer
    case .integer: kindOK = info.typeClass == .integer
    case .string: kindOK = info.typeClass == .string
    }
    guard kindOK else {
        fail(
            .wrongType, objectPath,
            "expected \(ds.kind == .string ? "strings" : ds.kind == .integer ? "integers" : "numbers"), found \(info.typeClass.rawValue)")
        return
    }
    // Shape.
    let expectedShape = ds.columns.map { "(N, \($0))" } ?? "(N,)"
    let shapeOK = ds.columns.map { info.shape.count == 2 && info.shape[1] == $0 } ?? (info.shape.count == 1)
    guard shapeOK else {
        fail(.wrongShape, objectPath, "expected shape \(expectedShape), found (\(info.shape.map(String.init).joined(separator: ", ")))")
        return
    }
    let rows = info.shape[0]
    switch ds.rows {
    case .samples:
        if let n = sampleRows, n != rows {
            fail(.wrongShape, objectPath, "expected \(n) rows (one per timestamp), found \(rows)")
            return
        }
        sampleRows = rows
    case .beacons:
        if let n = beaconRows, n != rows {
            fail(.wrongShape, objectPath, "expected \(n) rows (one per beacon), found \(rows)")
            return
        }
        beaconRows = rows
    }
    // Units.
    if ds.units == nil, ds.kind != .string {
        // A quantity of the stream's choosing (an annotation's value): any units string.
        if let u = reader.attribute("units", of: objectPath)?.stringValue, !u.isEmpty, u.utf8.count <= 64 {
            stream.units[ds.name] = u
        } else {
            fail(.wrongUnits, objectPath, "missing units attribute: expected a string of at most 64 bytes naming the values' unit")
        }
    }
    if let expected = ds.units {
        let attribute = reader.attribute("units", of: objectPath)
        let found = attribute?.stringValue
        if attribute == nil {
            fail(.wrongUnits, objectPath, "missing units attribute, expected \"\(expected)\"")
        } else if found == nil {
            // Present but not a string (a number, an array): said so, not "missing".
            let what: String
            switch attribute {
            case .integer(let i): what = "the integer \(i)"
            case .float(let f): what = "the number \(formatNumber(f))"
            default: what = "not a single string"
            }
            fail(.wrongUnits, objectPath, "units attribute is \(what), expected the string \"\(expected)\"")
        } else if found != expected {
            fail(.wrongUnits, objectPath, "expected units \"\(expected)\", found \"\(found!)\"")
        } else {
            stream.units[ds.name] = expected
        }
    }
    // Values.
    if !loadValues && ds.kind == .float && !spec.isAnnotation {
        stream.deferredShapes[ds.name] = info.shape
        if ds.role == .timestamps {  // checked as a time axis below, once its size is plausible
            do { try reader.checkDeclaredSize(objectPath) } catch {
                add(error)
                stream.deferredShapes[ds.name] = nil
            }
            return
        }
        var checker = ValueChecker(spec: ds, columns: ds.columns ?? 1)
        do { try forEachBlock(reader, objectPath, rows: rows) { v, first in checker.check(v, firstRow: first) } } catch let e as TraceError {
            add(e); return
        } catch {}
        checker.finish(object: objectPath, fail: fail)
        return
    }
    do {
        switch ds.kind {
        case .float:
            let (shape, v) = try reader.readDoubles(objectPath)
            stream.data[ds.name] = .float(shape: shape, values: v)
            checkValues(v, spec: ds, columns: ds.columns ?? 1, object: objectPath, fail: fail)
        case .integer:
            let (shape, v) = try reader.readInt32s(objectPath)
            stream.data[ds.name] = .integer(shape: shape, values: v)
            if let r = ds.range, let bad = v.firstIndex(where: { !r.contains(Double($0)) }) {
                fail(.badValue, objectPath, "row \(bad): \(v[bad]) outside \(format(r))")
            }
        case .string:
            stream.data[ds.name] = .string(try reader.readStrings(objectPath))
        }
    } catch { add(error) }
}

/// The time axis of stream `spec`: in order (an annotation's rows sorted by start), with a
/// warning for a gap larger than `gaps` allows; read in blocks when its values were not loaded.
private func validateTimeAxis(
    _ reader: HDF5Reader, _ spec: TraceSchema.Stream, _ stream: inout LoadedStream, gaps: GapPolicy,
    fail: (TraceError.Kind, String?, String) -> Void, warn: (String?, String) -> Void, add: (TraceError) -> Void
) {
    let group = "/\(spec.name)"
    let t = stream.timestamps
    if spec.isAnnotation {
        if stream.data["timestamps"] != nil {
            do { try validateTimestamps(t, order: .nonDecreasing) } catch {
                fail(.badTimestamps, "\(group)/timestamps", error.description + " (rows are sorted by start)")
            }
        }
    } else if stream.data["timestamps"] != nil {
        do {
            try validateTimestamps(t, order: spec.timeOrder == .strictlyIncreasing ? .strictlyIncreasing : .nonDecreasing)
            let s = SamplingSummary(timestamps: t)
            if s.medianInterval > 0, s.largestGap > gaps.factor * s.medianInterval, s.largestGap >= gaps.minimumSeconds {
                let at = t.indices.dropFirst().first { t[$0] - t[$0 - 1] == s.largestGap }.map { $0 - 1 } ?? 0
                warn("\(group)/timestamps", "gap of \(fmt(s.largestGap)) s after t=\(fmt(t[at])) (median interval \(fmt(s.medianInterval)) s)")
            }
        } catch { fail(.badTimestamps, "\(group)/timestamps", error.description) }
    } else if let shape = stream.deferredShapes["timestamps"] {
        do {
            let axis = try checkTimeAxisInBlocks(
                reader, "\(group)/timestamps", rows: shape[0],
                order: spec.timeOrder == .strictlyIncreasing ? .strictlyIncreasing : .nonDecreasing)
            if let e = axis.error {
                fail(.badTimestamps, "\(group)/timestamps", e.description)
            } else {
                stream.medianInterval = axis.medianInterval
                if axis.medianInterval > 0, axis.largestGap > gaps.factor * axis.medianInterval, axis.largestGap >= gaps.minimumSeconds {
                    warn(
                        "\(group)/timestamps",
                        "gap of \(fmt(axis.largestGap)) s after t=\(fmt(axis.largestGapStart)) (median interval \(fmt(axis.medianInterval)) s)")
                }
            }
        } catch let e as TraceError { add(e) } catch {}
    }
}

private func checkValues(
    _ v: [Double], spec: TraceSchema.Dataset, columns: Int, object: String,
    fail: (TraceError.Kind, String?, String) -> Void
) {
    var checker = ValueChecker(spec: spec, columns: columns)
    checker.check(v, firstRow: 0)
    checker.finish(object: object, fail: fail)
}

private func format(_ r: ClosedRange<Double>) -> String {
    "[\(fmt(r.lowerBound)), \(r.upperBound.isInfinite ? "∞" : fmt(r.upperBound))]"
}

/// Short, deterministic rendering of a double for messages and tables.
func fmt(_ x: Double, digits: Int = 6) -> String {
    if x.isNaN { return "nan" }
    if x.isInfinite { return x > 0 ? "inf" : "-inf" }
    if x == x.rounded() && Swift.abs(x) < 1e15 { return String(Int64(x)) }
    var s = String(format: "%.\(digits)g", x)
    if s.contains("e") { return s }
    if s.contains(".") { while s.hasSuffix("0") { s.removeLast() }; if s.hasSuffix(".") { s.removeLast() } }
    return s
}

/// Reads the root attributes into `trace` and reports a missing or wrong `format`,
/// `format_version` or `session_kind`.
func readRootAttributes(
    _ reader: HDF5Reader, _ trace: inout LoadedTrace,
    fail: (TraceError.Kind, String?, String) -> Void
) {
    for attr in TraceSchema.rootAttributes {
        if let v = reader.attribute(attr.name) { trace.attributes[attr.name] = v }
    }
    switch trace.attributes["format_version"] {
    case nil: fail(.missing, "/@format_version", "missing root attribute, expected integer \(TraceSchema.formatVersion)")
    case let v?:
        if v.integerValue != Int64(TraceSchema.formatVersion) {
            fail(.unsupportedVersion, "/@format_version", "expected \(TraceSchema.formatVersion), found \(v)")
        }
    }
    if let f = trace.attributes["format"]?.stringValue, f != TraceSchema.formatName {
        fail(.badValue, "/@format", "expected \"\(TraceSchema.formatName)\", found \"\(f)\"")
    } else if trace.attributes["format"] == nil {
        fail(.missing, "/@format", "missing root attribute, expected \"\(TraceSchema.formatName)\"")
    }
    if let k = trace.attributes["session_kind"] {
        if SessionKind(rawValue: k.stringValue ?? "") == nil {
            fail(.badValue, "/@session_kind", "expected one of recording, navigation; found \(k)")
        }
    } else {
        fail(.missing, "/@session_kind", "missing root attribute, expected recording or navigation")
    }
}

// MARK: - Annotation streams

/// The schemas of the annotation streams under `/annotations`, in name order; a child that is
/// not a group or whose name is not a valid stream name is an error.
private func annotationStreamSchemas(_ reader: HDF5Reader, fail: (TraceError.Kind, String?, String) -> Void) -> [TraceSchema.Stream] {
    let group = "/\(TraceSchema.annotationsGroup)"
    guard reader.isGroup(group) else {
        fail(.wrongType, group, "expected a group of annotation streams")
        return []
    }
    let names: [String]
    do { names = try reader.children(of: group) } catch {
        fail(error.kind, group, error.problem)
        return []
    }
    var out: [TraceSchema.Stream] = []
    for name in names.sorted() {
        guard AnnotationStream.isValidName(name) else {
            fail(.badValue, "\(group)/\(name)", "an annotation stream's name must be 1–64 characters of a–z, 0–9, _ or -")
            continue
        }
        out.append(TraceSchema.annotationStream(name))
    }
    if names.isEmpty { fail(.missing, group, "empty; expected at least one annotation stream (or no /annotations group)") }
    return out
}

/// Checks an annotation stream's group attributes (`kind`, `source`) and rows (each end ≥ its
/// start; = for instants; labels without NUL), and keeps the attributes in `stream`.
private func checkAnnotationGroup(
    _ reader: HDF5Reader, _ spec: TraceSchema.Stream, _ stream: inout LoadedStream,
    fail: (TraceError.Kind, String?, String) -> Void
) {
    let group = "/\(spec.name)"
    guard let kindText = reader.attribute("kind", of: group)?.stringValue, let kind = AnnotationStream.Kind(rawValue: kindText) else {
        fail(.missing, "\(group)/@kind", "expected the string attribute kind = instants or intervals")
        return
    }
    guard let source = reader.attribute("source", of: group)?.stringValue, !source.isEmpty, source.utf8.count <= 4_096 else {
        fail(.missing, "\(group)/@source", "expected the string attribute source (who or what made the labels, at most 4,096 bytes)")
        return
    }
    stream.attributes = ["kind": kind.rawValue, "source": source]
    guard let start = stream.data["timestamps"]?.doubles, let end = stream.data["end"]?.doubles else { return }
    for i in start.indices where i < end.count {
        if kind == .instants, end[i] != start[i] {
            fail(.badValue, "\(group)/end", "row \(i): an instant's end (\(fmt(end[i])) s) must equal its start (\(fmt(start[i])) s)")
            return
        }
        if kind == .intervals, end[i] < start[i] {
            fail(.badValue, "\(group)/end", "row \(i): the interval ends (\(fmt(end[i])) s) before it starts (\(fmt(start[i])) s)")
            return
        }
    }
    if let labels = stream.data["label"]?.strings, let bad = labels.firstIndex(where: { $0.utf8.count > 4_096 }) {
        fail(.badValue, "\(group)/label", "row \(bad): a label longer than 4,096 bytes")
    }
}

/// The most bytes of the root attribute `session_attributes`.
public let sessionAttributesMaximumBytes = 65_536

/// The session attributes stored as JSON (`session_attributes`), nil when the text is not a
/// JSON object of strings within the size bound.
public func decodeSessionAttributes(_ attribute: HDF5Attribute) -> [String: String]? {
    guard let text = attribute.stringValue, text.utf8.count <= sessionAttributesMaximumBytes,
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { return nil }
    var out: [String: String] = [:]
    for (k, v) in object {
        guard let s = v as? String, k.utf8.count <= 256, s.utf8.count <= 4_096 else { return nil }
        out[k] = s
    }
    return out
}

/// The JSON text of session attributes: keys sorted, so the same attributes give the same bytes.
public func encodeSessionAttributes(_ attributes: [String: String]) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: attributes, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
}
