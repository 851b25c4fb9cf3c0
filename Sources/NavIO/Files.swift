import Crypto
import Foundation

/// SHA-256 of a file's bytes, lowercase hex; read in 1 MiB blocks.
public func sha256Hex(ofFile path: String) throws(TraceError) -> String {
    guard let h = FileHandle(forReadingAtPath: path) else { throw TraceError(.notFound, file: path, "cannot open for reading") }
    defer { try? h.close() }
    var hasher = SHA256()
    while true {
        let chunk = h.readData(ofLength: 1 << 20)
        if chunk.isEmpty { break }
        hasher.update(data: chunk)
    }
    return hasher.finalize().map { String(format: "%02x", $0) }.joined()
}

/// SHA-256 of bytes, lowercase hex.
public func sha256Hex(of data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
}

/// Writes text atomically: a temporary file in the same folder, renamed into place.
/// A killed run leaves either the old file or the new one, never half of one.
public func writeTextAtomically(_ text: String, to path: String) throws(TraceError) {
    let dir = (path as NSString).deletingLastPathComponent
    if !dir.isEmpty {
        do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            throw TraceError(.writeFailed, file: path, "cannot create folder \(dir)")
        }
    }
    do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
        throw TraceError(.writeFailed, file: path, "cannot write (\(error.localizedDescription))")
    }
}

/// The `.h5`/`.hdf5` files directly in `dir`, sorted by name (deterministic order).
public func traceFiles(in dir: String) throws(TraceError) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
        throw TraceError(.notFound, file: dir, "no such folder")
    }
    return names.filter { $0.hasSuffix(".h5") || $0.hasSuffix(".hdf5") }.sorted()
        .map { (dir as NSString).appendingPathComponent($0) }
}

/// Writes `manifest.json` in `folder`: sha256 and size of each named file plus `facts`,
/// keys sorted, so the same inputs give the same bytes.
public func writeManifest(folder: String, files: [String], facts: [String: String]) throws(TraceError) {
    var entries: [[String: String]] = []
    for name in files.sorted() {
        let path = (folder as NSString).appendingPathComponent(name)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        entries.append(["file": name, "sha256": try sha256Hex(ofFile: path), "bytes": String(size)])
    }
    struct Manifest: Encodable { var facts: [String: String]; var files: [[String: String]] }
    let enc = JSONEncoder()
    enc.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    let data = (try? enc.encode(Manifest(facts: facts, files: entries))) ?? Data()
    try writeTextAtomically(String(decoding: data, as: UTF8.self) + "\n", to: (folder as NSString).appendingPathComponent("manifest.json"))
}

/// Checks every file listed in `folder/manifest.json` against its sha256.
///
/// - Returns: one line per mismatch or missing file; empty when all match.
public func verifyManifest(folder: String) throws(TraceError) -> [String] {
    let path = (folder as NSString).appendingPathComponent("manifest.json")
    guard let data = FileManager.default.contents(atPath: path),
          let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let files = obj["files"] as? [[String: String]] else {
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
