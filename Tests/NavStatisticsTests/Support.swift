import Foundation
import NavTestSupport

/// Path of a committed fixture.
func fixture(_ name: String) -> String { bundledFixture(.module, name) }

/// The scipy/statsmodels references written by scripts/make_statistics_fixtures.py.
struct StatisticsReference: Decodable {
    struct Wilcoxon: Decodable {
        var name: String, d: [Double], method: String, correction: Bool
        var statistic: Double, pvalue: Double, z: Double?
    }
    struct Holm: Decodable { var p: [Double], adjusted: [Double] }
    struct Wilson: Decodable { var count: Int, nobs: Int, alpha: Double, low: Double, high: Double }
    struct Permutation: Decodable { var d: [Double], pvalue: Double }
    struct Quantile: Decodable { var p: Double, quantile: Double }
    struct CDF: Decodable { var z: Double, cdf: Double, sf: Double }
    struct StudentT: Decodable { var df: Double, p: Double?, quantile: Double?, x: Double?, cdf: Double? }
    struct ChiSquared: Decodable { var df: Double, p: Double?, quantile: Double?, x: Double?, cdf: Double?, sf: Double? }
    struct Bootstrap: Decodable {
        struct Result: Decodable { var confidence: Double, expanded: Bool, bca: [Double], percentile: [Double] }
        var name: String, x: [Double], means: [Double], results: [Result]
    }
    struct Fisher: Decodable { var table: [Int], less: Double, greater: Double }
    struct McNemar: Decodable { var firstOnly: Int, secondOnly: Int, pvalue: Double }
    struct Welch: Decodable { var mean1: Double, sd1: Double, n1: Int, mean2: Double, sd2: Double, n2: Int, t: Double, greater: Double, less: Double }
    var versions: [String: String]
    var wilcoxon: [Wilcoxon]
    var holm: [Holm]
    var wilson: [Wilson]
    var permutation: [Permutation]
    var normalQuantile: [Quantile]
    var normalCdf: [CDF]
    var studentT: [StudentT]
    var bootstrap: [Bootstrap]
    var fisher: [Fisher]
    var mcnemar: [McNemar]
    var welch: [Welch]
    var chiSquared: [ChiSquared]

    static let shared: StatisticsReference = {
        let data = try! Data(contentsOf: URL(fileURLWithPath: fixture("statistics_reference.json")))
        let dec = JSONDecoder()
        dec.keyDecodingStrategy = .convertFromSnakeCase
        return try! dec.decode(StatisticsReference.self, from: data)
    }()
}

/// |a − b| ≤ tol·max(1, |b|): absolute near zero, relative for large values.
func close(_ a: Double, _ b: Double, _ tol: Double) -> Bool { abs(a - b) <= tol * max(1, abs(b)) }
