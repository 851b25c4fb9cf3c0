import Foundation
import NavCore
import NavIO
import NavReport
import NavSim
import NavStatistics
import Testing

@testable import NavPipeline

/// `closed_loop.uncertainty` (issue 30, item 1): the spec section, the sampled walkers as walker
/// texts that reproduce their walks, the kind stored, sharded and merged like every result kind,
/// and the flip rule on planted data.
@Suite(.serialized) struct WalkerUncertaintyTests {
    func spec(_ out: String, uncertainty: String) throws -> ExperimentSpec {
        try ExperimentSpec.parse(
            """
            name: u
            inputs:
              - \(datasets)/venue/B2-lobby_recording.h5
            output: \(out)
            sweep:
              rdp_tolerance: [0.3, 1.0]
            closed_loop:
              walker: [ideal, cane]
              vio_error: [none]
              walls: [venue]
              runs: 2
              uncertainty: \(uncertainty)
            """, file: "u.yaml")
    }

    @Test func defaultsAreTheAssumedParametersAroundTheFirstWalkerThatIsNotIdeal() throws {
        let u = try #require(try spec("/tmp/unused", uncertainty: "{}").closedLoop?.uncertainty)
        #expect(u.walker.text == "cane")
        #expect(u.method == .morris && u.samples == 10 && u.runs == 10 && u.seed == 1)
        #expect(u.parameters.map(\.key) == NavigatorProfile.plausibleRanges.map(\.key))
        #expect(u.parameters.map(\.key).contains("reaction_time") && !u.parameters.map(\.key).contains("over_rotation_slight"))
        #expect(u.points == 10 * (u.parameters.count + 1))
        // Every plausible range is inside what a walker text accepts (so every sampled walker is one).
        for p in NavigatorProfile.plausibleRanges {
            let allowed = NavigatorProfile.allowedRange(p.key)
            #expect(allowed.contains(p.range.lowerBound) && allowed.contains(p.range.upperBound), "\(p.key)")
        }
        let sobol = try #require(try spec("/tmp/unused", uncertainty: "{method: sobol, walker: guide-dog}").closedLoop?.uncertainty)
        #expect(sobol.samples == 64 && sobol.walker.text == "guide-dog" && sobol.points == 64 * (sobol.parameters.count + 2))
    }

    @Test func badSectionsAreOneLineNamingTheKey() {
        let cases: [(String, String)] = [
            ("{parameters: {speed: [2, 1]}}", "u.yaml: closed_loop.uncertainty.parameters.speed: expected [low, high], two numbers with low < high"),
            (
                "{parameters: {speed: [0.01, 1]}}",
                "u.yaml: closed_loop.uncertainty.parameters.speed: speed must be from 0.1 to 5, got 0.01"
            ),
            ("{parameters: {shoe_size: [1, 2]}}", "u.yaml: closed_loop.uncertainty.parameters.shoe_size: not a numeric walker parameter; valid: "),
            ("{method: latin}", "u.yaml: closed_loop.uncertainty.method: expected one of morris, sobol"),
            ("{samples: 0}", "u.yaml: closed_loop.uncertainty.samples: expected an integer 1…10000"),
            ("{runs: 2.5}", "u.yaml: closed_loop.uncertainty.runs: expected an integer 1…10000"),
            ("{walker: robot}", "u.yaml: closed_loop.uncertainty.walker: walker 'robot': unknown profile 'robot'"),
            (
                "{colour: red}",
                "u.yaml: closed_loop.uncertainty.colour: unknown key; valid: method, samples, runs, walker, parameters, recordings, seed"
            ),
            ("[1, 2]", "u.yaml: closed_loop.uncertainty: expected a mapping"),
            (
                "{samples: 10000}",
                "u.yaml: closed_loop.uncertainty.samples: 10000 samples of 13 parameters make 140000 sampled walkers; at most 100000"
            ),
            ("{samples: 5000, runs: 10000}", "u.yaml: closed_loop.uncertainty.runs: 70000 sampled walkers × 10000 runs = 700000000 walks"),
        ]
        for (yaml, message) in cases {
            #expect(throws: SpecError.self, "\(yaml)") { try spec("/tmp/unused", uncertainty: yaml) }
            do { _ = try spec("/tmp/unused", uncertainty: yaml) } catch {
                #expect("\(error)".hasPrefix(message), "\(yaml): \(error)")
                #expect(!"\(error)".contains("\n"))
            }
        }
    }

    /// Each unit's `walker` column, parsed as any walker text, walks the same walks as the unit
    /// (an independent path: text → `NavigatorProfile(parsing:)` → `simulateWalks`), lies in the
    /// box, and keeps the centre's other parameters; along a Morris trajectory consecutive
    /// walkers differ in one parameter.
    @Test func sampledWalkerTextsReproduceTheirWalks() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir, uncertainty: "{samples: 1, runs: 3, parameters: {speed: [0.6, 1.2], reaction_time: [0.5, 2]}}")
        let plan = planExperiment(s)
        let kind = WalkerUncertaintyKind()
        let units = kind.units(of: plan)
        #expect(units.count == 1 * 1 * 3 * 2)  // recording × walls × (1 trajectory of 3 walkers) × configurations
        #expect(Set(units.map(\.key)).count == units.count)
        let cane = try NavigatorProfile(parsing: "cane")
        var walkers: [NavigatorProfile] = []
        for u in units {
            let outcome = try kind.run(u, plan: plan)
            let walker = try NavigatorProfile(parsing: u.parameters[2])
            #expect((0.6...1.2).contains(walker.speed) && (0.5...2).contains(walker.speechReactionSeconds))
            var same = walker
            same.speed = cane.speed; same.speechReactionSeconds = cane.speechReactionSeconds; same.name = cane.name
            #expect(same == cane, "only the varied parameters differ from the centre")
            let tolerance = try #require(Double(u.configuration.replacingOccurrences(of: "tol=", with: "")))
            var options = GuidanceOptions()
            options.rdpTolerance = tolerance
            let session = try readTrace(at: u.input)
            let scenario = try closedLoopScenario(
                recording: session, options: options, walls: .venue, venuePlan: try venueFloorPlan(recordingPath: u.input, session: session))
            let direct = simulateWalks(
                scenario, settings: ClosedLoopSettings(walker: walker, vioError: .none, guidance: options.guidance), seed: 1, runs: 3)
            let rate = Double(direct.outcomes.filter(\.success).count) / 3
            #expect(outcome.metrics.first { $0.name == "success_rate" }?.value == rate, "\(u.parameters[2]) \(u.configuration)")
            #expect(outcome.metrics.first { $0.name == "walks" }?.value == 3)
            if u.configuration == "tol=0.3" { walkers.append(walker) }
        }
        #expect(walkers.count == 3)
        for (a, b) in zip(walkers, walkers.dropFirst()) {
            let changed = [a.speed != b.speed, a.speechReactionSeconds != b.speechReactionSeconds].filter { $0 }.count
            #expect(changed == 1, "a Morris step moves one parameter")
        }
    }

    /// Run unsharded, in 2 shards merged, and again: the same bytes; nothing computed twice.
    @Test func shardsAndMergeGiveTheSameReport() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let u = "{samples: 1, runs: 2, parameters: {reaction_time: [0.5, 2], bear: [15, 45]}}"
        var s = try spec(dir + "/whole", uncertainty: u)
        let whole = try runExperiment(s, workers: 2, command: "test")
        #expect(whole.failures.isEmpty, "\(whole.failures)")
        #expect(whole.counts.byKind["walker_uncertainty"]?.computed == 3 * 2)
        s.output = dir + "/sharded"  // the same spec (its checksum is in the summary)
        var computed = 0
        for k in 1...2 {
            let shard = try runExperiment(s, workers: 1, shard: k, shards: 2, command: "test")
            computed += shard.counts.byKind["walker_uncertainty"]?.computed ?? 0
        }
        #expect(computed == 3 * 2)
        let merged = try mergeExperiment(s, command: "test")
        #expect(merged.failures.isEmpty, "\(merged.failures)")
        for f in ["walker-uncertainty.csv", "summary.md", "closed-loop.csv"] {
            let a = try String(contentsOfFile: dir + "/whole/" + f, encoding: .utf8)
            let b = try String(contentsOfFile: dir + "/sharded/" + f, encoding: .utf8)
            #expect(a == b, "\(f): 2 shards merged vs unsharded")
        }
        let summary = try String(contentsOfFile: dir + "/whole/summary.md", encoding: .utf8)
        #expect(summary.contains("## Closed loop: robustness to walker parameters"))
        let table = try MetricsTable.read(dir + "/whole/walker-uncertainty.csv")
        #expect(table.parameterColumns == ["walls", "point", "walker"] && table.rows.count == 3 * 2 * 4)
        s.output = dir + "/whole"
        let again = try runExperiment(s, workers: 2, command: "test")
        #expect(again.counts.excluding(guidanceResultKind).computed == 0)
    }

    /// The Sobol' method end to end on a small design: (D + 2) × N sampled walkers, a row per
    /// parameter with S₁ / S_T and their bootstrap half-widths, and the Findings clause.
    @Test func sobolMethodReportsFirstOrderAndTotalIndices() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try spec(dir, uncertainty: "{method: sobol, samples: 4, runs: 2, parameters: {speed: [0.55, 1.3], bear: [15, 45]}}")
        let out = try runExperiment(s, workers: 2, command: "test")
        #expect(out.failures.isEmpty, "\(out.failures)")
        #expect(out.counts.byKind["walker_uncertainty"]?.computed == 4 * (2 + 2) * 2)  // base samples × (D + 2) × configurations
        let summary = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        #expect(summary.contains("Saltelli's design, 4 base samples × 4 sampled walkers (16 in all; 16 complete)"))
        #expect(summary.contains("| parameter | unit | range | success rate S₁ / S_T |"))
        for key in ["speed", "bear"] {
            let row = try #require(summary.split(separator: "\n").last { $0.hasPrefix("| `\(key)` |") })  // after the provenance table
            #expect(row.contains(" ± ") && row.contains(" / "), "\(row)")
        }
        #expect(summary.contains("Walker parameters (16 sampled walkers around `cane`"))
    }

    /// Planted: the effect is −0.1 everywhere but where the second parameter exceeds 0.75, where
    /// it is +0.1; the rule names that parameter, side and split, with every flip on its side.
    @Test func flipRuleFindsAPlantedSplit() throws {
        let u = try #require(
            try spec("/tmp/unused", uncertainty: "{parameters: {speed: [0.6, 1.2], reaction_time: [0, 1]}}").closedLoop?.uncertainty)
        var rng = SeededRandom(seed: 5)
        let values = (0..<60).map { _ in [rng.uniform(0.6, 1.2), rng.uniform()] }
        let planted = values.map { $0[1] > 0.75 ? 0.1 : -0.1 }
        let level = WalkerRobustness.Level(dimension: "rdp_tolerance", level: "1", reference: "0.3", differences: planted)
        let r = WalkerRobustness(spec: u, values: values, levels: [level])
        let rule = try #require(r.flipRule(level, sign: -1))
        let flips = planted.filter { $0 > 0 }.count
        #expect(rule.parameter == "reaction_time" && rule.above && rule.flippedThere == flips && rule.there == flips)
        #expect(rule.flippedElsewhere == 0 && rule.p < 1e-6)
        let lowestFlipped = values.filter { $0[1] > 0.75 }.map { $0[1] }.min()!
        let highestHeld = values.filter { $0[1] <= 0.75 }.map { $0[1] }.max()!
        #expect(rule.threshold > highestHeld && rule.threshold < lowestFlipped)
        let clause = try #require(r.clause(dimension: "rdp_tolerance", level: "1", sign: -1))
        #expect(
            clause.hasPrefix(
                "1 vs 0.3 lower for \(String(format: "%.0f", 100 * Double(60 - flips) / 60)) % (\(60 - flips) of 60); flips where `reaction_time` > ")
        )
        // Flips unrelated to the parameters (every 20th walker) give no rule; no flips give none.
        let scattered = (0..<60).map { $0 % 20 == 7 ? 0.1 : -0.1 }
        #expect(r.flipRule(WalkerRobustness.Level(dimension: "d", level: "l", reference: "r", differences: scattered), sign: -1) == nil)
        #expect(
            r.flipRule(WalkerRobustness.Level(dimension: "d", level: "l", reference: "r", differences: planted.map { _ in -0.1 }), sign: -1) == nil)
    }
}
