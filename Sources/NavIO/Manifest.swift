import Foundation

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
