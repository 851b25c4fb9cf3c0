import Foundation
import NavCore

/// A wall: a vertical segment on one floor, in the venue frame's horizontal plane (x, z), metres.
public struct Wall: Sendable, Hashable, Codable {
    public var x0, z0, x1, z1: Double
    /// Floor index (0 = ground): the wall stops walkers whose floor is this one.
    public var floor: Int
    public init(_ x0: Double, _ z0: Double, _ x1: Double, _ z1: Double, floor: Int = 0) {
        self.x0 = x0; self.z0 = z0; self.x1 = x1; self.z1 = z1; self.floor = floor
    }
}

/// A venue floor plan: walls per floor (doors are gaps between walls). A walker cannot cross a
/// wall: a step that would cross one stops 1 cm before it and slides along it with the rest of
/// the step (shorelining); each new contact is counted. An empty plan is open space.
public struct FloorPlan: Sendable, Hashable, Codable {
    public var walls: [Wall]
    /// Storey height, m: floor = round((phone height − phoneHeight) / floorHeight).
    public var floorHeight: Double
    public var phoneHeight: Double

    public init(walls: [Wall] = [], floorHeight: Double = 3.2, phoneHeight: Double = 1.3) {
        self.walls = walls; self.floorHeight = floorHeight; self.phoneHeight = phoneHeight
    }

    public static let openSpace = FloorPlan()

    /// Floor index of a phone at height `y`.
    /// Floors beyond ±10⁶ (corrupt heights) count as the outermost one instead of overflowing `Int`.
    @inlinable public func floor(phoneAt y: Double) -> Int {
        let f = ((y - phoneHeight) / floorHeight).rounded()
        return f.isFinite ? Int(Swift.max(-1e6, Swift.min(1e6, f))) : 0
    }

    /// Moves from (x, z) by (dx, dz) on `floor`; returns the end point and whether a wall was touched.
    ///
    /// - Complexity: O(walls).
    public func move(x: Double, z: Double, dx: Double, dz: Double, floor: Int) -> (x: Double, z: Double, contact: Bool) {
        guard !walls.isEmpty else { return (x + dx, z + dz, false) }
        return Self.slide(x: x, z: z, dx: dx, dz: dz) { firstHit(x: $0, z: $1, dx: $2, dz: $3, floor: floor) }
    }

    /// The motion rule of `move`, given the first wall hit along a step (`WallIndex` shares it).
    @inline(__always)
    static func slide(
        x: Double, z: Double, dx: Double, dz: Double,
        firstHit: (Double, Double, Double, Double) -> (Double, Wall)?
    ) -> (x: Double, z: Double, contact: Bool) {
        var x = x, z = z, dx = dx, dz = dz
        var contact = false
        for _ in 0..<2 {
            guard let (t, w) = firstHit(x, z, dx, dz) else { return (x + dx, z + dz, contact) }
            contact = true
            let len = (dx * dx + dz * dz).squareRoot()
            let back = len > 0 ? min(t, 0.01 / len) : 0
            x += (t - back) * dx; z += (t - back) * dz
            // Slide: the rest of the step projected on the wall's direction.
            let rx = (1 - t) * dx, rz = (1 - t) * dz
            let wx = w.x1 - w.x0, wz = w.z1 - w.z0
            let wl2 = wx * wx + wz * wz
            guard wl2 > 0 else { return (x, z, contact) }
            let f = (rx * wx + rz * wz) / wl2
            dx = f * wx; dz = f * wz
        }
        // A second wall in the way (a corner): stay.
        return (x, z, contact)
    }

    /// Smallest t ∈ [0, 1] at which (x, z) + t·(dx, dz) meets a wall of `floor`.
    func firstHit(x: Double, z: Double, dx: Double, dz: Double, floor: Int) -> (Double, Wall)? {
        var best: (Double, Wall)?
        let minX = min(x, x + dx), maxX = max(x, x + dx), minZ = min(z, z + dz), maxZ = max(z, z + dz)
        for w in walls where w.floor == floor {
            if let t = Self.crossing(w, x: x, z: z, dx: dx, dz: dz, minX: minX, maxX: maxX, minZ: minZ, maxZ: maxZ),
                t < (best?.0 ?? .infinity)
            {
                best = (t, w)
            }
        }
        return best
    }

    /// The t ∈ [0, 1] at which the step (x, z) + t·(dx, dz), whose bounding box is given, meets
    /// wall `w`; nil when it does not.
    @inline(__always)
    static func crossing(
        _ w: Wall, x: Double, z: Double, dx: Double, dz: Double,
        minX: Double, maxX: Double, minZ: Double, maxZ: Double
    ) -> Double? {
        // Bounding boxes apart: no crossing (most walls, cheaply).
        if max(w.x0, w.x1) < minX || min(w.x0, w.x1) > maxX || max(w.z0, w.z1) < minZ || min(w.z0, w.z1) > maxZ { return nil }
        let ex = w.x1 - w.x0, ez = w.z1 - w.z0
        let den = dx * ez - dz * ex
        if den == 0 { return nil }
        let qx = w.x0 - x, qz = w.z0 - z
        let t = (qx * ez - qz * ex) / den
        let u = (qx * dz - qz * dx) / den
        return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? t : nil
    }

    /// Corridor walls `halfWidth` either side of a polyline (venue frame), mitred at the
    /// corners, closed `endClearance` behind the start and beyond the end; segments that
    /// change floor (stairs) put their walls on both floors.
    public static func corridor(
        along points: [Vector3], halfWidth: Double, endClearance: Double = 1.5,
        floorHeight: Double = 3.2, phoneHeight: Double = 1.3
    ) -> FloorPlan {
        var plan = FloorPlan(floorHeight: floorHeight, phoneHeight: phoneHeight)
        var pts: [Vector3] = []
        for p in points where pts.last.map({ Double.hypot(p.x - $0.x, p.z - $0.z) > 1e-6 }) ?? true { pts.append(p) }
        guard pts.count >= 2 else { return plan }
        func dir(_ i: Int) -> (Double, Double) {
            let dx = pts[i + 1].x - pts[i].x, dz = pts[i + 1].z - pts[i].z
            let n = Double.hypot(dx, dz)
            return (dx / n, dz / n)
        }
        let n = pts.count
        var ends = pts.map { ($0.x, $0.z) }
        let (sx, sz) = dir(0), (ex, ez) = dir(n - 2)
        ends[0] = (ends[0].0 - sx * endClearance, ends[0].1 - sz * endClearance)
        ends[n - 1] = (ends[n - 1].0 + ex * endClearance, ends[n - 1].1 + ez * endClearance)
        var left: [(Double, Double)] = [], right: [(Double, Double)] = []
        for i in 0..<n {
            let a = dir(max(0, i - 1)), b = dir(min(n - 2, i))
            var nx = -(a.1 + b.1), nz = a.0 + b.0  // left normal of the mean direction
            let nn = Double.hypot(nx, nz)
            if nn < 1e-9 { nx = -b.1; nz = b.0 } else { nx /= nn; nz /= nn }
            let c = max(0.3, nx * -b.1 + nz * b.0)  // cos of half the turn: mitre length
            left.append((ends[i].0 + nx * halfWidth / c, ends[i].1 + nz * halfWidth / c))
            right.append((ends[i].0 - nx * halfWidth / c, ends[i].1 - nz * halfWidth / c))
        }
        func floorOf(_ y: Double) -> Int { plan.floor(phoneAt: y) }
        for i in 0..<(n - 1) {
            let floors = Set([floorOf(pts[i].y), floorOf(pts[i + 1].y)]).sorted()
            for f in floors {
                plan.walls.append(Wall(left[i].0, left[i].1, left[i + 1].0, left[i + 1].1, floor: f))
                plan.walls.append(Wall(right[i].0, right[i].1, right[i + 1].0, right[i + 1].1, floor: f))
            }
        }
        let f0 = floorOf(pts[0].y), f1 = floorOf(pts[n - 1].y)
        plan.walls.append(Wall(left[0].0, left[0].1, right[0].0, right[0].1, floor: f0))
        plan.walls.append(Wall(left[n - 1].0, left[n - 1].1, right[n - 1].0, right[n - 1].1, floor: f1))
        return plan
    }
}
