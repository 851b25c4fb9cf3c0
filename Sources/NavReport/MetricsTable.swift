import Foundation
import NavCore
import NavIO

/// One number of one run in one configuration: a row of `metrics.csv` (tidy long form).
public struct MetricRow: Sendable, Equatable, Codable {
    public var route: String
    public var session: String
    public var configuration: String
    /// Values of the table's parameter columns, in the table's column order.
    public var parameters: [String]
    public var metric: String
    public var value: Double
    public var unit: String

    public init(route: String, session: String, configuration: String, parameters: [String], metric: String, value: Double, unit: String) {
        self.route = route; self.session = session; self.configuration = configuration
        self.parameters = parameters; self.metric = metric; self.value = value; self.unit = unit
    }

    public var key: String { "\(route)\u{1}\(session)\u{1}\(configuration)\u{1}\(metric)" }
}

/// A tidy table of metric rows: `route, session, configuration, <parameters…>, metric, value, unit`.
public struct MetricsTable: Sendable, Equatable {
    public var parameterColumns: [String]
    public var rows: MetricRows

    public init<S: Sequence>(parameterColumns: [String], rows: S) where S.Element == MetricRow {
        self.parameterColumns = parameterColumns
        self.rows = MetricRows()
        for r in rows { self.rows.append(r) }
    }

    /// Writes the CSV text of `csv` to `path` atomically, a row at a time (memory O(1) in the rows).
    public func writeCSV(to path: String) throws(TraceError) { try writeRows(to: path, rowIndices: rows.indices) }

    /// Writes the CSV text of the rows at `rowIndices` (in that order) to `path` atomically.
    public func writeCSV(to path: String, rowIndices: [Int]) throws(TraceError) { try writeRows(to: path, rowIndices: rowIndices) }

    /// `writeCSV`'s body, generic inside this module only, where each call is specialised (a
    /// public generic called from another module ran unspecialised: generic metadata per row).
    private func writeRows<S: Sequence<Int>>(to path: String, rowIndices: S) throws(TraceError) {
        let w = try AtomicTextWriter(path: path)
        w.write((Self.fixedLeading + parameterColumns + Self.fixedTrailing).joined(separator: ",") + "\n")
        // Rows of one run share route, session, configuration and parameters: their escaped
        // prefix is built once per run, each metric's escaped name and unit once per table (the
        // line is `csvLine`'s, byte for byte), and no row is materialised as a `MetricRow`.
        var prefix = "", lastContext = -1
        var metricText: [Int: (name: String, unit: String)] = [:]
        for i in rowIndices {
            let (c, m, value) = rows.parts(ofRow: i, after: lastContext)
            if c != lastContext {
                lastContext = c
                let x = rows.context(c)
                prefix = ([x.route, x.session, x.configuration] + x.parameters).map(csvField).joined(separator: ",") + ","
            }
            let text: (name: String, unit: String)
            if let t = metricText[m] {
                text = t
            } else {
                let n = rows.metric(m)
                text = (csvField(n.name), csvField(n.unit))
                metricText[m] = text
            }
            // Each part into the writer's buffer: no line is built as a String of its own.
            w.write(prefix)
            w.write(text.name)
            w.write(",")
            w.write(csvField(formatNumber(value)))
            w.write(",")
            w.write(text.unit)
            w.write("\n")
        }
        try w.commit()
    }

    static func csvLine(_ r: MetricRow) -> String {
        ([r.route, r.session, r.configuration] + r.parameters + [r.metric, formatNumber(r.value), r.unit]).map(csvField).joined(separator: ",")
            + "\n"
    }

    public static let fixedLeading = ["route", "session", "configuration"]
    public static let fixedTrailing = ["metric", "value", "unit"]

    /// CSV text; numbers with the fewest digits that read back exactly, NaN as `nan`.
    public var csv: String {
        var out = (Self.fixedLeading + parameterColumns + Self.fixedTrailing).joined(separator: ",") + "\n"
        for r in rows { out += Self.csvLine(r) }
        return out
    }

    /// Reads `metrics.csv` written by `csv`, or written back by pandas (`to_csv`: NaN as an
    /// empty cell; `NaN`, `nan` and `inf` spellings accepted).
    ///
    /// - Throws: one line naming the file, line and column.
    public static func read(_ path: String) throws(TraceError) -> MetricsTable {
        let t = try CSVTable.read(path)
        guard t.header.count >= 6, Array(t.header.prefix(3)) == fixedLeading, Array(t.header.suffix(3)) == fixedTrailing else {
            throw TraceError(.wrongShape, file: path, object: "line 1", "expected columns route, session, configuration, …, metric, value, unit")
        }
        let params = Array(t.header[3..<(t.header.count - 3)])
        var rows: [MetricRow] = []
        for (i, f) in t.rows.enumerated() {
            let raw = f[f.count - 2]
            guard let v = raw.isEmpty || raw == "nan" || raw == "NaN" ? Double.nan : Double(raw) else {
                throw TraceError(
                    .badValue, file: path, object: "line \(i + 2), column 'value'", "expected a number, nan or an empty cell, found '\(raw)'")
            }
            rows.append(
                MetricRow(
                    route: f[0], session: f[1], configuration: f[2], parameters: Array(f[3..<(f.count - 3)]),
                    metric: f[f.count - 3], value: v, unit: f[f.count - 1]))
        }
        return MetricsTable(parameterColumns: params, rows: rows)
    }
}

/// Whether a larger value of a metric is better, worse, or neither.
public enum MetricPolarity: String, Sendable {
    case lowerIsBetter = "lower is better", higherIsBetter = "higher is better", neutral

    /// Errors, drift and counts of bad events are lower-is-better; agreement, precision, recall
    /// and completion are higher-is-better; descriptive counts are neutral.
    public static func of(_ metric: String) -> MetricPolarity {
        let higher = ["agreement", "precision", "recall", "completed", "accuracy"]
        let neutral = ["instructions", "pulses", "keypoints", "route_length"]
        if neutral.contains(metric) { return .neutral }
        if higher.contains(where: { metric.contains($0) }) { return .higherIsBetter }
        return .lowerIsBetter
    }
}

/// The rows of a `MetricsTable`, stored by columns: the strings of a run (route, session,
/// configuration, parameters) once per run, the metric name and unit once per table, so a row
/// costs 12 bytes (metric, value) instead of a `MetricRow`'s ~100 and its strings.
/// Reading a row rebuilds the `MetricRow` (its strings shared, not copied).
///
/// Complexity: `append` O(1) amortized (a hash of the metric name); subscript O(log runs), O(1) a row iterated.
public struct MetricRows: RandomAccessCollection, Sendable, Equatable {
    struct Context: Sendable, Equatable { var route: String, session: String, configuration: String, parameters: [String] }
    private var contexts: [Context] = []
    private var metricNames: [(name: String, unit: String)] = []
    /// The metrics the rows hold, in the order they first appear.
    public var metrics: [String] { metricNames.map(\.name) }
    private var metricIndex: [String: [UInt32]] = [:]
    /// First row of each context (rows of one context are consecutive): 4 bytes a run, not a row.
    private var contextStart: [Int] = []
    private var metricOfRow: [UInt32] = []
    private var values: [Double] = []

    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { values.count }

    public subscript(i: Int) -> MetricRow { row(i, context: context(ofRow: i)) }

    private func row(_ i: Int, context: Int) -> MetricRow {
        let c = contexts[context], m = metricNames[Int(metricOfRow[i])]
        return MetricRow(
            route: c.route, session: c.session, configuration: c.configuration, parameters: c.parameters,
            metric: m.name, value: values[i], unit: m.unit)
    }

    /// The rows in order, each run's context found by walking on (O(1) a row), not searched.
    public struct Iterator: IteratorProtocol {
        let rows: MetricRows
        var position = 0, context = -1

        public mutating func next() -> MetricRow? {
            guard position < rows.values.count else { return nil }
            while context + 1 < rows.contextStart.count && rows.contextStart[context + 1] <= position { context += 1 }
            defer { position += 1 }
            return rows.row(position, context: context)
        }
    }

    public func makeIterator() -> Iterator { Iterator(rows: self) }

    /// Each run's labels, in order: a run is the consecutive rows sharing route, session,
    /// configuration and parameters (what `append` keeps once). O(runs), not O(rows).
    public var runs: [(route: String, session: String, configuration: String, parameters: [String])] {
        contexts.map { ($0.route, $0.session, $0.configuration, $0.parameters) }
    }

    /// Appends a row; consecutive rows of one run share their context.
    public mutating func append(_ r: MetricRow) {
        if let last = contexts.last, last.route == r.route, last.session == r.session, last.configuration == r.configuration,
            last.parameters == r.parameters
        {
        } else {
            contexts.append(Context(route: r.route, session: r.session, configuration: r.configuration, parameters: r.parameters))
            contextStart.append(values.count)
        }
        let m: UInt32
        if let i = metricIndex[r.metric]?.first(where: { metricNames[Int($0)].unit == r.unit }) {
            m = i
        } else {
            m = UInt32(metricNames.count)
            metricNames.append((r.metric, r.unit))
            metricIndex[r.metric, default: []].append(m)
        }
        metricOfRow.append(m)
        values.append(r.value)
    }

    /// Reserves room for `rows` rows of `runs` runs (a table read from a store knows both), so the
    /// arrays do not grow by doubling past what they hold.
    public mutating func reserveCapacity(rows: Int, runs: Int) {
        values.reserveCapacity(rows); metricOfRow.reserveCapacity(rows)
        contexts.reserveCapacity(runs); contextStart.reserveCapacity(runs)
    }

    /// Row `i`'s context index, metric index and value, without building the row: O(1) when the
    /// row belongs to context `hint` or the next (rows read in order), else O(log contexts).
    func parts(ofRow i: Int, after hint: Int) -> (context: Int, metric: Int, value: Double) {
        var c: Int
        if hint >= 0, hint < contextStart.count, contextStart[hint] <= i, hint + 1 == contextStart.count || i < contextStart[hint + 1] {
            c = hint
        } else if hint + 1 >= 0, hint + 1 < contextStart.count, contextStart[hint + 1] <= i,
            hint + 2 == contextStart.count || i < contextStart[hint + 2]
        {
            c = hint + 1
        } else {
            c = context(ofRow: i)
        }
        return (c, Int(metricOfRow[i]), values[i])
    }

    /// Context `c`'s labels.
    func context(_ c: Int) -> (route: String, session: String, configuration: String, parameters: [String]) {
        let x = contexts[c]
        return (x.route, x.session, x.configuration, x.parameters)
    }

    /// Metric `m`'s name and unit.
    func metric(_ m: Int) -> (name: String, unit: String) { metricNames[m] }

    /// The context of row `i`: the last context starting at or before it. O(log contexts).
    private func context(ofRow i: Int) -> Int {
        var lo = 0, hi = contextStart.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if contextStart[mid] <= i { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    public mutating func append<S: Sequence>(contentsOf rows: S) where S.Element == MetricRow { for r in rows { append(r) } }

    public static func += <S: Sequence>(lhs: inout MetricRows, rhs: S) where S.Element == MetricRow { lhs.append(contentsOf: rhs) }

    public static func == (a: MetricRows, b: MetricRows) -> Bool { a.elementsEqual(b) }
}

/// Name of the pooled "route" of a table's rows over every route: the overall tables of cells.csv
/// and comparisons.csv, the gate's pooled rows, the closed loop's pooled comparisons.
public let allRoutesLabel = "all"

/// A number of the gate's tables and messages: 6 significant digits, "–" when not finite.
func gateNumber(_ v: Double) -> String { v.isFinite ? String(format: "%.6g", v) : "–" }
