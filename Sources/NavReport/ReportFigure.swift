import Foundation

/// A figure of a Markdown report: the SVG's report-relative path and its text alternative, a
/// Markdown sentence that states what the figure shows with its numbers (names from data already
/// escaped with `markdownInline`), never a file name.
public struct ReportFigure: Sendable, Equatable {
    public var path: String
    public var alt: String
    public init(path: String, alt: String) { self.path = path; self.alt = alt }

    /// The figure's Markdown line, `![alt](path)` (no newline).
    public var markdown: String { "![\(alt)](\(path))" }

    /// The same figure linked from a folder below the report's (`../` + path).
    public func linked(from prefix: String) -> ReportFigure { ReportFigure(path: prefix + path, alt: alt) }
}

/// A number of a figure's text alternative: 3 significant digits ("0.412", "12.3"), "–" when not finite.
public func figureNumber(_ v: Double) -> String { v.isFinite ? String(format: "%.3g", v) : "–" }

/// The first of `items`, then ", and N more" when there are more than `limit` (a figure's long lists).
public func cappedList(_ items: [String], limit: Int) -> String {
    items.count <= limit ? items.joined(separator: ", ") : items.prefix(limit).joined(separator: ", ") + ", and \(items.count - limit) more"
}
