import NavCore
import Testing

@testable import NavGeometry

/// RDP's O(n²) worst case is bounded (issue 50, item 6): a zigzag whose amplitude shrinks makes
/// every split keep one point next to an end, (n − 1)(n − 2)/2 distance tests. Over the limit it
/// is one error naming the bound, never minutes of work; under it the result is unchanged.
@Suite struct RDPWorstCaseTests {
    /// y_i = (−1)^i (n − i): the farthest point from every span is its second point.
    static func zigzag(_ n: Int) -> [Vector3] { (0..<n).map { Vector3(Double($0), ($0 % 2 == 0 ? 1 : -1) * Double(n - $0), 0) } }

    @Test func theWorstCaseStopsAtTheTestLimit() throws {
        let n = 2_000
        let tests = (n - 1) * (n - 2) / 2
        #expect(throws: RouteError.tooManyDistanceTests(points: n, limit: tests - 1)) {
            try ramerDouglasPeucker(Self.zigzag(n), tolerance: 0.1, distance: .line, plane: .xyz, testLimit: tests - 1)
        }
        for plane in [RoutePlane.xyz, .xy] {
            let kept = try ramerDouglasPeucker(Self.zigzag(n), tolerance: 0.1, distance: .line, plane: plane, testLimit: tests)
            #expect(kept == Array(0..<n), "every point of the zigzag is kept")
        }
        #expect("\(RouteError.tooManyDistanceTests(points: n, limit: 5))".contains("needs more than 5 distance tests on these 2000 points"))
    }

    /// A route of 100,000 points (a walk with small noise) stays far below the default limit.
    @Test func aLongRouteIsFarBelowTheLimit() throws {
        var g = SeededRandom(seed: 4)
        let route = (0..<100_000).map { i in Vector3(Double(i) * 0.05, 0, 0.01 * g.gaussian()) }
        #expect(try ramerDouglasPeucker(route, tolerance: 0.3).count == 2)
    }
}
