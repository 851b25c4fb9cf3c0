import Foundation
import NavCore
import Testing

@testable import NavReport

/// summary.md's tables as LaTeX (issue 28, item 9): booktabs, the same cells, marks and units.
@Suite struct LaTeXTablesTests {
    @Test func aTableBecomesABooktabsFloat() {
        var t = MarkdownTablesToLaTeX()
        let md = """
            ## Route B1\\_offices & co

            | configuration | n | bearing_error (deg) | p |
            |---|---:|:---:|---|
            | **tol=1 · `x`** | 21 | 7.9 [5.1, 11.8] * | 1e-05 |
            | a \\| b | 3 | −0.5 ± 2 % | – |

            text after
            """
        let tex = t.feed(md + "\n") + t.finish()
        let expected = """

            % Table 1: Route B1\\_offices & co
            \\begin{table}[htbp]
            \\centering
            \\small
            \\caption{Route B1\\_offices \\& co}
            \\begin{tabular}{lrcl}
            \\toprule
            configuration & n & bearing\\_error (deg) & p \\\\
            \\midrule
            \\textbf{tol=1 $\\cdot$ \\texttt{x}} & 21 & 7.9 [5.1, 11.8] * & 1e-05 \\\\
            a | b & 3 & $-$0.5 $\\pm$ 2 \\% & -- \\\\
            \\bottomrule
            \\end{tabular}
            \\end{table}

            """
        #expect(tex == expected, "\(tex)")
    }

    /// Fed in arbitrary pieces, the output is the same as fed whole.
    /// Cell text, character by character, as the LaTeX the escaping table gives (markup
    /// characters `\\`, `*` and backtick left out): ASCII specials, the Unicode signs, and
    /// characters taken as they are (letters, digits, CR LF, accents, an emoji).
    @Test func cellTextIsEscapedCharacterByCharacter() {
        let table: [Character: String] = [
            "&": "\\&", "%": "\\%", "$": "\\$", "#": "\\#", "_": "\\_", "{": "\\{", "}": "\\}", "~": "\\textasciitilde{}",
            "^": "\\textasciicircum{}", "×": "$\\times$", "·": "$\\cdot$", "−": "$-$", "–": "--", "±": "$\\pm$", "≤": "$\\le$",
            "≥": "$\\ge$", "≈": "$\\approx$", "°": "\\textdegree{}", "α": "$\\alpha$",
        ]
        let plain: [Character] = ["a", "Z", "0", "9", " ", ".", ",", "=", "(", "]", "|", "\r\n", "é", "e\u{301}", "👩‍🦯", "ß"]
        let atoms = Array(table.keys) + plain
        var rng = SeededRandom(seed: 7)
        for _ in 0..<500 {
            let chars = (0..<Int.random(in: 0...30, using: &rng)).map { _ in atoms.randomElement(using: &rng)! }
            let text = String(chars)
            let expected = chars.map { table[$0] ?? String($0) }.joined()
            #expect(MarkdownTablesToLaTeX.latex(text) == expected, "\(text)")
        }
    }

    @Test func piecesGiveTheSameText() {
        let md = "# A\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n## B\n| z |\n|---:|\n| 3 |\n"
        var whole = MarkdownTablesToLaTeX()
        let a = whole.feed(md) + whole.finish()
        var split = MarkdownTablesToLaTeX()
        var b = ""
        for ch in md { b += split.feed(String(ch)) }
        b += split.finish()
        #expect(a == b && a.components(separatedBy: "\\begin{tabular}").count == 3)
    }

    /// On the committed report: as many tables as summary.md has, and every number of every
    /// table, in order, in its LaTeX table.
    @Test func theBaselineTablesKeepEveryNumber() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let md = try String(contentsOfFile: root.path + "/Reports/baseline/summary.md", encoding: .utf8)
        var t = MarkdownTablesToLaTeX()
        let tex = t.feed(md) + t.finish()
        let number = /[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?/
        func numbers(_ s: Substring) -> [String] { s.matches(of: number).map { String($0.output).replacingOccurrences(of: "+", with: "") } }
        // Markdown tables: runs of lines starting with '|', without the separator row.
        var mdTables: [[Substring]] = [], current: [Substring] = []
        for line in md.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("|") { current.append(line) } else if !current.isEmpty { mdTables.append(current); current = [] }
        }
        if !current.isEmpty { mdTables.append(current) }
        let texTables = tex.components(separatedBy: "\\midrule\n").dropFirst().map { $0.components(separatedBy: "\\bottomrule")[0] }
        #expect(mdTables.count == texTables.count && texTables.count > 10)
        for (m, l) in zip(mdTables, texTables) {
            let mdNumbers = m.dropFirst(2).flatMap { numbers($0) }
            // LaTeX writes the minus sign of "−" as "$-$": compare magnitudes' digits in order.
            let texNumbers = numbers(Substring(l.replacingOccurrences(of: "$-$", with: "-")))
            #expect(mdNumbers.map { $0.replacingOccurrences(of: "-", with: "") } == texNumbers.map { $0.replacingOccurrences(of: "-", with: "") })
        }
    }
}
