import NavCore
import Testing

@testable import NavReport

/// `takeCompleteLines` splits where the `Character` loop it replaced split (`firstIndex(of: "\n")`
/// on the text, then the rest copied): the same lines and the same rest, whatever the pieces.
@Suite struct CompleteLinesTests {
    /// The definition: Swift's `Character` search, one line at a time.
    static func byCharacters(_ text: inout String) -> [String] {
        var lines: [String] = []
        while let nl = text.firstIndex(of: "\n") {
            lines.append(String(text[..<nl]))
            text = String(text[text.index(after: nl)...])
        }
        return lines
    }

    @Test func sameLinesAsTheCharacterSearch() {
        // CR, LF and CR LF, a combining mark after each, a flag, an emoji sequence, ASCII.
        let atoms = ["\n", "\r", "\r\n", "\n\u{301}", "\r\u{301}", "e\u{301}", "🇫🇷", "👩‍🦯", "a", "|", " ", "ü"]
        var rng = SeededRandom(seed: 2_026)
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...40, using: &rng)).map { _ in atoms.randomElement(using: &rng)! }.joined()
            // Fed whole, and in pieces cut at random UTF-8 scalar boundaries (as `feed` receives them).
            var expectedRest = text
            let expected = Self.byCharacters(&expectedRest)
            var whole = text, got: [String] = []
            takeCompleteLines(&whole) { got.append($0) }
            #expect(got == expected && whole == expectedRest)
            var pieces: [String] = [], rest = Substring(text)
            while !rest.isEmpty {
                let k = Int.random(in: 1...max(1, rest.unicodeScalars.count), using: &rng)
                let cut = rest.unicodeScalars.index(rest.startIndex, offsetBy: k)
                pieces.append(String(rest[..<cut]))
                rest = rest[cut...]
            }
            var buffer = "", fed: [String] = [], reference = "", referenceLines: [String] = []
            for p in pieces {
                buffer += p
                takeCompleteLines(&buffer) { fed.append($0) }
                reference += p
                referenceLines += Self.byCharacters(&reference)
            }
            #expect(fed == referenceLines && buffer == reference)
        }
    }
}
