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
