import CSV
import Foundation

/// A CSV file with a header row, held as text; numeric columns are parsed on request so
/// a bad cell is reported with its line number and column name.
public struct CSVTable: Sendable {
    public let file: String
    public let header: [String]
    public let rows: [[String]]

    /// Reads `path`. Every row must have as many fields as the header.
    ///
    /// - Throws: one-line `TraceError` naming the file, and the line for a ragged row.
    public static func read(_ path: String) throws(TraceError) -> CSVTable {
        guard FileManager.default.fileExists(atPath: path) else { throw TraceError(.notFound, file: path, "no such file") }
        try requireRegularFile(path, expected: "a CSV file")
        guard let data = FileManager.default.contents(atPath: path) else { throw TraceError(.notFound, file: path, "cannot open for reading") }
        guard let text = String(data: data, encoding: .utf8) else { throw TraceError(.badValue, file: path, "not UTF-8 text, expected CSV") }
        let reader: CSVReader
        do { reader = try CSVReader(string: text, hasHeaderRow: true, trimFields: true) } catch {
            throw TraceError(.badValue, file: path, "not readable as CSV (\(error))")
        }
        guard let header = reader.headerRow, !header.isEmpty, header != [""] else {
            throw TraceError(.empty, file: path, "no header row, expected column names on line 1")
        }
        var rows: [[String]] = []
        var line = 1
        while let row = reader.next() {
            line += 1
            if row == [""] { continue }  // blank line
            guard row.count == header.count else {
                throw TraceError(.wrongShape, file: path, object: "line \(line)", "expected \(header.count) fields (as the header), found \(row.count)")
            }
            rows.append(row)
        }
        if let error = reader.error { throw TraceError(.badValue, file: path, object: "line \(line + 1)", "malformed CSV (\(error))") }
        return CSVTable(file: path, header: header, rows: rows)
    }

    public func columnIndex(_ name: String) throws(TraceError) -> Int {
        guard let i = header.firstIndex(of: name) else {
            throw TraceError(.missing, file: file, object: "column '\(name)'", "not found; columns are \(header.joined(separator: ", "))")
        }
        return i
    }

    /// A column as finite doubles.
    ///
    /// - Throws: naming the line and column of the first cell that is not a finite number.
    public func numbers(_ name: String) throws(TraceError) -> [Double] {
        let i = try columnIndex(name)
        var out: [Double] = []
        out.reserveCapacity(rows.count)
        for (r, row) in rows.enumerated() {
            guard let v = Double(row[i]), v.isFinite else {
                throw TraceError(.badValue, file: file, object: "line \(r + 2), column '\(name)'", "expected a finite number, found '\(row[i])'")
            }
            out.append(v)
        }
        return out
    }

    /// The table with `values` appended as a new column `name` (or replacing it), as CSV text.
    /// Numbers are written with 17 significant digits, so they read back bit for bit.
    public func adding(column name: String, values: [Double]) -> String {
        let replace = header.firstIndex(of: name)
        var out = (replace == nil ? header + [name] : header).map(csvField).joined(separator: ",") + "\n"
        for (r, row) in rows.enumerated() {
            var fields = row
            if let replace { fields[replace] = formatNumber(values[r]) } else { fields.append(formatNumber(values[r])) }
            out += fields.map(csvField).joined(separator: ",") + "\n"
        }
        return out
    }
}

/// Shortest text that reads back as the same double (Swift's round-trip `description`),
/// integers without a decimal point, NaN as `nan`.
public func formatNumber(_ x: Double) -> String {
    if x.isNaN { return "nan" }
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return x.description
}

package func csvField(_ s: String) -> String {
    s.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
}
