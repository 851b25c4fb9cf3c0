import Foundation

/// Checks an output path before anything is written: not empty, not `/`, not an existing folder
/// when a file is expected, and never one of the inputs (compared by device and inode, so
/// `./x.h5`, `x.h5` and a symbolic link to it are the same file).
///
/// - Parameters:
///   - flag: the option or key that named it (`--out`, `output:`), for the message.
///   - folder: the output is a folder (a report): it must also not be an input's folder or hold
///     an input file directly.
public func checkOutputPath(_ out: String, flag: String = "--out", inputs: [String], folder: Bool = false) throws(TraceError) {
    guard !out.isEmpty else { throw TraceError(.writeFailed, file: "''", object: flag, "empty output path, expected a file or folder name") }
    let standardized = (out as NSString).standardizingPath
    if standardized == "/" || out.allSatisfy({ $0 == "/" }) {
        throw TraceError(.writeFailed, file: out, object: flag, "the filesystem root is never an output; name a folder")
    }
    if out == "-" && folder { throw TraceError(.writeFailed, file: out, object: flag, "a report folder cannot be standard output") }
    if !folder, out != "-", let kind = nonRegularFileKind(out) {
        throw TraceError(
            .writeFailed, file: out, object: flag,
            kind == "a folder"
                ? "is a folder, expected an output file path"
                : "is \(kind), expected a regular output file (an output replaces only a regular file)")
    }
    func identity(_ p: String) -> (UInt64, UInt64)? {
        var st = stat()
        guard stat(p, &st) == 0 else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }
    guard let target = identity(out) else { return }
    for input in inputs {
        guard let i = identity(input) else { continue }
        if i == target {
            throw TraceError(
                .writeFailed, file: out, object: flag, "is the input \(escapedForMessage(input)); inputs are never modified, choose another output")
        }
        if folder {
            let dir = parentFolder(of: input)
            if let d = identity(dir.isEmpty ? "." : dir), d == target {
                throw TraceError(
                    .writeFailed, file: out, object: flag, "is the folder of the input \(escapedForMessage(input)); choose a separate output folder")
            }
        }
    }
}

/// A name from data (route, session, configuration or experiment id) as one safe file-name
/// component: characters other than ASCII letters, digits, `.`, `_` and `-` become `_`, leading
/// dots are dropped and the result is cut to 80 characters; when anything changed (or the name
/// is empty, or already ends like a mapped name: `-` and 8 hex digits) `-` and the first 8 hex
/// digits of the id's SHA-256 are appended, so distinct ids never share a file. Other safe ids
/// map to themselves. The result never contains `/` and is never
/// `.` or `..`, so it always resolves inside the output folder (docs/exit-codes.md, "Names from data").
public func safeFileComponent(_ id: String) -> String {
    var s = String(
        id.unicodeScalars.map { u -> Character in
            (u.isASCII && (CharacterSet.alphanumerics.contains(u) || u == "." || u == "_" || u == "-")) ? Character(u) : "_"
        })
    while s.hasPrefix(".") { s.removeFirst() }
    if s.count > 80 { s = String(s.prefix(80)) }
    // A safe name that looks like a mapped one (ends in '-' and 8 hex digits) is mapped too, so
    // no kept name equals another's mapping ("a_b-c14cddc0" was the file of route "a/b").
    if s != id || s.isEmpty || endsLikeAMappedName(s) { s += "-" + String(sha256Hex(of: Data(id.utf8)).prefix(8)) }
    return s
}

/// `true` when `s` ends with '-' and 8 lowercase hex digits, as `safeFileComponent`'s mapped names do.
func endsLikeAMappedName(_ s: String) -> Bool {
    let tail = Array(s.utf8.suffix(9))
    return tail.count == 9 && tail[0] == UInt8(ascii: "-") && tail.dropFirst().allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
}
