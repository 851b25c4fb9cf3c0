import Foundation
import NavIO
import Testing

/// The scipy/numpy reference file of the signal tests (scripts/make_signal_fixtures.py writes one
/// file for both targets; it is read in place from the source tree, not copied as a resource).
let reference: HDF5Reader = {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../NavSignalTests/Fixtures/signal_reference.h5").standardizedFileURL.path
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

/// Expect `a` to equal the reference `b` within `tolerance` of max |b| (1e-9 unless told).
func expectMatches(_ a: [Double], _ b: [Double], _ what: String, tolerance: Double = 1e-9,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.count == b.count, "\(what): \(a.count) vs \(b.count) values", sourceLocation: sourceLocation)
    guard a.count == b.count else { return }
    var num = 0.0, den = 0.0
    for (x, y) in zip(a, b) { num = max(num, abs(x - y)); den = max(den, abs(y)) }
    let e = den == 0 ? num : num / den
    #expect(e <= tolerance, "\(what): scaled error \(e)", sourceLocation: sourceLocation)
}
