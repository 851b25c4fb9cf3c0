import NavCore
import NavMetrics
import Testing

/// IPIN score (+15 m per floor, Hazen 75th percentile) and CE50/CE95 against numpy.
@Suite struct PositioningScoreTests {
    @Test func ipinScoreMatchesNumpyHazen() throws {
        let f = ErrorStatisticsTests.numpy.ipin
        let score = try ipinScore(horizontalErrors: f.horizontal, floorErrors: f.floorError)
        #expect(abs(score - f.score) <= 1e-12 * max(1, f.score))
        #expect(abs(try circularError(f.horizontal, percentile: 50) - f.ce50Hazen) <= 1e-12)
        #expect(abs(try circularError(f.horizontal, percentile: 95) - f.ce95Hazen) <= 1e-12)
    }

    @Test func floorPenaltyAndHorizontalErrors() throws {
        // One point 2 m off on the right floor, three 1 m off one floor wrong: errors 2, 16, 16, 16.
        let score = try ipinScore(horizontalErrors: [2, 1, 1, 1], floorErrors: [0, 1, -1, 1])
        #expect(score == 16)
        let h = try horizontalErrors(reference: [Vector3(0, 0, 0)], estimate: [Vector3(3, 10, 4)])
        #expect(h == [5])  // the height (y) does not count
        #expect(throws: MetricError.countMismatch(reference: 1, estimate: 2)) { try ipinScore(horizontalErrors: [1], floorErrors: [0, 0]) }
        #expect(throws: MetricError.noErrors) { try circularError([], percentile: 95) }
    }
}
