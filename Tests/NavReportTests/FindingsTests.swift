import NavCore
import NavReport
import Testing

/// The replay's Findings lines come from the main effects and the Holm-tested best row: a level
/// is named better or worse only when its CI excludes 0, and n counts units.
@Suite struct FindingsTests {
    @Test func aWorseLevelIsNamedAndANeutralOneIsNot() throws {
        let st = ExperimentStatistics(
            table: ExperimentStatisticsTests.table(), keyMetrics: ["end_of_route_error"], options: ExperimentStatisticsTests.options)
        let lines = st.findings
        let a = try #require(lines.first { $0.hasPrefix("Replay, a: ") })
        // Closed form: y adds 1 + 0.01·s m for s = 0…5, a mean of 1.025 m (printed to 3 digits: 1.02, the double below 1.025).
        #expect(a.hasPrefix("Replay, a: y vs x: worse on end_of_route_error (+1.02 m ["), "\(a)")
        #expect(a.hasSuffix("(95 % CIs over n = 6 units)."))
        let b = try #require(lines.first { $0.hasPrefix("Replay, b: ") })
        #expect(b == "Replay, b: q vs p: no difference (95 % CIs over n = 6 units).")
        let best = try #require(lines.last)
        #expect(best == "Replay, best configuration (better than every other on all routes after Holm, n = 6 units): end_of_route_error: a=x b=p.")
    }
}
