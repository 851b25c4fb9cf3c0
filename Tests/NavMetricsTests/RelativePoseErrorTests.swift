import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import Testing

/// RPE against evo 1.38.1: every alignment × relation × delta unit (frames, metres) ×
/// consecutive/all pairs, plus evo's pairs_from_reference; same pair end indices (hash) and
/// statistics within 1e-6.
@Suite struct RelativePoseErrorTests {
    static let evo = try! loadFixture("evo_cases.json", as: EvoFixture.self)

    @Test(arguments: ["tum-fr1-xyz", "synthetic-walk", "synthetic-equal"])
    func pairsAndStatisticsMatchEvo(_ name: String) throws {
        let d = try #require(Self.evo.datasets[name])
        let p = try prepare(d)
        var worst = 0.0
        for c in d.rpe {
            let (_, est) = try #require(p.aligned[c.align])
            let options = RPEOptions(
                delta: c.delta, unit: c.deltaUnit == "f" ? .frames : .metres, allPairs: c.allPairs,
                relativeTolerance: 0.1, pairing: c.pairsFromReference ? .reference : .evo)
            let label = "\(name) \(c.align) \(c.relation) δ=\(c.delta)\(c.deltaUnit) all=\(c.allPairs) ref=\(c.pairsFromReference)"
            let pairs = try rpePairs(
                referencePositions: p.associated.reference.map(\.translation), estimatePositions: est.map(\.translation),
                referenceTimestamps: p.associated.referenceTimestamps, estimateTimestamps: p.associated.estimateTimestamps,
                options: options)
            let r = try relativePoseErrors(
                reference: p.associated.reference, estimate: est, pairs: pairs,
                relation: try #require(PoseRelation(rawValue: c.relation)))
            #expect(r.errors.count == c.pairs, "\(label)")
            #expect(Array(r.endIndices.prefix(10)) == c.endIdsFirst10, "\(label)")
            #expect(sha256Int64(r.endIndices) == c.endIdsSha256, "\(label)")
            let s = try ErrorStatistics(r.errors)
            let diff = statisticsDifference((s.rmse, s.mean, s.median, s.std, s.min, s.max, s.sse), c.stats)
            worst = max(worst, diff)
            #expect(diff <= 1e-6, "\(label): differs by \(diff)")
        }
        print("RPE \(name): largest relative difference from evo \(worst)")
    }

    /// A straight line sampled every 0.1 m: metre pairs of 1 m.
    static let line: [Vector3] = (0..<40).map { Vector3(0.1 * Double($0), 0, 0) }

    @Test func metrePairsStartAtTheFirstPose() throws {
        let t = (0..<40).map { Double($0) }
        let pairs = try rpePairs(
            referencePositions: Self.line, estimatePositions: Self.line, referenceTimestamps: t,
            estimateTimestamps: t, options: RPEOptions(delta: 1, unit: .metres))
        #expect(pairs.map(\.i) == [0, 10, 20])
        #expect(pairs.map(\.j) == [10, 20, 30])
        // evo before the fix (1.12.0) started at the first δ crossing: the segment from pose 0 is lost.
        let legacy = try rpePairs(
            referencePositions: Self.line, estimatePositions: Self.line, referenceTimestamps: t,
            estimateTimestamps: t, options: RPEOptions(delta: 1, unit: .metres, pairing: .evoLegacy))
        #expect(legacy.map(\.i) == [10, 20])
    }

    @Test func referencePairingIgnoresEstimateScale() throws {
        // The estimate runs 20 % long: evo's pairing (on the estimate) picks shorter true
        // segments; reference pairing keeps the 1 m ground-truth segments.
        let t = (0..<40).map { Double($0) }
        let est = Self.line.map { 1.2 * $0 }
        let evo = try rpePairs(
            referencePositions: Self.line, estimatePositions: est, referenceTimestamps: t, estimateTimestamps: t,
            options: RPEOptions(delta: 1, unit: .metres))
        let ref = try rpePairs(
            referencePositions: Self.line, estimatePositions: est, referenceTimestamps: t, estimateTimestamps: t,
            options: RPEOptions(delta: 1, unit: .metres, pairing: .reference))
        #expect(evo.first == IndexPair(0, 9))
        #expect(ref.first == IndexPair(0, 10))
    }

    @Test func secondPairs() throws {
        let t = (0..<50).map { 0.1 * Double($0) }  // 10 Hz, 4.9 s
        let p = t.map { Vector3($0, 0, 0) }
        let consecutive = try rpePairs(
            referencePositions: p, estimatePositions: p, referenceTimestamps: t, estimateTimestamps: t,
            options: RPEOptions(delta: 1, unit: .seconds))
        #expect(consecutive.map(\.j) == [10, 20, 30, 40])
        let all = try rpePairs(
            referencePositions: p, estimatePositions: p, referenceTimestamps: t, estimateTimestamps: t,
            options: RPEOptions(delta: 1, unit: .seconds, allPairs: true))
        // evo's all-pairs rule accepts |Δt − δ| ≤ 10 % δ: (40, 49) spans 0.9 s and is kept.
        #expect(all.count == 41)
        #expect(all.prefix(40).allSatisfy { $0.j - $0.i == 10 })
        #expect(all.last == IndexPair(40, 49))
    }

    @Test func framePairsAndErrors() throws {
        let poses = (0..<7).map { Pose(rotation: Quaternion(yaw: 0.1 * Double($0)), translation: Vector3(Double($0), 0, 0)) }
        let t = (0..<7).map(Double.init)
        let pos = poses.map(\.translation)
        let c = try rpePairs(
            referencePositions: pos, estimatePositions: pos, referenceTimestamps: t, estimateTimestamps: t,
            options: RPEOptions(delta: 3, unit: .frames))
        #expect(c == [IndexPair(0, 3), IndexPair(3, 6)])
        let r = try relativePoseErrors(reference: poses, estimate: poses, pairs: c, relation: .translationPart)
        #expect(r.errors.allSatisfy { $0 < 1e-12 })
        #expect(throws: MetricError.self) {
            try rpePairs(
                referencePositions: pos, estimatePositions: pos, referenceTimestamps: t, estimateTimestamps: t,
                options: RPEOptions(delta: 10, unit: .frames))
        }
        #expect(throws: MetricError.self) {
            try rpePairs(
                referencePositions: pos, estimatePositions: pos, referenceTimestamps: t, estimateTimestamps: t,
                options: RPEOptions(delta: 1.5, unit: .frames))
        }
    }
}
