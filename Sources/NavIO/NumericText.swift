#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Largest text navbench accepts from one file, read or inflated from a compressed one (4 GiB):
/// a hostile file cannot make it allocate without bound ("zip bomb", a sparse file).
public let maxInflatedTextBytes = 1 << 32

/// Reads a whole file into memory with POSIX read(2) (no Foundation copy); a file over
/// `maxInflatedTextBytes` (4 GiB) is refused before anything is allocated.
package func readFileBytes(_ path: String) throws(TraceError) -> [UInt8] {
    try requireRegularFile(path, expected: "a text file")
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw TraceError(.notFound, file: path, "cannot open for reading (no such file or no permission)") }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw TraceError(.notFound, file: path, "cannot stat") }
    if (st.st_mode & S_IFMT) == S_IFDIR { throw TraceError(.notFound, file: path, "is a folder, expected a trajectory file") }
    let size = Int(st.st_size)
    // The size comes from the file system: bounded before it is allocated (the limit of inflated text too).
    guard size <= maxInflatedTextBytes else {
        throw TraceError(.tooLarge, file: path, "\(size) bytes, more than the \(maxInflatedTextBytes)-byte limit of a text input")
    }
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buf, count in
        var done = 0
        while done < size {
            let r = read(fd, buf.baseAddress! + done, size - done)
            if r < 0 { if errno == EINTR { continue }; failed = true; break }
            if r == 0 { break }
            done += r
        }
        count = done
    }
    if failed { throw TraceError(.corrupt, file: path, "read error") }
    return bytes
}

/// Exact powers of ten representable in a Double (10⁰ … 10²²: 5²² < 2⁵³). A literal, so that the
/// table is static data (a computed global would cost a lazy-initialisation check per number).
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// Parses one decimal floating-point token `[+-]digits[.digits][(e|E)[+-]digits]`, or
/// nan/inf/infinity, occupying exactly `token` (no surrounding blanks).
///
/// Correctly rounded, like Python's `float()` and numpy's `astype(float)`, equal bit for bit
/// to glibc's strtod: the exact decimal w · 10^q (w the significand's digits) goes, in order,
/// to Clinger's fast path (1990: w ≤ 2⁵³ and |q| ≤ 22, one IEEE multiplication or division of
/// two exact values), to the Eisel–Lemire algorithm (`eiselLemire`: any w of at most 19
/// significant digits), and to strtod for what both decline (more than 19 significant
/// digits, an exponent too long to hold exactly).
///
/// - Returns: nil when the token is not a number.
/// - Complexity: O(token length).
package func parseDecimal(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
    guard let base = token.baseAddress, !token.isEmpty else { return nil }
    var end = 0
    if let v = scanDecimal(base, at: &end, limit: token.count), end == token.count { return v }
    return parseDecimalExactly(token)
}

/// The first number of `base[position..<limit]` (`position < limit`), the common case only: at
/// most 19 significant digits and an exponent of at most 5 digits. Returns the value
/// (`decimalValue`) and moves `position` just past the number; nil when the text there is not
/// such a number (no digit, `e` without digits, more digits), `position` then anywhere in the
/// token: the caller asks `parseDecimalExactly` about the whole token. The caller also checks
/// that the number ends where its token ends (`1.5x` stops at `x`). The value alone is
/// returned (no tuple): it stays in a floating-point register.
///
/// The significand accumulates modulo 2⁶⁴ (`digitRun`, `fractionRun`): it is exact whenever the count of
/// significant digits (leading zeros excluded) is ≤ 19, which is checked before it is used.
///
/// `@_transparent`, not `@inline(__always)`: under the latter the compiler kept it a call from
/// the table scanner's row loop, whose registers then spilled around every number (9 % more
/// instructions, docs/benchmarks.md).
@_transparent
private func scanDecimal(_ base: UnsafePointer<UInt8>, at position: inout Int, limit: Int) -> Double? {
    let start = position
    var i = start
    let c0 = base[i]
    let negative = c0 == UInt8(ascii: "-")
    if negative || c0 == UInt8(ascii: "+") { i += 1 }
    let digitsStart = i
    var w: UInt64 = 0
    var digitCount = digitRun(base, &i, limit, &w)
    var q = 0
    if i < limit && base[i] == UInt8(ascii: ".") {
        i += 1
        let fractionDigits = fractionRun(base, &i, limit, &w)
        q = -fractionDigits
        digitCount += fractionDigits
    }
    if digitCount == 0 { return nil }
    if i < limit && base[i] | 0x20 == UInt8(ascii: "e") {
        i += 1
        var expNegative = false
        if i < limit && (base[i] == UInt8(ascii: "-") || base[i] == UInt8(ascii: "+")) {
            expNegative = base[i] == UInt8(ascii: "-"); i += 1
        }
        let expStart = i
        var e = 0
        while i < limit {
            let d = base[i] &- 48
            if d > 9 { break }
            e = e &* 10 &+ Int(d); i += 1
        }
        // No digit, or too many to be sure `e` is exact (the slow path decides).
        if i == expStart || i - expStart > 5 { return nil }
        q += expNegative ? -e : e
    }
    if digitCount > 19 {
        // Leading zeros (and the point between them) are not significant.
        var s = digitsStart
        while s < i && (base[s] == UInt8(ascii: "0") || base[s] == UInt8(ascii: ".")) {
            if base[s] == UInt8(ascii: "0") { digitCount -= 1 }
            s += 1
        }
        if digitCount > 19 { return nil }
    }
    guard let v = decimalValue(w, q, negative: negative, token: UnsafeBufferPointer(start: base + start, count: i - start)) else {
        return nil
    }
    position = i
    return v
}

/// Reads the run of ASCII digits at `base[i..<limit]` into `w` (w · 10^k + their value,
/// modulo 2⁶⁴), moves `i` past it and returns its length k. Byte by byte: the best for the
/// short integer parts of trajectory files (1–2 digits; a word-wide test costs more than it
/// saves there).
@inline(__always)
private func digitRun(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ limit: Int, _ w: inout UInt64) -> Int {
    let start = i
    while i < limit {
        let d = base[i] &- 48
        if d > 9 { break }
        w = w &* 10 &+ UInt64(d); i &+= 1
    }
    return i &- start
}

/// `digitRun` for the digits after a decimal point, typically 6–9 of them: the first 8
/// bytes as one 64-bit word when 8 remain (SWAR, Lemire 2021 §6). The digits that start the
/// word are counted from the first byte that fails the digit test, shifted to the top of the
/// word (the zero bytes shifted in count as leading zeros) and combined in three
/// multiplications, without a branch per digit; the digits after a full word (a 9th, …) and
/// those near the end of the text go byte by byte.
@inline(__always)
private func fractionRun(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ limit: Int, _ w: inout UInt64) -> Int {
    if limit &- i >= 8 {
        let chunk = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
        // Bytes 0x30…0x39 become 0x33 (no carry crosses a digit byte, and only bytes after the
        // first non-digit can receive one); the first byte that differs ends the run.
        let t = (chunk & 0xF0F0_F0F0_F0F0_F0F0) | (((chunk &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) &>> 4)
        let k = (t ^ 0x3333_3333_3333_3333).trailingZeroBitCount &>> 3
        if k < 8 {
            if k > 0 { w = w &* powersOfTenUInt64[k] &+ eightDigitsValue(chunk &<< UInt64(64 &- 8 &* k)) }
            i &+= k
            return k
        }
        w = w &* 100_000_000 &+ eightDigitsValue(chunk)
        i &+= 8
        return 8 &+ digitRun(base, &i, limit, &w)
    }
    return digitRun(base, &i, limit, &w)
}

/// 10⁰ … 10⁸.
private let powersOfTenUInt64: [UInt64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

/// The value of 8 ASCII digits (first digit in the low byte; a zero byte counts as 0) with
/// three multiplications: pairs, then quadruples, then the whole (Lemire 2021, §6).
@inline(__always)
private func eightDigitsValue(_ chunk: UInt64) -> UInt64 {
    var v = chunk & 0x0F0F_0F0F_0F0F_0F0F
    v = (v &* (10 << 8 + 1)) >> 8
    v = ((v & 0x00FF_00FF_00FF_00FF) &* (100 << 16 + 1)) >> 16
    return ((v & 0x0000_FFFF_0000_FFFF) &* (10_000 << 32 + 1)) >> 32
}

/// The double nearest to ±w · 10^q, w exact (at most 19 significant digits): Clinger's fast
/// path, then Eisel–Lemire, then strtod on `token` (the same number written out; nil if
/// strtod does not read all of it, which no token the scanners accept does).
@inline(__always)
private func decimalValue(_ w: UInt64, _ q: Int, negative: Bool, token: UnsafeBufferPointer<UInt8>) -> Double? {
    if w <= 1 << 53 && q >= -22 && q <= 22 {
        let m = Double(w)
        let v = q < 0 ? m / exactPowersOfTen[-q] : m * exactPowersOfTen[q]
        return negative ? -v : v
    }
    if let v = eiselLemire(w, q, negative: negative) { return v }
    return strtodToken(token)
}

/// The careful scanner: any length, significands beyond 19 digits truncated (and then
/// strtod decides), nan/inf/infinity, and the refusals.
private func parseDecimalExactly(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
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
    if !sawDigit { return parseSpecial(token) }
    var exponentExact = true
    if i < n && (token[i] == UInt8(ascii: "e") || token[i] == UInt8(ascii: "E")) {
        i += 1
        var expNegative = false
        if i < n && (token[i] == UInt8(ascii: "-") || token[i] == UInt8(ascii: "+")) { expNegative = token[i] == UInt8(ascii: "-"); i += 1 }
        var e = 0, expDigits = 0
        while i < n {
            let d = token[i] &- 48
            if d > 9 { break }
            if e < 100_000 { e = e * 10 + Int(d) } else { exponentExact = false }
            expDigits += 1; i += 1
        }
        if expDigits == 0 { return nil }
        exponent += expNegative ? -e : e
    }
    if i != n { return nil }
    // A truncated significand or a clipped exponent is not the exact decimal: strtod reads the text.
    if truncated || !exponentExact { return strtodToken(token) }
    return decimalValue(mantissa, exponent, negative: negative, token: token)
}

/// nan, inf, infinity (any case, optional sign), as Python's float() accepts.
private func parseSpecial(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
    var s = String(decoding: token, as: UTF8.self).lowercased()
    var sign = 1.0
    if s.hasPrefix("-") { sign = -1; s.removeFirst() } else if s.hasPrefix("+") { s.removeFirst() }
    switch s {
    case "nan": return .nan
    case "inf", "infinity": return sign * .infinity
    default: return nil
    }
}

/// glibc's strtod on the token, which must be the whole of what it reads. The copy that
/// NUL-terminates it lives on the stack for short tokens (`withUnsafeTemporaryAllocation`).
private func strtodToken(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: token.count + 1) { buf -> Double? in
        let b = buf.baseAddress!
        for k in 0..<token.count { b[k] = CChar(bitPattern: token[k]) }
        b[token.count] = 0
        var endp: UnsafeMutablePointer<CChar>?
        let v = strtod(b, &endp)
        guard let endp, endp - b == token.count else { return nil }
        return v
    }
}

/// A table of numbers read from a text file: one row per data line, blank lines and lines
/// starting with `#` skipped, fields separated by spaces, tabs and/or commas.
package struct NumericTable {
    /// Row-major values, `columns` per row.
    package var values: [Double]
    /// 1-based line number of each row in the file.
    package var lineNumbers: [Int32]
    package var columns: Int
    package var rows: Int { lineNumbers.count }
}

/// Parses a numeric text table whose rows have `minColumns…maxColumns` fields; the first
/// data row fixes the count, and every row must match it. Only the first `keep` fields of
/// each row are stored (all when nil). A field f whose bit is set in `unread` (bit f, f < 64)
/// is counted but not read: its token is skipped unchecked and stored as NaN (an importer's
/// columns it never uses).
///
/// - Throws: a one-line `TraceError` naming the file, the line, the field and what was expected.
/// - Complexity: O(bytes).
package func parseNumericTable(
    _ bytes: [UInt8], path: String, columns range: ClosedRange<Int>, keep: Int? = nil, unread: UInt64 = 0,
    fieldNames: [String], formatName: String
) throws(TraceError) -> NumericTable {
    // Fields stored per row: `keep`, at most the largest accepted count (a longer row is an error).
    var scan = NumericTableScan(columns: range, stored: min(keep ?? range.upperBound, range.upperBound), unread: unread)
    scan.lines.reserveCapacity(bytes.count / 60)
    var values: [Double] = []
    bytes.withUnsafeBufferPointer { buf in
        guard let b = buf.baseAddress else { return }
        // Values are stored straight into the array's storage, one store each (no capacity test
        // and count update per value as `append` makes): a pass fills an array of `capacity`
        // (first a tenth of the bytes, the density of trajectory text) and stops before a row
        // that might not fit; the next pass copies what was read into twice the room and goes on
        // from that row — `append`'s own growth, tested once a row.
        var capacity = max(scan.stored, buf.count / 10)
        var finished = false
        while !finished {
            let previous = values
            values = [Double](unsafeUninitializedCapacity: capacity) { out, initialized in
                let o = out.baseAddress!
                previous.withUnsafeBufferPointer { if let p = $0.baseAddress { o.update(from: p, count: previous.count) } }
                // Two specialisations: the loop without unread fields keeps no test for them.
                (initialized, finished) =
                    unread == 0
                    ? scan.rows(b, count: buf.count, into: o, from: previous.count, capacity: capacity, fields: EveryFieldRead.self)
                    : scan.rows(b, count: buf.count, into: o, from: previous.count, capacity: capacity, fields: SomeFieldsUnread.self)
            }
            capacity = capacity > Int.max / 2 ? Int.max : capacity * 2
        }
    }
    if let problem = scan.problem {
        let field = problem.field
        switch problem.kind {
        case .notANumber(let text):
            let name = field < fieldNames.count ? " (\(fieldNames[field]))" : ""
            throw TraceError(.badValue, file: path, object: "line \(problem.line)", "field \(field + 1)\(name): expected a number, found \"\(text)\"")
        case .firstRowFields:
            throw TraceError(
                .wrongShape, file: path, object: "line \(problem.line)",
                "expected \(columnText(range, fieldNames)) for \(formatName), found \(field) fields")
        case .rowFields(let expected):
            throw TraceError(
                .wrongShape, file: path, object: "line \(problem.line)", "expected \(expected) fields like the first data line, found \(field)")
        }
    }
    guard !scan.lines.isEmpty else {
        throw TraceError(.empty, file: path, "no data lines (only blank or # comment lines), expected \(formatName) rows")
    }
    return NumericTable(values: values, lineNumbers: scan.lines, columns: min(keep ?? scan.expected, scan.expected))
}

/// The state of `parseNumericTable` between its passes: where the next line starts, its
/// number, the field count the first data row fixed, the line numbers of the rows read, and
/// the first problem found.
private struct NumericTableScan {
    struct Problem {
        enum Kind {
            case notANumber(String)
            case firstRowFields
            case rowFields(expected: Int)
        }
        var kind: Kind
        var line: Int32
        /// The field (0-based) that is not a number, or the fields found on the line.
        var field: Int
    }

    let columns: ClosedRange<Int>
    let stored: Int
    /// Fields skipped unread (bit f for field f), stored as NaN.
    let unread: UInt64
    var position = 0
    var lineNumber: Int32 = 0
    var expected = -1
    var lines: [Int32] = []
    var problem: Problem?

    init(columns: ClosedRange<Int>, stored: Int, unread: UInt64) {
        self.columns = columns
        self.stored = stored
        self.unread = unread
    }

    /// Reads rows of `b[position..<n]` into `o[count…]` while a row of `stored` values fits
    /// below `capacity`. A number is read where its token starts, and its end must be the
    /// token's end (a separator, a line feed or the end of the text); anything else (nan, more
    /// than 19 digits, `1.5x`) goes to `parseDecimal` with the whole token.
    ///
    /// - Returns: the values now in `o`, and whether the text is done (read to its end, or a
    ///   problem found).
    mutating func rows<Fields: FieldReading>(
        _ b: UnsafePointer<UInt8>, count n: Int, into o: UnsafeMutablePointer<Double>, from start: Int, capacity: Int,
        fields: Fields.Type
    ) -> (count: Int, finished: Bool) {
        @inline(__always) func isBlank(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 13 }
        @inline(__always) func isSeparator(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 13 || c == 44 }
        /// The end of the token at `p`: the next separator, line feed or the end of the text.
        /// Eight bytes at a time while they last: every separator and the line feed are below
        /// 0x2D, and the first byte below it is found exactly (a borrow of the subtraction only
        /// marks bytes after it; bytes from 0x80 are never marked); one that is no separator
        /// (`+`, `#`, a control byte) belongs to the token.
        @inline(__always) func tokenEnd(_ p: Int) -> Int {
            var q = p
            while n &- q >= 8 {
                let w = UInt64(littleEndian: UnsafeRawPointer(b + q).loadUnaligned(as: UInt64.self))
                let below = (w &- 0x2D2D_2D2D_2D2D_2D2D) & ~w & 0x8080_8080_8080_8080
                if below == 0 {
                    q &+= 8
                    continue
                }
                let k = q &+ below.trailingZeroBitCount &>> 3
                if b[k] == 10 || isSeparator(b[k]) { return k }
                q = k &+ 1
            }
            while q < n && b[q] != 10 && !isSeparator(b[q]) { q += 1 }
            return q
        }
        var count = start
        let upper = columns.upperBound
        while position < n {
            if count &+ stored > capacity { return (count, false) }
            lineNumber += 1
            var p = position
            // UTF-8 byte order mark on the first line.
            if lineNumber == 1 && n - p >= 3 && b[p] == 0xEF && b[p + 1] == 0xBB && b[p + 2] == 0xBF { p += 3 }
            while p < n && isBlank(b[p]) { p += 1 }
            if p == n || b[p] == 10 || b[p] == 35 {  // blank or '#'
                while p < n && b[p] != 10 { p += 1 }
                position = p + 1
                continue
            }
            var field = 0
            // Bit 0: whether the field at hand is unread (shifted once a field; 0 from field 64 on).
            var unreadAhead = unread
            while true {
                // Skip separators; a line feed or the end of the text ends the row.
                while p < n && isSeparator(b[p]) { p += 1 }
                if p == n || b[p] == 10 { break }
                if field < upper {
                    var value: Double
                    var end = p
                    if Fields.skipsUnread && unreadAhead & 1 != 0 {
                        value = .nan; p = tokenEnd(p)
                    } else if let v = scanDecimal(b, at: &end, limit: n), end == n || b[end] == 10 || isSeparator(b[end]) {
                        value = v; p = end
                    } else {
                        let q = tokenEnd(p)
                        let token = UnsafeBufferPointer(start: b + p, count: q - p)
                        guard let v = parseDecimal(token) else {
                            let text = String(decoding: token.prefix(40), as: UTF8.self)
                            problem = Problem(kind: .notANumber(text), line: lineNumber, field: field)
                            return (count, true)
                        }
                        value = v; p = q
                    }
                    if field < stored { o[count] = value; count &+= 1 }
                } else {
                    p = tokenEnd(p)
                }
                field += 1
                if Fields.skipsUnread { unreadAhead &>>= 1 }
            }
            position = p + 1
            if expected < 0 {
                guard columns.contains(field) else {
                    problem = Problem(kind: .firstRowFields, line: lineNumber, field: field)
                    return (count, true)
                }
                expected = field
            } else if field != expected {
                problem = Problem(kind: .rowFields(expected: expected), line: lineNumber, field: field)
                return (count, true)
            }
            lines.append(lineNumber)
        }
        return (count, true)
    }
}

/// Whether `NumericTableScan.rows` looks at `unread` (a type, so that each case is its own
/// specialisation of the loop).
private protocol FieldReading { static var skipsUnread: Bool { get } }
private enum EveryFieldRead: FieldReading { static var skipsUnread: Bool { false } }
private enum SomeFieldsUnread: FieldReading { static var skipsUnread: Bool { true } }

private func columnText(_ r: ClosedRange<Int>, _ names: [String]) -> String {
    let list = names.prefix(r.lowerBound).joined(separator: " ")
    if r.lowerBound == r.upperBound { return "\(r.lowerBound) numbers (\(list))" }
    return "at least \(r.lowerBound) numbers (\(list) …)"
}
