import Foundation
import NavTestSupport
import Testing

/// Tolerance of every comparison with a reference implementation: max |ours − theirs| is at
/// most 1e-9 × max |theirs| (relative to the signal's scale, so zero crossings don't inflate it).
let relativeTolerance = 1e-9

/// Expect `a` to equal the reference `b` within `relativeTolerance`.
func expectMatches(
    _ a: [Double], _ b: [Double], _ what: String, tolerance: Double = relativeTolerance,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(a.count == b.count, "\(what): \(a.count) vs \(b.count) values", sourceLocation: sourceLocation)
    guard a.count == b.count else { return }
    let e = scaledError(a, b)
    #expect(e <= tolerance, "\(what): scaled error \(e)", sourceLocation: sourceLocation)
}
