import Foundation
import NavCore
import Testing

/// `numberFromText`: the one reader of numbers written as text (issue 50, item 12). A decimal
/// token reads as Swift's correctly rounded `Double(_:)` (strtod) does; anything else — a NUL
/// byte inside, hexadecimal, blanks, a second number — is no number.
@Suite struct NumberTextTests {
    @Test func decimalTokensReadAsStrtod() {
        for text in ["0", "-0", "+3", "49.46", ".5", "5.", "1e300", "-2.5E-3", "1e-400", "123456789012345678901234567890", "nan", "-inf", "Infinity"]
        {
            let expected = Double(text)!
            let got = numberFromText(text)
            #expect(got?.bitPattern == expected.bitPattern || (got?.isNaN == true && expected.isNaN), "\(text)")
        }
    }

    @Test func anythingElseIsNoNumber() {
        for text in ["49\u{0}.46", "0x1p3", " 1", "1 ", "1,5", "", ".", "e5", "1e", "1e+", "--1", "1.2.3", "nan1", "١٢"] {
            #expect(numberFromText(text) == nil, "\(text.debugDescription)")
        }
        #expect(Double("49\u{0}.46") == 49, "Swift's own reader stops at the NUL (why this exists)")
    }
}
