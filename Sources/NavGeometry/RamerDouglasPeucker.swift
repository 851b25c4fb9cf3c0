import NavCore

/// Which distance the Ramer–Douglas–Peucker test uses.
public enum RDPDistance: String, Sendable, CaseIterable, Codable {
    /// Perpendicular distance to the infinite line through the span's end points:
    /// d = ‖(e − s) × (s − p)‖ / ‖e − s‖ (‖p − s‖ when e = s). Clew's `PathFinder` and the
    /// `rdp` Python package. In 3-D a change of height (stairs) counts.
    case line
    /// Distance to the segment [s, e]: to s or e when the foot of the perpendicular falls
    /// outside it. shapely, and the `simplification` package (Rust `geo`).
    case segment
}

/// The coordinates a route is simplified in.
public enum RoutePlane: String, Sendable, CaseIterable, Codable {
    /// Full 3-D (x, y, z).
    case xyz
    /// The ARKit floor plane (x, z): y is up, so heights are ignored.
    case xz
    /// The (x, y) plane: the floor of an ENU or other z-up frame.
    case xy

    var dimension: Int { self == .xyz ? 3 : 2 }
}

/// Bad input to a route algorithm.
public enum RouteError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidTolerance(Double)
    case nonFinitePoint(index: Int)
    /// The polyline needs more than `ramerDouglasPeuckerTestLimit` distance tests (RDP's O(n²)
    /// worst case).
    case tooManyDistanceTests(points: Int, limit: Int)

    public var description: String {
        switch self {
        case let .invalidTolerance(t): return "tolerance must be a finite number ≥ 0 m, got \(t)"
        case let .nonFinitePoint(i): return "point \(i) has a non-finite coordinate"
        case let .tooManyDistanceTests(n, limit):
            return
                "Ramer–Douglas–Peucker needs more than \(limit) distance tests on these \(n) points (its O(n²) worst case: a zigzag or spiral whose every split keeps one point); simplify fewer points"
        }
    }
}

/// The most distance tests one simplification may make: RDP is O(n log n) on a
/// route, O(n²) on a zigzag whose amplitude shrinks (10^6 points: 5·10^11 tests, 23 minutes);
/// docs/metrics.md states the bound.
public let ramerDouglasPeuckerTestLimit = 2_000_000_000

/// Ramer–Douglas–Peucker simplification (Ramer 1972; Douglas & Peucker 1973): the indices of
/// the points kept, ascending, always including the first and the last.
///
/// A span [s, e] is split at its point farthest from the span (by `distance`, first index
/// on ties) when that distance is strictly greater than `tolerance`; otherwise its interior
/// points are dropped. `.line` with `.xyz` is Clew's keypoint rule (tolerance `pathWidth`,
/// 0.3 m in the shipping app) and keeps the same indices as `rdp(points, epsilon)`;
/// `.segment` keeps the same indices as `simplification.simplify_coords_idx` (both checked
/// against committed fixtures in `RamerDouglasPeuckerTests`).
///
/// Iterative with an explicit stack (no recursion depth limit). The search for the farthest
/// point compares squared numerators (no division or square root per point); the winner's
/// distance is then computed with the reference formula for the threshold test.
///
/// - Throws: `RouteError` for a negative or non-finite tolerance, a non-finite point, or a
///   polyline needing more than `ramerDouglasPeuckerTestLimit` distance tests.
/// - Complexity: O(n log n) typical, O(n²) worst case (a spiral), bounded by the test limit;
///   O(n) extra memory.
public func ramerDouglasPeucker(
    _ points: [Vector3], tolerance: Double, distance: RDPDistance = .line,
    plane: RoutePlane = .xyz
) throws(RouteError) -> [Int] {
    try ramerDouglasPeucker(points, tolerance: tolerance, distance: distance, plane: plane, testLimit: ramerDouglasPeuckerTestLimit)
}

/// `ramerDouglasPeucker` with another test limit (tests reach it in milliseconds).
func ramerDouglasPeucker(
    _ points: [Vector3], tolerance: Double, distance: RDPDistance, plane: RoutePlane, testLimit: Int
) throws(RouteError) -> [Int] {
    guard tolerance.isFinite && tolerance >= 0 else { throw .invalidTolerance(tolerance) }
    if let bad = points.firstIndex(where: { !$0.isFinite }) { throw .nonFinitePoint(index: bad) }
    let flat = projected(points, plane: plane)
    let kept = flat.withUnsafeBufferPointer { buf in
        plane.dimension == 2
            ? rdpKernel2(buf, count: points.count, tolerance: tolerance, distance: distance, testLimit: testLimit)
            : rdpKernel3(buf, count: points.count, tolerance: tolerance, distance: distance, testLimit: testLimit)
    }
    guard let kept else { throw .tooManyDistanceTests(points: points.count, limit: testLimit) }
    return kept
}

/// Interleaved coordinates of `points` in `plane` (2 or 3 per point).
func projected(_ points: [Vector3], plane: RoutePlane) -> [Double] {
    let d = plane.dimension
    return [Double](unsafeUninitializedCapacity: points.count * d) { buf, initialized in
        for (i, p) in points.enumerated() {
            switch plane {
            case .xyz: buf[3 * i] = p.x; buf[3 * i + 1] = p.y; buf[3 * i + 2] = p.z
            case .xz: buf[2 * i] = p.x; buf[2 * i + 1] = p.z
            case .xy: buf[2 * i] = p.x; buf[2 * i + 1] = p.y
            }
        }
        initialized = points.count * d
    }
}

/// Collects kept flags into ascending indices.
private func keptIndices(_ keep: [Bool]) -> [Int] {
    var out: [Int] = []
    out.reserveCapacity(max(2, keep.count / 8))
    for (i, k) in keep.enumerated() where k { out.append(i) }
    return out
}

/// RDP on interleaved 2-D points.
func rdpKernel2(
    _ p: UnsafeBufferPointer<Double>, count n: Int, tolerance: Double, distance: RDPDistance, testLimit: Int = ramerDouglasPeuckerTestLimit
) -> [Int]? {
    if n <= 2 { return Array(0..<n) }
    var keep = [Bool](repeating: false, count: n)
    keep[0] = true; keep[n - 1] = true
    var stack: [Int] = [0, n - 1]
    stack.reserveCapacity(256)
    var tests = 0
    let finished = keep.withUnsafeMutableBufferPointer { keep -> Bool in
        while let e = stack.popLast() {
            let s = stack.removeLast()
            if e - s < 2 { continue }
            tests += e - s - 1
            if tests > testLimit { return false }
            let sx = p[2 * s], sy = p[2 * s + 1], ex = p[2 * e], ey = p[2 * e + 1]
            let dx = ex - sx, dy = ey - sy
            var farthest = -1, farthestKey = -1.0
            let farthestDistance: Double
            if dx == 0 && dy == 0 {
                for i in (s + 1)..<e {
                    let ux = p[2 * i] - sx, uy = p[2 * i + 1] - sy
                    let key = ux * ux + uy * uy
                    if key > farthestKey { farthestKey = key; farthest = i }
                }
                farthestDistance = farthestKey.squareRoot()
            } else if distance == .line {
                // |cross(e − s, s − p)| is the numerator of the line distance.
                for i in (s + 1)..<e {
                    let key = abs(dx * (sy - p[2 * i + 1]) - dy * (sx - p[2 * i]))
                    if key > farthestKey { farthestKey = key; farthest = i }
                }
                farthestDistance = farthestKey / (dx * dx + dy * dy).squareRoot()
            } else {
                let len2 = dx * dx + dy * dy
                for i in (s + 1)..<e {
                    let ux = p[2 * i] - sx, uy = p[2 * i + 1] - sy
                    let t = ux * dx + uy * dy
                    let key: Double
                    if t <= 0 {
                        key = ux * ux + uy * uy
                    } else if t >= len2 {
                        let vx = p[2 * i] - ex, vy = p[2 * i + 1] - ey
                        key = vx * vx + vy * vy
                    } else {
                        let c = ux * dy - uy * dx
                        key = c * c / len2
                    }
                    if key > farthestKey { farthestKey = key; farthest = i }
                }
                farthestDistance = farthestKey.squareRoot()
            }
            if farthestDistance > tolerance {
                keep[farthest] = true
                stack.append(farthest); stack.append(e)
                stack.append(s); stack.append(farthest)
            }
        }
        return true
    }
    return finished ? keptIndices(keep) : nil
}

/// RDP on interleaved 3-D points.
func rdpKernel3(
    _ p: UnsafeBufferPointer<Double>, count n: Int, tolerance: Double, distance: RDPDistance, testLimit: Int = ramerDouglasPeuckerTestLimit
) -> [Int]? {
    if n <= 2 { return Array(0..<n) }
    @inline(__always) func point(_ i: Int) -> Vector3 { Vector3(p[3 * i], p[3 * i + 1], p[3 * i + 2]) }
    var keep = [Bool](repeating: false, count: n)
    keep[0] = true; keep[n - 1] = true
    var stack: [Int] = [0, n - 1]
    stack.reserveCapacity(256)
    var tests = 0
    let finished = keep.withUnsafeMutableBufferPointer { keep -> Bool in
        while let e = stack.popLast() {
            let s = stack.removeLast()
            if e - s < 2 { continue }
            tests += e - s - 1
            if tests > testLimit { return false }
            let a = point(s), b = point(e)
            let d = b - a
            let len2 = d.dot(d)
            var farthest = -1, farthestKey = -1.0
            let farthestDistance: Double
            if len2 == 0 {
                for i in (s + 1)..<e {
                    let u = point(i) - a
                    let key = u.dot(u)
                    if key > farthestKey { farthestKey = key; farthest = i }
                }
                farthestDistance = farthestKey.squareRoot()
            } else if distance == .line {
                for i in (s + 1)..<e {
                    let c = d.cross(a - point(i))
                    let key = c.dot(c)
                    if key > farthestKey { farthestKey = key; farthest = i }
                }
                farthestDistance = farthestKey.squareRoot() / len2.squareRoot()
            } else {
                for i in (s + 1)..<e {
                    let q = point(i)
                    let u = q - a
                    let t = u.dot(d)
                    let key: Double
                    if t <= 0 {
                        key = u.dot(u)
                    } else if t >= len2 {
                        let v = q - b
                        key = v.dot(v)
                    } else {
                        let c = u.cross(d)
                        key = c.dot(c) / len2
                    }
                    if key > farthestKey { farthestKey = key; farthest = i }
                }
                farthestDistance = farthestKey.squareRoot()
            }
            if farthestDistance > tolerance {
                keep[farthest] = true
                stack.append(farthest); stack.append(e)
                stack.append(s); stack.append(farthest)
            }
        }
        return true
    }
    return finished ? keptIndices(keep) : nil
}
