import Foundation
import NavCore

/// Row accessors by parameter column.
struct RowView {
    let seedColumn: Int?
    init(_ t: MetricsTable) { seedColumn = t.parameterColumns.firstIndex(of: "seed") }
    /// The configuration without the seed token (the seed is a replicate).
    func configuration(_ r: MetricRow) -> String {
        guard let i = seedColumn else { return r.configuration }
        let seedToken = "seed=" + r.parameters[i]
        let kept = r.configuration.split(separator: " ").filter { $0 != seedToken }.joined(separator: " ")
        return kept.isEmpty ? "default" : kept
    }
    func unit(_ r: MetricRow) -> String { r.route + "\u{1}" + r.session + "\u{1}" + (seedColumn.map { r.parameters[$0] } ?? "") }
}

/// A metrics table's values indexed for the statistics: routes, configurations (without the
/// seed) and metrics numbered in first-appearance order, each metric's unit, and the values in a
/// `ValueGrid`. Tables by position, not name: a route may itself be called "all" (names come
/// from files); table `routes.count` is the pooled one.
struct StatisticsValues: Sendable {
    private(set) var grid = ValueGrid()
    private(set) var routes: [String] = [], configurations: [String] = [], metrics: [String] = []
    private(set) var units: [String: String] = [:]
    private var configurationIndex: [String: Int] = [:], metricIndex: [String: Int] = [:]
    /// The route tables, then the pooled one.
    var tables: [String] { routes + [allRoutesLabel] }

    /// One pass over the rows (after a pre-pass counting each route's units, so each column is
    /// allocated once at its final size: no doubling slack, issue 16's memory per run).
    ///
    /// Complexity: O(R) for R rows.
    init(_ table: MetricsTable, view: RowView) {
        // Values by (table, metric, configuration) in dense columns over the table's units
        // (first-appearance order): 9 bytes a value and table, not a dictionary entry. A unit
        // (route, session, seed) belongs to one route table and to the pooled table.
        do {
            var seen = Set<String>(), perRoute: [String: Int] = [:]
            var last = ("", "", "")
            for r in table.rows where (r.route, r.session, r.configuration) != last {
                last = (r.route, r.session, r.configuration)
                if seen.insert(view.unit(r)).inserted { perRoute[r.route, default: 0] += 1 }
            }
            grid.expectedUnits = perRoute
        }
        var unitNumber: [String: Int] = [:], routeIndex: [String: Int] = [:]
        var lastConfiguration = ("", "")  // (label, without seed) of the previous row: rows of one run share it
        var lastUnit = ("", -1)
        for r in table.rows {
            let ri: Int
            if let i = routeIndex[r.route] { ri = i } else { ri = routes.count; routeIndex[r.route] = ri; routes.append(r.route) }
            let c: String
            if r.configuration == lastConfiguration.0 {
                c = lastConfiguration.1
            } else {
                c = view.configuration(r); lastConfiguration = (r.configuration, c)
            }
            let ci: Int
            if let i = configurationIndex[c] {
                ci = i
            } else {
                ci = configurations.count; configurationIndex[c] = ci; configurations.append(c)
            }
            let mi: Int
            if let i = metricIndex[r.metric] {
                mi = i
            } else {
                mi = metrics.count; metricIndex[r.metric] = mi; metrics.append(r.metric); units[r.metric] = r.unit
            }
            let unitName = view.unit(r)
            let u: Int
            if unitName == lastUnit.0 {
                u = lastUnit.1
            } else {
                if let n = unitNumber[unitName] { u = n } else { u = unitNumber.count; unitNumber[unitName] = u; grid.addUnit(route: ri) }
                lastUnit = (unitName, u)
            }
            grid.set(route: ri, metric: mi, configuration: ci, unit: u, value: r.value, routeName: r.route)
        }
    }

    /// Table `ti`'s column of metric `m` and configuration `c`; nil when it has none.
    func column(_ ti: Int, _ m: String, _ c: String) -> ValueGrid.Column? {
        guard let mi = metricIndex[m], let ci = configurationIndex[c] else { return nil }
        return grid.column(table: ti, metric: mi, configuration: ci)
    }

    /// Paired differences a − b on the units both have finite values for.
    func differences(_ ti: Int, _ m: String, _ a: String, _ b: String) -> [Double] {
        guard let va = column(ti, m, a), let vb = column(ti, m, b) else { return [] }
        return va.pairedDifferences(vb)
    }

    /// Table `ti`'s configurations grouped by identical values on every metric (first-appearance
    /// order; a group's members, its representative first), the group holding `baseline` first.
    ///
    /// Complexity: O(C·G·M·n) for C configurations, G groups, M metrics, n units.
    func groups(of ti: Int, baseline: String) -> [[String]] {
        func identicalValues(_ a: String, _ b: String) -> Bool {
            metrics.allSatisfy { m in (column(ti, m, a) ?? .empty).sameValues(column(ti, m, b) ?? .empty) }
        }
        var gs: [[String]] = []
        for c in configurations where metrics.contains(where: { column(ti, $0, c) != nil }) {
            if let i = gs.firstIndex(where: { identicalValues($0[0], c) }) {
                gs[i].append(c)
            } else {
                gs.append([c])
            }
        }
        if let i = gs.firstIndex(where: { $0.contains(baseline) }), i > 0 { gs.insert(gs.remove(at: i), at: 0) }
        return gs
    }
}

/// Metric values by (table, metric, configuration) as dense columns over each table's units.
/// Table `r` < routes is a route; table `routes` is every route pooled (`allRoutesLabel`), kept
/// once (in the route tables) and assembled when asked for.
struct ValueGrid: Sendable {
    /// A column: a value per unit slot of its table, and whether the slot was filled (a NaN
    /// value is present; a unit the configuration has no run for is absent).
    struct Column: Sendable {
        var values: [Double] = []
        var present: [Bool] = []
        static let empty = Column()
        init(capacity: Int = 0) { values.reserveCapacity(capacity); present.reserveCapacity(capacity) }
        mutating func set(_ slot: Int, _ x: Double) {
            if slot >= values.count {
                values.append(contentsOf: repeatElement(.nan, count: slot + 1 - values.count))
                present.append(contentsOf: repeatElement(false, count: slot + 1 - present.count))
            }
            if !present[slot] { values[slot] = x; present[slot] = true }  // a repeated unit keeps the first value
        }
        /// The present values in unit order.
        var presentValues: [Double] { zip(values, present).compactMap { $1 ? $0 : nil } }
        /// self − other on the units both have finite values for, in unit order.
        func pairedDifferences(_ other: Column) -> [Double] {
            var d: [Double] = []
            for i in 0..<min(values.count, other.values.count) where present[i] && other.present[i] {
                let x = values[i], y = other.values[i]
                if x.isFinite && y.isFinite { d.append(x - y) }
            }
            return d
        }
        /// The same units present, with equal values (NaN equal to NaN).
        func sameValues(_ other: Column) -> Bool {
            for i in 0..<max(values.count, other.values.count) {
                let p = i < present.count && present[i], q = i < other.present.count && other.present[i]
                guard p == q else { return false }
                if p { let x = values[i], y = other.values[i]; guard x == y || (x.isNaN && y.isNaN) else { return false } }
            }
            return true
        }
    }
    /// Every route column's slots in one pair of flat arrays (a column is a block of its route's
    /// unit count): no allocation per column, so a route with few units costs its values, not
    /// two arrays per (metric, configuration) (docs/scaling.md: memory flat in routes).
    private var slotValues: [Double] = [], slotPresent: [Bool] = []
    /// blocks[route][metric][configuration]: (start, size) of the column's block in the flat
    /// arrays, size 0 when the column is absent. The pooled table is assembled on demand.
    private var blocks: [[[Block]]] = []
    private struct Block: Sendable { var start: Int32 = 0, size: Int32 = 0, used: Int32 = 0 }
    /// Per unit: its route table and its slot in it (its slot in the pooled table is its number).
    private var unitRoute: [Int32] = [], unitSlot: [Int32] = []
    private var routeUnits: [Int] = []

    mutating func addUnit(route: Int) {
        while routeUnits.count <= route { routeUnits.append(0) }
        unitRoute.append(Int32(route)); unitSlot.append(Int32(routeUnits[route])); routeUnits[route] += 1
    }

    /// Units per route name, if known in advance: blocks are then allocated at that size.
    var expectedUnits: [String: Int] = [:]

    mutating func set(route: Int, metric: Int, configuration: Int, unit: Int, value: Double, routeName: String = "") {
        while blocks.count <= route { blocks.append([]) }
        while blocks[route].count <= metric { blocks[route].append([]) }
        while blocks[route][metric].count <= configuration { blocks[route][metric].append(Block()) }
        let slot = Int(unitSlot[unit])
        var b = blocks[route][metric][configuration]
        if slot >= Int(b.size) {
            // New block (or a larger one: the old slots are copied, the old block left unused).
            let size = max(slot + 1, expectedUnits[routeName] ?? 0, 2 * Int(b.size))
            let start = slotValues.count
            slotValues.append(contentsOf: repeatElement(.nan, count: size))
            slotPresent.append(contentsOf: repeatElement(false, count: size))
            for i in 0..<Int(b.used) {
                slotValues[start + i] = slotValues[Int(b.start) + i]
                slotPresent[start + i] = slotPresent[Int(b.start) + i]
            }
            b.start = Int32(start); b.size = Int32(size)
        }
        let i = Int(b.start) + slot
        if !slotPresent[i] { slotValues[i] = value; slotPresent[i] = true }  // a repeated unit keeps the first value
        b.used = max(b.used, Int32(slot + 1))
        blocks[route][metric][configuration] = b
    }

    /// The column of a route table (`table` < routes) or of the pooled table (`table` == routes,
    /// assembled in unit order: O(units)).
    func column(table: Int, metric: Int, configuration: Int) -> Column? {
        if table < routeUnits.count { return routeColumn(table, metric, configuration) }
        guard table == routeUnits.count else { return nil }
        let parts = blocks.indices.map { r in routeColumn(r, metric, configuration) }
        guard parts.contains(where: { $0 != nil }) else { return nil }
        var pooled = Column(capacity: unitRoute.count)
        for u in unitRoute.indices {
            guard let part = parts[Int(unitRoute[u])] else { continue }
            let slot = Int(unitSlot[u])
            if slot < part.present.count && part.present[slot] { pooled.set(u, part.values[slot]) }
        }
        return pooled
    }

    /// A route table's column: its block's slots up to the last one set (as if set one by one).
    private func routeColumn(_ route: Int, _ metric: Int, _ configuration: Int) -> Column? {
        guard route < blocks.count, metric < blocks[route].count, configuration < blocks[route][metric].count else { return nil }
        let b = blocks[route][metric][configuration]
        guard b.used > 0 else { return nil }
        let range = Int(b.start)..<(Int(b.start) + Int(b.used))
        var c = Column()
        c.values = Array(slotValues[range])
        c.present = Array(slotPresent[range])
        return c
    }
}
