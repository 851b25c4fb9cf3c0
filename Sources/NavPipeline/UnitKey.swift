import NavCore

/// The key of a unit of kind `kind` — every kind's, replay runs and closed-loop cells among
/// them: SHA-256 (hex) of the navbench version, the kind and `parts` (the checksums of what it
/// reads and its canonical parameters), each length-prefixed (`FieldDigest`), so no value can be
/// mistaken for another's continuation. A rerun skips a unit whose result is stored and verified
/// under its key; a store written with other keys (another navbench, or the per-kind encodings
/// before this one) is computed again, never mixed in.
///
/// - Complexity: O(total length of the parts).
public func workUnitKey(kind: String, _ parts: [String]) -> String {
    var d = FieldDigest()
    for p in ["navbench \(NavbenchVersion.current)", kind] + parts { d.add(p) }
    return d.sha256
}
