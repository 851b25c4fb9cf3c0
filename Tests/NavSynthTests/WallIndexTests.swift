import NavCore
import Testing

@testable import NavSynth

/// `WallIndex` against the linear scan of `FloorPlan`: the same end point, contact and wall for
/// every step, on the building venue and on hostile plans.
@Suite struct WallIndexTests {
    /// Steps of 1 cm to 3 m from random points in (and around) the plan's extent, plus steps
    /// that end exactly on a wall's end point or run along a wall.
    static func compare(_ plan: FloorPlan, floor: Int, steps: Int, seed: UInt64, cellSize: Double = 1.0) -> (differing: Int, contacts: Int) {
        let index = WallIndex(plan, floor: floor, cellSize: cellSize)
        let walls = plan.walls.filter { $0.floor == floor && $0.x0.isFinite && $0.x1.isFinite && $0.z0.isFinite && $0.z1.isFinite }
        let xs = walls.flatMap { [$0.x0, $0.x1] }, zs = walls.flatMap { [$0.z0, $0.z1] }
        let (lx, hx) = ((xs.min() ?? 0) - 2, (xs.max() ?? 0) + 2), (lz, hz) = ((zs.min() ?? 0) - 2, (zs.max() ?? 0) + 2)
        var rng = SeededRandom(seed: seed)
        var differing = 0, contacts = 0
        for k in 0..<steps {
            var x = rng.uniform(lx, hx), z = rng.uniform(lz, hz)
            let length = [0.01, 0.02, 0.3, 3][k % 4], angle = rng.uniform(0, 2 * .pi)
            var dx = length * Double.cos(angle), dz = length * Double.sin(angle)
            if k % 10 == 9, let w = walls.randomElementSeeded(&rng) {
                // Onto a wall's end point, or along the wall itself.
                if k % 20 == 9 { dx = w.x1 - x; dz = w.z1 - z } else { x = w.x0; z = w.z0; dx = (w.x1 - w.x0) / 2; dz = (w.z1 - w.z0) / 2 }
            }
            let a = plan.move(x: x, z: z, dx: dx, dz: dz, floor: floor)
            let b = index.move(x: x, z: z, dx: dx, dz: dz)
            let ha = plan.firstHit(x: x, z: z, dx: dx, dz: dz, floor: floor)
            let hb = index.firstHit(x: x, z: z, dx: dx, dz: dz)
            if a.contact { contacts += 1 }
            let sameHit = ha?.0 == hb?.0 && ha?.1 == hb?.1
            if a.x.bitPattern != b.x.bitPattern || a.z.bitPattern != b.z.bitPattern || a.contact != b.contact || !sameHit { differing += 1 }
        }
        return (differing, contacts)
    }

    @Test func buildingVenueEveryFloor() {
        let plan = SynthVenue.building.floorPlan
        let floors = Set(plan.walls.map(\.floor)).sorted()
        #expect(floors.count >= 2)
        for f in floors {
            let r = Self.compare(plan, floor: f, steps: 20_000, seed: UInt64(f + 10))
            #expect(r.differing == 0, "floor \(f): \(r.differing) of 20000 steps differ")
            #expect(r.contacts > 500, "floor \(f): only \(r.contacts) steps met a wall; the comparison needs contacts")
        }
        // Cells much smaller and much larger than a step.
        for size in [0.05, 7.0] {
            let r = Self.compare(plan, floor: floors[0], steps: 5_000, seed: 3, cellSize: size)
            #expect(r.differing == 0, "cell \(size) m: \(r.differing) steps differ")
        }
    }

    /// A free box meets no wall: every wall of the floor lies strictly beyond it on one axis, and
    /// steps inside it move as `FloorPlan.move` moves them, without contact. Boxes are found away
    /// from the walls and not on them; a plan without a grid gives none.
    @Test func freeBoxesMeetNoWall() {
        let plan = SynthVenue.building.floorPlan
        for f in Set(plan.walls.map(\.floor)).sorted() {
            let index = WallIndex(plan, floor: f)
            let walls = plan.walls.filter { $0.floor == f }
            let xs = walls.flatMap { [$0.x0, $0.x1] }, zs = walls.flatMap { [$0.z0, $0.z1] }
            var rng = SeededRandom(seed: UInt64(30 + f))
            var boxes = 0, steps = 0
            for k in 0..<4_000 {
                let x = rng.uniform(xs.min()! - 1, xs.max()! + 1), z = rng.uniform(zs.min()! - 1, zs.max()! + 1)
                guard let box = index.freeBox(x: x, z: z, reach: [0.05, 0.5, 3][k % 3]) else { continue }
                boxes += 1
                #expect(box.minX <= x && x <= box.maxX && box.minZ <= z && z <= box.maxZ)
                let met = walls.filter { w in
                    !(max(w.x0, w.x1) < box.minX || min(w.x0, w.x1) > box.maxX || max(w.z0, w.z1) < box.minZ || min(w.z0, w.z1) > box.maxZ)
                }
                #expect(met.isEmpty, "floor \(f): a box at (\(x), \(z)) meets \(met.count) walls")
                for _ in 0..<5 {
                    let angle = rng.uniform(0, 2 * .pi), length = rng.uniform(0, 0.6)
                    let dx = length * Double.cos(angle), dz = length * Double.sin(angle)
                    guard box.contains(x: x, z: z, dx: dx, dz: dz) else { continue }
                    steps += 1
                    let m = plan.move(x: x, z: z, dx: dx, dz: dz, floor: f)
                    #expect(m.x.bitPattern == (x + dx).bitPattern && m.z.bitPattern == (z + dz).bitPattern && !m.contact)
                    #expect(plan.firstHit(x: x, z: z, dx: dx, dz: dz, floor: f) == nil)
                }
            }
            #expect(boxes > 1_000 && steps > 1_000, "floor \(f): \(boxes) boxes, \(steps) steps inside them")
            // On a wall (its midpoint) there is none.
            for w in walls { #expect(index.freeBox(x: (w.x0 + w.x1) / 2, z: (w.z0 + w.z1) / 2, reach: 0.5) == nil) }
        }
        // No grid (a NaN wall), no walls, or a point or reach that is not finite: none.
        #expect(WallIndex(FloorPlan(walls: [Wall(.nan, 0, 3, 3), Wall(0, 0, 1, 0)]), floor: 0).freeBox(x: 5, z: 5, reach: 0.5) == nil)
        #expect(WallIndex(FloorPlan(), floor: 0).freeBox(x: 0, z: 0, reach: 0.5) == nil)
        let index = WallIndex(plan, floor: 0)
        #expect(index.freeBox(x: .nan, z: 0, reach: 0.5) == nil)
        #expect(index.freeBox(x: 0, z: 0, reach: .infinity) == nil)
        #expect(index.freeBox(x: 0, z: 0, reach: -1) == nil)
    }

    /// Long diagonal walls over a huge extent: the grid is capped (cells grow, or no grid is kept)
    /// and the answers stay those of the linear scan; a NaN wall keeps no grid.
    @Test func hostilePlans() {
        var rng = SeededRandom(seed: 9)
        var walls: [Wall] = []
        for _ in 0..<400 { walls.append(Wall(rng.uniform(-1e6, 1e6), rng.uniform(-1e6, 1e6), rng.uniform(-1e6, 1e6), rng.uniform(-1e6, 1e6))) }
        for i in 0..<50 { walls.append(Wall(Double(i), 0, Double(i), 5)) }
        let huge = FloorPlan(walls: walls)
        #expect(Self.compare(huge, floor: 0, steps: 3_000, seed: 4).differing == 0)
        // Dense crossing walls: more cell slots than the cap, so the index keeps no grid.
        let dense = FloorPlan(walls: (0..<3_000).map { i in Wall(0, Double(i) * 0.01, 500, 500 - Double(i) * 0.01) })
        #expect(Self.compare(dense, floor: 0, steps: 300, seed: 5).differing == 0)
        var nanWalls = Array(walls.suffix(50))
        nanWalls.append(Wall(.nan, 0, 3, 3))
        #expect(Self.compare(FloorPlan(walls: nanWalls), floor: 0, steps: 2_000, seed: 6).differing == 0)
        #expect(Self.compare(FloorPlan(), floor: 0, steps: 100, seed: 7).differing == 0)
        // An extent beyond the doubles (1.5e308 − (−1.5e308) overflows): no grid, no trap.
        let vast = FloorPlan(walls: [Wall(-1.5e308, 0, -1.5e308, 1), Wall(1.5e308, 0, 1.5e308, 1), Wall(0, -1, 0, 1)])
        #expect(WallIndex(vast, floor: 0).move(x: -0.5, z: 0, dx: 1, dz: 0).contact)
    }
}

extension Array {
    /// A seeded pick (nil when empty).
    func randomElementSeeded(_ rng: inout SeededRandom) -> Element? {
        isEmpty ? nil : self[Int(rng.uniform() * Double(count)) % count]
    }
}
