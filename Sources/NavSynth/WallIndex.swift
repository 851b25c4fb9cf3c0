import NavCore

/// The walls of one floor in a uniform grid of square cells, so that a walker's step tests only
/// the walls whose bounding box shares a cell with the step's, not every wall of the floor.
///
/// `move` and `firstHit` give exactly what `FloorPlan.move` and `FloorPlan.firstHit` give on the
/// same floor: the same wall test on each candidate, and among walls hit at the same t the first
/// in the plan's order (a wall whose bounding box meets the step's is in a cell the step visits,
/// since cell numbers are monotone in the coordinate).
///
/// Hostile plans: the grid has at most `maximumCells` cells (the cell grows for a venue that
/// large), and when the walls would fill more than `maximumEntries` cell slots, or a coordinate
/// or the plan's extent is not finite, the index keeps no grid and tests every wall, as `FloorPlan` does.
/// A class: the walker keeps its floor's index between ticks (unretained; `wallsByFloor` owns it).
public final class WallIndex: Sendable {
    public static let maximumCells = 1 << 18
    public static let maximumEntries = 1 << 21
    /// The walls of the floor, in the plan's order.
    public let walls: [Wall]
    /// Cells per metre: 1 / the cell's side (multiplied, not divided, when finding a cell).
    let originX: Double, originZ: Double, cellsPerMetre: Double
    let columns: Int, rows: Int
    /// Walls of cell c: `entries[cellStart[c] ..< cellStart[c + 1]]`, ascending (compressed rows).
    let cellStart: [Int32]
    let entries: [Int32]

    /// Indexes the walls of `floor` in `plan`, in cells of about `cellSize` metres.
    ///
    /// - Complexity: O(walls + cells covered).
    public init(_ plan: FloorPlan, floor: Int, cellSize: Double = 1.0) {
        walls = plan.walls.filter { $0.floor == floor }
        let finite = walls.allSatisfy { $0.x0.isFinite && $0.z0.isFinite && $0.x1.isFinite && $0.z1.isFinite }
        guard !walls.isEmpty, finite, cellSize > 0, walls.count < Int(Int32.max) else {
            originX = 0; originZ = 0; cellsPerMetre = 1; columns = 0; rows = 0; cellStart = []; entries = []
            return
        }
        let minX = walls.map { min($0.x0, $0.x1) }.min()!, maxX = walls.map { max($0.x0, $0.x1) }.max()!
        let minZ = walls.map { min($0.z0, $0.z1) }.min()!, maxZ = walls.map { max($0.z0, $0.z1) }.max()!
        // Extents beyond the doubles (walls near ±1.8e308): no grid, every wall tested.
        guard (maxX - minX).isFinite, (maxZ - minZ).isFinite else {
            originX = 0; originZ = 0; cellsPerMetre = 1; columns = 0; rows = 0; cellStart = []; entries = []
            return
        }
        // A cell large enough that the grid stays within maximumCells (512 × 512).
        let side = Double(Int(Double(Self.maximumCells).squareRoot()))
        let size = max(cellSize, (maxX - minX) / side, (maxZ - minZ) / side)
        let columns = min(Int(side), Int(((maxX - minX) / size).rounded(.down)) + 1)
        let rows = min(Int(side), Int(((maxZ - minZ) / size).rounded(.down)) + 1)
        let perMetre = 1 / size
        func cell(_ v: Double, _ origin: Double, _ count: Int) -> Int { Self.cell(v, origin, perMetre, count) }
        // Count before allocating: long diagonal walls may cover many cells.
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        var total = 0
        for w in walls {
            let c0 = cell(min(w.x0, w.x1), minX, columns), c1 = cell(max(w.x0, w.x1), minX, columns)
            let r0 = cell(min(w.z0, w.z1), minZ, rows), r1 = cell(max(w.z0, w.z1), minZ, rows)
            total += (c1 - c0 + 1) * (r1 - r0 + 1)
            if total > Self.maximumEntries { break }
            for r in r0...r1 { for c in c0...c1 { counts[r * columns + c + 1] += 1 } }
        }
        guard total <= Self.maximumEntries else {
            originX = 0; originZ = 0; cellsPerMetre = 1; self.columns = 0; self.rows = 0; cellStart = []; entries = []
            return
        }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        var next = counts, entries = [Int32](repeating: 0, count: total)
        for (k, w) in walls.enumerated() {
            let c0 = cell(min(w.x0, w.x1), minX, columns), c1 = cell(max(w.x0, w.x1), minX, columns)
            let r0 = cell(min(w.z0, w.z1), minZ, rows), r1 = cell(max(w.z0, w.z1), minZ, rows)
            for r in r0...r1 {
                for c in c0...c1 {
                    entries[Int(next[r * columns + c])] = Int32(k)
                    next[r * columns + c] += 1
                }
            }
        }
        originX = minX; originZ = minZ; cellsPerMetre = perMetre; self.columns = columns; self.rows = rows
        cellStart = counts
        self.entries = entries
    }

    /// The indexes of every floor that has walls in `plan`.
    public static func byFloor(_ plan: FloorPlan, cellSize: Double = 1.0) -> [Int: WallIndex] {
        var out: [Int: WallIndex] = [:]
        for f in Set(plan.walls.map(\.floor)) { out[f] = WallIndex(plan, floor: f, cellSize: cellSize) }
        return out
    }

    /// `FloorPlan.move` on this floor.
    ///
    /// - Complexity: O(walls in the cells of the step), O(walls) without a grid.
    public func move(x: Double, z: Double, dx: Double, dz: Double) -> (x: Double, z: Double, contact: Bool) {
        guard !walls.isEmpty else { return (x + dx, z + dz, false) }
        return FloorPlan.slide(x: x, z: z, dx: dx, dz: dz) { firstHit(x: $0, z: $1, dx: $2, dz: $3) }
    }

    /// `FloorPlan.firstHit` on this floor: the smallest t ∈ [0, 1] at which the step meets a wall.
    public func firstHit(x: Double, z: Double, dx: Double, dz: Double) -> (Double, Wall)? {
        let minX = min(x, x + dx), maxX = max(x, x + dx), minZ = min(z, z + dz), maxZ = max(z, z + dz)
        // The least (t, k): t ∈ [0, 1] is never infinite, so +∞ stands for "none yet".
        var bestT = Double.infinity, bestK = 0
        @inline(__always) func consider(_ k: Int) {
            guard let t = FloorPlan.crossing(walls[k], x: x, z: z, dx: dx, dz: dz, minX: minX, maxX: maxX, minZ: minZ, maxZ: maxZ)
            else { return }
            if t < bestT || (t == bestT && k < bestK) { bestT = t; bestK = k }
        }
        if columns == 0 || !(minX.isFinite && maxX.isFinite && minZ.isFinite && maxZ.isFinite) {
            for k in walls.indices { consider(k) }
        } else {
            let c0 = Self.cell(minX, originX, cellsPerMetre, columns), c1 = Self.cell(maxX, originX, cellsPerMetre, columns)
            let r0 = Self.cell(minZ, originZ, cellsPerMetre, rows), r1 = Self.cell(maxZ, originZ, cellsPerMetre, rows)
            cellStart.withUnsafeBufferPointer { start in
                entries.withUnsafeBufferPointer { entries in
                    // Cells are within the grid (`cell` clamps), so c + r·columns + 1 ≤ columns·rows.
                    var r = r0
                    while r <= r1 {
                        var i = r &* columns &+ c0
                        let rowEnd = r &* columns &+ c1
                        while i <= rowEnd {
                            var e = Int(start[i])
                            let end = Int(start[i &+ 1])
                            while e < end { consider(Int(entries[e])); e &+= 1 }
                            i &+= 1
                        }
                        r &+= 1
                    }
                }
            }
        }
        return bestT.isFinite ? (bestT, walls[bestK]) : nil
    }

    /// A box around (x, z), at most `reach` from it along each axis, that no wall's bounding box
    /// meets; nil when a wall's box is too near, when (x, z) or the box is not finite, or when
    /// the index keeps no grid.
    ///
    /// The walls whose boxes meet the square of side 2·`reach` are all in the cells it covers
    /// (as for `firstHit`); the box's half side is half the nearest one's L∞ distance, and each
    /// of them is then checked to lie strictly beyond the box on one axis, as `FloorPlan.crossing`
    /// rejects a wall. So no wall passes that test for a step inside the box (`WallFreeBox`).
    ///
    /// - Complexity: O(walls in the cells of the square).
    public func freeBox(x: Double, z: Double, reach: Double) -> WallFreeBox? {
        let sMinX = x - reach, sMaxX = x + reach, sMinZ = z - reach, sMaxZ = z + reach
        guard columns > 0, reach > 0, sMinX.isFinite, sMaxX.isFinite, sMinZ.isFinite, sMaxZ.isFinite else { return nil }
        let c0 = Self.cell(sMinX, originX, cellsPerMetre, columns), c1 = Self.cell(sMaxX, originX, cellsPerMetre, columns)
        let r0 = Self.cell(sMinZ, originZ, cellsPerMetre, rows), r1 = Self.cell(sMaxZ, originZ, cellsPerMetre, rows)
        func forEachCandidate(_ body: (Wall) -> Bool) -> Bool {
            for r in r0...r1 {
                for c in c0...c1 {
                    let i = r * columns + c
                    for e in Int(cellStart[i])..<Int(cellStart[i + 1]) where !body(walls[Int(entries[e])]) { return false }
                }
            }
            return true
        }
        var half = reach
        _ = forEachCandidate { w in
            let gap = max(min(w.x0, w.x1) - x, x - max(w.x0, w.x1), min(w.z0, w.z1) - z, z - max(w.z0, w.z1))
            half = min(half, gap / 2)
            return true
        }
        guard half > 0 else { return nil }
        let box = WallFreeBox(minX: x - half, maxX: x + half, minZ: z - half, maxZ: z + half)
        let apart = forEachCandidate { w in
            max(w.x0, w.x1) < box.minX || min(w.x0, w.x1) > box.maxX || max(w.z0, w.z1) < box.minZ || min(w.z0, w.z1) > box.maxZ
        }
        return apart ? box : nil
    }

    /// The cell number of coordinate v (finite) along an axis of `count` cells from `origin`,
    /// clamped to the grid: monotone in v (each operation is), the same function for walls and
    /// steps, which is all the index's exactness needs.
    ///
    /// ⌊q⌋ clamped to [0, count − 1] is q clamped to [0, count − 1] and then truncated (for q in
    /// [count − 1, count) both give count − 1; below 0 both give 0), so no call to `floor`.
    @inline(__always)
    static func cell(_ v: Double, _ origin: Double, _ perMetre: Double, _ count: Int) -> Int {
        Int(max(0, min(Double(count - 1), (v - origin) * perMetre)))
    }
}

/// A rectangle of one floor that no wall's bounding box meets (`WallIndex.freeBox`): a step
/// whose bounding box lies inside it meets no wall, so `WallIndex.move` and `FloorPlan.move`
/// return its end point without contact.
public struct WallFreeBox: Sendable, Equatable {
    public let minX: Double, maxX: Double, minZ: Double, maxZ: Double

    /// Whether the bounding box of the step (x, z) → (x + dx, z + dz), computed as
    /// `FloorPlan.firstHit` computes it, lies inside: then every wall fails the bounding-box test
    /// of `FloorPlan.crossing`.
    @inline(__always)
    public func contains(x: Double, z: Double, dx: Double, dz: Double) -> Bool {
        min(x, x + dx) >= minX && max(x, x + dx) <= maxX && min(z, z + dz) >= minZ && max(z, z + dz) <= maxZ
    }
}
