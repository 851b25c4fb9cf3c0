import Foundation
import NavCore
import NavMetrics
import Testing

/// Statistics and quantiles against numpy (fixture quantiles.json): every continuous
/// method, Hazen (IPIN's) included; median and population std as numpy's.
@Suite struct ErrorStatisticsTests {
    struct Fixture: Decodable {
        struct Case: Decodable { var values: [Double]; var quantiles: [String: [Double]]; var median, mean, std: Double }
        struct IPIN: Decodable { var horizontal: [Double]; var floorError: [Int]; var score, ce50Hazen, ce95Hazen: Double }
        var q: [Double]
        var cases: [Case]
        var ipin: IPIN
    }
    static let numpy = try! loadFixture("quantiles.json", as: Fixture.self)

    @Test func quantilesMatchNumpy() throws {
        for c in Self.numpy.cases {
            for (name, expected) in c.quantiles {
                let method = try #require(QuantileMethod(rawValue: name), "\(name)")
                for (q, e) in zip(Self.numpy.q, expected) {
                    let v = quantile(c.values, q, method: method)
                    #expect(abs(v - e) <= 1e-12 * max(1, abs(e)), "\(name) q=\(q) n=\(c.values.count): \(v) vs \(e)")
                }
            }
        }
    }

    @Test func medianMeanStdMatchNumpy() throws {
        for c in Self.numpy.cases {
            let s = try ErrorStatistics(c.values)
            #expect(abs(s.median - c.median) <= 1e-12 * max(1, abs(c.median)))
            #expect(abs(s.mean - c.mean) <= 1e-12 * max(1, abs(c.mean)))
            #expect(abs(s.std - c.std) <= 1e-12 * max(1, abs(c.std)))
        }
    }

    @Test func closedForm() throws {
        let s = try ErrorStatistics([1, 2, 3, 4])
        #expect(s.mean == 2.5)
        #expect(s.median == 2.5)
        #expect(s.sse == 30)
        #expect(abs(s.rmse - (7.5).squareRoot()) < 1e-15)
        #expect(abs(s.std - (1.25).squareRoot()) < 1e-15)  // population: ddof 0
        #expect(s.min == 1 && s.max == 4 && s.count == 4)
        // Hazen: position p_k = (k − ½)/n; the 75th percentile of 1…4 is at k = 3.5.
        #expect(quantile([1, 2, 3, 4], 0.75, method: .hazen) == 3.5)
        #expect(quantile([1, 2, 3, 4], 0.75, method: .linear) == 3.25)
        #expect(throws: MetricError.noErrors) { try ErrorStatistics([]) }
        #expect(throws: MetricError.nonFinite(index: 1, value: .infinity)) { try ErrorStatistics([1, .infinity]) }
    }
}
