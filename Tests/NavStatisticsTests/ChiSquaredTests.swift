import Foundation
import NavStatistics
import Testing

@Suite struct ChiSquaredTests {
    static let ref = StatisticsReference.shared

    /// cdf and sf equal scipy.stats.chi2 (1.17), the quantile mpmath's at 40 digits (checked
    /// against scipy's within 1e-12 by the generator), on 10 degrees of freedom from 1 to 20,000,
    /// tails to 1e-10: relative 1e-10 (the quantile's by bisection, the tails directly).
    @Test func matchesScipy() throws {
        #expect(Self.ref.chiSquared.count >= 100)
        for c in Self.ref.chiSquared {
            let d = ChiSquared(degreesOfFreedom: c.df)
            if let p = c.p, let q = c.quantile {
                #expect(abs(d.quantile(p) - q) <= 1e-10 * q, "df \(c.df) p \(p): \(d.quantile(p)) vs \(q)")
            }
            if let x = c.x, let cdf = c.cdf, let sf = c.sf {
                #expect(abs(d.cdf(x) - cdf) <= 1e-10 * max(cdf, 1e-300), "df \(c.df) x \(x): cdf \(d.cdf(x)) vs \(cdf)")
                #expect(abs(d.sf(x) - sf) <= 1e-10 * max(sf, 1e-300), "df \(c.df) x \(x): sf \(d.sf(x)) vs \(sf)")
            }
        }
    }

    /// Closed forms: with 2 degrees of freedom the cdf is 1 − e^{−x/2} and the quantile
    /// −2·ln(1 − p); the interval of a standard deviation brackets s and widens as ν falls.
    @Test func closedForms() {
        let d = ChiSquared(degreesOfFreedom: 2)
        for x in [0.01, 0.7, 3.0, 12.5] { #expect(abs(d.cdf(x) - (1 - exp(-x / 2))) <= 1e-14) }
        for p in [0.05, 0.5, 0.975] { #expect(abs(d.quantile(p) - (-2 * log(1 - p))) <= 1e-13 * (-2 * log(1 - p))) }
        let wide = ChiSquared.standardDeviationInterval(2, degreesOfFreedom: 5)
        let narrow = ChiSquared.standardDeviationInterval(2, degreesOfFreedom: 500)
        #expect(wide.low < narrow.low && narrow.low < 2 && 2 < narrow.high && narrow.high < wide.high)
        #expect(ChiSquared.standardDeviationInterval(2, degreesOfFreedom: 0).low.isNaN)
        #expect(d.quantile(0) == 0 && d.quantile(1) == .infinity && d.quantile(1.5).isNaN)
    }
}
