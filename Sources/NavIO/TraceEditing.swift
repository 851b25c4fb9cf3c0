import Foundation
import NavCore

// Trace editing (`navbench trace add-stream | drop-stream | merge | trim`): pure functions on
// `LoadedTrace` values, and `editTrace`, which validates the inputs, applies one edit, appends
// the command to the `processing` attribute, writes atomically and validates the result.
// Datasets an edit does not touch are copied value for value (same doubles, same shapes, same
// units), so reading them back gives identical arrays; inputs are only read.

/// Why an edit is refused: one line naming the file and what was expected.
public struct TraceEditError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ d: String) { description = d }
}

/// `stream` of `source` added to `trace` under the name `target` (`--as`), its timestamps
/// shifted by `timeOffset` seconds. Renaming needs the target stream's schema to hold every
/// dataset of the source (vio ↔ groundtruth: the groundtruth's extra datasets are dropped, a
/// vio made from groundtruth lacks `tracking_state` and is refused). An existing `target` is
/// an error unless `replace`.
///
/// - Complexity: O(size of the stream).
public func addingStream(
    _ stream: String, from source: LoadedTrace, to trace: LoadedTrace, as target: String? = nil,
    timeOffset: Double = 0, replace: Bool = false
) throws(TraceEditError) -> LoadedTrace {
    let name = target ?? stream
    guard let s = source.stream(stream) else {
        throw TraceEditError(
            "\(escapedForMessage(source.file)): no /\(escapedForMessage(stream)) stream (it has \(source.streams.map(\.name).joined(separator: ", ")))"
        )
    }
    guard let spec = TraceSchema.stream(named: name) else {
        throw TraceEditError(
            "--as \(escapedForMessage(name)): expected one of \(TraceSchema.streams.map(\.name).joined(separator: ", ")) or annotations/NAME (NAME: a–z, 0–9, _, -)"
        )
    }
    guard timeOffset.isFinite else { throw TraceEditError("--t-offset \(timeOffset): expected a finite number of seconds") }
    if trace.stream(name) != nil, !replace {
        throw TraceEditError("\(escapedForMessage(trace.file)): already has /\(name) (--replace to overwrite it)")
    }
    var copy = LoadedStream(name: name)
    for ds in spec.datasets {
        guard let raw = s.data[ds.name] else {
            if ds.required {
                throw TraceEditError("\(escapedForMessage(source.file)): /\(escapedForMessage(stream)) has no \(ds.name), which /\(name) requires")
            }
            continue
        }
        copy.data[ds.name] = raw
        if let u = s.units[ds.name] { copy.units[ds.name] = u }
    }
    copy.attributes = s.attributes
    if spec.isAnnotation != (TraceSchema.annotationName(stream) != nil) {
        throw TraceEditError("--as \(escapedForMessage(name)): an annotation stream stays an annotation stream and a sensor stream a sensor stream")
    }
    if timeOffset != 0, case let .float(shape, e)? = copy.data["end"] {
        copy.data["end"] = .float(shape: shape, values: e.map { $0 + timeOffset })
    }
    if timeOffset != 0, case let .float(shape, t)? = copy.data["timestamps"] {
        copy.data["timestamps"] = .float(shape: shape, values: t.map { $0 + timeOffset })
    }
    var out = trace
    out.streams.removeAll { $0.name == name }
    out.streams.append(copy)
    out.streams.sort { a, b in streamOrder(a.name) < streamOrder(b.name) }
    return out
}

/// `trace` without `stream` (an absent stream is an error).
///
/// - Complexity: O(number of streams).
public func droppingStream(_ stream: String, from trace: LoadedTrace) throws(TraceEditError) -> LoadedTrace {
    guard trace.stream(stream) != nil else {
        throw TraceEditError(
            "\(escapedForMessage(trace.file)): no /\(escapedForMessage(stream)) stream to drop (it has \(trace.streams.map(\.name).joined(separator: ", ")))"
        )
    }
    var out = trace
    out.streams.removeAll { $0.name == stream }
    return out
}

/// The streams of `a` and `b` in one trace with `a`'s root attributes; a stream both hold is
/// an error naming it (drop it from one first).
///
/// - Complexity: O(number of streams).
public func mergingTraces(_ a: LoadedTrace, _ b: LoadedTrace) throws(TraceEditError) -> LoadedTrace {
    var out = a
    for s in b.streams {
        guard a.stream(s.name) == nil else {
            throw TraceEditError("\(escapedForMessage(b.file)): /\(s.name) is also in \(escapedForMessage(a.file)) (drop it from one of them first)")
        }
        out.streams.append(s)
    }
    out.streams.sort { x, y in streamOrder(x.name) < streamOrder(y.name) }
    return out
}

/// Every stream of `trace` cut to the samples with start ≤ t ≤ end (per-sample datasets are
/// sliced by row; the beacon table is kept whole). A stream left empty is an error.
///
/// - Complexity: O(size of the trace).
public func trimmingTrace(_ trace: LoadedTrace, start: Double, end: Double) throws(TraceEditError) -> LoadedTrace {
    guard start.isFinite, end.isFinite, start <= end else {
        throw TraceEditError("--start \(start) --end \(end): expected finite seconds with start ≤ end")
    }
    var out = trace
    var emptied: [String] = []
    for (k, s) in trace.streams.enumerated() {
        guard let spec = TraceSchema.stream(named: s.name) else { continue }
        let t = s.timestamps
        let keep = t.indices.filter { t[$0] >= start && t[$0] <= end }
        if keep.isEmpty && spec.isAnnotation {
            emptied.append(s.name)  // labels outside the window: the stream goes, the trace stays valid
            continue
        }
        guard !keep.isEmpty else {
            throw TraceEditError(
                "\(escapedForMessage(trace.file)): /\(s.name) has no sample between \(start) and \(end) s (it spans \(t.first ?? .nan)…\(t.last ?? .nan) s)"
            )
        }
        for ds in spec.datasets where ds.rows == .samples {
            guard let raw = s.data[ds.name] else { continue }
            switch raw {
            case let .float(shape, v):
                let w = shape.dropFirst().reduce(1, *)
                let values: [Double] = keep.flatMap { (i: Int) -> ArraySlice<Double> in v[(i * w)..<(i * w + w)] }
                out.streams[k].data[ds.name] = .float(shape: [keep.count] + shape.dropFirst(), values: values)
            case let .integer(shape, v):
                let w = shape.dropFirst().reduce(1, *)
                let values: [Int32] = keep.flatMap { (i: Int) -> ArraySlice<Int32> in v[(i * w)..<(i * w + w)] }
                out.streams[k].data[ds.name] = .integer(shape: [keep.count] + shape.dropFirst(), values: values)
            case let .string(v):
                out.streams[k].data[ds.name] = .string(keep.map { v[$0] })
            }
        }
    }
    out.streams.removeAll { emptied.contains($0.name) }
    return out
}

/// Sensor streams in the schema's order, then annotation streams by name.
private func streamOrder(_ name: String) -> (Int, String) { (TraceSchema.streams.firstIndex { $0.name == name } ?? Int.max, name) }

/// Validates `inputs` (the first error stops the edit), applies `edit` to their loaded traces,
/// appends `command` to the root attribute `processing`, writes `output` atomically (a
/// temporary file renamed into place) and validates what was written. An output that is one
/// of the inputs is refused: inputs are never modified.
public func editTrace(
    inputs: [String], output: String, command: String, readPolicy: HDF5ReadPolicy = .standard,
    _ edit: ([LoadedTrace]) throws -> LoadedTrace
) throws {
    guard output != "-", !output.isEmpty else {
        throw TraceError(
            .writeFailed, file: output.isEmpty ? "''" : output, "an HDF5 trace cannot go to standard output or an empty path; name a .h5 file")
    }
    try requireReplaceableOutput(output)
    let outURL = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath().path
    for i in inputs where URL(fileURLWithPath: i).standardizedFileURL.resolvingSymlinksInPath().path == outURL {
        throw TraceError(.writeFailed, file: output, "the output is an input; inputs are never modified (name another --out)")
    }
    var traces: [LoadedTrace] = []
    for i in inputs {
        let report = validateTrace(at: i, policy: readPolicy)
        if let e = report.errors.first { throw e.error }
        guard let t = report.trace else { throw TraceError(.corrupt, file: i, "could not be loaded") }
        traces.append(t)
    }
    var result = try edit(traces)
    let previous = result.attributes["processing"]?.stringValue.map { $0 + "\n" } ?? ""
    result.attributes["processing"] = .string(previous + command)
    let staged = try StagedOutput(path: output)
    let staging = staged.temporary
    defer { staged.discard() }
    do { try writeTrace(result, to: staging) } catch {
        var named = error  // the user's output, not the staging file's name
        named.file = output
        throw named
    }
    let check = validateTrace(at: staging)
    if let e = check.errors.first {
        throw TraceEditError("\(escapedForMessage(output)): the edited trace would be invalid: \(e.error.problem)")
    }
    try staged.replaceTarget()
}
