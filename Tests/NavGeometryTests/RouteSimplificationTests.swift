import Foundation
import NavCore
import NavGeometry
import Testing

/// Route measures: kept count, max deviation of crumbs, length ratio, tolerance sweep.
@Suite struct RouteSimplificationTests {
    /// An L-shaped corridor walk with a ±5 cm sway.
    static let crumbs: [Vector3] = (0...200).map { i in
        let s = Double(i) * 0.1
        let sway = 0.05 * sin(Double(i))
        return s <= 10 ? Vector3(s, 1.4, sway) : Vector3(10 + sway, 1.4, -(s - 10))
    }

    @Test func lShapeKeepsTheCorner() throws {
        let r = try simplifyRoute(Self.crumbs, tolerance: 0.3, distance: .line, plane: .xz)
        #expect(r.keptIndices == [0, 100, 200])
        #expect(r.keptCount == 3 && r.crumbCount == 201)
        // The sway (and the swayed corner crumb tilting the legs) is all that deviates.
        #expect(r.maxDeviation < 0.11 && r.maxDeviation > 0.04)
        #expect(abs(r.simplifiedLength - 20) < 0.1)
        // The swaying crumb path is ~10 % longer than the two straight legs.
        #expect(r.lengthRatio < 0.95 && r.lengthRatio > 0.85)
    }

    @Test func sweepIsMonotone() throws {
        let sweep = try toleranceSweep(Self.crumbs, tolerances: [0.01, 0.03, 0.1, 0.3, 8])
        #expect(sweep.map(\.tolerance) == [0.01, 0.03, 0.1, 0.3, 8])
        for (a, b) in zip(sweep, sweep.dropFirst()) { #expect(a.keptCount >= b.keptCount) }
        #expect(sweep.last!.keptIndices == [0, 200])  // the corner is 7.07 m from the end-to-end line
        #expect(throws: RouteError.invalidTolerance(.infinity)) { try toleranceSweep(Self.crumbs, tolerances: [0.1, .infinity]) }
    }

    @Test func segmentDistanceCases() {
        let a = Vector3(0, 0, 0), b = Vector3(2, 0, 0)
        #expect(segmentDistance(Vector3(1, 1, 0), a, b) == 1)
        #expect(segmentDistance(Vector3(-3, 4, 0), a, b) == 5)
        #expect(segmentDistance(Vector3(5, 4, 0), a, b) == 5)
        #expect(segmentDistance(Vector3(3, 4, 0), a, a) == 5)
    }
}
