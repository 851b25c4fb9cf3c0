import Foundation
import NavCore
import NavGeometry
import Testing

/// DTW, nDTW and SDTW against the reference implementation's documented example and a direct
/// full-matrix computation on random paths.
@Suite struct DynamicTimeWarpingTests {
    /// Points on the floor plane (navbench's x, z).
    func path(_ xy: [(Double, Double)]) -> [Vector3] { xy.map { Vector3($0.0, 0, $0.1) } }

    /// Ilharco et al.'s example (their code's documentation): walk (0,0),(1,0),(2,0),(3,0) against
    /// the route (0,0),(1,0),(2,1),(3,2) with d_th = 3: DTW 3.0, nDTW 0.77880078307140488.
    @Test func referenceExample() {
        let walk = path([(0, 0), (1, 0), (2, 0), (3, 0)]), route = path([(0, 0), (1, 0), (2, 1), (3, 2)])
        #expect(dynamicTimeWarping(walk: walk, route: route) == 3.0)
        #expect(abs(normalizedDynamicTimeWarping(walk: walk, route: route, threshold: 3) - 0.77880078307140488) < 1e-16)
        #expect(successWeightedDynamicTimeWarping(walk: walk, route: route, threshold: 3, success: false) == 0)
        #expect(normalizedDynamicTimeWarping(walk: route, route: route, threshold: 3) == 1)
    }

    /// The textbook recursion over the whole (n + 1) × (m + 1) matrix, written out here.
    func direct(_ a: [Vector3], _ b: [Vector3]) -> Double {
        var d = [[Double]](repeating: [Double](repeating: .infinity, count: b.count + 1), count: a.count + 1)
        d[0][0] = 0
        for i in 1...a.count {
            for j in 1...b.count {
                let dx = a[i - 1].x - b[j - 1].x, dz = a[i - 1].z - b[j - 1].z
                d[i][j] = (dx * dx + dz * dz).squareRoot() + min(d[i - 1][j], d[i][j - 1], d[i - 1][j - 1])
            }
        }
        return d[a.count][b.count]
    }

    @Test func equalsTheFullMatrixOnRandomPaths() {
        var rng = SeededRandom(seed: 48)
        for _ in 0..<200 {
            let n = 1 + Int(rng.uniform() * 40), m = 1 + Int(rng.uniform() * 40)
            let a = (0..<n).map { _ in Vector3(rng.uniform(-5, 5), rng.uniform(-1, 1), rng.uniform(-5, 5)) }
            let b = (0..<m).map { _ in Vector3(rng.uniform(-5, 5), rng.uniform(-1, 1), rng.uniform(-5, 5)) }
            let x = dynamicTimeWarping(walk: a, route: b), y = direct(a, b)
            #expect(abs(x - y) <= 1e-12 * max(1, y), "\(n)×\(m): \(x) vs \(y)")
        }
    }

    /// Resampling by arc length: the spacing holds between consecutive points, the ends are kept,
    /// and a straight 10 m line at 0.5 m gives 21 points.
    @Test func resamplingKeepsTheSpacingAndTheEnds() {
        let line = resampledByArcLength(path([(0, 0), (4, 0), (10, 0)]), spacing: 0.5)
        #expect(line.count == 21 && line.first == Vector3(0, 0, 0) && line.last == Vector3(10, 0, 0))
        #expect(zip(line, line.dropFirst()).allSatisfy { abs(($1 - $0).horizontalNorm - 0.5) < 1e-12 })
        let corner = resampledByArcLength(path([(0, 0), (1.2, 0), (1.2, 1.3)]), spacing: 1)
        #expect(corner.count == 4 && abs(corner[1].x - 1) < 1e-12 && abs(corner[2].z - 0.8) < 1e-12 && corner[3] == Vector3(1.2, 0, 1.3))
    }
}
