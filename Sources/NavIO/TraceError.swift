/// A problem with one input or output file, reported as one line:
/// `FILE: OBJECT: problem` (the object is an HDF5 path, a CSV column, …).
public struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        case notFound, empty, notHDF5, corrupt, missing, wrongShape, wrongType, wrongUnits,
            badValue, badTimestamps, unsupportedVersion, noStreams, writeFailed, externalLink, tooLarge
    }

    public var kind: Kind
    public var file: String
    /// HDF5 object path (`/imu/timestamps`), attribute (`/@format_version`) or nil for the whole file.
    public var object: String?
    public var problem: String

    public init(_ kind: Kind, file: String, object: String? = nil, _ problem: String) {
        self.kind = kind; self.file = file; self.object = object; self.problem = problem
    }

    public var description: String {
        let p = escapedForMessage(problem, limit: 400)
        if let object { return "\(escapedForMessage(file)): \(escapedForMessage(object)): \(p)" }
        return "\(escapedForMessage(file)): \(p)"
    }
}

/// `s` made safe for a one-line message: control bytes escaped (`\n`, `\t`, `\u{1B}`…) and,
/// beyond `limit` characters, truncated with the full length stated ("… (10485760 bytes)").
///
/// - Complexity: O(min(n, limit)).
public func escapedForMessage(_ s: String, limit: Int = 200) -> String {
    var out = ""
    var count = 0
    for u in s.unicodeScalars {
        if count >= limit {
            return out + "… (\(s.utf8.count) bytes)"
        }
        switch u {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\0": out += "\\0"
        default:
            // C0 and C1 controls, DEL, line/paragraph separators, and the bidirectional controls
            // (U+202E RIGHT-TO-LEFT OVERRIDE shows "exe.txt" for "txt.exe"): shown, never obeyed.
            if u.value < 0x20 || u.value == 0x7F || (0x80..<0xA0).contains(u.value) || u.value == 0x2028 || u.value == 0x2029
                || isBidiControl(u.value)
            {
                out += "\\u{\(String(u.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(u)
            }
        }
        count += 1
    }
    return out
}

/// The Unicode bidirectional formatting characters (marks, embeddings, overrides, isolates):
/// they reorder how the text around them is displayed.
func isBidiControl(_ v: UInt32) -> Bool {
    v == 0x061C || v == 0x200E || v == 0x200F || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
}
