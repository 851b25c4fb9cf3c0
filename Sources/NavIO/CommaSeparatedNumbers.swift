import Foundation
import NavCore

/// Comma-separated numbers, one row per line, as MATLAB's `dlmread(file, ',', skip, 0)` reads the
/// IPIN competition's ground-truth (`GT_….csv`) and estimate (`.est`) files: the first `skip`
/// lines are left out (the organisers read `.est` files from the third line), blank lines are
/// skipped, fields may be padded with spaces, and every field must be a finite number.
///
/// - Parameters:
///   - columns: the fewest fields a row must have.
///   - what: what the file is, for the error line (`an IPIN estimate file`).
/// - Throws: `TraceError` naming the file, the line and the column for a field that is no
///   number, a short row, or no rows (and what `readFileBytes` refuses: not a regular file).
/// - Complexity: O(file size).
public func readCommaSeparatedNumbers(_ path: String, skippingLines skip: Int = 0, columns: Int, what: String) throws(TraceError) -> [[Double]] {
    let bytes = try readTextFileBytes(path)
    var rows: [[Double]] = []
    var lineNumber = 0
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        lineNumber += 1
        if lineNumber <= skip { continue }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { continue }
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count >= columns else {
            throw TraceError(.wrongShape, file: path, object: "line \(lineNumber)", "\(fields.count) fields, expected at least \(columns) in \(what)")
        }
        var row: [Double] = []
        row.reserveCapacity(fields.count)
        for (c, f) in fields.enumerated() {
            var t = f.trimmingCharacters(in: .whitespaces)
            // The bulk reader (a whole token; a NUL inside is no number), as CSVTable reads cells.
            guard let x = t.withUTF8({ parseDecimal($0) }), x.isFinite else {
                throw TraceError(
                    .badValue, file: path, object: "line \(lineNumber), column \(c + 1)",
                    "expected a finite number, found '\(escapedForMessage(String(t), limit: 40))'")
            }
            row.append(x)
        }
        rows.append(row)
    }
    guard !rows.isEmpty else { throw TraceError(.empty, file: path, "no rows of numbers, expected \(what)") }
    return rows
}
