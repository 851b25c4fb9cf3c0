import NavStatistics
import Testing

/// Parity with scipy 1.17 / statsmodels on the committed fixtures (scripts/make_statistics_fixtures.py):
/// every value within 1e-12 (absolute, relative above 1).
@Suite struct ReferenceParityTests {
    static let ref = StatisticsReference.shared
    static let tolerance = 1e-12

    @Test func wilcoxonMatchesScipy() throws {
        var worst = 0.0
        for c in Self.ref.wilcoxon {
            let method: WilcoxonSignedRank.Method? = c.method == "exact" ? .exact : c.method == "asymptotic" ? .approximate : nil
            let w = try #require(WilcoxonSignedRank(differences: c.d, method: method, correction: c.correction), "\(c.name)")
            worst = max(worst, abs(w.pValue - c.pvalue))
            #expect(close(w.statistic, c.statistic, Self.tolerance), "\(c.name) \(c.method): statistic \(w.statistic) vs \(c.statistic)")
            #expect(
                close(w.pValue, c.pvalue, Self.tolerance),
                "\(c.name) \(c.method) correction=\(c.correction): p \(w.pValue) vs scipy \(c.pvalue) (\(w.method))")
            if let z = c.z { #expect(close(-abs(w.z), z, Self.tolerance), "\(c.name): z \(w.z) vs \(z)") }
        }
        #expect(Self.ref.wilcoxon.count >= 40)
        print("wilcoxon: \(Self.ref.wilcoxon.count) cases, worst |Δp| = \(worst)")
    }

    @Test func autoChoosesAsScipyDocuments() throws {
        #expect(WilcoxonSignedRank(differences: (1...50).map { Double($0) * 0.37 })?.method == .exact)
        #expect(WilcoxonSignedRank(differences: (1...51).map { Double($0) * 0.37 })?.method == .approximate)
        #expect(WilcoxonSignedRank(differences: [1, 1, 2, -3, 4, 5, 6, 7, 8, 9, 10, 11, 12])?.method == .permutation)
        #expect(WilcoxonSignedRank(differences: [0, 1, 2, -3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])?.method == .approximate)
        #expect(WilcoxonSignedRank(differences: [0, 0]) == nil)
    }

    @Test func holmMatchesStatsmodels() {
        for c in Self.ref.holm {
            let ours = holmAdjusted(c.p)
            for (a, b) in zip(ours, c.adjusted) { #expect(close(a, b, Self.tolerance), "holm \(c.p): \(a) vs \(b)") }
        }
        let withNaN = holmAdjusted([0.01, .nan, 0.02])
        #expect(withNaN[1].isNaN && close(withNaN[0], 0.02, 1e-15) && close(withNaN[2], 0.02, 1e-15))
    }

    @Test func wilsonMatchesStatsmodels() {
        for c in Self.ref.wilson {
            let w = WilsonInterval(successes: c.count, trials: c.nobs, confidence: 1 - c.alpha)
            #expect(close(w.low, c.low, Self.tolerance), "wilson \(c.count)/\(c.nobs) α=\(c.alpha): low \(w.low) vs \(c.low)")
            #expect(close(w.high, c.high, Self.tolerance), "wilson \(c.count)/\(c.nobs) α=\(c.alpha): high \(w.high) vs \(c.high)")
        }
    }

    @Test func normalMatchesScipySpecial() {
        for c in Self.ref.normalQuantile {
            #expect(abs(StandardNormal.quantile(c.p) - c.quantile) <= 1e-14 * max(1, abs(c.quantile)), "ndtri(\(c.p))")
        }
        for c in Self.ref.normalCdf {
            #expect(abs(StandardNormal.cdf(c.z) - c.cdf) <= 1e-15 + 1e-13 * c.cdf, "ndtr(\(c.z))")
            #expect(abs(StandardNormal.sf(c.z) - c.sf) <= 1e-15 + 1e-13 * c.sf, "sf(\(c.z))")
        }
    }

    @Test func exactPermutationMatchesScipy() {
        for c in Self.ref.permutation {
            let t = SignFlipPermutationTest(differences: c.d, seed: 1)
            #expect(t.method == .exact)
            #expect(close(t.pValue, c.pvalue, Self.tolerance), "n=\(c.d.count): \(t.pValue) vs scipy \(c.pvalue)")
        }
    }

    /// Student's t against scipy.stats.t: quantiles within 1e-10 relative (bisection to 1e-15 of x;
    /// the incomplete-beta fraction is good to ≈ 1e-14), cdf within 1e-15 + 1e-12 relative.
    @Test func studentTMatchesScipy() {
        var checked = 0
        for c in Self.ref.studentT {
            let t = StudentT(degreesOfFreedom: c.df)
            if let p = c.p, let q = c.quantile {
                #expect(abs(t.quantile(p) - q) <= 1e-10 * max(1, abs(q)), "t.ppf(\(p), \(c.df)): \(t.quantile(p)) vs scipy \(q)")
                checked += 1
            }
            if let x = c.x, let f = c.cdf {
                #expect(abs(t.cdf(x) - f) <= 1e-15 + 1e-12 * f, "t.cdf(\(x), \(c.df)): \(t.cdf(x)) vs scipy \(f)")
                checked += 1
            }
        }
        #expect(checked == 144)
    }
}
