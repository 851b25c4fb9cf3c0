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
            if u.value < 0x20 || u.value == 0x7F || (0x80..<0xA0).contains(u.value) || u.value == 0x2028 || u.value == 0x2029 {
                out += "\\u{\(String(u.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(u)
            }
        }
        count += 1
    }
    return out
}
