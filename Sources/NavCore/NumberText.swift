/// Shortest text that reads back as the same double (Swift's round-trip `description`),
/// integers without a decimal point, NaN as `nan`: numbers in CSV, labels and descriptions.
public func formatNumber(_ x: Double) -> String {
    if x.isNaN { return "nan" }
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return x.description
}

/// A number written as text (a flag, a walker override, a cell of a lab's file): the whole text,
/// `[+-]digits[.digits][(e|E)[+-]digits]` (digits on at least one side of the point) or
/// `nan`/`inf`/`infinity` (any case, signed), else nil. Swift's `Double(_:)` alone stops at a
/// NUL byte ("49\0.46" reads as 49) and takes hexadecimal; this never does. The value is
/// `Double(_:)`'s (correctly rounded) once the text is known to be one decimal number. The
/// grammar is that of NavIO's bulk reader `parseDecimal` (CSV and HDF5-free text tables, where
/// speed matters); `NumberTextAgreementTests` checks that the two read every token alike.
///
/// - Complexity: O(text length).
public func numberFromText(_ text: some StringProtocol) -> Double? {
    let u = Array(text.utf8)
    guard !u.isEmpty, u.count <= 400 else { return nil }
    var i = 0
    if u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") { i += 1 }
    let word = String(decoding: u[i...], as: UTF8.self).lowercased()
    if word == "nan" || word == "inf" || word == "infinity" { return Double(String(decoding: u, as: UTF8.self)) }
    func digits() -> Int {
        let start = i
        while i < u.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(u[i]) { i += 1 }
        return i - start
    }
    var mantissa = digits()
    if i < u.count, u[i] == UInt8(ascii: ".") {
        i += 1
        mantissa += digits()
    }
    guard mantissa > 0 else { return nil }
    if i < u.count, u[i] == UInt8(ascii: "e") || u[i] == UInt8(ascii: "E") {
        i += 1
        if i < u.count, u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") { i += 1 }
        guard digits() > 0 else { return nil }
    }
    guard i == u.count else { return nil }
    return Double(String(decoding: u, as: UTF8.self))
}
