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

/// The designs navbench samples walker parameters with (`SensitivityDesign`): Morris' steps are
/// one-at-a-time moves of exactly Δ on the grid (what `MorrisElementaryEffects` requires), and on
/// a linear model every elementary effect is its coefficient times the range (closed form); the
/// Saltelli design fed to `SobolIndices` recovers the analytic indices of a linear model
/// (S₁ = S_T = cⱼ²wⱼ² / Σ cₖ²wₖ², w the range) and of the Ishigami function within the Monte
/// Carlo error of N = 4,096 pseudo-random base samples (0.05).
@Suite struct SensitivityDesignTests {
    @Test func morrisStepsAreOneAtATimeOnTheGrid() throws {
        let d = 5, r = 12
        let design = try #require(SensitivityDesign.morris(parameters: d, trajectories: r, seed: 7))
        #expect(design.points.count == r * (d + 1))
        let delta = 4.0 / 6.0
        for t in 0..<r {
            var moved = Set<Int>()
            for s in 0..<d {
                let a = design.points[t * (d + 1) + s], b = design.points[t * (d + 1) + s + 1]
                let changed = (0..<d).filter { a[$0] != b[$0] }
                #expect(changed.count == 1)
                if let j = changed.first {
                    #expect(abs(abs(b[j] - a[j]) - delta) < 1e-15)
                    moved.insert(j)
                }
            }
            #expect(moved.count == d, "every parameter moves once per trajectory")
        }
        for p in design.points {
            for x in p {
                #expect(x >= 0 && x <= 1 + 1e-15)
                #expect(abs(x * 3 - (x * 3).rounded()) < 1e-12, "on the 4-level grid")
            }
        }
        #expect(SensitivityDesign.morris(parameters: d, trajectories: r, seed: 7) == design)
        #expect(SensitivityDesign.morris(parameters: d, trajectories: r, seed: 8) != design)
        #expect(SensitivityDesign.morris(parameters: d, trajectories: r, levels: 3, seed: 7) == nil)
        #expect(SensitivityDesign.morris(parameters: 0, trajectories: r, seed: 7) == nil)
    }

    @Test func morrisOnALinearModelGivesItsCoefficients() throws {
        let c = [2.0, -0.5, 0.0, 3.0]
        let ranges = [0.0...1.0, 10.0...20.0, -1.0...1.0, 0.5...0.75]
        let design = try #require(SensitivityDesign.morris(parameters: c.count, trajectories: 10, seed: 3))
        let x = design.scaled(to: ranges)
        let y = x.map { p in zip(p, c).map { $0 * $1 }.reduce(0, +) }
        let m = try #require(MorrisElementaryEffects(inputs: x, outputs: y))
        for j in c.indices {
            let w = ranges[j].upperBound - ranges[j].lowerBound
            #expect(abs(m.mu[j] - c[j] * w) < 1e-9, "mu[\(j)] \(m.mu[j]) vs \(c[j] * w)")
            #expect(abs(m.muStar[j] - abs(c[j] * w)) < 1e-9)
            #expect(m.sigma[j] < 1e-9)
        }
    }

    @Test func saltelliDesignRecoversAnalyticIndices() throws {
        let design = try #require(SensitivityDesign.saltelli(parameters: 3, base: 4096, seed: 11))
        #expect(design.points.count == 4096 * 5)
        // Block structure: A_B(j) is A with coordinate j from B.
        for i in [0, 17, 4095] {
            let a = design.points[i * 5], b = design.points[i * 5 + 4]
            for j in 0..<3 {
                var ab = a
                ab[j] = b[j]
                #expect(design.points[i * 5 + 1 + j] == ab)
            }
        }
        // Linear: y = 1·x₀ + 2·x₁ + 0·x₂ on [0, 1]³: S₁ = S_T = (1/5, 4/5, 0).
        let linear = design.points.map { $0[0] + 2 * $0[1] }
        let l = try #require(SobolIndices(outputs: linear, parameters: 3))
        for (j, expected) in [0.2, 0.8, 0.0].enumerated() {
            #expect(abs(l.firstOrder[j] - expected) < 0.05, "linear S1[\(j)] \(l.firstOrder[j])")
            #expect(abs(l.total[j] - expected) < 0.05, "linear ST[\(j)] \(l.total[j])")
        }
        // Ishigami (a = 7, b = 0.1) on [−π, π]³ (Saltelli et al. 2008).
        let x = design.scaled(to: Array(repeating: -Double.pi...Double.pi, count: 3))
        let y = x.map { p in sin(p[0]) + 7 * sin(p[1]) * sin(p[1]) + 0.1 * pow(p[2], 4) * sin(p[0]) }
        let s = try #require(SobolIndices(outputs: y, parameters: 3))
        let a = 7.0, b = 0.1, pi = Double.pi
        let v = a * a / 8 + b * pow(pi, 4) / 5 + b * b * pow(pi, 8) / 18 + 0.5
        let v1 = 0.5 * pow(1 + b * pow(pi, 4) / 5, 2), v2 = a * a / 8, v13 = b * b * pow(pi, 8) * (1.0 / 18 - 1.0 / 50)
        for (j, (s1, st)) in [(v1 / v, (v1 + v13) / v), (v2 / v, v2 / v), (0, v13 / v)].enumerated() {
            #expect(abs(s.firstOrder[j] - s1) < 0.05, "Ishigami S1[\(j)] \(s.firstOrder[j]) vs \(s1)")
            #expect(abs(s.total[j] - st) < 0.05, "Ishigami ST[\(j)] \(s.total[j]) vs \(st)")
        }
        #expect(SensitivityDesign.saltelli(parameters: 3, base: 1, seed: 11) == nil)
    }
}
