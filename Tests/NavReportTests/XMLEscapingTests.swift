import Foundation
import NavCore
import Testing

@testable import NavReport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `xmlEscaped` (JUnit, SVG, the HTML page) against its definition written out scalar by scalar,
/// and against an XML parser (libxml2 through FoundationXML), which must read the text back.
@Suite struct XMLEscapingTests {
    /// The doc comment's rule for one scalar.
    static func definition(_ u: Unicode.Scalar) -> String {
        switch u {
        case "&": return "&amp;"
        case "<": return "&lt;"
        case ">": return "&gt;"
        case "\"": return "&quot;"
        case "'": return "&apos;"
        case "\t", "\n", "\r": return String(u)
        case "\u{2028}": return "&#x2028;"
        case "\u{2029}": return "&#x2029;"
        default: return u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF ? "\u{FFFD}" : String(u)
        }
    }

    /// Scalars the rule treats apart, and some it passes through (Latin-1, CJK, an emoji).
    static let specials: [Unicode.Scalar] = ["\u{7F}", "\u{85}", "\u{A0}", "é", "\u{2028}", "\u{2029}", "中", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "😀"]

    @Test func everyASCIIScalarAndTheSpecialOnesAlone() {
        let scalars = (0..<0x80).compactMap(Unicode.Scalar.init) + Self.specials
        for u in scalars {
            #expect(xmlEscaped(String(u)) == Self.definition(u), "U+\(String(u.value, radix: 16))")
        }
    }

    /// Random strings, mostly plain ASCII (the shortcut) with now and then a scalar that needs
    /// escaping or is not ASCII (the full loop): each equals its scalars escaped one by one.
    @Test func randomStringsAreEscapedScalarByScalar() {
        var rng = SeededRandom(seed: 20_261_202)
        let plain = (0x20..<0x7F).compactMap(Unicode.Scalar.init)
        let all = (0..<0x80).compactMap(Unicode.Scalar.init) + Self.specials
        for k in 0..<5_000 {
            let count = Int(rng.next() % 40)
            var s = String.UnicodeScalarView()
            for _ in 0..<count {
                let pool = k % 2 == 0 ? plain : all
                s.append(pool[Int(rng.next() % UInt64(pool.count))])
            }
            let text = String(s)
            #expect(xmlEscaped(text) == text.unicodeScalars.map(Self.definition).joined(), "\(text.debugDescription)")
        }
    }

    #if canImport(FoundationXML)
    /// The escaped text, as an attribute value and as element content, parses back to the text
    /// (strings without the characters an attribute normalises or XML cannot carry).
    @Test func escapedTextParsesBackAsXML() throws {
        var rng = SeededRandom(seed: 7)
        let pool = (0x20..<0x7F).compactMap(Unicode.Scalar.init) + ["é", "中", "😀", "\u{2028}", "\u{2029}"]
        for _ in 0..<300 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int(1 + rng.next() % 30) { s.append(pool[Int(rng.next() % UInt64(pool.count))]) }
            let text = String(s), e = xmlEscaped(text)
            let doc = try XMLDocument(xmlString: "<a b=\"\(e)\" c='\(e)'>\(e)</a>")
            let root = try #require(doc.rootElement())
            #expect(root.stringValue == text)
            #expect(root.attribute(forName: "b")?.stringValue == text)
            #expect(root.attribute(forName: "c")?.stringValue == text)
        }
    }
    #endif
}
