/// Shortest text that reads back as the same double (Swift's round-trip `description`),
/// integers without a decimal point, NaN as `nan`: numbers in CSV, labels and descriptions.
public func formatNumber(_ x: Double) -> String {
    if x.isNaN { return "nan" }
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return x.description
}
