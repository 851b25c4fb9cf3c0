/// Holm–Bonferroni step-down adjustment (Holm 1979), as statsmodels
/// `multipletests(p, method='holm')`: with p sorted ascending, p̃₍ᵢ₎ = maxⱼ≤ᵢ min(1, (m − j + 1)·p₍ⱼ₎).
/// Controls the family-wise error rate at α under any dependence between the tests.
///
/// NaN p-values are left out of the family and stay NaN.
///
/// Complexity: O(m log m).
public func holmAdjusted(_ pValues: [Double]) -> [Double] {
    let idx = pValues.indices.filter { !pValues[$0].isNaN }.sorted { pValues[$0] < pValues[$1] || (pValues[$0] == pValues[$1] && $0 < $1) }
    var out = [Double](repeating: .nan, count: pValues.count)
    let m = idx.count
    var running = 0.0
    for (rank, i) in idx.enumerated() {
        running = max(running, Double(m - rank) * pValues[i])
        out[i] = min(1, running)
    }
    return out
}
