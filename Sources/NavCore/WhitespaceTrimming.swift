// Trimming a line's or a cell's blanks without Foundation.

extension Unicode.Scalar {
    /// In Foundation's `CharacterSet.whitespaces`: tab, the space separators (Unicode Zs) and
    /// U+200B ZERO WIDTH SPACE (Core Foundation's set; `WhitespaceTrimmingTests` checks every
    /// scalar against Foundation).
    @inlinable public var isFoundationWhitespace: Bool {
        switch value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}

extension StringProtocol {
    /// The text without its leading and trailing `isFoundationWhitespace` scalars: what
    /// Foundation's `trimmingCharacters(in: .whitespaces)` returns (trimmed by scalar, as it does),
    /// without its copy through NSString's UTF-16 on Linux, a tenth of report.html's time.
    ///
    /// - Complexity: O(length of the blanks trimmed) + a copy of what is kept.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isFoundationWhitespace }) else { return "" }
        var end = scalars.endIndex
        while true {
            let before = scalars.index(before: end)
            guard scalars[before].isFoundationWhitespace else { break }
            end = before
        }
        return String(self[first..<end])
    }
}
