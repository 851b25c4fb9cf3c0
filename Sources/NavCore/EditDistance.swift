/// The Levenshtein distance between two strings: the fewest single-character insertions,
/// deletions and substitutions (each of cost 1) that turn `a` into `b`, over Unicode scalars.
///
/// Wagner–Fischer dynamic programme, one row kept: d[i][j] = min(d[i−1][j] + 1, d[i][j−1] + 1,
/// d[i−1][j−1] + (a[i] ≠ b[j])), d[i][0] = i, d[0][j] = j.
///
/// Complexity: O(|a|·|b|) time, O(|b|) memory.
public func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
    guard !x.isEmpty else { return y.count }
    guard !y.isEmpty else { return x.count }
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
        current[0] = i
        for j in 1...y.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[y.count]
}

/// The candidates closest to `word` by `editDistance`, nearest first (ties in the candidates'
/// order), at most `limit`, and only those within `maximum` edits: what a "did you mean" line names.
///
/// Complexity: O(c · |word| · L) for c candidates of length at most L.
public func closestWords(to word: String, among candidates: [String], limit: Int = 3, maximum: Int = 3) -> [String] {
    let scored = candidates.enumerated().map { (i: $0.offset, w: $0.element, d: editDistance(word, $0.element)) }
    return Array(scored.filter { $0.d <= maximum }.sorted { ($0.d, $0.i) < ($1.d, $1.i) }.prefix(limit).map(\.w))
}
