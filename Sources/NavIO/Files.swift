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
