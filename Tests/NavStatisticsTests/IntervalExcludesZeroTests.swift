import NavStatistics
import Testing

/// One test behind every "significant" a report prints from an interval: a bound at 0 up to
/// rounding (1e-9 of the width) does not exclude it.
@Suite struct IntervalExcludesZeroTests {
    @Test func boundsOnOneSideExcludeZeroRoundingDoesNot() {
        #expect(intervalExcludesZero(low: 0.01, high: 0.2))
        #expect(intervalExcludesZero(low: -0.3, high: -1.73e-5))
        #expect(!intervalExcludesZero(low: -0.1, high: 0.1))
        #expect(!intervalExcludesZero(low: 0, high: 0.1))
        // The closed loop's case: a mean of fractions k/30 whose exact upper bound is 0.
        #expect(!intervalExcludesZero(low: -0.0426, high: -8.67e-19))
        #expect(!intervalExcludesZero(low: .nan, high: 1) && !intervalExcludesZero(low: -1, high: .infinity))
        #expect(!intervalExcludesZero(low: 0.2, high: 0.1))  // not an interval
    }
}
