import NavIO
import NavSim

/// The estimates as a fixed-width table: parameter, value, 95 % CI, n and what n counts, unit.
public func walkerEstimateTable(_ estimates: [WalkerParameterEstimate]) -> String {
    func col(_ s: String, _ n: Int, right: Bool = false) -> String {
        let pad = String(repeating: " ", count: max(0, n - s.count))
        return right ? pad + s : s + pad
    }
    func num(_ x: Double) -> String { x.isFinite ? String(format: "%.4g", x) : "–" }
    var lines = [
        col("parameter", 26) + col("value", 10, right: true) + "  " + col("95 % CI", 22) + col("n", 6, right: true) + "  " + col("of", 20) + "unit"
    ]
    for e in estimates {
        lines.append(
            col(e.key, 26) + col(num(e.value), 10, right: true) + "  " + col("[\(num(e.low)), \(num(e.high))]", 22) + col(String(e.n), 6, right: true)
                + "  " + col(escapedForMessage(e.counts, limit: 120), 20) + e.unit)  // counts may name subjects from files
    }
    return lines.joined(separator: "\n")
}
