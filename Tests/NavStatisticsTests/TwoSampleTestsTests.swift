import NavStatistics
import Testing

/// Fisher's exact, McNemar's exact and Welch's t test against scipy 1.17 / statsmodels 0.15
/// (scripts/make_statistics_fixtures.py), p-values within 1e-10 relative (1e-12 absolute below 1e-2
/// is not asked: the smallest p in the fixtures, 3e-8, is checked relatively).
@Suite struct TwoSampleTestsTests {
    static let ref = StatisticsReference.shared
    static let tolerance = 1e-10

    static func relClose(_ a: Double, _ b: Double) -> Bool { a == b || abs(a - b) <= tolerance * max(abs(b), 1e-300) }

    @Test func fisherOneSidedMatchesScipy() throws {
        #expect(Self.ref.fisher.count >= 30)
        for c in Self.ref.fisher {
            let t = c.table
            let less = try #require(fisherExactOneSided(t[0], t[1], t[2], t[3], firstRowLower: true))
            let greater = try #require(fisherExactOneSided(t[0], t[1], t[2], t[3], firstRowLower: false))
            #expect(Self.relClose(less, c.less), "\(t) less: \(less) vs scipy \(c.less)")
            #expect(Self.relClose(greater, c.greater), "\(t) greater: \(greater) vs scipy \(c.greater)")
        }
        #expect(fisherExactOneSided(-1, 2, 3, 4, firstRowLower: true) == nil)
    }

    @Test func mcnemarExactMatchesStatsmodels() throws {
        #expect(Self.ref.mcnemar.count >= 10)
        for c in Self.ref.mcnemar {
            let m = try #require(McNemarExact(firstOnly: c.firstOnly, secondOnly: c.secondOnly))
            #expect(Self.relClose(m.pValue, c.pvalue), "b=\(c.firstOnly) c=\(c.secondOnly): \(m.pValue) vs statsmodels \(c.pvalue)")
        }
        // Closed form: 5 discordant pairs all one way, p = 2 · 2⁻⁵.
        #expect(McNemarExact(firstOnly: 5, secondOnly: 0)?.pValue == 0.0625)
        #expect(McNemarExact(firstOnly: -1, secondOnly: 0) == nil)
    }

    @Test func welchFromSummaryStatisticsMatchesScipy() throws {
        #expect(Self.ref.welch.count >= 20)
        for c in Self.ref.welch {
            let w = try #require(WelchTTest(mean1: c.mean1, sd1: c.sd1, n1: c.n1, mean2: c.mean2, sd2: c.sd2, n2: c.n2))
            #expect(abs(w.t - c.t) <= 1e-12 * max(1, abs(c.t)), "t \(w.t) vs \(c.t)")
            #expect(Self.relClose(w.pGreater, c.greater), "greater \(w.pGreater) vs scipy \(c.greater)")
            #expect(Self.relClose(w.pLess, c.less), "less \(w.pLess) vs scipy \(c.less)")
        }
        // No spread: equal means are no test, different means are certain.
        #expect(WelchTTest(mean1: 1, sd1: 0, n1: 5, mean2: 1, sd2: 0, n2: 5) == nil)
        #expect(WelchTTest(mean1: 2, sd1: 0, n1: 5, mean2: 1, sd2: 0, n2: 5)?.pGreater == 0)
        #expect(WelchTTest(mean1: 2, sd1: 1, n1: 1, mean2: 1, sd2: 1, n2: 5) == nil)
    }
}
