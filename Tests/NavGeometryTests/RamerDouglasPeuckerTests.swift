import Foundation
import NavCore
import NavGeometry
import Testing

/// RDP kept indices equal `rdp` (line) and `simplification` (segment) on seeded paths, and
/// Clew's 0.3 m rule holds on two real ARKit walks.
@Suite struct RamerDouglasPeuckerTests {
    struct Cases: Decodable {
        struct Run: Decodable { var tolerance: Double; var distance: String; var plane: String; var kept: [Int] }
        struct Path: Decodable { var name: String; var points: [[Double]]; var dimension: Int; var runs: [Run] }
        var cases: [Path]
    }

    @Test func keptIndicesMatchRdpAndSimplification() throws {
        let cases = try loadFixture("rdp_cases.json", as: Cases.self)
        for c in cases.cases {
            // 2-D paths are stored as (x, y); 3-D as (x, y, z).
            let pts = c.points.map { $0.count == 2 ? Vector3($0[0], $0[1], 0) : Vector3($0[0], $0[1], $0[2]) }
            for r in c.runs {
                let kept = try ramerDouglasPeucker(
                    pts, tolerance: r.tolerance, distance: RDPDistance(rawValue: r.distance)!,
                    plane: RoutePlane(rawValue: r.plane)!)
                #expect(kept == r.kept, "\(c.name) \(r.distance) \(r.plane) ε=\(r.tolerance): \(kept.count) vs \(r.kept.count) kept")
            }
        }
    }

    struct Crumbs: Decodable {
        struct Walk: Decodable { var file: String; var rows: Int; var crumbRows: [Int]; var kept: [Int] }
        var tolerance: Double
        var walks: [Walk]
    }

    /// Rows `t_ns r11 r12 r13 tx r21 r22 r23 ty r31 r32 r33 tz` of an ARKit Data Logger file.
    func readARKitPoses(_ path: String) throws -> (t: [Double], p: [Vector3]) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var t: [Double] = [], p: [Vector3] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: " ").compactMap { Double($0) }
            guard f.count == 13 else { continue }
            t.append(f[0] / 1e9); p.append(Vector3(f[4], f[8], f[12]))
        }
        return (t, p)
    }

    @Test func clewKeypointsOnRealARKitWalks() throws {
        let fx = try loadFixture("arkit-data-logger/clew_crumbs.json", as: Crumbs.self)
        #expect(fx.walks.count == 2)
        for w in fx.walks {
            let (t, p) = try readARKitPoses(fixture("arkit-data-logger/" + w.file))
            #expect(t.count == w.rows)
            // Clew drops a crumb every 0.3 s from a timer: the latest pose at each tick.
            var rows: [Int] = []
            var k = 0
            var tick = 0.0
            while tick <= t.last! - t[0] + 1e-9 {
                while k + 1 < t.count && t[k + 1] - t[0] <= tick + 1e-9 { k += 1 }
                rows.append(k)
                tick = Double(rows.count) * 0.3
            }
            #expect(rows == w.crumbRows, "\(w.file): crumb selection")
            let crumbs = rows.map { p[$0] }
            let kept = try ramerDouglasPeucker(crumbs, tolerance: 0.3, distance: .line, plane: .xyz)
            #expect(kept == w.kept, "\(w.file): keypoints differ from rdp's")
            #expect(kept.first == 0 && kept.last == crumbs.count - 1)
            // Independent check of the 0.3 m rule: every crumb lies within 0.3 m of the infinite
            // line through the keypoints that enclose it (3-D, as Clew measures).
            for m in kept.indices.dropFirst() {
                let a = crumbs[kept[m - 1]], b = crumbs[kept[m]]
                for i in (kept[m - 1] + 1)..<kept[m] {
                    let d = (b - a).cross(a - crumbs[i]).norm / (b - a).norm
                    #expect(d <= 0.3, "\(w.file) crumb \(i): \(d) m from its leg")
                }
            }
            print("\(w.file): \(crumbs.count) crumbs → \(kept.count) keypoints at 0.3 m")
        }
    }

    @Test func stairsCreateKeypointsIn3DNotOnTheFloorPlane() throws {
        // Straight in plan; flat 5 m, then 3 m up over 5 m, then flat 5 m.
        let pts = (0...150).map { i -> Vector3 in
            let x = Double(i) * 0.1
            return Vector3(x, min(max((x - 5) * 0.6, 0), 3), 0)
        }
        #expect(try ramerDouglasPeucker(pts, tolerance: 0.3, distance: .line, plane: .xyz) == [0, 50, 100, 150])
        #expect(try ramerDouglasPeucker(pts, tolerance: 0.3, distance: .line, plane: .xz) == [0, 150])
    }

    @Test func lineAndSegmentDisagreeWhereCrumbsOvershoot() throws {
        // A walker passes the corner and comes back: the far crumb is on the line's extension.
        let pts = [Vector3(0, 0, 0), Vector3(5, 0, 0), Vector3(12, 0, 0), Vector3(10, 0, 0)]
        #expect(try ramerDouglasPeucker(pts, tolerance: 0.5, distance: .line, plane: .xyz) == [0, 3])
        #expect(try ramerDouglasPeucker(pts, tolerance: 0.5, distance: .segment, plane: .xyz) == [0, 2, 3])
    }

    @Test func iterativeOnLongPathsAndEdgeCases() throws {
        // 50,000 points on a spiral at tolerance 0: every point is kept; no recursion involved.
        let n = 50_000
        let spiral = (0..<n).map { i -> Vector3 in
            let a = Double(i) * 0.01
            return Vector3(a * cos(a), 0, a * sin(a))
        }
        let kept = try ramerDouglasPeucker(spiral, tolerance: 0, distance: .segment, plane: .xz)
        #expect(kept.count == n)
        #expect(try ramerDouglasPeucker([], tolerance: 1) == [])
        #expect(try ramerDouglasPeucker([.zero], tolerance: 1) == [0])
        #expect(throws: RouteError.invalidTolerance(-1)) { try ramerDouglasPeucker(spiral, tolerance: -1) }
        #expect(throws: RouteError.nonFinitePoint(index: 1)) { try ramerDouglasPeucker([.zero, Vector3(.nan, 0, 0), .zero], tolerance: 1) }
    }
}
