import Foundation
import NavCore
import NavIO
import NavSignal

/// `filterTrace` block by block: validates the input without loading its float datasets,
/// filters `dataset` `blockRows` rows at a time with one `ChunkedFilter` per column (state
/// carried across blocks, so the output is the whole-array filter's bit for bit), copies every
/// other dataset block by block, and writes the output with `compression`, atomically.
///
/// Memory: O(blockRows · columns) plus the integer and string datasets (small in practice);
/// zero-phase Butterworth also keeps its forward pass (8 bytes per row and column).
///
/// - Throws: the input's first validation error, a missing or non-float dataset, a sample rate
///   that cannot be inferred, a bad filter spec, or a write failure — each one line.
/// - Complexity: O(rows) reads of the time axis (validation: 6 passes for order and the median
///   interval) and one read and write of every dataset.
func filterTraceInBlocks(
    input: String, output: String, spec: FilterSpec, dataset: String, rate: Double?, command: String,
    compression: HDF5Compression, blockRows: Int, readPolicy: HDF5ReadPolicy = .standard
) throws {
    precondition(blockRows > 0, "blockRows must be positive")
    let report = validateTrace(at: input, loadValues: false, policy: readPolicy)
    if let e = report.errors.first { throw e.error }
    var trace = report.trace!
    let parts = dataset.split(separator: "/", maxSplits: 1).map(String.init)
    let target = parts.count == 2 ? trace.streams.firstIndex { $0.name == parts[0] } : nil
    guard let si = target, let shape = trace.streams[si].deferredShapes[parts[1]] ?? trace.streams[si].data[parts[1]]?.shape else {
        let available = trace.streams.flatMap { s in
            Set(s.data.keys).union(s.deferredShapes.keys).sorted().filter { $0 != "timestamps" }.map { "\(s.name)/\($0)" }
        }
        throw TraceError(.missing, file: input, object: "/" + dataset, "no such dataset; numeric datasets here: \(available.joined(separator: ", "))")
    }
    guard trace.streams[si].deferredShapes[parts[1]] != nil else {
        throw TraceError(.wrongType, file: input, object: "/" + dataset, "expected a float dataset to filter")
    }
    let stream = trace.streams[si]
    let rows = shape[0]
    let cols = shape.count == 2 ? shape[1] : 1
    let firstName = cols == 1 ? parts[1] : cols == 3 ? "x" : "c0"
    var effective = spec
    let circular: Set<FilterSpec.Kind> = [.circmean, .kalmanHeading]
    if stream.units[parts[1]] == "deg", dataset.hasSuffix("heading"), !circular.contains(spec.kind), !spec.flags.contains("angle") {
        effective = try FilterSpec(parsing: spec.text + (spec.text.contains(":") ? ",angle" : ":angle"))
    }
    let fs: Double
    if let rate {
        fs = rate
    } else {
        let median = stream.medianInterval ?? 0
        guard median > 0 else { throw JobError("\(firstName): cannot infer a sample rate from its timestamps; give --rate HZ") }
        fs = 1 / median
    }
    let filters = try (0..<cols).map { _ in try ChunkedFilter(spec: effective, sampleRate: fs, count: rows) }

    let previous = trace.attributes["processing"]?.stringValue.map { $0 + "\n" } ?? ""
    trace.attributes["processing"] = .string(previous + command)
    let reader = try HDF5Reader(path: input, policy: readPolicy)
    let w = try HDF5Writer(path: output)
    w.compression = compression
    try w.setRootAttributes(trace.attributes)
    for st in trace.streams {
        guard let schema = TraceSchema.stream(named: st.name) else { continue }
        for ds in schema.datasets {
            let path = "/\(st.name)/\(ds.name)"
            let units = st.units[ds.name] ?? ds.units ?? "1"
            if let raw = st.data[ds.name] {
                switch raw {
                case let .float(shape, v): try w.write(path, doubles: v, shape: shape, units: units)
                case let .integer(shape, v): try w.write(path, int32s: v, shape: shape, units: units)
                case let .string(v): try w.write(path, strings: v)
                }
            } else if let shape = st.deferredShapes[ds.name] {
                let sink = try w.createDoubles(path, shape: shape, units: units)
                if st.name == stream.name && ds.name == parts[1] {
                    try filterBlocks(
                        reader, path, timestamps: "/\(st.name)/timestamps", rows: rows, columns: cols,
                        filters: filters, sink: sink, blockRows: blockRows)
                } else {
                    var start = 0
                    while start < shape[0] {
                        let end = min(shape[0], start + blockRows)
                        try sink.writeRows(try reader.readDoubles(path, rows: start..<end), at: start)
                        start = end
                    }
                }
            }
        }
    }
    try w.commit()
}

/// Column `c` of row-major `v` with `columns` per row.
private func column(_ v: [Double], _ c: Int, of columns: Int) -> [Double] {
    columns == 1 ? v : stride(from: c, to: v.count, by: columns).map { v[$0] }
}

private func interleave(_ cols: [[Double]]) -> [Double] {
    if cols.count == 1 { return cols[0] }
    let n = cols[0].count, m = cols.count
    var out = [Double](repeating: 0, count: n * m)
    for c in 0..<m { for i in 0..<n { out[i * m + c] = cols[c][i] } }
    return out
}

private func filterBlocks(
    _ reader: HDF5Reader, _ path: String, timestamps: String, rows: Int, columns: Int,
    filters: [ChunkedFilter], sink: HDF5RowSink, blockRows: Int
) throws {
    let look = filters.first?.lookahead ?? 0
    var start = 0
    while start < rows {
        let end = min(rows, start + blockRows)
        let v = try reader.readDoubles(path, rows: start..<end)
        let t = try reader.readDoubles(timestamps, rows: start..<end)
        let ahead = look > 0 && end < rows ? try reader.readDoubles(path, rows: end..<min(rows, end + look)) : []
        var outs: [[Double]] = []
        for c in 0..<columns {
            if let y = try filters[c].forward(column(v, c, of: columns), timestamps: t, ahead: column(ahead, c, of: columns)) { outs.append(y) }
        }
        if outs.count == columns { try sink.writeRows(interleave(outs), at: start) }
        start = end
    }
    guard filters.first?.isTwoPass == true else { return }
    for blockStart in stride(from: 0, to: rows, by: blockRows).reversed() {
        let r = blockStart..<min(rows, blockStart + blockRows)
        try sink.writeRows(interleave(try filters.map { try $0.backward(rows: r) }), at: blockStart)
    }
}
