import Foundation
import NavCore

/// A CSV file with a header row, scanned once as bytes by navbench's own scanner (no String
/// per cell): rows are byte ranges of the file, numeric columns are parsed on request with
/// the correctly rounded decimal parser of the trajectory readers (`parseDecimal`), so a
/// bad cell is reported with its line number and column name.
///
/// Dialect (RFC 4180 plus what pandas and spreadsheets write): comma separator; a UTF-8
/// byte-order mark is skipped; LF or CRLF line ends; fields may be quoted with `"` (a quote
/// inside doubled, commas and line breaks inside allowed); blanks around unquoted fields are
/// trimmed; blank lines are skipped; every row has as many fields as the header. In
/// `numbers` an empty cell (pandas' NaN) and `nan` read as NaN.
public struct CSVTable: Sendable {
    public let file: String
    public let header: [String]
    /// The file's bytes (after a BOM).
    let bytes: [UInt8]
    /// Per data row: first byte, one past the last byte (line end and `\r` excluded), the
    /// 1-based line number where the row starts, and whether it contains a quote.
    let rowStart: [Int]
    let rowEnd: [Int]
    let rowLine: [Int32]
    let rowQuoted: [Bool]

    public var rowCount: Int { rowStart.count }

    /// The rows as strings (quotes removed, fields trimmed). Materialises every cell: the
    /// fast paths (`numbers`, `adding`) do not use it.
    ///
    /// - Complexity: O(bytes).
    public var rows: [[String]] { (0..<rowCount).map(fields(ofRow:)) }

    /// Reads `path`. Every row must have as many fields as the header.
    ///
    /// - Throws: one-line `TraceError` naming the file, and the line for a ragged row or an
    ///   unterminated quote.
    /// - Complexity: O(bytes), one pass.
    public static func read(_ path: String) throws(TraceError) -> CSVTable {
        guard FileManager.default.fileExists(atPath: path) else { throw TraceError(.notFound, file: path, "no such file") }
        return try CSVTable(bytes: try readTextFileBytes(path), file: path)
    }

    /// Scans CSV bytes (see the type's dialect).
    ///
    /// - Throws: as `read`.
    public init(bytes input: [UInt8], file: String) throws(TraceError) {
        var raw = input
        if raw.count >= 3 && raw[0] == 0xEF && raw[1] == 0xBB && raw[2] == 0xBF { raw.removeFirst(3) }
        self.file = file
        self.bytes = raw
        var starts: [Int] = [], ends: [Int] = [], lines: [Int32] = [], quoted: [Bool] = []
        let estimate = raw.count / 24 + 16
        starts.reserveCapacity(estimate); ends.reserveCapacity(estimate); lines.reserveCapacity(estimate); quoted.reserveCapacity(estimate)
        var headerRange: (Int, Int, Bool)?
        var headerFields = 0
        var failure: TraceError?
        raw.withUnsafeBufferPointer { b in
            let n = b.count
            var pos = 0
            var line: Int32 = 1
            while pos < n {
                let start = pos, startLine = line
                var fields = 1
                var hasQuote = false, inQuote = false
                var p = pos
                // One record: up to an LF outside quotes.
                while p < n {
                    let c = b[p]
                    if inQuote {
                        if c == 34 {
                            if p + 1 < n && b[p + 1] == 34 { p += 2; continue }
                            inQuote = false
                        } else if c == 10 {
                            line += 1
                        }
                    } else if c == 44 {
                        fields += 1
                    } else if c == 10 {
                        break
                    } else if c == 34 {
                        inQuote = true; hasQuote = true
                    }
                    p += 1
                }
                if inQuote {
                    failure = TraceError(
                        .badValue, file: file, object: "line \(startLine)", "a quoted field is not closed (expected a \" before the end of the file)")
                    return
                }
                var end = p
                if end > start && b[end - 1] == 13 { end -= 1 }
                pos = p + 1
                line += 1
                // Blank line (only blanks): skipped.
                var q = start
                while q < end && (b[q] == 32 || b[q] == 9) { q += 1 }
                if q == end { continue }
                if headerRange == nil {
                    headerRange = (start, end, hasQuote); headerFields = fields
                    continue
                }
                guard fields == headerFields else {
                    failure = TraceError(
                        .wrongShape, file: file, object: "line \(startLine)", "expected \(headerFields) fields (as the header), found \(fields)")
                    return
                }
                starts.append(start); ends.append(end); lines.append(startLine); quoted.append(hasQuote)
            }
        }
        if let failure { throw failure }
        guard let h = headerRange else { throw TraceError(.empty, file: file, "no header row, expected column names on line 1") }
        rowStart = starts; rowEnd = ends; rowLine = lines; rowQuoted = quoted
        header = CSVTable.splitFields(raw, h.0, h.1, quoted: h.2)
        guard !header.isEmpty, header != [""] else { throw TraceError(.empty, file: file, "no header row, expected column names on line 1") }
    }

    /// Fields of a byte range as strings: quotes removed (`""` → `"`), unquoted fields trimmed.
    static func splitFields(_ b: [UInt8], _ start: Int, _ end: Int, quoted: Bool) -> [String] {
        var out: [String] = []
        var p = start
        while true {
            let (s, e, q, next) = CSVTable.field(b, p, end, quoted: quoted)
            if q {
                var cell: [UInt8] = []
                var k = s
                while k < e {
                    if b[k] == 34 && k + 1 < e && b[k + 1] == 34 { cell.append(34); k += 2; continue }
                    cell.append(b[k]); k += 1
                }
                out.append(String(decoding: cell, as: UTF8.self))
            } else {
                out.append(String(decoding: b[s..<e], as: UTF8.self))
            }
            guard let next else { break }
            p = next
        }
        return out
    }

    /// The field starting at `p`: content range (inside the quotes for a quoted field,
    /// trimmed otherwise), whether it was quoted, and where the next field starts (nil at
    /// the end of the row).
    @inline(__always)
    static func field(_ b: [UInt8], _ p0: Int, _ end: Int, quoted: Bool) -> (Int, Int, Bool, Int?) {
        var p = p0
        while p < end && (b[p] == 32 || b[p] == 9) { p += 1 }
        if quoted && p < end && b[p] == 34 {
            let s = p + 1
            var k = s
            while k < end {
                if b[k] == 34 { if k + 1 < end && b[k + 1] == 34 { k += 2; continue }; break }
                k += 1
            }
            let e = k
            var n = k + 1
            while n < end && b[n] != 44 { n += 1 }  // anything after the closing quote up to the comma is dropped
            return (s, e, true, n < end ? n + 1 : nil)
        }
        var k = p
        while k < end && b[k] != 44 { k += 1 }
        var e = k
        while e > p && (b[e - 1] == 32 || b[e - 1] == 9) { e -= 1 }
        return (p, e, false, k < end ? k + 1 : nil)
    }

    /// The cells of one data row as strings.
    public func fields(ofRow r: Int) -> [String] { CSVTable.splitFields(bytes, rowStart[r], rowEnd[r], quoted: rowQuoted[r]) }

    public func columnIndex(_ name: String) throws(TraceError) -> Int {
        guard let i = header.firstIndex(of: name) else {
            throw TraceError(.missing, file: file, object: "column '\(name)'", "not found; columns are \(header.joined(separator: ", "))")
        }
        return i
    }

    /// A column as doubles: correctly rounded decimals; an empty cell and `nan` are NaN (as
    /// pandas writes and reads them).
    ///
    /// - Throws: naming the line and column of the first cell that is not a number or is
    ///   infinite.
    /// - Complexity: O(bytes of the rows up to the column).
    public func numbers(_ name: String) throws(TraceError) -> [Double] {
        let c = try columnIndex(name)
        var out = [Double](repeating: 0, count: rowCount)
        var bad: Int?
        bytes.withUnsafeBufferPointer { b in
            for r in 0..<rowCount {
                var (s, e, p) = (0, 0, rowStart[r])
                let end = rowEnd[r]
                if rowQuoted[r] {
                    var next: Int? = p
                    for _ in 0...c { let f = CSVTable.field(bytes, next!, end, quoted: true); (s, e) = (f.0, f.1); next = f.3 }
                } else {
                    // Skip c commas, then trim.
                    var k = 0
                    while k < c { while b[p] != 44 { p += 1 }; p += 1; k += 1 }
                    var q = p
                    while q < end && b[q] != 44 { q += 1 }
                    while p < q && (b[p] == 32 || b[p] == 9) { p += 1 }
                    var t = q
                    while t > p && (b[t - 1] == 32 || b[t - 1] == 9) { t -= 1 }
                    (s, e) = (p, t)
                }
                if s == e { out[r] = .nan; continue }
                guard let v = parseDecimal(UnsafeBufferPointer(rebasing: b[s..<e])), !v.isInfinite else { bad = r; return }
                out[r] = v
            }
        }
        if let r = bad {
            let cell = fields(ofRow: r)[c]
            throw TraceError(
                .badValue, file: file, object: "line \(rowLine[r]), column '\(name)'",
                "expected a number (empty or nan for a missing value), found '\(String(cell.prefix(40)))'")
        }
        return out
    }

    /// The table with `values` appended as a new column `name` (or replacing it), as CSV
    /// bytes: the original rows verbatim (quoting kept, line ends normalised to LF), numbers
    /// in shortest round-trip form (`formatNumber`), NaN as `nan`.
    ///
    /// - Complexity: O(bytes + n).
    public func addingBytes(column name: String, values: [Double]) -> [UInt8] {
        let replace = header.firstIndex(of: name)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + values.count * 24 + 64)
        out.append(contentsOf: (replace == nil ? header + [name] : header).map(csvField).joined(separator: ",").utf8)
        out.append(10)
        for r in 0..<rowCount {
            if let replace {
                var f = fields(ofRow: r)
                f[replace] = formatNumber(values[r])
                out.append(contentsOf: f.map(csvField).joined(separator: ",").utf8)
            } else {
                out.append(contentsOf: bytes[rowStart[r]..<rowEnd[r]])
                out.append(44)
                appendNumber(values[r], to: &out)
            }
            out.append(10)
        }
        return out
    }

    /// `addingBytes` as text.
    public func adding(column name: String, values: [Double]) -> String {
        String(decoding: addingBytes(column: name, values: values), as: UTF8.self)
    }
}

/// Appends `formatNumber(x)` as UTF-8 without an intermediate String for integers.
@inline(__always) func appendNumber(_ x: Double, to out: inout [UInt8]) {
    if x.isNaN { out.append(contentsOf: [110, 97, 110]); return }
    if x == x.rounded(), abs(x) < 1e15 {
        var v = Int64(x)
        if v == 0 { out.append(48); return }
        if v < 0 { out.append(45); v = -v }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while v > 0 { d[n] = UInt8(48 + v % 10); v /= 10; n += 1 }
            for k in stride(from: n - 1, through: 0, by: -1) { out.append(d[k]) }
        }
        return
    }
    var s = x.description
    s.withUTF8 { out.append(contentsOf: $0) }
}

package func csvField(_ s: String) -> String {
    s.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
}
