/// Takes the complete lines off the front of `text` (text fed in pieces), calling `body` with
/// each in order, without its "\n", and leaves the unfinished rest in `text`.
///
/// A line ends where `text` has the `Character` "\n" (`firstIndex(of: "\n")`): a "\n" after a
/// "\r" is part of the one `Character` "\r\n" and ends no line. Found in UTF-8, which is exact
/// because "\n" is a grapheme of its own everywhere else.
///
/// - Complexity: O(|text|): the rest is copied once, not once per line.
func takeCompleteLines(_ text: inout String, _ body: (String) -> Void) {
    var start = text.utf8.startIndex
    var previous: UInt8 = 0
    var i = start
    let utf8 = text.utf8
    while i != utf8.endIndex {
        let byte = utf8[i]
        let next = utf8.index(after: i)
        if byte == 0x0A && previous != 0x0D {
            body(String(text[start..<i]))
            start = next
        }
        previous = byte
        i = next
    }
    if start != text.startIndex { text = String(text[start...]) }
}
