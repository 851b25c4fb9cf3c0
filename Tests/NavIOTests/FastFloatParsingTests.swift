import Foundation
import NavCore
import Testing

@testable import NavIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The decimal parser (Clinger's fast path, Eisel–Lemire, strtod) against an independent
/// reference, the C library's strtod, bit for bit: random tokens of 1–40 digits over the
/// whole exponent range, exact halfway points between doubles, the refusals, and every token
/// of the peer-bench TUM pair when it is on this machine.
@Suite struct FastFloatParsingTests {
    /// strtod on `count` bytes of `buf` (NUL-terminated in place): nil unless it reads them all.
    static func reference(_ buf: UnsafeMutablePointer<UInt8>, _ count: Int) -> Double? {
        buf[count] = 0
        return buf.withMemoryRebound(to: CChar.self, capacity: count + 1) { p -> Double? in
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(p, &end)
            guard count > 0, let end, end - p == count else { return nil }
            return v
        }
    }

    /// Mismatches of `parseDecimal` against strtod over `tokens` (the first one, and how many).
    static func mismatches(_ tokens: [String]) -> (count: Int, first: String?) {
        var count = 0
        var first: String?
        let buf = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 18)
        defer { buf.deallocate() }
        for t in tokens {
            let bytes = Array(t.utf8)
            bytes.withUnsafeBufferPointer { buf.update(from: $0.baseAddress!, count: $0.count) }
            let expected = reference(buf, bytes.count)
            let ours = parseDecimal(UnsafeBufferPointer(start: buf, count: bytes.count))
            if ours?.bitPattern != expected?.bitPattern && !(ours?.isNaN == true && expected?.isNaN == true) {
                count += 1
                if first == nil { first = "\(t): parsed \(String(describing: ours)), strtod \(String(describing: expected))" }
            }
        }
        return (count, first)
    }

    /// Random tokens, built byte by byte (`[+-]digits[.digits][(e|E)[+-]exponent]`): half with
    /// 1–19 significant digits (Clinger, Eisel–Lemire), half with 20–40 (the strtod fallback),
    /// the point anywhere, exponents −350 … 320 (subnormals, underflow to 0, overflow to ∞),
    /// some runs of 0s or 9s (values near halfway points), some leading zeros.
    @Test func randomTokensMatchStrtod() {
        var rng = SeededRandom(seed: 20_261_126)
        let buf = UnsafeMutablePointer<UInt8>.allocate(capacity: 128)
        defer { buf.deallocate() }
        var mismatches = 0, tested = 0
        var first: String?
        for round in 0..<200_000 {
            var n = 0
            func put(_ c: UInt8) { buf[n] = c; n += 1 }
            switch rng.next() % 3 {
            case 0: put(UInt8(ascii: "-"))
            case 1 where rng.next() % 4 == 0: put(UInt8(ascii: "+"))
            default: break
            }
            let digits = round % 2 == 0 ? Int(rng.next() % 19) + 1 : Int(rng.next() % 21) + 20
            let leadingZeros = rng.next() % 8 == 0 ? Int(rng.next() % 4) : 0
            let point = rng.next() % 5 == 0 ? -1 : Int(rng.next() % UInt64(digits + leadingZeros + 1))
            let tail = rng.next() % 6  // 0: a run of 0s, 1: a run of 9s, else random digits
            let runFrom = Int(rng.next() % UInt64(digits))
            for k in 0..<(leadingZeros + digits) {
                if k == point { put(UInt8(ascii: ".")) }
                let d: UInt64
                if k < leadingZeros {
                    d = 0
                } else if k == leadingZeros {
                    d = rng.next() % 9 + 1
                } else if k - leadingZeros >= runFrom && tail < 2 {
                    d = tail == 0 ? 0 : 9
                } else {
                    d = rng.next() % 10
                }
                put(48 + UInt8(d))
            }
            if point == leadingZeros + digits { put(UInt8(ascii: ".")) }
            if rng.next() % 5 != 0 {
                put(rng.next() % 2 == 0 ? UInt8(ascii: "e") : UInt8(ascii: "E"))
                let e = Int(rng.next() % 671) - 350
                if e < 0 { put(UInt8(ascii: "-")) } else if rng.next() % 3 == 0 { put(UInt8(ascii: "+")) }
                for c in String(abs(e)).utf8 { put(c) }
            }
            let ours = parseDecimal(UnsafeBufferPointer(start: buf, count: n))
            let expected = Self.reference(buf, n)
            tested += 1
            if ours?.bitPattern != expected?.bitPattern {
                mismatches += 1
                if first == nil {
                    let text = String(decoding: UnsafeBufferPointer(start: buf, count: n), as: UTF8.self)
                    first = "\(text): parsed \(String(describing: ours)), strtod \(String(describing: expected))"
                }
            }
        }
        #expect(tested == 200_000)
        #expect(mismatches == 0, "\(mismatches) mismatches; first: \(first ?? "")")
    }

    /// Exact halfway points between adjacent doubles that fit in 19 digits, where Eisel–Lemire
    /// must round to even: w · 10^q = t · 2^k with t odd of 54 bits, for every q = −4 … 23
    /// (5^|q| divides w or t), and their neighbours one unit of the last digit away; also with
    /// a 20th digit (0: the same value; 1: just above it, the truncated path).
    @Test func halfwayPointsRoundToEven() {
        var rng = SeededRandom(seed: 33)
        var tokens: [String] = []
        for q in -4...23 {
            let five = (0..<abs(q)).reduce(UInt64(1)) { r, _ in r * 5 }
            var made = 0, attempts = 0
            while made < 40 && attempts < 100_000 {
                attempts += 1
                // t odd with 54 bits (a double's 53 and the half bit); for q > 0, t = 5^q · u.
                var t = (1 << 53) | rng.next() % (1 << 53) | 1
                if q > 0 {
                    let u = t / five | 1
                    let (product, overflow) = u.multipliedReportingOverflow(by: five)
                    guard !overflow, product >> 53 == 1 else { continue }
                    t = product
                }
                // w = t / 5^q · 2^j (q > 0) or 5^|q| · t · 2^j (q < 0): w · 10^q = t · 2^(j + q).
                var w = q > 0 ? t / five : t
                if q < 0 {
                    let (product, overflow) = w.multipliedReportingOverflow(by: five)
                    guard !overflow else { continue }
                    w = product
                }
                let shift = Int(rng.next() % 12)
                guard w.leadingZeroBitCount > shift, (w << shift) < 10_000_000_000_000_000_000 else { continue }
                w <<= shift
                made += 1
                for v in [w, w - 1, w + 1] {
                    tokens.append("\(v)e\(q)")
                    tokens.append("\(v)0e\(q - 1)")
                    tokens.append("\(v)1e\(q - 1)")
                    tokens.append("-\(v)e\(q)")
                }
            }
            #expect(made == 40, "q = \(q): only \(made) halfway points found")
        }
        // Halfway points above 2^53 written as integers (the spacing there is 2, 4, … 2048).
        for _ in 0..<2000 {
            let d = Double(bitPattern: (0x4340_0000_0000_0000 as UInt64) + rng.next() % (10 << 52))
            guard d < 1e19 else { continue }
            let below = UInt64(d), above = UInt64(d.nextUp)
            let mid = below / 2 + above / 2
            tokens += ["\(mid)", "\(mid - 1)", "\(mid + 1)", "\(mid).0", "\(mid)e0", "0.\(mid)e\(String(mid).count)"]
        }
        let (count, first) = Self.mismatches(tokens)
        #expect(tokens.count > 4000)
        #expect(count == 0, "\(count) of \(tokens.count) mismatches; first: \(first ?? "")")
    }

    /// Named hard cases: 2⁵³ + 1, the halfway points around the normal/subnormal boundary, the
    /// smallest subnormal and the largest finite double, 19 and 20 digits, leading zeros, signs.
    @Test func adversarialTokens() {
        let tokens = [
            "9007199254740993", "9007199254740992", "9007199254740994", "9007199254740995", "7.2057594037927933e16",
            "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308", "2.225073858507201136057409796709131975934e-308",
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "2.4703282292062327208828439643411068618e-324",
            "1e-324", "3e-324", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
            "1.797693134862315807937289714053034150799e308", "1e308", "1e309", "1e-400", "1e400", "0e999999", "0.0e-999999",
            "9999999999999999999", "99999999999999999999", "1234567890123456789", "12345678901234567890", "18446744073709551615",
            "18446744073709551616", "0.1234567890123456789", "0.12345678901234567890", "000000000000000000000000001", "0000.00001e5",
            "0.000000000000000000000000000000000000000000001e45", "-0", "-0.0", "+0", "+1", "-1", ".5", "5.", "-.5e1", "1E5", "1e+05",
            "1e-05", "123456789012345678e-30", "1.00000000000000000000000", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124", "1.00000000000000011102230246251565404236316680908203126",
            "0.1", "0.2", "0.3", "1700000000.000314", "-0.6132814288139343", "0.009582237", "1e00000000000000000000022",
            "1e-0000000000000000000000000000000000000000022",
        ]
        // Exponents past the scanner's 100,000 clip, offset by long runs of zeros (strtod decides).
        let zeros = String(repeating: "0", count: 100_005)
        let long = ["0.\(zeros)1e10000000", "0.\(zeros)1e100010", "1\(zeros)e-10000000", "1\(zeros)e-100010"]
        let (count, first) = Self.mismatches(tokens + long)
        #expect(count == 0, "\(count) mismatches; first: \(first?.prefix(200) ?? "")")
        // Refused exactly as before Eisel–Lemire (some of them strtod would read: hex, nan(…)).
        let refused = [
            "", "-", "+", ".", "e5", "1e", "1e+", "1e-", "--1", "+-1", "1.2.3", "1,5", "0x10", "abc", "1.5x", "nan(1)", "1 ", " 1", "1e5.5",
            "infinit",
        ]
        for bad in refused {
            #expect(Array(bad.utf8).withUnsafeBufferPointer { parseDecimal($0) } == nil, "\(bad)")
        }
        for (text, value) in [("nan", Double.nan), ("-NaN", .nan), ("inf", .infinity), ("-Infinity", -.infinity), ("+INF", .infinity)] {
            let v = Array(text.utf8).withUnsafeBufferPointer { parseDecimal($0) }
            #expect(v != nil && (value.isNaN ? v!.isNaN : v == value), "\(text)")
        }
    }

    /// The table reader's one-pass scanner (numbers read where their token starts) agrees with
    /// strtod on every token of random rows with spaces, tabs, commas and CRLF line ends.
    @Test func tableScannerMatchesStrtod() throws {
        var rng = SeededRandom(seed: 7)
        let separators = [" ", "\t", ",", " , ", "  ", ", "]
        var text = "# comment line\n\n"
        var tokens: [String] = []
        for _ in 0..<3000 {
            var row: [String] = []
            for _ in 0..<4 {
                let digits = Int(rng.next() % 22) + 1
                var t = (rng.next() % 2 == 0 ? "-" : "") + String((0..<digits).map { _ in Character(String(rng.next() % 10)) })
                t.insert(".", at: t.index(t.startIndex, offsetBy: t.count - Int(rng.next() % UInt64(digits))))
                if rng.next() % 3 == 0 { t += "e\(Int(rng.next() % 80) - 40)" }
                row.append(t)
            }
            tokens += row
            text += (rng.next() % 4 == 0 ? " " : "") + row.joined(separator: separators[Int(rng.next() % 6)])
            text += rng.next() % 2 == 0 ? "\r\n" : "\n"
        }
        let table = try parseNumericTable(Array(text.utf8), path: "random.txt", columns: 4...4, fieldNames: [], formatName: "test")
        #expect(table.values.count == tokens.count)
        var mismatches = 0
        var first: String?
        for (t, v) in zip(tokens, table.values) where strtod(t, nil).bitPattern != v.bitPattern {
            mismatches += 1
            if first == nil { first = "\(t): \(v) vs strtod \(strtod(t, nil))" }
        }
        #expect(mismatches == 0, "\(mismatches) mismatches; first: \(first ?? "")")
        // A token that starts like a number and goes on is refused whole, as before.
        for (row, found) in [("1 2 1.5x 4", "1.5x"), ("1 2 3 1e5e", "1e5e"), ("1 2 3 12345678901234567890123x", "12345678901234567890123x")] {
            do {
                _ = try parseNumericTable(Array("1 2 3 4\n\(row)\n".utf8), path: "t", columns: 4...4, fieldNames: [], formatName: "test")
                Issue.record("\(row): accepted")
            } catch {
                #expect(error.description.contains("line 2") && error.description.contains("expected a number, found \"\(found)\""), "\(error)")
            }
        }
    }

    /// Text denser than the first pass's room (a value every 2 bytes against a tenth of the
    /// bytes reserved) goes through several passes, each resuming at the row the last one
    /// stopped before: every value and line number as one strtod pass gives them; a problem
    /// in a later pass names its line. Rows of 1, 8 and 64 fields (`keep` too).
    @Test func denseTextGrowsAcrossPasses() throws {
        for fields in [1, 8, 64] {
            var rng = SeededRandom(seed: UInt64(fields))
            var text = "", tokens: [String] = [], lines: [Int32] = []
            var line: Int32 = 0
            for r in 0..<5_000 {
                line += 1
                if r % 97 == 0 { text += "# note\n"; line += 1 }
                let row = (0..<fields).map { _ in String(rng.next() % 10) }
                tokens += row
                lines.append(line)
                text += row.joined(separator: " ") + "\n"
            }
            let bytes = Array(text.utf8)
            let table = try parseNumericTable(bytes, path: "dense.txt", columns: 1...64, fieldNames: [], formatName: "test")
            #expect(table.values.count > bytes.count / 10, "not past the first pass's room")
            #expect(table.values.map(\.bitPattern) == tokens.map { strtod($0, nil).bitPattern }, "\(fields) fields")
            #expect(table.lineNumbers == lines && table.columns == fields)
            let kept = try parseNumericTable(bytes, path: "dense.txt", columns: 1...64, keep: 1, fieldNames: [], formatName: "test")
            #expect(kept.values.map(\.bitPattern) == stride(from: 0, to: tokens.count, by: fields).map { strtod(tokens[$0], nil).bitPattern })
            do {
                _ = try parseNumericTable(Array((text + "1 x\n").utf8), path: "dense.txt", columns: 1...64, fieldNames: [], formatName: "test")
                Issue.record("accepted a bad last line")
            } catch {
                #expect(error.description.contains("line \(line + 1)"), "\(error)")
            }
        }
    }

    /// Fields marked `unread` are counted, never read: any token there (a word, `1.5x`, a NUL)
    /// is stored as NaN, and the read fields of the same rows equal strtod's values bit for bit;
    /// a row with a field too few is still refused, and a word in a read field still names its
    /// line and field.
    @Test func unreadFieldsAreCountedNotRead() throws {
        var rng = SeededRandom(seed: 41)
        // Bytes below 0x2D that are no separator (`+ # ( ) ' " !`, control bytes) inside long
        // tokens, UTF-8 beyond ASCII.
        let junk = ["abc", "1.5x", "nan(1)", "\u{0}", "--", "1e5e5", "0x10", "", ".", "a+b#c(d)e'f\"g!h\u{1}i", "größe", "1234567+89012345678"]
        let unread: UInt64 = 0b10_0110  // fields 1, 2 and 5 of 6
        var text = "", expected: [Double] = []
        for _ in 0..<3_000 {
            var row: [String] = []
            for f in 0..<6 {
                if unread & (1 << UInt64(f)) != 0 {
                    row.append(junk[Int(rng.next() % UInt64(junk.count))])
                    expected.append(.nan)
                    continue
                }
                let digits = Int(rng.next() % 22) + 1
                var t = (rng.next() % 2 == 0 ? "-" : "") + String((0..<digits).map { _ in Character(String(rng.next() % 10)) })
                t.insert(".", at: t.index(t.startIndex, offsetBy: t.count - Int(rng.next() % UInt64(digits))))
                if rng.next() % 4 == 0 { t += "e\(Int(rng.next() % 80) - 40)" }
                row.append(t)
                expected.append(strtod(t, nil))
            }
            // Two commas in a row are one separator (no empty field): an empty token is written as x.
            text += row.map { $0.isEmpty ? "x" : $0 }.joined(separator: ",") + "\n"
        }
        let table = try parseNumericTable(Array(text.utf8), path: "t.csv", columns: 6...6, unread: unread, fieldNames: [], formatName: "test")
        #expect(table.rows == 3_000 && table.values.count == expected.count)
        let mismatches = zip(table.values, expected).filter { a, b in a.bitPattern != b.bitPattern && !(a.isNaN && b.isNaN) }.count
        #expect(mismatches == 0)
        for (rows, found) in [
            ("1,a,b,2,3,c\n1,a,b,x,3,c\n", "line 2: field 4: expected a number, found \"x\""),
            ("1,a,b,2,3,c\n1,a,b,2,3\n", "line 2: expected 6 fields like the first data line, found 5"),
        ] {
            do {
                _ = try parseNumericTable(Array(rows.utf8), path: "t.csv", columns: 6...6, unread: unread, fieldNames: [], formatName: "test")
                Issue.record("accepted \(rows)")
            } catch {
                #expect(error.description == "t.csv: \(found)", "\(error)")
            }
        }
    }

    /// Every token of the peer-bench TUM pair (200,000 poses each, 40 MB), when the files are
    /// on this machine (not on CI): `PEERS_DATA`, the package's peers-data, or this
    /// machine's shared copy. strtod walks the text on its own, independently of the scanner.
    @Test func peerBenchPairMatchesStrtod() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folders = [ProcessInfo.processInfo.environment["PEERS_DATA"], root.path + "/peers-data", "/work/main/peers-data"]
        guard let folder = folders.compactMap({ $0 }).first(where: { FileManager.default.fileExists(atPath: $0 + "/groundtruth.tum") }) else {
            return  // not on this machine: nothing to compare
        }
        for name in ["groundtruth.tum", "estimate.tum"] {
            let path = folder + "/" + name
            guard FileManager.default.fileExists(atPath: path) else { continue }
            var bytes = try readFileBytes(path)
            let table = try parseNumericTable(bytes, path: path, columns: 8...8, fieldNames: [], formatName: "TUM")
            // The reference: strtod from token to token over the NUL-terminated text, # lines skipped.
            bytes.append(0)
            var expected: [Double] = []
            expected.reserveCapacity(table.values.count)
            bytes.withUnsafeBufferPointer { b in
                b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { start in
                    var p = start
                    while true {
                        p += strspn(p, " \t\r\n,")
                        if p.pointee == 0 { break }
                        if p.pointee == CChar(UInt8(ascii: "#")) {
                            guard let nl = strchr(p, 10) else { break }
                            p = UnsafePointer(nl)
                            continue
                        }
                        var end: UnsafeMutablePointer<CChar>?
                        let v = strtod(p, &end)
                        guard let end, UnsafePointer(end) > p else { break }
                        expected.append(v)
                        p = UnsafePointer(end)
                    }
                }
            }
            #expect(expected.count == table.values.count, "\(name): \(expected.count) tokens vs \(table.values.count) values")
            let mismatches = (0..<min(expected.count, table.values.count)).filter { expected[$0].bitPattern != table.values[$0].bitPattern }
            #expect(mismatches.isEmpty, "\(name): \(mismatches.count) mismatches, first at value \(mismatches.first ?? -1)")
        }
    }
}
