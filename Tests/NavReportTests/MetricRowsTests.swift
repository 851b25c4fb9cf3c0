import NavCore
import Testing

@testable import NavReport

/// `MetricRows` read back: iterated (each run's context walked to) and by subscript (searched),
/// both equal to the rows appended.
@Suite struct MetricRowsTests {
    @Test func iterationAndSubscriptGiveTheRowsAppended() {
        var g = SeededRandom(seed: 53, label: "metric rows")
        for runs in [0, 1, 2, 7, 300] {
            var appended: [MetricRow] = []
            for r in 0..<runs {
                // Runs of 1 to 4 rows; some consecutive runs differ only in their parameters.
                let parameters = ["\(r / 2)", r % 2 == 0 ? "a" : "b"]
                for m in 0..<Int(1 + g.next() % 4) {
                    appended.append(
                        MetricRow(
                            route: "R\(r / 3)", session: "s", configuration: "c\(r % 5)", parameters: parameters, metric: "m\(m)",
                            value: g.uniform(), unit: m == 3 ? "s" : "m"))
                }
            }
            var rows = MetricRows()
            rows.append(contentsOf: appended)
            #expect(rows.count == appended.count)
            #expect(Array(rows) == appended, "\(runs) runs, iterated")
            #expect(rows.indices.map { rows[$0] } == appended, "\(runs) runs, by subscript")
            // The runs: each row's labels where they change from the row before.
            var changes: [[String]] = []
            for r in appended where changes.last != [r.route, r.session, r.configuration] + r.parameters {
                changes.append([r.route, r.session, r.configuration] + r.parameters)
            }
            #expect(rows.runs.map { [$0.route, $0.session, $0.configuration] + $0.parameters } == changes)
        }
    }
}
