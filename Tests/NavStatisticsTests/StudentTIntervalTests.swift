import Foundation
import NavStatistics
import Testing

/// The t interval of a mean against closed forms of the t quantile: ν = 1 is the Cauchy
/// distribution, t_p = tan(π(p − ½)); ν = 2 has t_p = (2p − 1)/√(2p(1 − p)).
@Suite struct StudentTIntervalTests {
    static let tolerance = 1e-12  // relative; the quantile's bisection reaches ≈ 1e-13

    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= Self.tolerance * max(1, abs(b)) }

    @Test(arguments: [0.9, 0.95, 0.99])
    func twoValuesUseTheCauchyQuantile(confidence: Double) {
        let x = [1.5, 4.0]
        let p = 1 - (1 - confidence) / 2
        let mean = 2.75, sem = (1.25 * 1.25 * 2).squareRoot() / 2.0.squareRoot()
        let half = tan(Double.pi * (p - 0.5)) * sem
        let t = StudentTInterval(x, confidence: confidence)
        #expect(t.n == 2 && t.mean == mean)
        #expect(close(t.low, mean - half) && close(t.high, mean + half), "\(t) vs ±\(half)")
    }

    @Test(arguments: [0.9, 0.95, 0.99])
    func threeValuesUseTheTwoDegreeQuantile(confidence: Double) {
        let x = [2.0, 3.0, 7.0]  // mean 4, s² = (4 + 1 + 9)/2 = 7
        let p = 1 - (1 - confidence) / 2
        let q = (2 * p - 1) / (2 * p * (1 - p)).squareRoot()
        let half = q * (7.0 / 3).squareRoot()
        let t = StudentTInterval(x, confidence: confidence)
        #expect(close(t.low, 4 - half) && close(t.high, 4 + half), "\(t) vs 4 ± \(half)")
    }

    @Test func degenerateSamples() {
        #expect(StudentTInterval([3]).low.isNaN && StudentTInterval([]).high.isNaN)
        let constant = StudentTInterval([2, 2, 2, 2])
        #expect(constant.low == 2 && constant.high == 2)
    }
}
