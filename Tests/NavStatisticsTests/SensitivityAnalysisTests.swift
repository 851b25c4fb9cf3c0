import Foundation
import NavStatistics
import Testing

/// Sobol' first-order and total indices and Morris' elementary effects against SALib 1.6.0's `sobol.analyze` on the same model
/// outputs (scripts/make_sensitivity_fixtures.py: Ishigami at N = 256 and 2,048, Sobol G at
/// N = 512), within 1e-12; and against the analytic indices within the Monte Carlo error of
/// N = 2,048 (0.03 for Ishigami: SALib's own estimate is that far off too).
@Suite struct SensitivityAnalysisTests {
    struct Reference: Decodable {
        struct Case: Decodable {
            var name: String, parameters: Int, outputs: [Double], S1: [Double], ST: [Double]
            var analytic_S1: [Double], analytic_ST: [Double]
        }
        struct Morris: Decodable {
            var name: String, inputs: [[Double]], outputs: [Double], mu: [Double], mu_star: [Double], sigma: [Double]
        }
        var versions: [String: String]
        var sobol: [Case]
        var morris: [Morris]
    }

    static let reference: Reference = {
        let data = try! Data(contentsOf: URL(fileURLWithPath: fixture("sensitivity_reference.json")))
        return try! JSONDecoder().decode(Reference.self, from: data)
    }()

    @Test func indicesMatchSALib() throws {
        #expect(Self.reference.sobol.count == 3)
        for c in Self.reference.sobol {
            let s = try #require(SobolIndices(outputs: c.outputs, parameters: c.parameters), "\(c.name)")
            for j in 0..<c.parameters {
                #expect(abs(s.firstOrder[j] - c.S1[j]) <= 1e-12, "\(c.name) S1[\(j)]: \(s.firstOrder[j]) vs SALib \(c.S1[j])")
                #expect(abs(s.total[j] - c.ST[j]) <= 1e-12, "\(c.name) ST[\(j)]: \(s.total[j]) vs SALib \(c.ST[j])")
            }
        }
    }

    @Test func largeSampleIsNearTheAnalyticIndices() throws {
        let c = try #require(Self.reference.sobol.first { $0.name == "ishigami N=2048" })
        let s = try #require(SobolIndices(outputs: c.outputs, parameters: 3, resamples: 200, seed: 7))
        for j in 0..<3 {
            #expect(abs(s.firstOrder[j] - c.analytic_S1[j]) < 0.03, "S1[\(j)] \(s.firstOrder[j]) vs \(c.analytic_S1[j])")
            #expect(abs(s.total[j] - c.analytic_ST[j]) < 0.03, "ST[\(j)] \(s.total[j]) vs \(c.analytic_ST[j])")
            // SALib's confidence method: z × bootstrap sd; a few hundredths at N = 2,048.
            #expect(s.firstOrderConfidence[j] > 0 && s.firstOrderConfidence[j] < 0.1)
        }
        // The Sobol G function's x5, x6 (a = 99) hardly matter; x1 (a = 0) most.
        let g = try #require(Self.reference.sobol.first { $0.name.hasPrefix("sobol-g") })
        let sg = try #require(SobolIndices(outputs: g.outputs, parameters: 6))
        #expect(sg.total.firstIndex(of: sg.total.max()!) == 0 && sg.total[4] < 0.01 && sg.total[5] < 0.01)
    }

    @Test func malformedDesignsAreNil() {
        #expect(SobolIndices(outputs: [1, 2, 3, 4], parameters: 3) == nil)
        #expect(SobolIndices(outputs: [], parameters: 1) == nil)
        #expect(SobolIndices(outputs: [1, 1, 1, 1, 1, 1], parameters: 1)?.firstOrder == [0])
    }

    /// Morris' μ, μ* and σ against SALib's morris.analyze on its own trajectories (4 levels),
    /// within 1e-12 relative; a design whose step changes two parameters is refused.
    @Test func morrisMatchesSALib() throws {
        #expect(Self.reference.morris.count == 2)
        for c in Self.reference.morris {
            let m = try #require(MorrisElementaryEffects(inputs: c.inputs, outputs: c.outputs, levels: 4), "\(c.name)")
            for (ours, theirs, what) in [(m.mu, c.mu, "mu"), (m.muStar, c.mu_star, "mu_star"), (m.sigma, c.sigma, "sigma")] {
                for (a, b) in zip(ours, theirs) { #expect(abs(a - b) <= 1e-12 * max(1, abs(b)), "\(c.name) \(what): \(a) vs SALib \(b)") }
            }
        }
        // Ishigami: x3 alone has no first-order effect but interacts (μ ≈ 0 with a large σ).
        let i = try #require(Self.reference.morris.first { $0.name == "ishigami" })
        let m = try #require(MorrisElementaryEffects(inputs: i.inputs, outputs: i.outputs))
        #expect(m.sigma[2] > abs(m.mu[2]))
        var bad = i.inputs
        bad[1][0] += 0.5
        bad[1][1] += 0.5
        #expect(MorrisElementaryEffects(inputs: bad, outputs: i.outputs) == nil)
    }
}
