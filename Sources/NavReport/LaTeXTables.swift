import Foundation
import NavCore

/// The pipe tables of a Markdown report as LaTeX tables for a paper (booktabs): the same cells
/// — numbers, CIs, significance marks (`*`, bold) and the units of the headers — in a `table`
/// float whose caption is the nearest Markdown heading above it. Fed the Markdown in pieces
/// (as `summary.md` is written), so memory is one table, not the report.
///
/// A cell's text: Markdown escapes (`\|`, `\_`, …) undone, then LaTeX's special characters
/// escaped (`\ & % $ # _ { } ~ ^`), `**bold**` → `\textbf{…}`, `` `code` `` → `\texttt{…}`, and
/// the report's Unicode signs as LaTeX (× · − – ± ≤ ≥ ≈ ° α). Column alignment from the Markdown
/// separator row (`---:` right, `:---:` centred, else left). Needs `\usepackage{booktabs}`.
public struct MarkdownTablesToLaTeX {
    private var partial = ""
    private var heading = ""
    private var table: [String] = []
    private var count = 0

    public init() {}

    /// The file's first lines: what it is and what it needs.
    public static func header(source: String) -> String {
        "% Tables of \(source) for LaTeX (navbench; booktabs). \\usepackage{booktabs} in the preamble; \\input this file.\n"
    }

    /// The LaTeX of the tables completed by `text` (a piece of the Markdown).
    ///
    /// Complexity: O(|text|).
    public mutating func feed(_ text: String) -> String {
        var out = ""
        var rest = partial + text, lines: [String] = []
        takeCompleteLines(&rest) { lines.append($0) }
        partial = rest
        for line in lines { out += take(line) }
        return out
    }

    /// The LaTeX of a table still open at the end of the Markdown.
    public mutating func finish() -> String {
        var out = ""
        if !partial.isEmpty { out += take(partial); partial = "" }
        return out + flush()
    }

    private mutating func take(_ line: String) -> String {
        if line.hasPrefix("|") {
            table.append(line)
            return ""
        }
        let out = flush()
        if line.hasPrefix("#") { heading = String(line.drop { $0 == "#" }.drop { $0 == " " }) }
        return out
    }

    private mutating func flush() -> String {
        defer { table = [] }
        guard table.count >= 2 else { return "" }
        let header = Self.cells(table[0]), separator = Self.cells(table[1])
        guard separator.allSatisfy({ !$0.isEmpty && $0.allSatisfy { "-: ".contains($0) } }) else { return "" }
        count += 1
        let align = separator.map { s -> String in
            let t = s.trimmingWhitespace()
            return t.hasPrefix(":") && t.hasSuffix(":") ? "c" : t.hasSuffix(":") ? "r" : "l"
        }.joined()
        var out = "\n% Table \(count)\(heading.isEmpty ? "" : ": " + Self.comment(heading))\n"
        out += "\\begin{table}[htbp]\n\\centering\n\\small\n"
        if !heading.isEmpty { out += "\\caption{\(Self.latex(heading))}\n" }
        out += "\\begin{tabular}{\(align)}\n\\toprule\n"
        out += header.map(Self.latex).joined(separator: " & ") + " \\\\\n\\midrule\n"
        for row in table.dropFirst(2) {
            var cells = Self.cells(row).map(Self.latex)
            if cells.count < header.count { cells += Array(repeating: "", count: header.count - cells.count) }
            out += cells.prefix(header.count).joined(separator: " & ") + " \\\\\n"
        }
        out += "\\bottomrule\n\\end{tabular}\n\\end{table}\n"
        return out
    }

    /// The cells of a pipe-table row (`| a | b |`), split on unescaped `|`.
    static func cells(_ row: String) -> [String] {
        var out: [String] = [], cell = "", escaped = false
        for ch in row.dropFirst() {
            if escaped { cell.append("\\"); cell.append(ch); escaped = false; continue }
            if ch == "\\" { escaped = true; continue }
            if ch == "|" { out.append(cell.trimmingWhitespace()); cell = ""; continue }
            cell.append(ch)
        }
        if escaped { cell.append("\\") }
        if !cell.trimmingWhitespace().isEmpty { out.append(cell.trimmingWhitespace()) }
        return out
    }

    /// A heading as a LaTeX comment (one line).
    static func comment(_ s: String) -> String { s.replacingOccurrences(of: "\r", with: " ") }

    /// Markdown cell text as LaTeX text.
    static func latex(_ markdown: String) -> String {
        var out = "", bold = false, code = false
        var chars = Array(markdown)[...]
        while let ch = chars.first {
            chars = chars.dropFirst()
            if ch == "\\", let next = chars.first, next.isASCII, next.isPunctuation || next.isSymbol {
                chars = chars.dropFirst()
                appendLaTeX(next, to: &out)
                continue
            }
            if ch == "*", chars.first == "*" {
                chars = chars.dropFirst()
                out += bold ? "}" : "\\textbf{"
                bold.toggle()
                continue
            }
            if ch == "`" {
                out += code ? "}" : "\\texttt{"
                code.toggle()
                continue
            }
            appendLaTeX(ch, to: &out)
        }
        if code { out += "}" }
        if bold { out += "}" }
        return out
    }

    /// `special(ch)` appended to `out`; an ASCII character LaTeX takes as it is (a letter, a digit,
    /// most punctuation) is appended without a `String` of its own.
    private static func appendLaTeX(_ ch: Character, to out: inout String) {
        if let a = ch.asciiValue, !Self.asciiSpecials.contains(a) {
            out.append(ch)
        } else {
            out += special(ch)
        }
    }

    /// The ASCII characters `special` rewrites.
    private static let asciiSpecials = Set("\\&%$#_{}~^".utf8)

    private static func special(_ ch: Character) -> String {
        switch ch {
        case "\\": return "\\textbackslash{}"
        case "&", "%", "$", "#", "_", "{", "}": return "\\\(ch)"
        case "~": return "\\textasciitilde{}"
        case "^": return "\\textasciicircum{}"
        case "×": return "$\\times$"
        case "·": return "$\\cdot$"
        case "−": return "$-$"
        case "–": return "--"
        case "±": return "$\\pm$"
        case "≤": return "$\\le$"
        case "≥": return "$\\ge$"
        case "≈": return "$\\approx$"
        case "°": return "\\textdegree{}"
        case "α": return "$\\alpha$"
        default: return String(ch)
        }
    }
}
