import Yams

/// Most YAML nodes a spec or mapping may expand to, aliases counted at every use. Real specs
/// have a few hundred; an alias bomb ("billion laughs") of 700 bytes declares billions.
public let yamlMaxExpandedNodes = 100_000

/// Refuses YAML whose alias expansion would exceed `yamlMaxExpandedNodes`, before anything
/// expands it: `Yams.compose` shares aliased nodes (copy-on-write), so composing is linear in
/// the text, and the count below stops at the limit.
///
/// - Returns: nil when the text is acceptable or not YAML at all (the caller's parser then
///   reports the syntax error); else the one-line problem.
/// - Complexity: O(min(expanded nodes, limit)).
public func yamlExpansionProblem(_ text: String, limit: Int = yamlMaxExpandedNodes) -> String? {
    guard text.contains("*") else { return nil }  // no alias, no expansion beyond the text
    guard let root = try? Yams.compose(yaml: text) else { return nil }
    var count = 0
    func walk(_ n: Node) -> Bool {
        count += 1
        if count > limit { return false }
        switch n {
        case .scalar: return true
        case let .sequence(s): for c in s where !walk(c) { return false }
        case let .mapping(m): for (k, v) in m where !walk(k) || !walk(v) { return false }
        case .alias: return true
        }
        return true
    }
    if walk(root) { return nil }
    return "YAML aliases expand to more than \(limit) nodes (an alias bomb?); write the values out"
}
