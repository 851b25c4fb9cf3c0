import Foundation
import NavCore
import NavIO

/// Which columns of a CSV hold an annotation stream (`navbench trace add-annotations`).
public struct AnnotationColumns: Sendable, Equatable {
    public var start: String
    /// nil: instants (end = start).
    public var end: String?
    /// nil: every row labelled with the stream's name.
    public var label: String?
    public var value: String?
    public var valueUnits: String
    /// Seconds added to every time (the labels' clock → the trace's).
    public var timeOffset: Double

    public init(start: String, end: String? = nil, label: String? = nil, value: String? = nil, valueUnits: String = "1", timeOffset: Double = 0) {
        self.start = start; self.end = end; self.label = label; self.value = value; self.valueUnits = valueUnits; self.timeOffset = timeOffset
    }
}

/// A lab's own labels from a CSV with a header (quoted fields allowed): one row per instant or
/// interval, sorted by start on the way in (a stable sort: rows of equal start keep their order).
///
/// - Throws: one line naming the file, the line and the column: a missing column, a time that
///   is not a finite number, an interval that ends before it starts, an invalid stream name.
/// - Complexity: O(bytes + rows log rows).
public func importAnnotationCSV(_ path: String, name: String, source: String, columns: AnnotationColumns) throws(TraceError) -> AnnotationStream {
    let table = try CSVTable.read(path)
    guard columns.timeOffset.isFinite else { throw TraceError(.badValue, file: path, "--t-offset must be a finite number of seconds") }
    let start = try table.numbers(columns.start)
    let end = try columns.end.map { (c: String) throws(TraceError) -> [Double] in try table.numbers(c) } ?? start
    let value = try columns.value.map { (c: String) throws(TraceError) -> [Double] in try table.numbers(c) }
    var label = Array(repeating: name, count: table.rowCount)
    if let l = columns.label {
        let c = try table.columnIndex(l)
        label = (0..<table.rowCount).map { r in
            let f = table.fields(ofRow: r)
            return c < f.count ? f[c] : ""
        }
    }
    for r in 0..<table.rowCount {
        let line = "line \(r + 2)"
        guard start[r].isFinite, end[r].isFinite else {
            throw TraceError(.badValue, file: path, object: line, "start and end must be finite seconds (found \(num(start[r])), \(num(end[r])))")
        }
        guard end[r] >= start[r] else {
            throw TraceError(.badValue, file: path, object: line, "the interval ends (\(num(end[r])) s) before it starts (\(num(start[r])) s)")
        }
        if let v = value, v[r].isInfinite { throw TraceError(.badValue, file: path, object: "\(line), column '\(columns.value!)'", "infinite value") }
    }
    let order = (0..<table.rowCount).sorted { (start[$0], $0) < (start[$1], $1) }
    let stream = AnnotationStream(
        name: name, kind: columns.end == nil ? .instants : .intervals, source: source, start: order.map { start[$0] + columns.timeOffset },
        end: order.map { end[$0] + columns.timeOffset }, label: order.map { label[$0] }, value: value.map { v in order.map { v[$0] } },
        valueUnits: columns.valueUnits)
    if let p = stream.problem() { throw TraceError(.badValue, file: path, p) }
    return stream
}
