import Foundation

/// SHA-256 of a file's bytes, lowercase hex; read in 1 MiB blocks.
public func sha256Hex(ofFile path: String) throws(TraceError) -> String {
    if FileManager.default.fileExists(atPath: path) { try requireRegularFile(path, expected: "a file to checksum") }
    guard let h = FileHandle(forReadingAtPath: path) else { throw TraceError(.notFound, file: path, "cannot open for reading") }
    defer { try? h.close() }
    var digest = SHA256Digest()
    while true {
        let chunk = h.readData(ofLength: 1 << 20)
        if chunk.isEmpty { break }
        digest.update(chunk)
    }
    return lowercaseHex(digest.finalize())
}

/// SHA-256 of bytes, lowercase hex.
public func sha256Hex(of data: Data) -> String {
    lowercaseHex(data.withUnsafeBytes { SHA256Digest.hash($0) })
}

/// SHA-256 of bytes in an array, lowercase hex (no copy into `Data`).
public func sha256Hex(of bytes: [UInt8]) -> String {
    lowercaseHex(bytes.withUnsafeBytes { SHA256Digest.hash($0) })
}

/// Bytes as lowercase hex, two digits each (what `String(format: "%02x")` per byte gives,
/// without a format string per byte: a cached rerun checks every stored result's digest).
///
/// - Complexity: O(bytes).
public func lowercaseHex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.underestimatedCount * 2)
    for b in bytes {
        out.append(digits[Int(b >> 4)])
        out.append(digits[Int(b & 15)])
    }
    return String(decoding: out, as: UTF8.self)
}

/// Refuses to replace anything but a regular file: an atomic write renames its temporary file
/// over `path`, which would replace a device node, a FIFO or a socket (`--out /dev/null` run as
/// root) with a regular file. A missing `path` is fine.
///
/// - Throws: `TraceError.writeFailed` (exit status 73) naming `path` and what it is.
public func requireReplaceableOutput(_ path: String) throws(TraceError) {
    var st = stat()
    guard lstat(path, &st) == 0 else { return }
    let kind = st.st_mode & S_IFMT
    if kind == S_IFREG || kind == S_IFLNK && nonRegularFileKind(path) == nil { return }
    let what =
        kind == S_IFLNK
        ? "a link to \(nonRegularFileKind(path) ?? "something other than a file")" : (nonRegularFileKind(path) ?? "not a regular file")
    throw TraceError(.writeFailed, file: path, "is \(what); an output replaces only a regular file")
}

/// `strerror` of an errno value ("No space left on device").
public func errnoText(_ e: Int32) -> String { String(cString: strerror(e)) }

/// The `.h5`/`.hdf5` files directly in `dir`, sorted by name (deterministic order).
public func traceFiles(in dir: String) throws(TraceError) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
        throw TraceError(.notFound, file: dir, "no such folder")
    }
    return names.filter { $0.hasSuffix(".h5") || $0.hasSuffix(".hdf5") }.sorted()
        .map { (dir as NSString).appendingPathComponent($0) }
}

/// Checks every file listed in `folder/manifest.json` against its sha256.
///
/// - Returns: one line per mismatch or missing file; empty when all match.
public func verifyManifest(folder: String) throws(TraceError) -> [String] {
    let path = (folder as NSString).appendingPathComponent("manifest.json")
    guard let data = FileManager.default.contents(atPath: path),
        let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let files = obj["files"] as? [[String: String]]
    else {
        throw TraceError(.badValue, file: path, "expected a JSON object with a files array")
    }
    var problems: [String] = []
    for f in files {
        guard let name = f["file"], let sum = f["sha256"] else { problems.append("\(path): entry without file or sha256"); continue }
        let p = (folder as NSString).appendingPathComponent(name)
        guard let actual = try? sha256Hex(ofFile: p) else { problems.append("\(p): listed in manifest.json but missing"); continue }
        if actual != sum { problems.append("\(p): sha256 \(actual) differs from manifest.json's \(sum)") }
    }
    return problems
}

/// Throws unless `path` is a regular file (symbolic links followed): a FIFO, a device, a socket
/// or a folder is never opened, so a hostile name cannot block a reader forever.
public func requireRegularFile(_ path: String, expected: String) throws(TraceError) {
    if let kind = nonRegularFileKind(path) {
        throw TraceError(kind == "a folder" ? .notFound : .badValue, file: path, "is \(kind), expected \(expected)")
    }
}

/// The folder part of `path` ("a/b" → "a", "/a" → "/", "a" → ""), like NSString's
/// `deletingLastPathComponent` but safe for one-character paths (Foundation on Linux traps there).
public func parentFolder(of path: String) -> String {
    var p = Substring(path)
    while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
    guard let slash = p.lastIndex(of: "/") else { return "" }
    if slash == p.startIndex { return "/" }
    var d = p[..<slash]
    while d.count > 1 && d.hasSuffix("/") { d = d.dropLast() }
    return String(d)
}

/// The last component of `path` ("a/b" → "b", "a/b/" → "b", "/" → "/"), without Foundation.
public func fileName(of path: String) -> String {
    var p = Substring(path)
    while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
    guard let slash = p.lastIndex(of: "/"), p.count > 1 else { return String(p) }
    return String(p[p.index(after: slash)...])
}
