import Foundation
import NavCore

/// navbench's Markdown reports (`summary.md` and the pages it links to, such as `routes/*.md`) as
/// one self-contained, accessible HTML page (`report.html`): no script, font or style from
/// elsewhere and no request at all — every figure is the experiment's own SVG, inlined.
///
/// What the Markdown holds becomes what a screen reader and a keyboard can use: headings with
/// ids, a "Read this first" box of caveats after the title (`role="note"`), pipe tables as
/// `<table>`s with a `<caption>` (the nearest heading), column headers (`scope="col"`) and row
/// headers (the first cell, `scope="row"`) inside a `<details>` (collapsed when longer than
/// `openTableRows` rows), figures as `<figure>`s whose SVG has `role="img"` and the Markdown's
/// alternative text as its name and caption. Links to a page of the report (`routes/B1.md`)
/// become links to its section; other relative links stay relative; links with a scheme are
/// kept as text only.
///
/// Every text from the Markdown is escaped (`xmlEscaped`: `& < > " '`, U+2028/U+2029 as references),
/// Markdown's backslash escapes undone first; `**bold**` and `` `code` `` are the only inline
/// markup read. Fed in pieces (as `summary.md` is written), so memory is one block, not the page.
public struct MarkdownReportToHTML {
    /// Tables with more rows than this start collapsed.
    public static let openTableRows = 12
    private let figures: (String) -> String?
    private let caveats: [String]
    private let evidence: [String: String]
    private var pages: Set<String>
    private var folder = ""
    private var partial = ""
    private var heading = ""
    private var block: [String] = []
    private var list: [String] = []
    private var table: [String] = []
    private var ids: [String: Int] = [:]
    private var caveatsWritten = false
    private var tables = 0

    /// - Parameters:
    ///   - figures: SVG text by report-relative path (`plots/x.svg`), inlined where the Markdown shows
    ///     them (asked for when a figure is met: a caller may read it from disk then).
    ///   - caveats: Markdown lines of the "Read this first" box.
    ///   - pages: report-relative paths of the Markdown pages that will follow (`startPage`).
    ///   - evidence: a list item's Markdown → the heading of the section that holds its evidence; the
    ///     item gets a link to it (the Findings' lines, before their sections).
    public init(figures: @escaping (String) -> String?, caveats: [String], pages: [String] = [], evidence: [String: String] = [:]) {
        self.figures = figures
        self.caveats = caveats
        self.pages = Set(pages)
        self.evidence = evidence
    }

    /// The converter with figures given in memory, by report-relative path.
    public init(figures: [String: String], caveats: [String], pages: [String] = [], evidence: [String: String] = [:]) {
        self.init(figures: { figures[$0] }, caveats: caveats, pages: pages, evidence: evidence)
    }

    /// The page's opening: the document head with its inline style.
    public static func opening(title: String) -> String {
        htmlPageOpening(
            title: title, maxWidth: "80rem",
            style: """
                a { color: #0645ad; } a:focus, summary:focus { outline: 3px solid #b35900; outline-offset: 2px; }
                .skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
                #caveats { border: 2px solid #7a4d00; background: #fff8e6; padding: .25rem 1rem; margin: 1rem 0; }
                table { border-collapse: collapse; font-size: .85rem; margin: .5rem 0 1rem; }
                caption { text-align: left; font-weight: bold; padding: .25rem 0; }
                th, td { border: 1px solid #999; padding: .2rem .4rem; vertical-align: top; }
                thead th { background: #eceff4; } tbody th { text-align: left; font-weight: normal; }
                td.r { text-align: right; } td.c { text-align: center; }
                details { margin: .5rem 0; } summary { cursor: pointer; font-weight: bold; }
                .scroll { overflow-x: auto; }
                figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; } figcaption { font-size: .9rem; color: #333; }
                code { background: #f2f2f2; padding: 0 .2rem; }
                """)
            + "<a class=\"skip\" href=\"#main\">Skip to the report</a>\n<main id=\"main\">\n\n"
    }

    /// The HTML of the blocks completed by `markdown` (a piece of the page).
    ///
    /// Complexity: O(|markdown|) plus, per figure shown, the figure's size.
    public mutating func feed(_ markdown: String) -> String {
        var out = ""
        var text = partial + markdown, lines: [String] = []
        takeCompleteLines(&text) { lines.append($0) }
        partial = text
        for line in lines { out += take(line) }
        return out
    }

    /// Ends the page before and starts the Markdown page `path` (report-relative, e.g. `routes/B1.md`):
    /// its relative links and figures resolve from its folder, its back link to the summary is dropped.
    public mutating func startPage(_ path: String) -> String {
        var out = finishBlocks()
        folder = parentFolder(path)
        out += "<hr>\n"
        return out
    }

    /// Everything still open, and the end of the document.
    public mutating func finish() -> String {
        var out = finishBlocks()
        if !caveatsWritten { out += caveatsBox() }
        return out + "</main>\n</body>\n</html>\n"
    }

    private mutating func finishBlocks() -> String {
        var out = ""
        if !partial.isEmpty { out += take(partial); partial = "" }
        return out + flushParagraph() + flushList() + flushTable()
    }

    private mutating func take(_ line: String) -> String {
        if line.hasPrefix("|") {
            let out = flushParagraph() + flushList()
            table.append(line)
            return out
        }
        var out = flushTable()
        let trimmed = line.trimmingWhitespace()
        if trimmed.isEmpty { return out + flushParagraph() + flushList() }
        if line.hasPrefix("#") {
            out += flushParagraph() + flushList()
            let level = min(6, line.prefix { $0 == "#" }.count)
            let text = String(line.drop { $0 == "#" }.drop { $0 == " " })
            heading = text
            let plain = markdownPlainText(text)
            let id = identifier(folder == "routes/" && plain.hasPrefix("Route ") ? "route-" + plain.dropFirst(6) : plain)
            out += "<h\(level) id=\"\(id)\">\(inline(text))</h\(level)>\n"
            if level == 1 && !caveatsWritten { out += caveatsBox() }
            return out
        }
        if let figure = figure(trimmed) { return out + flushParagraph() + flushList() + figure }
        if line.hasPrefix("- ") || line.hasPrefix("* ") {
            out += flushParagraph()
            list.append(String(line.dropFirst(2)))
            return out
        }
        if line.hasPrefix("  "), !list.isEmpty {
            list[list.count - 1] += " " + trimmed
            return out
        }
        if !folder.isEmpty, trimmed.hasPrefix("[←"), trimmed.contains("summary.md)") { return out }
        out += flushList()
        block.append(trimmed)
        return out
    }

    private mutating func caveatsBox() -> String {
        caveatsWritten = true
        guard !caveats.isEmpty else { return "" }
        return "<div id=\"caveats\" role=\"note\" aria-labelledby=\"caveats-title\">\n<h2 id=\"caveats-title\">Read this first</h2>\n<ul>\n"
            + caveats.map { "<li>\(inline($0))</li>\n" }.joined() + "</ul>\n</div>\n"
    }

    private mutating func flushParagraph() -> String {
        defer { block = [] }
        guard !block.isEmpty else { return "" }
        return "<p>\(inline(block.joined(separator: " ")))</p>\n"
    }

    private mutating func flushList() -> String {
        defer { list = [] }
        guard !list.isEmpty else { return "" }
        return "<ul>\n"
            + list.map { item in
                let link = evidence[item].map { " <a href=\"#\(Self.slug(markdownPlainText($0)))\">(evidence: \(inline($0)))</a>" } ?? ""
                return "<li>\(inline(item))\(link)</li>\n"
            }.joined() + "</ul>\n"
    }

    private mutating func flushTable() -> String {
        defer { table = [] }
        guard !table.isEmpty else { return "" }
        let separator = table.count >= 2 ? MarkdownTablesToLaTeX.cells(table[1]) : []
        guard table.count >= 2, separator.allSatisfy({ !$0.isEmpty && $0.allSatisfy { "-: ".contains($0) } }) else {
            return "<p>\(inline(table.joined(separator: " ")))</p>\n"
        }
        tables += 1
        let header = MarkdownTablesToLaTeX.cells(table[0])
        let align = separator.map { s -> String in
            s.hasPrefix(":") && s.hasSuffix(":") ? " class=\"c\"" : s.hasSuffix(":") ? " class=\"r\"" : ""
        }
        let rows = table.dropFirst(2)
        let caption = heading.isEmpty ? "Table \(tables)" : heading
        var out = "<details\(rows.count > Self.openTableRows ? "" : " open")>\n"
        out += "<summary>Table: \(inline(caption)) (\(rows.count) row\(rows.count == 1 ? "" : "s"), \(header.count) columns)</summary>\n"
        let label = "Table \(tables): \(xmlEscaped(markdownPlainText(caption)))"
        out += "<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"\(label)\"><table>\n"
        out += "<caption>\(inline(caption))</caption>\n<thead><tr>"
        out += header.map { "<th scope=\"col\">\(inline($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for row in rows {
            var cells = MarkdownTablesToLaTeX.cells(row)
            if cells.count < header.count { cells += Array(repeating: "", count: header.count - cells.count) }
            out += "<tr>"
            for (i, cell) in cells.prefix(header.count).enumerated() {
                out += i == 0 ? "<th scope=\"row\">\(inline(cell))</th>" : "<td\(i < align.count ? align[i] : "")>\(inline(cell))</td>"
            }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table></div>\n</details>\n"
    }

    /// `![alt](path)` on a line of its own as a figure with the SVG inlined, or nil.
    private func figure(_ line: String) -> String? {
        guard line.hasPrefix("!["), line.hasSuffix(")"), let close = Self.altTextEnd(line) else { return nil }
        let alt = String(line[line.index(line.startIndex, offsetBy: 2)..<close.lowerBound])
        let target = String(line[close.upperBound..<line.index(before: line.endIndex)])
        let path = resolved(target)
        let svg = path.flatMap { figures($0) }
        var name = markdownPlainText(alt)
        if name.isEmpty || name == target || name == path {
            let title = svg.flatMap { Self.title(ofSVG: $0) }
            name = title.map { "Figure: \($0) (its numbers are in the section's tables)" } ?? "Figure: " + markdownPlainText(heading)
        }
        guard let svg, let open = svg.firstRange(of: "<svg ") else {
            return "<p>\(xmlEscaped(name)) (figure not in this page)</p>\n"
        }
        var labelled = svg  // String's own replaceSubrange: `replacingCharacters` copies through NSString on Linux
        labelled.replaceSubrange(open, with: "<svg role=\"img\" aria-label=\"\(xmlEscaped(name))\" ")
        return "<figure>\n\(labelled)\(labelled.hasSuffix("\n") ? "" : "\n")<figcaption>\(xmlEscaped(name))</figcaption>\n</figure>\n"
    }

    /// The `](` that ends a figure's alternative text: the first whose `]` no backslash escapes (a name
    /// in the text may hold `\](`).
    static func altTextEnd(_ line: String) -> Range<String.Index>? {
        var escaped = false
        var i = line.startIndex
        while i < line.endIndex {
            let ch = line[i]
            if ch == "]", !escaped, line[line.index(after: i)...].hasPrefix("(") { return i..<line.index(i, offsetBy: 2) }
            escaped = ch == "\\" && !escaped
            i = line.index(after: i)
        }
        return nil
    }

    /// The title navbench's SVGs draw first (their first `<text>`), unescaped.
    static func title(ofSVG svg: String) -> String? {
        // The standard library's search: Foundation's `range(of:)` copies the whole SVG through NSString on Linux.
        guard let start = svg.firstRange(of: "<text "), let close = svg[start.upperBound...].firstRange(of: ">"),
            let end = svg[close.upperBound...].firstRange(of: "</text>")
        else { return nil }
        let text = svg[close.upperBound..<end.lowerBound]
        guard !text.contains("<") else { return nil }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// A relative link target as a report-relative path (`../plots/x.svg` from `routes/` → `plots/x.svg`),
    /// or nil for a target with a scheme, an absolute path or one leaving the report folder.
    private func resolved(_ target: String) -> String? {
        guard !target.contains(":"), !target.hasPrefix("/"), !target.isEmpty else { return nil }
        var parts = folder.split(separator: "/").map(String.init)
        for part in target.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else if part != "." && !part.isEmpty {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// A unique id for a heading: letters and digits kept, everything else `-`.
    private mutating func identifier<S: StringProtocol>(_ text: S) -> String {
        var id = Self.slug(text)
        if id.isEmpty { id = "section" }
        let n = ids[id, default: 0]
        ids[id] = n + 1
        return n == 0 ? id : "\(id)-\(n + 1)"
    }

    /// Markdown inline text as HTML: escapes undone, text escaped, `**bold**`, `` `code` `` and links.
    private func inline(_ markdown: String) -> String {
        // No escape, bold, code or link: the text escaped as it is (`xmlEscaped` is scalar by scalar).
        // \ * ` [
        if !markdown.utf8.contains(where: { $0 == 0x5C || $0 == 0x2A || $0 == 0x60 || $0 == 0x5B }) { return xmlEscaped(markdown) }
        var out = "", bold = false
        var chars = Array(markdown)[...]
        while let ch = chars.first {
            chars = chars.dropFirst()
            if ch == "\\", let next = chars.first, next.isASCII, next.isPunctuation || next.isSymbol {
                chars = chars.dropFirst()
                out += xmlEscaped(String(next))
            } else if ch == "*", chars.first == "*" {
                chars = chars.dropFirst()
                out += bold ? "</strong>" : "<strong>"
                bold.toggle()
            } else if ch == "`" {
                let end = chars.firstIndex(of: "`") ?? chars.endIndex
                out += "<code>\(xmlEscaped(String(chars[..<end])))</code>"
                chars = end == chars.endIndex ? chars[end...] : chars[chars.index(after: end)...]
            } else if ch == "[", let link = link(chars) {
                out += link.html
                chars = chars[link.end...]
            } else {
                out += xmlEscaped(String(ch))
            }
        }
        if bold { out += "</strong>" }
        return out
    }

    /// `text](target)` after a `[`: the link's HTML and where the Markdown goes on.
    private func link(_ chars: ArraySlice<Character>) -> (html: String, end: Int)? {
        guard let close = chars.firstIndex(of: "]"), chars.index(after: close) < chars.endIndex,
            chars[chars.index(after: close)] == "(", let end = chars[close...].firstIndex(of: ")")
        else { return nil }
        let text = inline(String(chars[..<close]))
        let target = String(chars[(close + 2)..<end])
        guard let path = resolved(target) else { return (text, end + 1) }
        if pages.contains(path), path.hasPrefix("routes/"), path.hasSuffix(".md") {
            let route = String(path.dropFirst(7).dropLast(3))
            return ("<a href=\"#\(routeAnchor(route))\">\(text)</a>", end + 1)
        }
        return ("<a href=\"\(xmlEscaped(path))\">\(text)</a>", end + 1)
    }

    /// The id of a route page's heading (`## Route NAME`), as `identifier` makes it the first time.
    private func routeAnchor(_ route: String) -> String { Self.slug("route-" + route) }

    /// Lower-case ASCII letters and digits kept, every run of other characters one `-`, none at the ends.
    static func slug<S: StringProtocol>(_ text: S) -> String {
        var id = "", dash = false
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                if dash && !id.isEmpty { id.append("-") }
                id.unicodeScalars.append(scalar)
                dash = false
            } else {
                dash = true
            }
        }
        return id
    }

    private func parentFolder(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }
}
