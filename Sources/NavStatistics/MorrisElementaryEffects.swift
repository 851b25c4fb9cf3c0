/// Morris' elementary effects (Morris 1991; μ* by Campolongo, Cariboni & Saltelli 2007), as
/// SALib's `morris.analyze(problem, X, Y, num_levels=p)` (unscaled):
///
/// - the runs come as trajectories of D + 1 points, each point changing one parameter from the
///   previous one (a one-at-a-time design, `morris.sample`);
/// - the effect of parameter j in a trajectory is (y⁺ − y⁻)/Δ, y⁺ the output at the point where
///   xⱼ is the higher of its two values, y⁻ the other, Δ = p / (2(p − 1)) (the step in the unit
///   hypercube for p levels);
/// - μ = mean of the effects over trajectories, μ* = mean of their absolute values (the
///   screening measure: a small μ* means the parameter hardly matters), σ = their standard
///   deviation (n − 1; a large σ: interactions or non-linearity).
///
/// Checked against SALib 1.6.0 on the Ishigami and Sobol G functions in NavStatisticsTests.
public struct MorrisElementaryEffects: Sendable, Equatable {
    public var mu: [Double]
    public var muStar: [Double]
    public var sigma: [Double]
    /// The effects, per parameter, one per trajectory.
    public var effects: [[Double]]

    /// nil unless `inputs` has D columns, as many rows as `outputs`, a whole number of
    /// trajectories of D + 1 points, and each step of a trajectory changes exactly one parameter.
    ///
    /// Complexity: O(trajectories · D²).
    public init?(inputs: [[Double]], outputs: [Double], levels: Int = 4) {
        guard let d = inputs.first?.count, d > 0, levels > 1, inputs.count == outputs.count, inputs.allSatisfy({ $0.count == d }),
            outputs.count % (d + 1) == 0
        else { return nil }
        let delta = Double(levels) / (2 * Double(levels - 1))
        var effects = [[Double]](repeating: [], count: d)
        for start in stride(from: 0, to: outputs.count, by: d + 1) {
            for step in 0..<d {
                let before = inputs[start + step], after = inputs[start + step + 1]
                let changed = (0..<d).filter { before[$0] != after[$0] }
                guard changed.count == 1, let j = changed.first else { return nil }
                let (up, down) =
                    after[j] > before[j]
                    ? (outputs[start + step + 1], outputs[start + step]) : (outputs[start + step], outputs[start + step + 1])
                effects[j].append((up - down) / delta)
            }
        }
        guard effects.allSatisfy({ $0.count == outputs.count / (d + 1) }) else { return nil }
        self.effects = effects
        mu = effects.map(Statistics.mean)
        muStar = effects.map { Statistics.mean($0.map(abs)) }
        sigma = effects.map(Statistics.standardDeviation)
    }
}
