import Foundation
import NavCore
import Testing

@testable import NavIO

/// The two readers of a decimal token — NavCore's `numberFromText` (flags, texts, cells) and
/// NavIO's `parseDecimal` (bulk tables) — accept the same tokens and give the same bits.
@Suite struct NumberTextAgreementTests {
    @Test func bothReadersAgree() {
        var tokens = [
            "0", "-0", "+3", "49.46", ".5", "5.", "1e300", "-2.5E-3", "1e-400", "2.2250738585072011e-308", "123456789012345678901234567890",
            "nan", "-inf", "Infinity", "49\u{0}.46", "0x1p3", " 1", "1 ", "", ".", "e5", "1e", "1e+", "--1", "1.2.3", "nan1",
        ]
        var g = SeededRandom(seed: 9)
        for _ in 0..<2_000 { tokens.append(String(g.gaussian() * Foundation.pow(10.0, Double(Int(g.uniform() * 40) - 20)))) }
        for t in tokens {
            let a = numberFromText(t)
            let b = Array(t.utf8).withUnsafeBufferPointer { parseDecimal($0) }
            #expect(
                a?.bitPattern == b?.bitPattern || (a?.isNaN == true && b?.isNaN == true),
                "\(t.debugDescription): \(String(describing: a)) vs \(String(describing: b))")
        }
    }
}
