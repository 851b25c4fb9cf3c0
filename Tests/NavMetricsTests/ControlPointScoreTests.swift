import NavMetrics
import Testing

// The Hilti control-point score on hand-computed cases (the table's edges are strict).
@Suite struct ControlPointScoreTests {
    @Test func pointsPerThresholdAndPercent() throws {
        let t = ThresholdScoreTable.hilti2022
        #expect(
            [0, 0.0099, 0.01, 0.029, 0.03, 0.059, 0.06, 0.099, 0.10, 0.399, 0.40, 5].map(t.points(for:))
                == [10, 10, 6, 6, 5, 5, 3, 3, 1, 1, 0, 0])
        let s = try controlPointScore(errors: [0.005, 0.02, 0.5, 0.07])  // 10 + 6 + 0 + 3 = 19 of 40
        #expect(s.points == [10, 6, 0, 3])
        #expect(s.percent == 47.5)
        #expect(throws: MetricError.noErrors) { try controlPointScore(errors: []) }
        #expect(throws: MetricError.self) { try controlPointScore(errors: [.nan]) }
    }
}
