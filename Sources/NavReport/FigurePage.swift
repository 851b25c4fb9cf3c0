import Foundation

/// One figure as a self-contained, accessible page (`navbench plot --out FILE.html`): the SVG
/// inlined with `role="img"` and `description` as its name and caption, then its facts as a
/// table with column and row headers (the figure's data reachable without seeing it). No script;
/// every text escaped (`xmlEscaped`).
public func figurePage(title: String, svg: String, description: String, header: [String], rows: [[String]]) -> String {
    let labelled =
        svg.range(of: "<svg ").map { svg.replacingCharacters(in: $0, with: "<svg role=\"img\" aria-label=\"\(xmlEscaped(description))\" ") } ?? svg
    var table = "<table>\n<caption>\(xmlEscaped(description))</caption>\n<thead><tr>"
    table += header.map { "<th scope=\"col\">\(xmlEscaped($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
    for row in rows {
        table += "<tr>" + row.enumerated().map { i, c in i == 0 ? "<th scope=\"row\">\(xmlEscaped(c))</th>" : "<td>\(xmlEscaped(c))</td>" }.joined()
        table += "</tr>\n"
    }
    table += "</tbody>\n</table>\n"
    return htmlPageOpening(
        title: title, maxWidth: "72rem",
        style: "svg { max-width: 100%; height: auto; } table { border-collapse: collapse; }\n"
            + "th, td { border: 1px solid #999; padding: .2rem .4rem; text-align: left; }"
    )
        + """
        <main>
        <h1>\(xmlEscaped(title))</h1>
        <figure>
        \(labelled)<figcaption>\(xmlEscaped(description))</figcaption>
        </figure>
        \(table)</main>
        </body>
        </html>

        """
}
