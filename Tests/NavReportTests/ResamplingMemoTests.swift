import NavCore
import NavReport
import Testing

/// The report's resampling memo: statistics computed through a memo, empty or full, are the bytes
/// computed without one; a full memo answers every resampling and nothing is drawn again; a changed
/// value misses only its own results; a stored result of the wrong shape is computed again.
@Suite struct ResamplingMemoTests {
    static let metrics = ["end_of_route_error"]

    /// Two routes, 8 units, four configurations, a key metric and another metric.
    static func table(shift: Double = 0) -> MetricsTable {
        var rows: [MetricRow] = []
        for route in ["R1", "R2"] {
            for (a, extra) in [("x", 0.0), ("y", 0.4)] {
                for b in ["p", "q"] {
                    for s in 0..<8 {
                        let v = 2 + 0.37 * Double((s * 5) % 8) + extra + (b == "q" ? 0.01 * Double(s) : 0) + (s == 0 ? shift : 0)
                        for (metric, value, unit) in [("end_of_route_error", v, "m"), ("instructions", Double(s % 3), "count")] {
                            rows.append(
                                MetricRow(
                                    route: route, session: "nav\(s)", configuration: "a=\(a) b=\(b)", parameters: [a, b], metric: metric,
                                    value: value, unit: unit))
                        }
                    }
                }
            }
        }
        return MetricsTable(parameterColumns: ["a", "b"], rows: rows)
    }

    static var options: StatisticsOptions { var o = StatisticsOptions(); o.resamples = 1_000; return o }

    /// What a report prints of the statistics.
    static func printed(_ s: ExperimentStatistics) -> [String] {
        [s.cellsCSV, s.comparisonsCSV, "\(s.mainEffects)"] + ["R1", "R2", allRoutesLabel].map { s.tableMarkdown($0) }
    }

    @Test func aMemoChangesNoByteAndAnswersARerun() {
        let table = Self.table()
        let plain = ExperimentStatistics(table: table, keyMetrics: Self.metrics, options: Self.options)
        let memo = InMemoryResamplingMemo()
        let first = ExperimentStatistics(table: table, keyMetrics: Self.metrics, options: Self.options, memo: memo)
        #expect(Self.printed(first) == Self.printed(plain))
        let recorded = memo.count
        // Cells of both metrics in 3 tables × 4 configurations, comparisons and main effects.
        #expect(recorded >= 2 * 3 * 4)
        #expect(memo.hits == 0)
        let asked = memo.lookups
        let second = ExperimentStatistics(table: table, keyMetrics: Self.metrics, options: Self.options, memo: memo)
        #expect(Self.printed(second) == Self.printed(plain))
        // Identical samples of one size in one table share a key (statistics revision 3), so a run looks up at least what it records.
        #expect(asked >= recorded && memo.lookups - asked == asked)
        #expect(memo.hits == asked, "every resampling of the rerun answered by the memo")
        #expect(memo.count == recorded)
    }

    @Test func aChangedValueMissesOnlyItsResults() {
        let memo = InMemoryResamplingMemo()
        _ = ExperimentStatistics(table: Self.table(), keyMetrics: Self.metrics, options: Self.options, memo: memo)
        let recorded = memo.count
        let shifted = Self.table(shift: 0.5)
        let plain = ExperimentStatistics(table: shifted, keyMetrics: Self.metrics, options: Self.options)
        let through = ExperimentStatistics(table: shifted, keyMetrics: Self.metrics, options: Self.options, memo: memo)
        #expect(Self.printed(through) == Self.printed(plain))
        // The unchanged metric's cells hit; the shifted unit's cells, comparisons and effects do not.
        #expect(memo.hits > 0 && memo.hits < recorded)
        // Other options (B, seed, confidence) miss too.
        var other = Self.options
        other.seed += 1
        let hitsBefore = memo.hits
        _ = ExperimentStatistics(table: shifted, keyMetrics: Self.metrics, options: other, memo: memo)
        #expect(memo.hits == hitsBefore)
    }

    /// A memo whose every answer has the wrong count of numbers: ignored, the results computed.
    final class WrongShapeMemo: ResamplingMemo, @unchecked Sendable {
        func lookup(_ key: ResamplingKey) -> [Double]? { [1, 2, 3] }
        func record(_ key: ResamplingKey, _ result: [Double]) {}
    }

    @Test func aResultOfTheWrongShapeIsComputedAgain() {
        let table = Self.table()
        let plain = ExperimentStatistics(table: table, keyMetrics: Self.metrics, options: Self.options)
        let through = ExperimentStatistics(table: table, keyMetrics: Self.metrics, options: Self.options, memo: WrongShapeMemo())
        #expect(Self.printed(through) == Self.printed(plain))
    }
}
