import Foundation
import Testing

@testable import NavReport

/// `report.html` from navbench's Markdown (issue 51): names from data never become markup, script
/// or a link out; tables keep their headers; figures are inlined with a text alternative.
@Suite struct MarkdownReportToHTMLTests {
    static func page(_ markdown: String, figures: [String: String] = [:], pages: [String] = [], caveats: [String] = ["n = 3"]) -> String {
        var h = MarkdownReportToHTML(figures: figures, caveats: caveats, pages: pages)
        // Fed in uneven pieces, as summary.md is written.
        var out = MarkdownReportToHTML.opening(title: "T")
        var rest = Substring(markdown)
        while !rest.isEmpty {
            let n = min(7, rest.count)
            out += h.feed(String(rest.prefix(n)))
            rest = rest.dropFirst(n)
        }
        return out + h.finish()
    }

    static let hostile = [
        "</script><script>alert(1)</script>", "<!-- x", "a\u{2028}b\u{2029}c", "\" onmouseover=\"alert(1)",
        "<img src=x onerror=alert(1)>", "javascript:alert(1)", "`tick`", "**", "[x](javascript:alert(1))", "&amp;",
    ]

    @Test func namesFromDataNeverBecomeMarkup() {
        for name in Self.hostile {
            let md = """
                # Experiment \(markdownInline(name))

                - route \(markdownInline(name)) better (+1 [0.5, 2], n = 4)

                ## Route \(markdownInline(name))

                | configuration | n |
                |---|---:|
                | \(markdownInline(name)) | 4 |

                \(markdownCode(name)) and \(markdownInline(name)).

                """
            let html = Self.page(md)
            #expect(!html.contains("<script"), "\(name)")
            #expect(!html.contains("<!--"), "\(name)")
            #expect(!html.contains("<img"), "\(name)")
            #expect(!html.contains("onmouseover=\""), "\(name)")
            #expect(!html.contains("href=\"javascript"), "\(name)")
            #expect(!html.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" }, "\(name)")
            // The structure stays: one table, two column headers, one row header.
            #expect(html.components(separatedBy: "<table>").count == 2)
            #expect(html.components(separatedBy: "<th scope=\"col\">").count == 3)
            #expect(html.components(separatedBy: "<th scope=\"row\">").count == 2)
        }
    }

    @Test func markdownThatWasNeverEscapedStaysText() {
        let html = Self.page("| a <b> | c |\n|---|---|\n| <script>x</script> | & |\n\nText <em>raw</em> & more\n")
        #expect(html.contains("<th scope=\"col\">a &lt;b&gt;</th>"))
        #expect(html.contains("<th scope=\"row\">&lt;script&gt;x&lt;/script&gt;</th><td>&amp;</td>"))
        #expect(html.contains("<p>Text &lt;em&gt;raw&lt;/em&gt; &amp; more</p>"))
    }

    /// Plain cell text and the same text beside markup (which the fast path for plain text does
    /// not take) come out escaped alike: entities, U+2028 as a reference, a control as U+FFFD,
    /// a lone `*` and a combining mark kept.
    @Test func plainTextIsEscapedAsTextBesideMarkup() {
        let plain = "x<y & \"z\" 'w' \u{2028} \u{1} 2*3 e\u{301}"
        let escaped = "x&lt;y &amp; &quot;z&quot; &apos;w&apos; &#x2028; \u{FFFD} 2*3 e\u{301}"
        let html = Self.page("| a | b |\n|---|---|\n| \(plain) | \(plain) **b** |\n")
        #expect(html.contains("<th scope=\"row\">\(escaped)</th><td>\(escaped) <strong>b</strong></td>"))
    }

    @Test func linksStayInsideTheReport() {
        let md = "- [B1](routes/B1.md)\n- [out](https://example.org/x)\n- [up](../../etc/passwd)\n- [csv](routes/B1.csv)\n"
        let html = Self.page(md, pages: ["routes/B1.md"])
        #expect(html.contains("<a href=\"#route-b1\">B1</a>"))
        #expect(html.contains("<li>out</li>"))
        #expect(html.contains("<li>up</li>"))
        #expect(html.contains("<a href=\"routes/B1.csv\">csv</a>"))
        // The route page's heading carries the id the link points at; its back link is dropped.
        var h = MarkdownReportToHTML(figures: [:], caveats: [], pages: ["routes/B1.md"])
        let route = h.startPage("routes/B1.md") + h.feed("[← summary](../summary.md)\n\n## Route B1\n") + h.finish()
        #expect(route.contains("<h2 id=\"route-b1\">Route B1</h2>"))
        #expect(!route.contains("summary.md"))
    }

    @Test func figuresAreInlinedWithATextAlternative() {
        let svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">\n"
            + "<text x=\"5\" y=\"5\">B1 &amp; B2: walked paths</text>\n</svg>\n"
        let md = "## Route B1\n\n![../plots/B1-paths.svg](../plots/B1-paths.svg)\n\n![Error falls with tolerance](../plots/missing.svg)\n"
        var h = MarkdownReportToHTML(figures: ["plots/B1-paths.svg": svg], caveats: [])
        let html = h.startPage("routes/B1.md") + h.feed(md) + h.finish()
        let name = "Figure: B1 &amp; B2: walked paths (its numbers are in the section&apos;s tables)"
        #expect(html.contains("<svg role=\"img\" aria-label=\"\(name)\" xmlns="))
        #expect(html.contains("<figcaption>\(name)</figcaption>"))
        #expect(html.contains("<p>Error falls with tolerance (figure not in this page)</p>"))
    }

    @Test func longTablesStartCollapsedAndCaveatsFollowTheTitle() {
        let rows = (0...MarkdownReportToHTML.openTableRows).map { "| r\($0) | \($0) |\n" }.joined()
        let html = Self.page("# E\n\n## Overall\n\n| c | n |\n|---|---|\n\(rows)\n## Short\n\n| c | n |\n|---|---|\n| a | 1 |\n")
        #expect(html.contains("<details>\n<summary>Table: Overall (\(MarkdownReportToHTML.openTableRows + 1) rows, 2 columns)</summary>"))
        #expect(html.contains("<details open>\n<summary>Table: Short (1 row, 2 columns)</summary>"))
        #expect(html.contains("<caption>Overall</caption>"))
        let title = html.range(of: "<h1 id=\"e\">E</h1>")!, caveats = html.range(of: "<div id=\"caveats\" role=\"note\"")!
        #expect(title.upperBound <= caveats.lowerBound)
        #expect(html.hasSuffix("</main>\n</body>\n</html>\n"))
    }

    @Test func findingsLinkToTheirEvidence() {
        var h = MarkdownReportToHTML(figures: [:], caveats: [], evidence: ["Replay, x: better": "Main effects"])
        let html = h.feed("## Findings\n\n- Replay, x: better\n- Other\n\n## Main effects\n\ntext\n") + h.finish()
        #expect(html.contains("<li>Replay, x: better <a href=\"#main-effects\">(evidence: Main effects)</a></li>\n<li>Other</li>"))
        #expect(html.contains("<h2 id=\"main-effects\">Main effects</h2>"))
    }
}
