import Foundation
import NavCore
import NavIO

/// A file of named numeric arrays that a mapping reads (`importHDF5Mapped`, `importMATMapped`):
/// arrays by path, row-major, rows = samples.
protocol MappedArrays {
    var path: String { get }
    func exists(_ ds: String) -> Bool
    /// Shape and values, row-major.
    func readDoubles(_ ds: String) throws(TraceError) -> (shape: [Int], values: [Double])
    /// What the file holds near a missing path, for messages ("the file has /a, /b").
    func whatThereIs(near ds: String) throws(TraceError) -> String
    func unitsAttribute(of ds: String) -> String?
    /// The strings of a text array; nil when it holds numbers.
    func strings(_ ds: String) throws(TraceError) -> [String]?
    /// A sample rate in Hz from an attribute (`sample_rate: {attribute: …}`).
    func rate(attribute name: String, of object: String, mapping: String) throws(TraceError) -> Double
}

/// Imports a file of named arrays driven by a mapping: each mapped stream read by
/// `MappedArrayFile`, then checked and converted by `assembleStream`.
///
/// - Throws: one line naming the file and dataset, or the mapping file, its line and key.
/// - Complexity: O(values read).
func importMappedArrays<A: MappedArrays>(
    _ arrays: A, mapping: ImportMapping, options: ImportOptions, format: String, article: String
) throws(TraceError) -> ImportResult {
    if !mapping.inputs.isEmpty {
        throw TraceError(
            .badValue, file: mapping.file, object: "inputs",
            "inputs (several files, each with its clock and offset) are read by import csv; \(article) \(format) import reads one file on time:")
    }
    let file = MappedArrayFile(arrays: arrays, mapping: mapping, importPhrase: "\(article) \(format) import")
    var session = Session(metadata: importMetadata(options, frameConvention: mapping.frameConvention(format: format)))
    var notes: [String] = []
    for sm in mapping.streams {
        let src = try file.sourceStream(sm)
        try assembleStream(
            src, mapping: sm, beaconsInFrame: sm.frame ?? mapping.frame, frame: sm.frame ?? mapping.frame,
            policy: sm.invalidRows ?? options.invalidRows, file: arrays.path, into: &session, notes: &notes)
    }
    return ImportResult(session: session, notes: notes)
}

/// The file of a mapped import (HDF5, MAT-file), read one stream at a time: each step of turning
/// a mapped stream into a `SourceStream` (its datasets, units, row agreement, clock) is one method.
struct MappedArrayFile<Arrays: MappedArrays> {
    let arrays: Arrays
    let mapping: ImportMapping
    /// "an HDF5 import", "a MAT-file import": for messages.
    let importPhrase: String
    var path: String { arrays.path }
    var parser: MappingParser { MappingParser(file: mapping.file) }

    /// The rows of one stream seen so far: every dataset of a stream must have as many rows as
    /// the first one read.
    struct RowCount {
        var rows: Int?
        var firstDataset = ""
        mutating func agree(_ n: Int, _ ds: String, stream: String, file: String) throws(TraceError) {
            if let rc = rows, rc != n {
                throw TraceError(
                    .wrongShape, file: file, object: ds,
                    "has \(n) rows but \(firstDataset) has \(rc); the \(stream) stream's datasets must have one row per sample")
            }
            if rows == nil { rows = n; firstDataset = ds }
        }
    }

    /// One mapped stream: its fields from their datasets (converted to trace units), its keys,
    /// its times, and the constants filled once the row count is known.
    func sourceStream(_ sm: StreamMapping) throws(TraceError) -> SourceStream {
        let targets = TargetField.fields(of: sm.name)!
        guard let timeSpec = sm.time ?? mapping.time else {
            throw parser.fail(
                line: sm.line, "streams.\(sm.name).time",
                "no clock; give time: {dataset: …, units: …} or {sample_rate: …} at the top or in the stream")
        }
        var fields: [String: [Double]] = [:]
        var keys: [String]?
        var count = RowCount()
        var datasetOf: [String: String] = [:]
        for t in targets {
            guard let f = sm.fields[t.name] else { continue }
            let key = "streams.\(sm.name).\(t.name)"
            switch f.source {
            case .columns:
                throw parser.fail(line: f.line, key, "columns in \(importPhrase); use dataset (with columns: [i, …] to select)")
            case .constant:
                continue  // filled once the row count is known
            case let .dataset(ds, selection):
                datasetOf[t.name] = ds
                if t.kind == .key {
                    let k = try keyValues(ds, line: f.line, key: key)
                    try count.agree(k.count, ds, stream: sm.name, file: path)
                    keys = k
                } else {
                    fields[t.name] = try fieldValues(t, f, dataset: ds, selection: selection, key: key, count: &count, stream: sm.name)
                }
            }
        }
        let (times, timeDataset) = try streamTimes(timeSpec, stream: sm, count: &count)
        for t in targets {
            if let f = sm.fields[t.name], case let .constant(v) = f.source {
                if t.kind == .key {
                    keys = Array(repeating: formatNumber(v[0]), count: times.count)
                    continue
                }
                let factor = f.units.flatMap { UnitConversion.factor(from: $0, to: t.quantity) } ?? 1
                fields[t.name] = constantValues(v, factor: factor * f.scale, count: times.count)
            }
        }
        let names = datasetOf
        return SourceStream(name: sm.name, times: times, fields: fields, keys: keys) { i, field in
            if let field, let ds = names[field] { return "\(ds), row \(i)" }
            if let ds = timeDataset { return "\(ds), row \(i)" }
            return "\(sm.name) sample \(i)"
        }
    }

    /// A dataset as rows × columns (a 1-D dataset is one column).
    func load(_ ds: String, line: Int, key: String) throws(TraceError) -> (rows: Int, cols: Int, values: [Double]) {
        guard arrays.exists(ds) else {
            throw TraceError(
                .missing, file: path, object: ds,
                "dataset not found (wanted by \(mapping.file) line \(line), \(key)); \(try arrays.whatThereIs(near: ds))")
        }
        let (shape, values) = try arrays.readDoubles(ds)
        // (N, k, l, …) is N rows of k·l·… columns, row-major (columns: selects among them).
        let cols = shape.dropFirst().reduce(1) { $0.multipliedReportingOverflow(by: $1).partialValue }
        guard !shape.isEmpty, shape[0] * cols == values.count else {
            throw TraceError(
                .wrongShape, file: path, object: ds, "expected shape (N,) or (N, k, …), found (\(shape.map(String.init).joined(separator: ", ")))")
        }
        return (shape[0], cols, values)
    }

    func units(of ds: String) -> String? { arrays.unitsAttribute(of: ds) }

    /// A key field (beacon ids): strings, or numbers written as the trace writes them.
    func keyValues(_ ds: String, line: Int, key: String) throws(TraceError) -> [String] {
        if let strings = try arrays.strings(ds) { return strings }
        return try load(ds, line: line, key: key).values.map { formatNumber($0) }
    }

    /// A numeric field: its selected columns, converted to the trace unit, quaternions reordered
    /// to (w, x, y, z).
    func fieldValues(
        _ t: TargetField, _ f: FieldMapping, dataset ds: String, selection: [Int]?, key: String,
        count: inout RowCount, stream: String
    ) throws(TraceError) -> [Double] {
        let (n, cols, values) = try load(ds, line: f.line, key: key)
        try count.agree(n, ds, stream: stream, file: path)
        let pick = selection ?? Array(0..<cols)
        let width = t.kind == .quaternion ? (f.order?.width ?? 4) : t.width
        guard pick.count == width else {
            throw TraceError(
                .wrongShape, file: path, object: ds,
                "has \(cols) column\(cols == 1 ? "" : "s"), \(t.name) needs \(width) (select them with columns: [i, …] in \(mapping.file) line \(f.line))"
            )
        }
        if let bad = pick.first(where: { $0 >= cols }) {
            throw parser.fail(line: f.line, "\(key).columns", "column \(bad) is past the last column of \(ds) (it has \(cols))")
        }
        let unit = try fieldUnit(t, f, dataset: ds, key: key, stream: stream)
        let factor = (unit.flatMap { UnitConversion.factor(from: $0, to: t.quantity) } ?? 1) * f.scale
        var v: [Double] = []
        v.reserveCapacity(n * width)
        for r in 0..<n { for c in pick { v.append(values[r * cols + c] * factor) } }
        return t.kind == .quaternion ? reorderQuaternion(v, order: f.order) : v
    }

    /// A field's units: the mapping's, else the dataset's `units` attribute; both given must agree.
    func fieldUnit(_ t: TargetField, _ f: FieldMapping, dataset ds: String, key: String, stream: String) throws(TraceError) -> String? {
        let attr = units(of: ds)
        if let attr, let u = f.units, attr != u {
            let same = UnitConversion.factor(from: attr, to: t.quantity).map { $0 == UnitConversion.factor(from: u, to: t.quantity) } ?? false
            if !same {
                throw TraceError(
                    .wrongUnits, file: path, object: ds,
                    "units attribute '\(attr)' contradicts \(mapping.file) line \(f.line), \(key).units '\(u)'")
            }
        }
        guard f.units == nil, t.kind == .vector || t.kind == .scalar else { return f.units }
        guard let attr else {
            throw parser.fail(
                line: f.line, "\(key).units",
                "missing, and \(ds) has no units attribute; expected one of \(UnitConversion.units(of: t.quantity).joined(separator: ", "))")
        }
        guard UnitConversion.factor(from: attr, to: t.quantity) != nil else {
            throw TraceError(.wrongUnits, file: path, object: ds, UnitConversion.mismatch(attr, t.quantity, target: "\(stream)/\(t.name)"))
        }
        return attr
    }

    /// The stream's clock: a time dataset (its units checked against the attribute), or a sample
    /// rate (a number or an attribute) over the rows counted so far.
    func streamTimes(_ timeSpec: TimeSpec, stream sm: StreamMapping, count: inout RowCount) throws(TraceError) -> ([Double], String?) {
        switch timeSpec {
        case let .values(.dataset(ds, _), unitsText):
            let (n, cols, values) = try load(ds, line: sm.line, key: "time.dataset")
            guard cols == 1 else {
                throw TraceError(.wrongShape, file: path, object: ds, "expected one time per row, shape (N,), found (\(n), \(cols))")
            }
            if let attr = units(of: ds), attr != unitsText {
                throw TraceError(.wrongUnits, file: path, object: ds, "units attribute '\(attr)' contradicts the mapping's time units '\(unitsText)'")
            }
            try count.agree(n, ds, stream: sm.name, file: path)
            let times =
                unitsText == "ns" ? values.map(secondsFromNanoseconds) : values.map { $0 * UnitConversion.factor(from: unitsText, to: .time)! }
            return (times, ds)
        case .values:
            throw parser.fail(line: sm.line, "time", "a time column in \(importPhrase); use {dataset: PATH, units: s}")
        case let .sampleRate(rate, start):
            let hz = try sampleRate(rate)
            guard let n = count.rows else {
                throw parser.fail(line: sm.line, "streams.\(sm.name)", "a sample rate needs at least one dataset to count the samples")
            }
            return ((0..<n).map { start + Double($0) / hz }, nil)
        }
    }

    /// A sample rate in Hz: the mapping's number, a numeric attribute of the file, or a dataset
    /// holding one number (> 0).
    func sampleRate(_ rate: RateSource) throws(TraceError) -> Double {
        switch rate {
        case let .hz(h): return h
        case let .attribute(name, object): return try arrays.rate(attribute: name, of: object, mapping: mapping.file)
        case let .dataset(ds):
            guard arrays.exists(ds) else {
                throw TraceError(
                    .missing, file: path, object: ds,
                    "dataset not found (the sample rate named by \(mapping.file)); \(try arrays.whatThereIs(near: ds))")
            }
            let values = try arrays.readDoubles(ds).values
            guard values.count == 1, let hz = values.first, hz.isFinite, hz > 0 else {
                throw TraceError(.badValue, file: path, object: ds, "expected one sample rate > 0 Hz, found \(values.count) values")
            }
            return hz
        }
    }
}

/// A constant's components (`ValueSource.constant`) converted by `factor`, repeated for `count`
/// samples, row-major (the layout of every mapped field).
func constantValues(_ components: [Double], factor: Double, count: Int) -> [Double] {
    let one = components.map { $0 * factor }
    var out: [Double] = []
    out.reserveCapacity(one.count * count)
    for _ in 0..<count { out += one }
    return out
}
