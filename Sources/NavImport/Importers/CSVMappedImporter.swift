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
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
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
/// converted from the stated units, on a time column (s, ms, us, ns) or a sample rate.
///
/// Several streams may share one file at different rates: a row whose value cells for a
/// stream are all empty is not a sample of that stream (its time cell may be empty too).
/// With a sample rate, sample k is the k-th data row of the file.
///
/// - Throws: one line naming the CSV file, the line and the column (a cell that is not a
///   number, a half-empty row, times out of order, an invalid value under
///   `invalid_rows: error`), or the mapping file, its line and key (unknown column, wrong units).
public func importCSV(_ path: String, mapping: ImportMapping, options: ImportOptions = ImportOptions()) throws(TraceError) -> ImportResult {
    if let s = mapping.source, s != .csv {
        throw TraceError(
            .badValue, file: mapping.file, object: "source", "the mapping is for \(s.rawValue) files; import it with hdf5-mapped, or set source: csv")
    }
    let text = try readTextFile(path, expected: "a delimited text file")
    let table = try DelimitedText.parse(text, file: path, layout: mapping.csv)
    let width = table.rows[0].count
    let parser = MappingParser(file: mapping.file)

    func resolve(_ c: ColumnReference, line: Int, key: String) throws(TraceError) -> Int {
        switch c {
        case let .index(i):
            guard i < width else {
                throw parser.fail(line: line, key, "column index \(i) is past the last column (the file has \(width), indices 0…\(width - 1))")
            }
            return i
        case let .name(n):
            guard let header = table.header else {
                throw parser.fail(line: line, key, "column '\(n)' is named, but the file has no header (csv: {header: false}); use 0-based indices")
            }
            guard let i = header.firstIndex(of: n) else {
                throw TraceError(
                    .missing, file: path, object: "column '\(n)'",
                    "not found (wanted by \(mapping.file) line \(line), \(key)); columns are \(header.joined(separator: ", "))")
            }
            return i
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

    var session = Session(
        metadata: importMetadata(
            options,
            frameConvention: SessionMetadata.arkitFrame
                + (mapping.frame == .arkit
                    ? "; imported CSV (frame kept)" : "; imported CSV, world frame \(mapping.frame.rawValue) turned to ARKit's")))
    var notes: [String] = []
    for sm in mapping.streams {
        let targets = TargetField.fields(of: sm.name)!
        guard let timeSpec = sm.time ?? mapping.time else {
            throw parser.fail(
                line: sm.line, "streams.\(sm.name).time",
                "no clock; give time: {column: …, units: …} or {sample_rate: HZ} at the top or in the stream")
        }
        // Resolve the columns of every field.
        var columnsOf: [String: [Int]] = [:]
        for t in targets {
            guard let f = sm.fields[t.name] else { continue }
            if case let .columns(cs) = f.source {
                var idx: [Int] = []
                for c in cs { idx.append(try resolve(c, line: f.line, key: "streams.\(sm.name).\(t.name)")) }
                columnsOf[t.name] = idx
            }
        }
        var timeColumn: Int?
        if case let .values(.columns(cs), _) = timeSpec {
            timeColumn = try resolve(cs[0], line: sm.line, key: sm.time == nil ? "time.column" : "streams.\(sm.name).time.column")
        }
        // The rows that are samples of this stream: any value cell filled.
        let valueColumns = columnsOf.values.flatMap { $0 }
        var rows: [Int] = []
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
        var times: [Double] = []
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
                let v = try cellNumber(r, c)
                times.append(units == "ns" ? secondsFromNanoseconds(v) : v * UnitConversion.factor(from: units, to: .time)!)
            }
        case let .sampleRate(rate, start):
            guard case let .hz(hz) = rate else {
                throw parser.fail(line: sm.line, "time.sample_rate", "an HDF5 attribute cannot give a CSV file's rate; give the rate in Hz")
            }
            times = rows.map { start + Double($0) / hz }
        }

        // Values, converted and scaled.
        var fields: [String: [Double]] = [:]
        var keys: [String]?
        for t in targets {
            guard let f = sm.fields[t.name] else { continue }
            let factor = f.units.flatMap { UnitConversion.factor(from: $0, to: t.quantity) } ?? 1
            switch f.source {
            case let .constant(v):
                fields[t.name] = Array(repeating: v * factor * f.scale, count: rows.count)
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
        let fieldColumns = columnsOf
        let src = SourceStream(name: sm.name, times: times, fields: fields, keys: keys) { i, field in
            let line = "line \(table.lines[rows[i]])"
            if let field, let cs = fieldColumns[field] {
                return "\(line), column\(cs.count > 1 ? "s" : "") \(cs.map(columnName).joined(separator: ", "))"
            }
            if field == nil, let c = timeColumn { return "\(line), column \(columnName(c))" }
            return line
        }
        try assembleStream(
            src, mapping: sm, beaconsInFrame: mapping.frame, frame: mapping.frame,
            policy: sm.invalidRows ?? options.invalidRows, file: path, into: &session, notes: &notes)
    }
    return ImportResult(session: session, notes: notes)
}

/// A decimal number (correctly rounded, as Python's float) or nan/inf; nil otherwise.
func parseNumber(_ s: String) -> Double? {
    var s = s
    return s.withUTF8 { parseDecimal($0) }
}
