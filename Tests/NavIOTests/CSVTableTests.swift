import Foundation
import NavCore
import NavIO
import Testing

/// navbench's CSV scanner: quoting, CRLF, BOM, blank lines, empty-cell NaN, ragged rows,
/// and bit-exact numbers (against Swift's own correctly rounded `Double(String)`).
@Suite struct CSVTableTests {
    func table(_ text: String) throws(TraceError) -> CSVTable { try CSVTable(bytes: Array(text.utf8), file: "t.csv") }
    func message(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    @Test func dialect() throws {
        let t = try table("\u{FEFF}time, \"a, b\" ,c\r\n0.1,\"1,5\",x\r\n\r\n 0.2 , 2.5e-3 ,\"say \"\"hi\"\"\nthere\"\r\n0.3,,nan\n")
        #expect(t.header == ["time", "a, b", "c"])
        #expect(t.rowCount == 3)
        #expect(t.rows[0] == ["0.1", "1,5", "x"])
        #expect(t.rows[1] == ["0.2", "2.5e-3", "say \"hi\"\nthere"])
        #expect(try t.numbers("time") == [0.1, 0.2, 0.3])
        #expect(message { _ = try t.numbers("c") } == "t.csv: line 2, column 'c': expected a number (empty or nan for a missing value), found 'x'")
        let b = try table("x,y\n1,\n2,3\n").numbers("y")
        #expect(b[0].isNaN && b[1] == 3)
    }

    @Test func quotedNumbersParse() throws {
        #expect(try table("x,y\n\"1.25\",\"-3\"\n").numbers("y") == [-3])
    }

    @Test func errorsNameLineAndColumn() throws {
        #expect(throws: TraceError.self) { try table("a,b\n1,2\n3\n") }
        #expect(message { _ = try table("a,b\n1,2\n\n3\n") } == "t.csv: line 4: expected 2 fields (as the header), found 1")
        #expect(
            message { _ = try table("a,b\n1,2\n3,abc\n").numbers("b") }
                == "t.csv: line 3, column 'b': expected a number (empty or nan for a missing value), found 'abc'")
        #expect(message { _ = try table("a,b\n1,\"2\n") } == "t.csv: line 2: a quoted field is not closed (expected a \" before the end of the file)")
        #expect(message { _ = try table("a,b\n1,inf\n").numbers("b") }?.contains("found 'inf'") == true)
    }

    @Test func numbersAreCorrectlyRounded() throws {
        // Seeded: any bit pattern (17 significant digits, the slow path) and short decimals such as
        // sensors write (the fast path, mantissa below 2^53), each compared with Swift's parser.
        var rng = SeededRandom(seed: 20261123)
        var text = "v\n"
        var expected: [Double] = []
        for k in 0..<3000 {
            let s: String
            if k % 3 == 2 {
                s = String(format: "%.6f", (rng.uniform() - 0.5) * 2e4)
            } else {
                let x = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (rng.next() & 1 == 0 ? 1 : -1)
                s = String(format: "%.17g", x)
            }
            text += s + "\n"
            expected.append(Double(s)!)
        }
        #expect(try table(text).numbers("v") == expected)
    }

    @Test func addingKeepsRowsAndRoundTrips() throws {
        let t = try table("t,\"q,x\"\r\n1,\"a\"\r\n2,b\r\n")
        let out = t.adding(column: "y", values: [0.1, .nan])
        #expect(out == "t,\"q,x\",y\n1,\"a\",0.1\n2,b,nan\n")
        let back = try table(out).numbers("y")
        #expect(back[0] == 0.1 && back[1].isNaN)
        #expect(t.adding(column: "t", values: [5, 1e300]) == "t,\"q,x\"\n5,a\n1e+300,b\n")
    }
}
