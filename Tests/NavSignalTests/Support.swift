import Foundation
import NavIO
import Testing

/// The reference file written by scripts/make_signal_fixtures.py (scipy, filterpy, allantools).
let reference: HDF5Reader = {
    let path = Bundle.module.path(forResource: "Fixtures/signal_reference", ofType: "h5")!
    return try! HDF5Reader(path: path)
}()

func ref(_ path: String) -> [Double] { try! reference.readDoubles(path).values }
func refAttr(_ name: String, _ object: String) -> Double {
    switch reference.attribute(name, of: object) {
    case let .float(v)?: return v
    case let .integer(v)?: return Double(v)
    default: fatalError("fixture attribute \(object)@\(name) missing")
    }
}
func refString(_ name: String, _ object: String) -> String { reference.attribute(name, of: object)!.stringValue! }

/// Tolerance of every comparison with a reference implementation: max |ours − theirs| is at
/// most 1e-9 × max |theirs| (relative to the signal's scale, so zero crossings don't inflate it).
let relativeTolerance = 1e-9

/// max |a − b| / max |b|.
func scaledError(_ a: [Double], _ b: [Double]) -> Double {
    precondition(a.count == b.count, "length \(a.count) vs \(b.count)")
    var num = 0.0, den = 0.0
    for (x, y) in zip(a, b) { num = max(num, abs(x - y)); den = max(den, abs(y)) }
    return den == 0 ? num : num / den
}

/// Expect `a` to equal the reference `b` within `relativeTolerance`.
func expectMatches(_ a: [Double], _ b: [Double], _ what: String, tolerance: Double = relativeTolerance,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.count == b.count, "\(what): \(a.count) vs \(b.count) values", sourceLocation: sourceLocation)
    guard a.count == b.count else { return }
    let e = scaledError(a, b)
    #expect(e <= tolerance, "\(what): scaled error \(e)", sourceLocation: sourceLocation)
}
