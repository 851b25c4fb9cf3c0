import Foundation
import NavCore
import NavIO

/// A delimited text file split into fields, with the line number of every row.
struct DelimitedText {
    var header: [String]?
    var rows: [[String]]
    /// 1-based line of each row.
    var lines: [Int]

    /// Splits `text` by `layout`: quoted fields ("a, b", doubled quotes) with a one-character
    /// delimiter, runs of blanks with `delimiter: nil`; blank lines and comment lines skipped;
    /// fields trimmed of surrounding blanks.
    ///
    /// - Throws: naming the line of an unterminated quote or a row whose field count differs
    ///   from the header's (or the first row's).
    static func parse(_ text: String, file: String, layout: CSVLayout) throws(TraceError) -> DelimitedText {
        var out = DelimitedText(header: nil, rows: [], lines: [])
        var expected: Int?
        var lineNo = 0
        for raw in textLines(text) {
            lineNo += 1
            var line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if lineNo == 1, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if let c = layout.comment, trimmed.hasPrefix(c) { continue }
            let fields: [String]
            if let d = layout.delimiter {
                guard let f = splitQuoted(line, delimiter: d) else {
                    throw TraceError(.badValue, file: file, object: "line \(lineNo)", "unterminated quoted field")
                }
                fields = f
            } else {
                fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            }
            if layout.header && out.header == nil {
                out.header = fields
                expected = fields.count
                continue
            }
            if let e = expected, fields.count != e {
                throw TraceError(
                    .wrongShape, file: file, object: "line \(lineNo)",
                    "expected \(e) fields (as \(layout.header ? "the header" : "the first line")), found \(fields.count)")
            }
            expected = fields.count
            out.rows.append(fields)
            out.lines.append(lineNo)
        }
        if layout.header && out.header == nil {
            throw TraceError(.empty, file: file, "no header line; expected column names (or csv: {header: false} in the mapping)")
        }
        guard !out.rows.isEmpty else { throw TraceError(.empty, file: file, "no data lines") }
        return out
    }

    private static func splitQuoted(_ line: Substring, delimiter: Character) -> [String]? {
        var fields: [String] = []
        var current = ""
        var inQuotes = false
        var wasQuoted = false
        var it = line.makeIterator()
        var pending: Character? = nil
        while true {
            guard let c = pending ?? it.next() else { break }
            pending = nil
            if inQuotes {
                if c == "\"" {
                    if let next = it.next() {
                        if next == "\"" { current.append("\"") } else { inQuotes = false; pending = next }
                    } else {
                        inQuotes = false
                    }
                } else {
                    current.append(c)
                }
            } else if c == "\"" && current.trimmingCharacters(in: .whitespaces).isEmpty {
                inQuotes = true; wasQuoted = true; current = ""
            } else if c == delimiter {
                fields.append(wasQuoted ? current : current.trimmingCharacters(in: .whitespaces))
                current = ""; wasQuoted = false
            } else if !(wasQuoted && (c == " " || c == "\t")) {
                current.append(c)
            }
        }
        if inQuotes { return nil }
        fields.append(wasQuoted ? current : current.trimmingCharacters(in: .whitespaces))
        return fields
    }
}

/// Imports a delimited text file (CSV, TSV, whitespace-separated) driven by a mapping file
/// (`ImportMapping`, docs/importers.md): each trace dataset from named or numbered columns,
/// converted from the stated units, on a time column (s, ms, us, ns, or date-time text) or a
/// sample rate. `importCSV(_:[String]…)` reads several files at once.
///
/// Several streams may share one file at different rates: a row whose value cells for a
/// stream are all empty is not a sample of that stream (its time cell may be empty too).
/// With a sample rate, sample k is the k-th data row of the file.
///
/// - Throws: one line naming the CSV file, the line and the column (a cell that is not a
///   number, a half-empty row, times out of order, an invalid value under
///   `invalid_rows: error`), or the mapping file, its line and key (unknown column, wrong units).
public func importCSV(_ path: String, mapping: ImportMapping, options: ImportOptions = ImportOptions()) throws(TraceError) -> ImportResult {
    try importCSV([path], mapping: mapping, options: options)
}

/// `importCSV` of several files (`import csv IN… --mapping M`), one per entry of the mapping's
/// `inputs:` (each with its own clock and offset). A stream's samples are the rows of its input
/// (`input:`, default 1); a dataset of another input (`input:` on the field) is read on that
/// input's clock and interpolated at the stream's times (linearly; quaternions by slerp), and
/// the stream's rows outside that input's time span are left out (a note counts them).
///
/// - Throws: as `importCSV(_:mapping:options:)`; also when the number of files differs from
///   the mapping's inputs, or a beacon or integer dataset would need interpolating.
public func importCSV(_ paths: [String], mapping: ImportMapping, options: ImportOptions = ImportOptions()) throws(TraceError) -> ImportResult {
    try importDelimited(paths, mapping: mapping, options: options, tables: [:])
}

/// `importCSV` of files some of which the caller has split already (`tables`, by input number,
/// 1-based): a preset that checks its files' fields before building the mapping.
func importDelimited(
    _ paths: [String], mapping: ImportMapping, options: ImportOptions, tables preparsed: [Int: DelimitedText]
) throws(TraceError) -> ImportResult {
    if let s = mapping.source, s != .csv {
        throw TraceError(
            .badValue, file: mapping.file, object: "source",
            "the mapping is for \(s.rawValue) files; import it with \(s == .mat ? "mat-mapped" : "hdf5-mapped"), or set source: csv")
    }
    let inputCount = max(1, mapping.inputs.count)
    guard paths.count == inputCount else {
        throw TraceError(
            .badValue, file: mapping.file, object: "inputs",
            "the mapping describes \(inputCount) input file\(inputCount == 1 ? "" : "s") (inputs:), \(paths.count) given; give them in the order of inputs:"
        )
    }
    var tables = preparsed
    func table(_ k: Int) throws(TraceError) -> DelimitedText {
        if let t = tables[k] { return t }
        let t = try DelimitedText.parse(try readTextFile(paths[k - 1], expected: "a delimited text file"), file: paths[k - 1], layout: mapping.csv)
        tables[k] = t
        return t
    }
    let parser = MappingParser(file: mapping.file)
    var session = Session(metadata: importMetadata(options, frameConvention: mapping.frameConvention(format: "CSV")))
    var notes: [String] = []
    for sm in mapping.streams {
        let primary = sm.input ?? 1
        let inputOf = { (f: FieldMapping) in f.input ?? primary }
        let targets = TargetField.fields(of: sm.name)!
        guard let timeSpec = sm.time ?? mapping.inputs.dropFirst(primary - 1).first?.time ?? mapping.time else {
            throw parser.fail(
                line: sm.line, "streams.\(sm.name).time",
                "no clock; give time: {column: …, units: …} or {sample_rate: HZ} at the top, in the input or in the stream")
        }
        let offset = mapping.inputs.dropFirst(primary - 1).first?.offset ?? 0
        let mainFields = targets.filter { t in sm.fields[t.name].map { inputOf($0) == primary } ?? false }
        var main = try CSVStreamColumns(
            table: try table(primary), path: paths[primary - 1], stream: sm, targets: mainFields, time: timeSpec, offset: offset,
            timeKey: sm.time != nil
                ? "streams.\(sm.name).time.column"
                : mapping.inputs.dropFirst(primary - 1).first?.time != nil ? "inputs[\(primary)].time.column" : "time.column",
            parser: parser)
        if options.sortRowsByTime, let note = main.sortByTime(stream: sm.name, reason: options.sortRowsReason) { notes.append(note) }
        // Datasets of other inputs, interpolated at the stream's times.
        var interpolatedFrom: [String: String] = [:]
        for j in Set(sm.fields.values.map(inputOf)).subtracting([primary]).sorted() {
            let others = targets.filter { t in sm.fields[t.name].map { inputOf($0) == j } ?? false }
            for t in others where t.kind == .key || t.kind == .integer {
                throw parser.fail(
                    line: sm.fields[t.name]!.line, "streams.\(sm.name).\(t.name).input",
                    "\(t.name) cannot be interpolated from another input; read it from the stream's input \(primary)")
            }
            let input = mapping.inputs[j - 1]
            guard let clock = input.time ?? mapping.time else {
                throw parser.fail(line: input.line, "inputs[\(j)].time", "no clock for input \(j); give its time: {column: …, units: …}")
            }
            var other = try CSVStreamColumns(
                table: try table(j), path: paths[j - 1], stream: sm, targets: others, time: clock, offset: input.offset,
                timeKey: "inputs[\(j)].time.column", parser: parser)
            if options.sortRowsByTime, let note = other.sortByTime(stream: sm.name, reason: options.sortRowsReason) { notes.append(note) }
            try other.checkIncreasing(path: paths[j - 1])
            let left = main.interpolate(other, targets: others)
            if left > 0 {
                notes.append("\(paths[primary - 1]): \(sm.name): \(left) rows outside the time span of \(paths[j - 1]) left out")
            }
            for t in others { interpolatedFrom[t.name] = paths[j - 1] }
        }
        guard !main.rows.isEmpty else {
            throw TraceError(
                .empty, file: paths[primary - 1], object: sm.name, "no rows of the \(sm.name) stream within the time span of every input")
        }
        let m = main, from = interpolatedFrom
        let src = SourceStream(name: sm.name, times: m.times, fields: m.fields, keys: m.keys) { i, field in
            let label = m.label(i, field)
            if let field, let f = from[field] { return "\(label), \(field) interpolated from \(fileName(of: f))" }
            return label
        }
        try assembleStream(
            src, mapping: sm, beaconsInFrame: sm.frame ?? mapping.frame, frame: sm.frame ?? mapping.frame,
            policy: sm.invalidRows ?? options.invalidRows, file: paths[primary - 1], into: &session, notes: &notes)
    }
    return ImportResult(session: session, notes: notes)
}

/// One stream's columns of one input: its rows (any of its value cells filled), their times on
/// the input's clock plus its offset, and the values of `targets` in trace units.
private struct CSVStreamColumns {
    let table: DelimitedText
    let path: String
    var rows: [Int] = []
    var times: [Double] = []
    var fields: [String: [Double]] = [:]
    var keys: [String]?
    var columnsOf: [String: [Int]] = [:]
    var timeColumn: Int?

    init(
        table: DelimitedText, path: String, stream sm: StreamMapping, targets: [TargetField], time timeSpec: TimeSpec, offset: Double,
        timeKey: String, parser: MappingParser
    ) throws(TraceError) {
        self.table = table; self.path = path
        let width = table.rows[0].count
        func resolve(_ c: ColumnReference, line: Int, key: String) throws(TraceError) -> Int {
            switch c {
            case let .index(i):
                guard i < width else {
                    throw parser.fail(line: line, key, "column index \(i) is past the last column (the file has \(width), indices 0…\(width - 1))")
                }
                return i
            case let .name(n):
                guard let header = table.header else {
                    throw parser.fail(
                        line: line, key, "column '\(n)' is named, but the file has no header (csv: {header: false}); use 0-based indices")
                }
                guard let i = header.firstIndex(of: n) else {
                    throw TraceError(
                        .missing, file: path, object: "column '\(n)'",
                        "not found (wanted by \(parser.file) line \(line), \(key)); columns are \(header.joined(separator: ", "))")
                }
                return i
            }
        }
        for t in targets {
            guard let f = sm.fields[t.name], case let .columns(cs) = f.source else { continue }
            var idx: [Int] = []
            for c in cs { idx.append(try resolve(c, line: f.line, key: "streams.\(sm.name).\(t.name)")) }
            columnsOf[t.name] = idx
        }
        if case let .values(.columns(cs), _) = timeSpec { timeColumn = try resolve(cs[0], line: sm.line, key: timeKey) }
        // The rows that are samples of this stream: any value cell filled.
        let valueColumns = columnsOf.values.flatMap { $0 }
        for r in table.rows.indices {
            let filled = valueColumns.filter { !table.rows[r][$0].isEmpty }
            if valueColumns.isEmpty || filled.count == valueColumns.count { rows.append(r); continue }
            if filled.isEmpty { continue }
            let empty = valueColumns.first { table.rows[r][$0].isEmpty }!
            throw TraceError(
                .missing, file: path, object: "line \(table.lines[r]), column \(columnName(empty))",
                "empty cell in the \(sm.name) stream's row; a stream's cells must be all filled or all empty")
        }
        guard !rows.isEmpty else { throw TraceError(.empty, file: path, object: sm.name, "no rows with values for the \(sm.name) stream") }
        // Times.
        times.reserveCapacity(rows.count)
        switch timeSpec {
        case let .values(_, units):
            let c = timeColumn!
            for r in rows {
                let s = table.rows[r][c]
                if s.isEmpty {
                    throw TraceError(
                        .missing, file: path, object: "line \(table.lines[r]), column \(columnName(c))",
                        "empty time cell in a row of the \(sm.name) stream")
                }
                if units == dateTimeUnits {
                    guard let t = secondsSinceEpoch(dateTime: s) else {
                        throw TraceError(
                            .badValue, file: path, object: "line \(table.lines[r]), column \(columnName(c))",
                            "expected date-time text such as 2021-03-13 10:05:11.250 (UTC unless a zone Z or ±hh:mm follows), found '\(s.prefix(40))'"
                        )
                    }
                    times.append(t + offset)
                    continue
                }
                let v = try cellNumber(r, c)
                times.append((units == "ns" ? secondsFromNanoseconds(v) : v * UnitConversion.factor(from: units, to: .time)!) + offset)
            }
        case let .sampleRate(rate, start):
            guard case let .hz(hz) = rate else {
                throw parser.fail(
                    line: sm.line, "time.sample_rate", "an HDF5 attribute or dataset cannot give a CSV file's rate; give the rate in Hz")
            }
            times = rows.map { start + Double($0) / hz + offset }
        }
        // Values, converted and scaled.
        for t in targets {
            guard let f = sm.fields[t.name] else { continue }
            let factor = f.units.flatMap { UnitConversion.factor(from: $0, to: t.quantity) } ?? 1
            switch f.source {
            case let .constant(v):
                if t.kind == .key {
                    keys = Array(repeating: formatNumber(v[0]), count: rows.count)
                } else {
                    fields[t.name] = constantValues(v, factor: factor * f.scale, count: rows.count)
                }
            case .columns:
                let idx = columnsOf[t.name]!
                if t.kind == .key {
                    keys = rows.map { table.rows[$0][idx[0]] }
                    continue
                }
                var v: [Double] = []
                v.reserveCapacity(rows.count * idx.count)
                for r in rows { for c in idx { v.append(try cellNumber(r, c) * factor * f.scale) } }
                fields[t.name] = t.kind == .quaternion ? reorderQuaternion(v, order: f.order) : v
            case .dataset:
                throw parser.fail(line: f.line, "streams.\(sm.name).\(t.name)", "a dataset in a CSV import; use column or columns")
            }
        }
    }

    func columnName(_ i: Int) -> String { table.header.map { "'\($0[i])'" } ?? "\(i)" }

    func cellNumber(_ r: Int, _ c: Int) throws(TraceError) -> Double {
        let s = table.rows[r][c]
        guard let v = parseNumber(s) else {
            throw TraceError(
                .badValue, file: path, object: "line \(table.lines[r]), column \(columnName(c))", "expected a number, found '\(s.prefix(40))'")
        }
        return v
    }

    /// Where row i's field came from: "line 12, column 'ax'".
    func label(_ i: Int, _ field: String?) -> String {
        let line = "line \(table.lines[rows[i]])"
        if let field, let cs = columnsOf[field] { return "\(line), column\(cs.count > 1 ? "s" : "") \(cs.map(columnName).joined(separator: ", "))" }
        if field == nil, let c = timeColumn { return "\(line), column \(columnName(c))" }
        return line
    }

    /// Puts the rows in time order when some are not (a stable sort: equal times keep their file
    /// order; a NaN time sorts last and is refused later as before). Returns a note counting the
    /// rows that moved and the largest step back in time, or nil when the rows were in order.
    ///
    /// - Complexity: O(n log n) when out of order, O(n) otherwise.
    mutating func sortByTime(stream: String, reason: String) -> String? {
        let n = times.count
        var largestStepBack = 0.0
        for i in times.indices.dropFirst() where times[i] < times[i - 1] { largestStepBack = max(largestStepBack, times[i - 1] - times[i]) }
        guard largestStepBack > 0 else { return nil }
        let order = times.indices.sorted { a, b in
            let ta = times[a], tb = times[b]
            if ta.isNaN != tb.isNaN { return tb.isNaN }
            if !ta.isNaN && ta != tb { return ta < tb }
            return a < b
        }
        let moved = order.enumerated().filter { $0.offset != $0.element }.count
        func permuted(_ v: [Double]) -> [Double] {
            let w = n == 0 ? 0 : v.count / n
            return order.flatMap { v[(w * $0)..<(w * $0 + w)] }
        }
        for (name, v) in fields { fields[name] = permuted(v) }
        keys = keys.map { k in order.map { k[$0] } }
        rows = order.map { rows[$0] }
        times = order.map { times[$0] }
        let back = String(format: "%.3g", largestStepBack)
        return "\(path): \(stream): \(moved) rows out of time order sorted (\(reason); largest step back \(back) s)"
    }

    /// Throws unless the times are finite and increase strictly (an input interpolated from must).
    func checkIncreasing(path: String) throws(TraceError) {
        if let i = times.firstIndex(where: { !$0.isFinite }) {
            throw TraceError(
                .badTimestamps, file: path, object: label(i, nil),
                "time \(num(times[i])) s, expected a finite number (an input interpolated from needs finite, increasing times)")
        }
        for i in times.indices.dropFirst() where !(times[i] > times[i - 1]) {
            throw TraceError(
                .badTimestamps, file: path, object: label(i, nil),
                "time \(num(times[i])) s is not after \(num(times[i - 1])) s (\(label(i - 1, nil))); an input interpolated from needs increasing times"
            )
        }
    }

    /// Adds `other`'s `targets` interpolated at these rows' times, leaving out the rows outside
    /// its time span; returns how many were left out.
    mutating func interpolate(_ other: CSVStreamColumns, targets: [TargetField]) -> Int {
        let t = other.times
        let keep = times.indices.filter { times[$0] >= t.first! && times[$0] <= t.last! }
        let left = times.count - keep.count
        func pick(_ v: [Double], width: Int) -> [Double] { keep.flatMap { v[(width * $0)..<(width * $0 + width)] } }
        for (name, v) in fields { fields[name] = pick(v, width: v.count / max(1, times.count)) }
        keys = keys.map { k in keep.map { k[$0] } }
        rows = keep.map { rows[$0] }
        times = keep.map { times[$0] }
        for target in targets {
            guard let v = other.fields[target.name] else { continue }
            let w = target.kind == .quaternion ? 4 : target.width
            let rows = (0..<(v.count / w)).map { Array(v[(w * $0)..<(w * $0 + w)]) }
            let at = interpolated(t, rows, at: times) { a, b, u in
                guard target.kind == .quaternion else { return zip(a, b).map { $0 + u * ($1 - $0) } }
                let s = slerpQuaternion(Quaternion(x: a[0], y: a[1], z: a[2], w: a[3]), Quaternion(x: b[0], y: b[1], z: b[2], w: b[3]), u)
                return [s.x, s.y, s.z, s.w]
            }
            fields[target.name] = at?.flatMap { $0 } ?? []  // every kept time lies in the span: never nil
        }
        return left
    }
}

/// A decimal number (correctly rounded, as Python's float) or nan/inf; nil otherwise.
func parseNumber(_ s: String) -> Double? {
    var s = s
    return s.withUTF8 { parseDecimal($0) }
}
