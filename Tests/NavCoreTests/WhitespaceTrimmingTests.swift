import Foundation
import NavCore
import Testing

/// `trimmingWhitespace` against Foundation's `trimmingCharacters(in: .whitespaces)`.
@Suite struct WhitespaceTrimmingTests {
    /// Scalar for scalar (String's `==` equates canonically equivalent text).
    static func sameScalars(_ a: String, _ b: String) -> Bool { Array(a.unicodeScalars) == Array(b.unicodeScalars) }

    /// Every Unicode scalar, alone, before and after text: the same set as Foundation's.
    @Test func everyScalarIsClassedAsFoundationClassesIt() {
        var differing: [UInt32] = []
        for v in UInt32(0)..<0x11_0000 {
            guard let u = Unicode.Scalar(v) else { continue }
            let s = "\(u)a\(u)"
            if !Self.sameScalars(s.trimmingWhitespace(), s.trimmingCharacters(in: .whitespaces)) { differing.append(v) }
        }
        #expect(differing.isEmpty, "scalars trimmed otherwise: \(differing.prefix(20).map { String($0, radix: 16) })")
    }

    /// Random strings of blanks, letters, combining marks, newlines and emoji.
    @Test func randomTextTrimsAsFoundation() {
        let pieces = [
            " ", "\t", "\u{A0}", "\u{2003}", "\u{200B}", "\u{3000}", "\n", "\r\n", "a", "é", "e\u{301}", "\u{301}", "|", "\\",
            "👩‍🦯", "×", "",
        ]
        var g = SeededRandom(seed: 53, label: "trim")
        for _ in 0..<20_000 {
            let s = (0..<Int(g.next() % 9)).map { _ in pieces[Int(g.next() % UInt64(pieces.count))] }.joined()
            #expect(Self.sameScalars(s.trimmingWhitespace(), s.trimmingCharacters(in: .whitespaces)), "\(s.unicodeScalars.map { $0.value })")
            let sub = s.dropFirst()
            #expect(Self.sameScalars(sub.trimmingWhitespace(), sub.trimmingCharacters(in: .whitespaces)))
        }
    }
}
