import Foundation
import NavIO

/// Characters a name from data may hold and still be pasted into Markdown unchanged.
private let markdownSafe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " .:=,-/+()_"))

/// A name from data (route, session, configuration, file) as inline Markdown text: control bytes
/// escaped as in messages (a newline cannot start a heading or a table row), values over 300
/// characters truncated with their length, and Markdown punctuation backslash-escaped. Names
/// of only letters, digits and ` .:=,-/+()_` are returned unchanged.
///
/// - Complexity: O(n).
public func markdownInline(_ s: String) -> String {
    if s.unicodeScalars.allSatisfy({ $0.isASCII && markdownSafe.contains($0) }) && s.count <= 300 { return s }
    var out = ""
    for ch in escapedForMessage(s, limit: 300) {
        if "\\`*_[]#|<>!~&".contains(ch) { out.append("\\") }
        out.append(ch)
    }
    return out
}

/// `s` inside a Markdown code span: control bytes escaped, long values truncated, and backticks
/// (which would end the span) replaced by `'`.
public func markdownCode(_ s: String) -> String {
    "`" + escapedForMessage(s, limit: 1000).replacingOccurrences(of: "`", with: "'") + "`"
}

/// Markdown inline text without its markup and escapes: backslash escapes undone, `**` and backticks
/// dropped (a heading's or a figure's alternative text as plain words).
///
/// - Complexity: O(n).
public func markdownPlainText(_ markdown: String) -> String {
    var out = "", chars = Array(markdown)[...]
    while let ch = chars.first {
        chars = chars.dropFirst()
        if ch == "\\", let next = chars.first, next.isASCII, next.isPunctuation || next.isSymbol {
            out.append(next)
            chars = chars.dropFirst()
        } else if ch != "`" && !(ch == "*" && chars.first == "*") {
            out.append(ch)
        } else if ch == "*" {
            chars = chars.dropFirst()
        }
    }
    return out
}
