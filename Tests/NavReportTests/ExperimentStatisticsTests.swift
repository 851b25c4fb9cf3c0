import Foundation
import NavCore
import NavReport
import Testing

/// The statistical view of a metrics table: collapsed identical configurations, the best row only
/// when significant, main effects over units (not configurations), NaN counted, seeds as replicates.
@Suite struct ExperimentStatisticsTests {
    /// 6 sessions × a ∈ {x, y} × b ∈ {p, q}: a = y adds 1 m to every run, b changes nothing.
    static func table(nanSession: Int? = nil) -> MetricsTable {
        var rows: [MetricRow] = []
        for a in ["x", "y"] {
            for b in ["p", "q"] {
                for s in 0..<6 {
                    var v = 2 + 0.3 * Double(s) + (a == "y" ? 1 + 0.01 * Double(s) : 0)
                    if s == nanSession && a == "x" && b == "p" { v = .nan }
                    rows.append(
                        MetricRow(
                            route: "R1", session: "nav\(s)", configuration: "a=\(a) b=\(b)", parameters: [a, b],
                            metric: "end_of_route_error", value: v, unit: "m"))
                }
            }
        }
        return MetricsTable(parameterColumns: ["a", "b"], rows: rows)
    }

    static var options: StatisticsOptions { var o = StatisticsOptions(); o.resamples = 2000; return o }

    @Test func identicalConfigurationsCollapseAndTheBestIsSignificant() throws {
        let st = ExperimentStatistics(table: Self.table(), keyMetrics: ["end_of_route_error"], options: Self.options)
        let groups = try #require(st.groups[allRoutesLabel])
        #expect(groups.map(\.members) == [["a=x b=p", "a=x b=q"], ["a=y b=p", "a=y b=q"]])
        // Wilcoxon exact over 6 units all in one direction: p = 2/2⁶ = 0.03125 < 0.05 → bold.
        #expect(st.best[allRoutesLabel]?["end_of_route_error"] == "a=x b=p")
        let c = try #require(st.comparisons.first { $0.route == allRoutesLabel })
        #expect(c.n == 6 && c.test == "wilcoxon-exact" && abs(c.pValue - 0.03125) < 1e-15 && c.significant)
        #expect(c.identical == ["a=y b=q"])
        let md = st.tableMarkdown(allRoutesLabel)
        #expect(md.contains("| a=x b=p; a=x b=q | 6 | **"))
    }

    /// The report streams cells.csv through `cellSink` and keeps the key metrics' cells only:
    /// the streamed lines are the whole `cellsCSV`, in order, and the summary's tables are unchanged.
    @Test func streamedCellsAreTheWholeCellsCSV() throws {
        var rows = Array(Self.table().rows)
        for r in Self.table().rows {  // a second route and a metric that is not a key metric
            var o = r; o.route = "R2"; rows.append(o)
            var extra = r; extra.metric = "corrections"; extra.unit = "count"; extra.value = r.value.rounded(); rows.append(extra)
        }
        let table = MetricsTable(parameterColumns: ["a", "b"], rows: rows)
        let whole = ExperimentStatistics(table: table, keyMetrics: ["end_of_route_error"], options: Self.options)
        var lines = ""
        let streamed = ExperimentStatistics(
            table: table, keyMetrics: ["end_of_route_error"], options: Self.options,
            cellSink: { lines += ExperimentStatistics.csvLine($0) })
        #expect(ExperimentStatistics.cellsHeader + lines == whole.cellsCSV)
        #expect(whole.cells.contains { $0.metric == "corrections" })
        #expect(streamed.cells == whole.cells.filter { $0.metric == "end_of_route_error" })
        for t in ["R1", "R2", allRoutesLabel] { #expect(streamed.tableMarkdown(t) == whole.tableMarkdown(t)) }
        #expect(streamed.comparisonsCSV == whole.comparisonsCSV)
    }

    /// With `routeSink` each route's table is handed over as it is done and left out of the
    /// statistics (memory flat in routes): the routes' sections and comparison lines are those of
    /// the whole computation, in order, and the pooled table and main effects are unchanged.
    @Test func routeTablesHandedOverAreTheWholeOnes() throws {
        var rows = Array(Self.table().rows)
        for r in Self.table().rows { var o = r; o.route = "R2"; o.value += 0.5; rows.append(o) }
        let table = MetricsTable(parameterColumns: ["a", "b"], rows: rows)
        let whole = ExperimentStatistics(table: table, keyMetrics: ["end_of_route_error"], options: Self.options)
        var parts: [ExperimentStatistics] = []
        var streamed = ExperimentStatistics(
            table: table, keyMetrics: ["end_of_route_error"], options: Self.options, routeSink: { parts.append($0) })
        #expect(parts.map(\.routes) == [["R1"], ["R2"]])
        for part in parts {
            let route = part.routes[0]
            #expect(
                part.routeSectionMarkdown(route, plots: [ReportFigure(path: "p.svg", alt: "p 1")])
                    == whole.routeSectionMarkdown(route, plots: [ReportFigure(path: "p.svg", alt: "p 1")]))
            #expect(part.comparisons == whole.comparisons.filter { $0.route == route })
            #expect(part.comparisons.count == 1)  // two groups of identical configurations: one comparison
        }
        #expect(streamed.routes == ["R1", "R2"])
        #expect(streamed.comparisons == whole.comparisons.filter { $0.route == allRoutesLabel })
        #expect(streamed.cells.allSatisfy { $0.route == allRoutesLabel } && !streamed.cells.isEmpty)
        #expect(streamed.tableMarkdown(allRoutesLabel) == whole.tableMarkdown(allRoutesLabel))
        #expect(streamed.mainEffects == whole.mainEffects)
        streamed.comparisons = parts.flatMap(\.comparisons) + streamed.comparisons
        #expect(streamed.comparisonsCSV == whole.comparisonsCSV)
    }

    /// Route tables are computed a window at a time, one per worker: with more routes than a
    /// window, each route's cells and comparisons are those of the route computed on its own
    /// (a table's results depend on its values and labelled seeds only), in route order.
    @Test func routeTablesInWindowsAreEachRouteOnItsOwn() throws {
        let routes = (1...(4 * ProcessInfo.processInfo.activeProcessorCount + 3)).map { "R\($0)" }
        var rows: [MetricRow] = []
        for (k, route) in routes.enumerated() {
            for r in Self.table().rows { var o = r; o.route = route; o.value += 0.1 * Double(k * k % 7); rows.append(o) }
        }
        let table = MetricsTable(parameterColumns: ["a", "b"], rows: rows)
        var parts: [ExperimentStatistics] = []
        _ = ExperimentStatistics(table: table, keyMetrics: ["end_of_route_error"], options: Self.options, routeSink: { parts.append($0) })
        #expect(parts.map(\.routes) == routes.map { [$0] })
        for (route, part) in zip(routes, parts) {
            let alone = ExperimentStatistics(
                table: MetricsTable(parameterColumns: ["a", "b"], rows: rows.filter { $0.route == route }), keyMetrics: ["end_of_route_error"],
                options: Self.options)
            #expect(part.cells == alone.cells.filter { $0.route == route }, "\(route)")
            #expect(part.comparisons == alone.comparisons.filter { $0.route == route }, "\(route)")
            #expect(part.best[route] == alone.best[route], "\(route)")
        }
    }

    /// Route names come from files: a route called "all" (the pooled table's label) is a table of
    /// its own, not a trap on a duplicate key.
    @Test func aRouteNamedAllIsATableOfItsOwn() {
        let rows = Self.table().rows.map { r -> MetricRow in
            var o = r; o.route = allRoutesLabel; return o
        }
        var routeTables: [String] = []
        let st = ExperimentStatistics(
            table: MetricsTable(parameterColumns: ["a", "b"], rows: rows), keyMetrics: ["end_of_route_error"], options: Self.options,
            routeSink: { routeTables += $0.routes })
        #expect(routeTables == [allRoutesLabel])
        #expect(st.cells.count == 4)
    }

    @Test func noBestWithoutSignificance() {
        // 3 sessions: the smallest exact two-sided Wilcoxon p is 2/8 = 0.25.
        let t = Self.table()
        let few = MetricsTable(parameterColumns: t.parameterColumns, rows: t.rows.filter { ["nav0", "nav1", "nav2"].contains($0.session) })
        let st = ExperimentStatistics(table: few, keyMetrics: ["end_of_route_error"], options: Self.options)
        #expect(st.best[allRoutesLabel]?["end_of_route_error"] == nil)
        #expect(st.tableMarkdown(allRoutesLabel).contains("end_of_route_error: no significant difference"))
    }

    @Test func mainEffectsCountUnitsNotConfigurations() throws {
        let st = ExperimentStatistics(table: Self.table(), keyMetrics: ["end_of_route_error"], options: Self.options)
        let a = try #require(st.mainEffects.first { $0.dimension == "a" })
        let b = try #require(st.mainEffects.first { $0.dimension == "b" })
        // 6 sessions are 6 units, whatever the number of levels of b they are averaged over.
        #expect(a.n == 6 && b.n == 6)
        #expect(abs(a.meanDifference - 1.025) < 1e-12 && a.ciLow > 1 && a.ciHigh < 1.05)
        #expect(b.meanDifference == 0 && b.ciLow == 0 && b.ciHigh == 0)
    }

    @Test func nanValuesAreCountedNotHidden() throws {
        let st = ExperimentStatistics(table: Self.table(nanSession: 2), keyMetrics: ["end_of_route_error"], options: Self.options)
        let cell = try #require(st.cells.first { $0.route == allRoutesLabel && $0.configuration == "a=x b=p" })
        #expect(cell.n == 5 && cell.nanCount == 1)
        #expect(st.cellsCSV.contains("all,a=x b=p,end_of_route_error,m,5,1,"))
        // A NaN makes a=x b=p and a=x b=q differ: no longer collapsed.
        #expect(st.groups[allRoutesLabel]?.count == 3)
        #expect(st.tableMarkdown(allRoutesLabel).contains("(n=5, 1 NaN left out)"))
    }

    @Test func seedsAreReplicatesNotConfigurations() throws {
        var rows: [MetricRow] = []
        for seed in 1...4 {
            for s in 0..<3 {
                rows.append(
                    MetricRow(
                        route: "R1", session: "nav\(s)", configuration: "seed=\(seed)", parameters: ["\(seed)"],
                        metric: "end_of_route_error", value: Double(seed * 10 + s), unit: "m"))
            }
        }
        let st = ExperimentStatistics(
            table: MetricsTable(parameterColumns: ["seed"], rows: rows), keyMetrics: ["end_of_route_error"], options: Self.options)
        let cell = try #require(st.cells.first { $0.route == allRoutesLabel })
        #expect(st.groups[allRoutesLabel]?.map(\.members) == [["default"]])
        #expect(cell.configuration == "default" && cell.n == 12)
    }
}
