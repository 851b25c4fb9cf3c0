import NavCore

/// First-order and total Sobol' sensitivity indices from a Saltelli design (Saltelli et al.
/// 2010, "Variance based sensitivity analysis of model output"), as SALib's
/// `sobol.analyze(problem, Y, calc_second_order=False)`:
///
/// - the outputs come in blocks of D + 2 model runs per base sample i = 1…N: f(Aᵢ), f(A_B⁽¹⁾ᵢ),
///   …, f(A_B⁽ᴰ⁾ᵢ), f(Bᵢ), where A_B⁽ʲ⁾ is A with column j taken from B;
/// - Y is standardised first, Y ← (Y − Ȳ) / sd(Y) (population sd, as SALib);
/// - with V = var([f(A), f(B)]) (population variance of the 2N values),
///   S₁ⱼ = mean(f(B)·(f(A_B⁽ʲ⁾) − f(A))) / V  (Saltelli 2010, eq. (b) of table 2),
///   S_Tⱼ = ½·mean((f(A) − f(A_B⁽ʲ⁾))²) / V  (Jansen 1999).
///
/// Confidence: SALib's method, z₁₋α/₂ × the standard deviation (n − 1) of the index over
/// `resamples` bootstrap resamples of the N base samples, drawn here from a `SeededRandom`
/// stream (SALib draws from numpy's, so intervals agree in method, not in digits). Checked
/// against SALib 1.6.0 on the Ishigami and Sobol G functions in NavStatisticsTests.
public struct SobolIndices: Sendable, Equatable {
    public var firstOrder: [Double]
    public var total: [Double]
    /// Half-widths of the confidence intervals (z × bootstrap sd); empty without resamples.
    public var firstOrderConfidence: [Double]
    public var totalConfidence: [Double]

    /// nil when `outputs.count` is not a multiple of `parameters` + 2, or there are no parameters.
    /// Outputs without spread give indices 0 (as SALib, which warns).
    ///
    /// Complexity: O(N·D·(1 + resamples)).
    public init?(outputs: [Double], parameters d: Int, resamples: Int = 0, confidence: Double = 0.95, seed: UInt64 = 0) {
        let step = d + 2
        guard d > 0, !outputs.isEmpty, outputs.count % step == 0 else { return nil }
        let n = outputs.count / step
        let mean = outputs.reduce(0, +) / Double(outputs.count)
        let sd = (outputs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(outputs.count)).squareRoot()
        let y = sd > 0 ? outputs.map { ($0 - mean) / sd } : outputs.map { _ in 0.0 }
        let a = (0..<n).map { y[$0 * step] }, b = (0..<n).map { y[$0 * step + step - 1] }
        let ab = (0..<d).map { j in (0..<n).map { y[$0 * step + 1 + j] } }
        /// (S₁, S_T) of column j over the base samples `rows`.
        func indices(_ j: Int, _ rows: [Int]) -> (Double, Double) {
            var sum = 0.0, first = 0.0, totalSum = 0.0
            for i in rows {
                sum += a[i] + b[i]
                first += b[i] * (ab[j][i] - a[i])
                totalSum += (a[i] - ab[j][i]) * (a[i] - ab[j][i])
            }
            let m = Double(2 * rows.count), mu = sum / m
            var squares = 0.0
            for i in rows { squares += (a[i] - mu) * (a[i] - mu) + (b[i] - mu) * (b[i] - mu) }
            let variance = squares / m
            guard variance > 0 else { return (0, 0) }
            return (first / Double(rows.count) / variance, 0.5 * totalSum / Double(rows.count) / variance)
        }
        let all = Array(0..<n)
        let point = (0..<d).map { indices($0, all) }
        firstOrder = point.map(\.0)
        total = point.map(\.1)
        firstOrderConfidence = []
        totalConfidence = []
        guard resamples > 1 else { return }
        var rng = SeededRandom(seed: seed, label: "sobol-indices")
        // Lemire's multiply-shift: an index in 0..<n (bias ≤ n/2⁶⁴), as BootstrapInterval.
        let samples = (0..<resamples).map { _ in (0..<n).map { _ in Int(UInt64(n).multipliedFullWidth(by: rng.next()).high) } }
        let z = StandardNormal.quantile(0.5 + confidence / 2)
        for j in 0..<d {
            let values = samples.map { indices(j, $0) }
            firstOrderConfidence.append(z * Statistics.standardDeviation(values.map(\.0)))
            totalConfidence.append(z * Statistics.standardDeviation(values.map(\.1)))
        }
    }
}
