import Foundation
import NavCore
import NavIO
import NavReport
import NavSim
import NavStatistics

/// The analysis of a `closed_loop.uncertainty` run (issue 30, item 1) from its stored units
/// (`WalkerUncertaintyKind`): per sampled walker (a point of the design) and guidance
/// configuration, the success rate and mean end-of-route error averaged over the walked
/// recordings and walls; from them
///
/// - each walker parameter's influence on the success rate, the end error and every guidance
///   level's effect: Morris' μ* and σ (`MorrisElementaryEffects`, on complete trajectories) or
///   Sobol' S₁ and S_T with bootstrap 95 % half-widths (`SobolIndices`, on complete blocks);
/// - per guidance level against its dimension's first level (as the closed loop's Findings,
///   `closedLoopEffects`): the paired difference in success rate at each sampled walker (the
///   other guidance dimensions averaged), how many sampled walkers it is lower / equal / higher
///   for, and where in the box it flips (`flipRule`).
///
/// Sampled walkers are points of the design, not people: a share is "of the parameter box as
/// the design samples it" (Morris' points lie on a 4-level grid; Saltelli's are uniform).
struct WalkerRobustness {
    /// A guidance level's effect on the success rate at every complete sampled walker.
    struct Level {
        /// The dimension's `metrics.csv` column, the level and its reference (the first level).
        var dimension: String, level: String, reference: String
        /// Per complete sampled walker: mean over configuration pairs of success(level) − success(reference).
        var differences: [Double]
        var lower: Int { differences.filter { $0 < 0 }.count }
        var higher: Int { differences.filter { $0 > 0 }.count }
        var unchanged: Int { differences.count - lower - higher }
    }
    /// Where a level's effect flips: the parameter and threshold that best separate the sampled
    /// walkers whose difference has the opposite sign from the rest (a one-split decision rule).
    struct FlipRule: Equatable {
        var parameter: String, unit: String
        var threshold: Double
        /// true: flips where the parameter is above the threshold.
        var above: Bool
        /// Flipped walkers on that side / walkers on that side; flipped walkers on the other side / walkers there.
        var flippedThere: Int, there: Int, flippedElsewhere: Int, elsewhere: Int
        /// Fisher's exact test, one-sided: are flips more frequent on that side than elsewhere?
        var p: Double
    }

    let spec: WalkerUncertaintySpec
    /// Parameter values of the complete sampled walkers (in design order).
    let values: [[Double]]
    let levels: [Level]
    /// Recordings walked, in name order.
    let recordings: [String]
    let markdown: String

    /// nil when the results hold no complete sampled walker.
    init?(_ results: [(unit: WorkUnit, outcome: UnitOutcome?)], plan: ExperimentPlan) {
        guard let u = plan.spec.closedLoop?.uncertainty else { return nil }
        spec = u
        let design = walkerUncertaintyDesign(u)
        let simulated = plan.spec.closedLoop?.simulatesRegistration ?? false
        let configs = closedLoopConfigurations(plan.spec.sweep, simulatesRegistration: simulated)
        let configLevels = closedLoopConfigurationLevels(plan.spec.sweep, simulatesRegistration: simulated)
        let configIndex = Dictionary(configs.enumerated().map { ($1.label, $0) }, uniquingKeysWith: { a, _ in a })
        let points = design.values.count
        // Per point and configuration: sums over the walked (recording, walls) units.
        var success = [[Double]](repeating: [Double](repeating: 0, count: configs.count), count: points)
        var error = success
        var counts = [[Int]](repeating: [Int](repeating: 0, count: configs.count), count: points)
        var unitsPerCell = [[Int]](repeating: [Int](repeating: 0, count: configs.count), count: points)
        var recs: [String] = []
        for (unit, outcome) in results {
            guard unit.parameters.count == 3, let p = Int(unit.parameters[1]), (0..<points).contains(p),
                let c = configIndex[unit.configuration]
            else { continue }
            if !recs.contains(unit.input) { recs.append(unit.input) }
            unitsPerCell[p][c] += 1
            guard let m = outcome?.metrics, let s = m.first(where: { $0.name == "success_rate" })?.value, s.isFinite,
                let e = m.first(where: { $0.name == "end_of_route_error" })?.value
            else { continue }
            success[p][c] += s
            error[p][c] += e  // NaN (no walk ended with a finite error) makes the point's end error NaN
            counts[p][c] += 1
        }
        recordings = recs
        // A point is complete when every unit of every configuration has a result.
        let complete: [Bool] = (0..<points).map { (p: Int) -> Bool in
            (0..<configs.count).allSatisfy { (c: Int) -> Bool in counts[p][c] > 0 && counts[p][c] == unitsPerCell[p][c] }
        }
        for p in 0..<points {
            for c in 0..<configs.count where counts[p][c] > 0 {
                success[p][c] /= Double(counts[p][c])
                error[p][c] /= Double(counts[p][c])
            }
        }
        let kept = (0..<points).filter { complete[$0] }
        guard !kept.isEmpty else { return nil }
        values = kept.map { design.values[$0] }
        // Guidance levels against each dimension's first level, paired over configurations that differ only there.
        var levels: [Level] = []
        for d in closedLoopDimensions(simulatesRegistration: simulated) where plan.spec.sweep.values(of: d).count > 1 {
            let texts = plan.spec.sweep.values(of: d)
            for level in texts.dropFirst() {
                var pairs: [(Int, Int)] = []
                for (ci, l) in configLevels.enumerated() where l[d.column] == level {
                    var other = l
                    other[d.column] = texts[0]
                    if let cj = configLevels.firstIndex(of: other) { pairs.append((ci, cj)) }
                }
                guard !pairs.isEmpty else { continue }
                let diffs = kept.map { p in pairs.map { success[p][$0.0] - success[p][$0.1] }.reduce(0, +) / Double(pairs.count) }
                levels.append(Level(dimension: d.column, level: level, reference: texts[0], differences: diffs))
            }
        }
        self.levels = levels
        // Outputs for the sensitivity estimators, over every point (NaN where incomplete).
        func output(_ f: (Int) -> Double) -> [Double] { (0..<points).map { complete[$0] ? f($0) : .nan } }
        let n = Double(configs.count)
        var outputs: [(label: String, unit: String, y: [Double])] = [
            ("success rate", "fraction", output { p in success[p].reduce(0, +) / n }),
            ("end-of-route error", "m", output { p in error[p].reduce(0, +) / n }),
        ]
        for l in levels {
            var it = l.differences.makeIterator()
            let y = (0..<points).map { complete[$0] ? it.next()! : .nan }
            outputs.append(("Δ success, \(l.dimension)=\(l.level) vs \(l.reference)", "fraction", y))
        }
        markdown = Self.render(
            spec: u, design: design, outputs: outputs, levels: levels, values: values, recordings: recs, complete: kept.count,
            total: points, statisticsSeed: plan.spec.statistics.seed)
    }

    /// The flip rule of a level whose effect has sign `sign` (−1: lower, +1: higher): over the
    /// complete sampled walkers, "flipped" when the difference has the opposite sign; the split
    /// (parameter, threshold halfway between two sampled values, side) that classifies the most
    /// walkers right, nil unless it beats "never flips", puts ≥ 2 flipped walkers on its side and
    /// Fisher's exact test (one-sided: flips more frequent there) gives p ≤ 0.05 / D (Bonferroni
    /// over the D parameters; the threshold is chosen on the same data, so the rule is descriptive).
    /// Ties: the earlier parameter in the spec's order, then the lower threshold.
    ///
    /// Complexity: O(D · P log P) for P sampled walkers.
    func flipRule(_ level: Level, sign: Double) -> FlipRule? {
        Self.flipRule(level, sign: sign, values: values, parameters: spec.parameters)
    }

    /// `flipRule(_:sign:)` over given sampled walkers' parameter `values` (one row per difference).
    static func flipRule(_ level: Level, sign: Double, values: [[Double]], parameters: [WalkerUncertaintySpec.Parameter]) -> FlipRule? {
        let flipped = level.differences.map { $0 * sign < 0 }
        let total = flipped.filter { $0 }.count
        guard total > 0 else { return nil }
        var best: (correct: Int, rule: FlipRule)?
        for (j, p) in parameters.enumerated() {
            let order = values.indices.sorted { values[$0][j] < values[$1][j] }
            var flippedBelow = 0
            for (k, i) in order.enumerated().dropLast() {
                if flipped[i] { flippedBelow += 1 }
                let a = values[i][j], b = values[order[k + 1]][j]
                guard a < b else { continue }
                let below = k + 1, above = values.count - below, flippedAbove = total - flippedBelow
                for isAbove in [true, false] {
                    let (ft, t, fe, e) = isAbove ? (flippedAbove, above, flippedBelow, below) : (flippedBelow, below, flippedAbove, above)
                    let correct = ft + (e - fe)
                    guard ft >= 2, correct > values.count - total, correct > (best?.correct ?? -1),
                        let pValue = fisherExactOneSided(ft, t - ft, fe, e - fe, firstRowLower: false),
                        pValue <= 0.05 / Double(parameters.count)
                    else { continue }
                    best = (
                        correct,
                        FlipRule(
                            parameter: p.key, unit: NavigatorProfile.unit(of: p.key) ?? "", threshold: (a + b) / 2, above: isAbove, flippedThere: ft,
                            there: t, flippedElsewhere: fe, elsewhere: e, p: pValue)
                    )
                }
            }
        }
        return best?.rule
    }

    /// "flips where reaction_time > 1.62 s (7 of 9 sampled walkers there, 1 of 101 elsewhere)".
    static func text(_ r: FlipRule) -> String {
        "flips where `\(r.parameter)` \(r.above ? ">" : "<") \(String(format: "%.3g", r.threshold))\(r.unit.isEmpty || r.unit == "–" ? "" : " " + r.unit) "
            + "(\(r.flippedThere) of \(r.there) sampled walkers there, \(r.flippedElsewhere) of \(r.elsewhere) elsewhere; Fisher p = \(String(format: "%.2g", r.p)))"
    }

    /// The clause a closed-loop Findings line carries for its level `level` of `dimension` whose
    /// effect was significant with sign `sign` (nil: not significant): the share of sampled
    /// walkers for which it holds and where it flips.
    func clause(dimension: String, level: String, sign: Double?) -> String? {
        guard let l = levels.first(where: { $0.dimension == dimension && $0.level == level }) else { return nil }
        let n = l.differences.count
        func pct(_ k: Int) -> String { String(format: "%.0f %%", 100 * Double(k) / Double(n)) }
        guard let sign else {
            return "\(markdownInline(level)) vs \(markdownInline(l.reference)): lower for \(pct(l.lower)), higher for \(pct(l.higher))"
        }
        let holds = sign < 0 ? l.lower : l.higher, reversed = sign < 0 ? l.higher : l.lower
        let rule =
            flipRule(l, sign: sign).map { "; " + Self.text($0) }
            ?? (reversed == 0 ? (holds == n ? "" : "; never reversed (\(l.unchanged) equal)") : "; no parameter range where it flips more often")
        return "\(markdownInline(level)) vs \(markdownInline(l.reference)) \(sign < 0 ? "lower" : "higher") for \(pct(holds)) (\(holds) of \(n))"
            + rule
    }

    /// What the clauses rest on: "over 110 sampled walkers around `cane` (docs/navigator.md, Plausible ranges; B2)".
    var basis: String {
        "\(values.count) sampled walkers around \(markdownCode(spec.walker.text)), parameters in their plausible ranges "
            + "(docs/navigator.md), on " + recordings.map { markdownInline(fileName(of: $0)) }.joined(separator: ", ")
    }

    // MARK: - Rendering

    private static func render(
        spec u: WalkerUncertaintySpec, design: WalkerUncertaintyDesign, outputs: [(label: String, unit: String, y: [Double])],
        levels: [Level], values: [[Double]], recordings: [String], complete: Int, total: Int, statisticsSeed: UInt64
    ) -> String {
        let d = u.parameters.count
        var md = "\n## Closed loop: robustness to walker parameters\n\n"
        let designText: String =
            u.method == .morris
            ? "Morris' one-at-a-time design, \(u.samples) trajectories of \(d + 1) sampled walkers"
            : "Saltelli's design, \(u.samples) base samples × \(d + 2) sampled walkers"
        let walked: String = recordings.map { markdownInline(fileName(of: $0)) }.joined(separator: ", ")
        md += "How much the closed loop's conclusions depend on walker parameters no publication fixes: " + designText
        md += " (\(total) in all; \(complete) complete) around \(markdownCode(u.walker.text)), each walking every guidance configuration on "
        md += walked + " with \(u.runs) walkers per VIO error level (walker r draws the same random streams everywhere: common random numbers). "
        md += "Ranges and their reasoning: docs/navigator.md, \"Plausible ranges\". All rows: `walker-uncertainty.csv`.\n"
        // Influence.
        md += "\n### Influence of each parameter\n\n"
        var columns: [[String]] = []
        if u.method == .morris {
            md +=
                "Morris μ*: the mean absolute change of the outcome when the parameter alone moves across its whole range "
                + "(elementary effects of a step of 2/3 of the range, scaled to the range); σ: their spread (large: interactions or a "
                + "non-linear effect). Δ success: a guidance level's paired difference in success rate (its Findings line).\n\n"
            let trajectories: [Int] = (0..<(total / (d + 1))).filter { (t: Int) -> Bool in
                (0...d).allSatisfy { (k: Int) -> Bool in !outputs[0].y[t * (d + 1) + k].isNaN }
            }
            let inputs: [[Double]] = trajectories.flatMap { (t: Int) -> [[Double]] in
                (0...d).map { (k: Int) -> [Double] in design.values[t * (d + 1) + k] }
            }
            for o in outputs {
                let y: [Double] = trajectories.flatMap { (t: Int) -> [Double] in (0...d).map { (k: Int) -> Double in o.y[t * (d + 1) + k] } }
                let m = MorrisElementaryEffects(inputs: inputs, outputs: y)
                columns.append((0..<d).map { j in m.map { String(format: "%.3g (%.3g)", $0.muStar[j], $0.sigma[j]) } ?? "–" })
            }
            md += "| parameter | unit | range | " + outputs.map { markdownInline($0.label) + " μ* (σ)" }.joined(separator: " | ") + " |\n"
        } else {
            md +=
                "Sobol' indices: S₁ the share of the outcome's variance the parameter explains alone, S_T with its interactions "
                + "(± the half-width of a bootstrap 95 % interval over the base samples). Δ success: a guidance level's paired "
                + "difference in success rate.\n\n"
            let blocks: [Int] = (0..<(total / (d + 2))).filter { (b: Int) -> Bool in
                (0..<(d + 2)).allSatisfy { (k: Int) -> Bool in !outputs[0].y[b * (d + 2) + k].isNaN }
            }
            for o in outputs {
                let y: [Double] = blocks.flatMap { (b: Int) -> [Double] in (0..<(d + 2)).map { (k: Int) -> Double in o.y[b * (d + 2) + k] } }
                let s = SobolIndices(
                    outputs: y, parameters: d, resamples: 200, seed: streamSeed(statisticsSeed, "walker uncertainty \(o.label)"))
                columns.append(
                    (0..<d).map { j in
                        s.map {
                            String(
                                format: "%.2f ± %.2f / %.2f ± %.2f", $0.firstOrder[j], $0.firstOrderConfidence[j], $0.total[j], $0.totalConfidence[j])
                        } ?? "–"
                    })
            }
            md += "| parameter | unit | range | " + outputs.map { markdownInline($0.label) + " S₁ / S_T" }.joined(separator: " | ") + " |\n"
        }
        md += "|---|---|---|" + String(repeating: "---:|", count: outputs.count) + "\n"
        for (j, p) in u.parameters.enumerated() {
            md +=
                "| `\(p.key)` | \(NavigatorProfile.unit(of: p.key) ?? "") | \(String(format: "%g", p.range.lowerBound))–\(String(format: "%g", p.range.upperBound)) | "
                + columns.map { $0[j] }.joined(separator: " | ") + " |\n"
        }
        // Where each level's effect holds.
        if !levels.isEmpty {
            md +=
                "\n### Guidance effects across the box\n\n"
                + "Per guidance level against its dimension's first level: at each sampled walker, the paired difference in success "
                + "rate (the other guidance dimensions averaged); how many sampled walkers it is lower, equal or higher for; its mean "
                + "over the sampled walkers [Student t 95 %]; and the one split of one parameter that best separates the walkers for "
                + "which the majority's sign flips, shown when Fisher's exact test of flips there against elsewhere gives p ≤ 0.05 / "
                + "\(d) (Bonferroni over the parameters; the split is chosen on the same walkers, so it is a description, not a test). "
                + "Each sampled walker's difference is a mean over its \(u.runs) walkers per VIO level, so some flips are chance.\n\n"
                + "| guidance level | sampled walkers | lower | equal | higher | mean difference | flips where |\n|---|---:|---:|---:|---:|---|---|\n"
            for l in levels {
                let t = StudentTInterval(l.differences)
                let sign: Double = l.lower >= l.higher ? -1 : 1
                let proxy = flipRule(l, sign: sign, values: values, parameters: u.parameters).map(text) ?? "–"
                md +=
                    "| \(markdownInline(l.dimension))=\(markdownInline(l.level)) vs \(markdownInline(l.reference)) | \(l.differences.count) | "
                    + "\(l.lower) | \(l.unchanged) | \(l.higher) | "
                    + String(format: "%+.3f [%+.3f, %+.3f]", t.mean, t.low, t.high) + " | \(proxy) |\n"
            }
        }
        return md
    }

    /// An analysis of given values and levels (no results, no Markdown), for tests.
    init(spec: WalkerUncertaintySpec, values: [[Double]], levels: [Level]) {
        self.spec = spec; self.values = values; self.levels = levels
        recordings = []; markdown = ""
    }
}
