import Foundation
import NavCore
import NavReport
import NavSim
import NavStatistics
import Testing

@testable import NavPipeline

/// The closed-loop section's paired comparisons (issue 28, item 2): walker `run` of a cell walks
/// both guidance configurations with the same random streams, so the walkers pair; the counts
/// of discordant walkers and McNemar's p agree with walks made here directly (`simulateWalks`),
/// and the store round trip (run, shards, merge) carries the walkers.
@Suite(.serialized) struct ClosedLoopComparisonTests {
    @Test func discordantWalkersMatchDirectWalks() throws {
        let dir = tempFolder(); defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = planExperiment(try ClosedLoopStoreTests().spec(dir + "/out"))
        let cp = planClosedLoopCells(plan)
        // Directly: every cell's walkers, paired by (walls, walker, VIO error, seed) and run.
        var outcomes: [String: [Int: [WalkOutcome]]] = [:]
        for c in cp.cells {
            let s = try cp.scenario(c, inputs: plan.inputs)
            let key = "\(c.walls)|\(c.walker)|\(c.vioError)|\(c.seed)"
            outcomes[key, default: [:]][c.configuration] = simulateWalks(s, settings: cp.settings(c), seed: c.seed, runs: cp.spec.runs).outcomes
        }
        var onlyHere = 0, onlyReference = 0, pairs = 0
        for (_, byConfig) in outcomes {
            for (a, b) in zip(try #require(byConfig[1]), try #require(byConfig[0])) {
                pairs += 1
                if a.success && !b.success { onlyHere += 1 }
                if b.success && !a.success { onlyReference += 1 }
            }
        }
        let comparisons = closedLoopComparisons(
            cp.walkedCells { c in
                let key = "\(c.walls)|\(c.walker)|\(c.vioError)|\(c.seed)"
                return outcomes[key]?[c.configuration].map { ClosedLoopWalkers($0) }
            }, labels: cp.configurations.map(\.label))
        let c = try #require(comparisons.first)
        #expect(comparisons.count == 1 && c.route == "B1-offices" && c.configuration.hasPrefix("tol=1"))
        #expect(c.walkers == pairs && pairs == 4 * cp.spec.runs)
        #expect(c.onlyHere == onlyHere && c.onlyReference == onlyReference)
        #expect(c.successP == McNemarExact(firstOnly: onlyHere, secondOnly: onlyReference)!.pValue)
        #expect(abs(c.successDifference - Double(onlyHere - onlyReference) / Double(pairs)) < 1e-15)
        // The section run in memory shows the table with the same counts.
        let section = runClosedLoopSection(plan, workers: 1)
        #expect(section.markdown.contains("Paired against `tol=0.3`"))
        #expect(section.markdown.contains("| \(c.configuration) | \(pairs) | "), "\(section.markdown)")
        #expect(section.markdown.contains(" | \(onlyHere)/\(onlyReference) | "))
        // One route: no pooled rows, no plots against the dimension (they pool routes).
        #expect(!section.markdown.contains("### All routes"))
    }

    /// A count read from a store is bounded before it becomes an Int (issue 50, item 4): a forged
    /// cell's 1e300, NaN, −1 or 2.5 keypoints is no count, never a trap.
    @Test func storedCountsAreBoundedBeforeConversion() {
        #expect(storedCount(10) == 10 && storedCount(0) == 0)
        for forged in [1e300, .nan, -1, 2.5, .infinity, 1e10] { #expect(storedCount(forged) == nil, "\(forged)") }
    }

    /// The walkers artifact round-trips, and a damaged one is no result.
    @Test func walkersArtifactRoundTrips() {
        let w = ClosedLoopWalkers(
            success: [true, false, true], endOfRouteError: [0.5, .nan, -0.0], spl: [0.9, 0, 0.7], ppws: [80, 75.5, .nan],
            routeDeviation: [0.3, 1.2, 0.4], ndtw: [0.8, 0.1, 1], sdtw: [0.8, 0, .infinity])
        let back = ClosedLoopWalkers(bytes: w.bytes)
        #expect(back?.success == w.success)
        for (a, b) in [
            (back?.endOfRouteError, w.endOfRouteError), (back?.spl, w.spl), (back?.ppws, w.ppws), (back?.routeDeviation, w.routeDeviation),
            (back?.ndtw, w.ndtw), (back?.sdtw, w.sdtw),
        ] {
            #expect(a?.map(\.bitPattern) == b.map(\.bitPattern))
        }
        var bad = w.bytes
        bad[1] = 2
        #expect(ClosedLoopWalkers(bytes: bad) == nil)
        #expect(ClosedLoopWalkers(bytes: Array(w.bytes.dropLast())) == nil)
        #expect(ClosedLoopWalkers(bytes: [1] + w.bytes.dropFirst()) == nil)
        #expect(ClosedLoopWalkers(bytes: [2] + w.bytes.dropFirst()) == nil)  // the version before nDTW
        // The most walkers a cell may have (runs ≤ 100,000) fit the store's artifact limit.
        #expect(1 + ClosedLoopWalkers.recordBytes * 100_000 <= StoreLimits.artifactBytes)
    }
}
