import Foundation
import NavCore
import NavIO
import NavSignal
import NavSpectral

/// A named series read from a file: one column of a CSV, or one column of a trace dataset.
public struct NamedSeries: Sendable {
    public var name: String
    public var timestamps: [Double]
    public var values: [Double]
    public var units: String?
}

/// The columns of a trace dataset, e.g. `imu/accelerometer` → x, y, z; `compass/heading` → heading.
///
/// - Throws: when the file is invalid or the stream/dataset is absent or not numeric.
public func traceSeries(_ path: String, dataset: String) throws -> [NamedSeries] {
    let report = validateTrace(at: path)
    if let e = report.errors.first { throw e.error }
    let parts = dataset.split(separator: "/", maxSplits: 1).map(String.init)
    guard parts.count == 2, let stream = report.trace?.stream(parts[0]), let raw = stream.data[parts[1]] else {
        let available = report.trace?.streams.flatMap { s in s.data.keys.sorted().filter { $0 != "timestamps" }.map { "\(s.name)/\($0)" } } ?? []
        throw TraceError(.missing, file: path, object: "/" + dataset, "no such dataset; numeric datasets here: \(available.joined(separator: ", "))")
    }
    guard case let .float(shape, values) = raw else {
        throw TraceError(.wrongType, file: path, object: "/" + dataset, "expected a float dataset to filter")
    }
    let cols = shape.count == 2 ? shape[1] : 1
    let names = cols == 1 ? [parts[1]] : cols == 3 ? ["x", "y", "z"] : (0..<cols).map { "c\($0)" }
    return (0..<cols).map { c in
        NamedSeries(
            name: names[c], timestamps: stream.timestamps,
            values: stride(from: c, to: values.count, by: cols).map { values[$0] }, units: stream.units[parts[1]])
    }
}

/// The vector magnitude ‖v‖ of the columns of one dataset (same time axis), nil for fewer than two columns.
public func vectorMagnitude(_ columns: [NamedSeries]) -> NamedSeries? {
    guard columns.count >= 2, let first = columns.first else { return nil }
    let values = first.values.indices.map { i in columns.reduce(0) { $0 + $1.values[i] * $1.values[i] }.squareRoot() }
    return NamedSeries(name: "magnitude", timestamps: first.timestamps, values: values, units: first.units)
}

/// A CSV column with its time axis: the `timeColumn` if given (seconds), else k / rate.
public func csvSeries(_ table: CSVTable, column: String, timeColumn: String?, rate: Double?) throws -> NamedSeries {
    let values = try table.numbers(column)
    let t: [Double]
    if let timeColumn {
        t = try table.numbers(timeColumn)
        do { try validateTimestamps(t) } catch {
            throw TraceError(.badTimestamps, file: table.file, object: "column '\(timeColumn)'", error.description)
        }
    } else if let rate {
        t = values.indices.map { Double($0) / rate }
    } else {
        throw JobError("\(table.file): give --rate HZ or --time-column NAME to define the sample times")
    }
    return NamedSeries(name: column, timestamps: t, values: values, units: nil)
}

/// The sample rate to use: the given one, or 1 / median interval of the timestamps.
public func sampleRate(of s: NamedSeries, given: Double?) throws -> Double {
    if let given { return given }
    let summary = SamplingSummary(timestamps: s.timestamps)
    guard summary.medianInterval > 0 else { throw JobError("\(s.name): cannot infer a sample rate from its timestamps; give --rate HZ") }
    return 1 / summary.medianInterval
}

/// Filters one CSV column with `spec`; returns the table as CSV text with the result added
/// as `outputColumn` (same rows, same order).
public func filterCSV(
    _ table: CSVTable, spec: FilterSpec, column: String, outputColumn: String,
    timeColumn: String?, rate: Double?
) throws -> String {
    let s = try csvSeries(table, column: column, timeColumn: timeColumn, rate: rate)
    let fs = try sampleRate(of: s, given: rate)
    let y = try spec.apply(s.values, timestamps: s.timestamps, sampleRate: fs)
    return table.adding(column: outputColumn, values: y)
}

/// Filters every column of one dataset of a trace file and writes a copy of the file with
/// the dataset replaced and `processing` stamped. Headings (`units` deg named heading) are
/// filtered on (sin, cos) unless the spec is already circular.
///
/// Streams: the input is validated, filtered and copied `blockRows` rows at a time
/// (`filterTraceInBlocks`), so memory does not grow with the recording; the output equals
/// the whole-array filter's bit for bit.
public func filterTrace(
    input: String, output: String, spec: FilterSpec, dataset: String, rate: Double?, command: String,
    compression: HDF5Compression = .filterDefault, blockRows: Int = traceBlockRows,
    readPolicy: HDF5ReadPolicy = .standard
) throws {
    try filterTraceInBlocks(
        input: input, output: output, spec: spec, dataset: dataset, rate: rate, command: command,
        compression: compression, blockRows: blockRows, readPolicy: readPolicy)
}
