import Foundation
import NavTestSupport
import Testing

/// Expect `a` to equal the reference `b` within `tolerance` of max |b| (1e-9 unless told).
func expectMatches(
    _ a: [Double], _ b: [Double], _ what: String, tolerance: Double = 1e-9,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(a.count == b.count, "\(what): \(a.count) vs \(b.count) values", sourceLocation: sourceLocation)
    guard a.count == b.count else { return }
    let e = scaledError(a, b)
    #expect(e <= tolerance, "\(what): scaled error \(e)", sourceLocation: sourceLocation)
}
