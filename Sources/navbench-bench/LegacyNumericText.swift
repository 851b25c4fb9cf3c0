import NavIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The baseline of `navbench-bench parse`: NavIO's decimal and table parser as of commit
// 5f0ed44 (Clinger's fast path, else glibc strtod on a heap-allocated copy of the token;
// lines found first, then fields, then numbers), frozen here, renamed, so that the old and
// the new parser run in the same process on the same bytes. Not used by anything else.

/// Exact powers of ten representable in a Double (10⁰ … 10²²).
private let legacyPowersOfTen: [Double] = (0...22).map { k in
    var x = 1.0; for _ in 0..<k { x *= 10 }; return x
}

/// Parses one decimal floating-point token `[+-]digits[.digits][(e|E)[+-]digits]`, or
/// nan/inf/infinity, occupying exactly `token` (no surrounding blanks).
///
/// Correctly rounded, like Python's `float()` and numpy's `astype(float)`: when the
/// significand has at most 19 significant digits, fits in 53 bits and |exponent| ≤ 22 the
/// result is one IEEE multiplication or division of two exact values (Clinger 1990, the fast
/// path); otherwise glibc's strtod (correctly rounded) decides.
///
/// - Returns: nil when the token is not a number.
/// - Complexity: O(token length).
func legacyParseDecimal(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
    let n = token.count
    if n == 0 { return nil }
    var i = 0
    var negative = false
    if token[0] == UInt8(ascii: "-") || token[0] == UInt8(ascii: "+") { negative = token[0] == UInt8(ascii: "-"); i = 1 }
    var mantissa: UInt64 = 0
    var digits = 0, exponent = 0
    var sawDigit = false, truncated = false
    while i < n {
        let d = token[i] &- 48
        if d > 9 { break }
        sawDigit = true
        if mantissa == 0 && d == 0 {
        } else if digits < 19 {
            mantissa = mantissa &* 10 &+ UInt64(d); digits += 1
        } else {
            exponent += 1; truncated = truncated || d != 0
        }
        i += 1
    }
    if i < n && token[i] == UInt8(ascii: ".") {
        i += 1
        while i < n {
            let d = token[i] &- 48
            if d > 9 { break }
            sawDigit = true
            if mantissa == 0 && d == 0 {
                exponent -= 1
            } else if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(d); digits += 1; exponent -= 1
            } else {
                truncated = truncated || d != 0
            }
            i += 1
        }
    }
    if !sawDigit { return legacyParseSpecial(token) }
    if i < n && (token[i] == UInt8(ascii: "e") || token[i] == UInt8(ascii: "E")) {
        i += 1
        var expNegative = false
        if i < n && (token[i] == UInt8(ascii: "-") || token[i] == UInt8(ascii: "+")) { expNegative = token[i] == UInt8(ascii: "-"); i += 1 }
        var e = 0, expDigits = 0
        while i < n {
            let d = token[i] &- 48
            if d > 9 { break }
            if e < 100_000 { e = e * 10 + Int(d) }
            expDigits += 1; i += 1
        }
        if expDigits == 0 { return nil }
        exponent += expNegative ? -e : e
    }
    if i != n { return nil }
    if !truncated && mantissa <= (1 << 53) && exponent >= -22 && exponent <= 22 {
        let m = Double(mantissa)
        let v = exponent < 0 ? m / legacyPowersOfTen[-exponent] : m * legacyPowersOfTen[exponent]
        return negative ? -v : v
    }
    return legacyStrtodToken(token)
}

/// nan, inf, infinity (any case, optional sign), as Python's float() accepts.
private func legacyParseSpecial(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
    var s = String(decoding: token, as: UTF8.self).lowercased()
    var sign = 1.0
    if s.hasPrefix("-") { sign = -1; s.removeFirst() } else if s.hasPrefix("+") { s.removeFirst() }
    switch s {
    case "nan": return .nan
    case "inf", "infinity": return sign * .infinity
    default: return nil
    }
}

private func legacyStrtodToken(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
    var buf = [CChar](repeating: 0, count: token.count + 1)
    for k in 0..<token.count { buf[k] = CChar(bitPattern: token[k]) }
    return buf.withUnsafeBufferPointer { b -> Double? in
        var endp: UnsafeMutablePointer<CChar>?
        let v = strtod(b.baseAddress!, &endp)
        guard let endp, endp - UnsafeMutablePointer(mutating: b.baseAddress!) == token.count else { return nil }
        return v
    }
}

/// Parses a numeric text table whose rows have `minColumns…maxColumns` fields; the first
/// data row fixes the count, and every row must match it. Only the first `keep` fields of
/// each row are stored (all when nil).
///
/// - Throws: a one-line `TraceError` naming the file, the line, the field and what was expected.
/// - Complexity: O(bytes).
func legacyParseNumericTable(
    _ bytes: [UInt8], path: String, columns range: ClosedRange<Int>, keep: Int? = nil,
    fieldNames: [String], formatName: String
) throws(TraceError) -> (values: [Double], lineNumbers: [Int32], columns: Int) {
    var values: [Double] = []
    var lines: [Int32] = []
    values.reserveCapacity(bytes.count / 10)
    lines.reserveCapacity(bytes.count / 60)
    var expected = -1
    var firstError: TraceError?
    bytes.withUnsafeBufferPointer { buf in
        let n = buf.count
        var pos = 0
        var lineNo: Int32 = 0
        var rowFields = [Double](repeating: 0, count: range.upperBound)
        @inline(__always) func isBlank(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 13 }
        @inline(__always) func isSeparator(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 13 || c == 44 }
        lineLoop: while pos < n {
            lineNo += 1
            // Find the end of the line.
            var end = pos
            while end < n && buf[end] != 10 { end += 1 }
            defer { pos = end + 1 }
            var p = pos
            // UTF-8 byte order mark on the first line.
            if lineNo == 1 && end - p >= 3 && buf[p] == 0xEF && buf[p + 1] == 0xBB && buf[p + 2] == 0xBF { p += 3 }
            while p < end && isBlank(buf[p]) { p += 1 }
            if p == end || buf[p] == 35 { continue }  // blank or '#'
            var field = 0
            while p < end {
                var q = p
                while q < end && !isSeparator(buf[q]) { q += 1 }
                if q > p {
                    if field < range.upperBound {
                        let token = UnsafeBufferPointer(rebasing: buf[p..<q])
                        guard let v = legacyParseDecimal(token) else {
                            let name = field < fieldNames.count ? " (\(fieldNames[field]))" : ""
                            let text = String(decoding: token.prefix(40), as: UTF8.self)
                            firstError = TraceError(
                                .badValue, file: path, object: "line \(lineNo)",
                                "field \(field + 1)\(name): expected a number, found \"\(text)\"")
                            break lineLoop
                        }
                        rowFields[field] = v
                    }
                    field += 1
                }
                p = q
                while p < end && isSeparator(buf[p]) { p += 1 }
            }
            if expected < 0 {
                guard range.contains(field) else {
                    firstError = TraceError(
                        .wrongShape, file: path, object: "line \(lineNo)",
                        "expected \(legacyColumnText(range, fieldNames)) for \(formatName), found \(field) fields")
                    break lineLoop
                }
                expected = field
            } else if field != expected {
                firstError = TraceError(
                    .wrongShape, file: path, object: "line \(lineNo)",
                    "expected \(expected) fields like the first data line, found \(field)")
                break lineLoop
            }
            let k = min(keep ?? field, field)
            for c in 0..<k { values.append(rowFields[c]) }
            lines.append(lineNo)
        }
    }
    if let firstError { throw firstError }
    guard !lines.isEmpty else {
        throw TraceError(.empty, file: path, "no data lines (only blank or # comment lines), expected \(formatName) rows")
    }
    return (values, lines, min(keep ?? expected, expected))
}

private func legacyColumnText(_ r: ClosedRange<Int>, _ names: [String]) -> String {
    let list = names.prefix(r.lowerBound).joined(separator: " ")
    if r.lowerBound == r.upperBound { return "\(r.lowerBound) numbers (\(list))" }
    return "at least \(r.lowerBound) numbers (\(list) …)"
}
