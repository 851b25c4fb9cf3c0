import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import NavReport
import Testing

/// The functions `navbench ape`, `rpe` and `simplify` call, on the committed fixtures,
/// against evo's values (the same files the CLI tests use).
@Suite struct TrajectoryEvaluationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let metrics = root + "/Tests/NavMetricsTests/Fixtures"
    static let ref = TrajectorySource(path: metrics + "/tum-fr1-xyz/freiburg1_xyz-groundtruth.txt")
    static let est = TrajectorySource(path: metrics + "/tum-fr1-xyz/freiburg1_xyz-rgbdslam.txt")

    struct Stats: Decodable { var rmse, mean, median, std, min, max, sse: Double }
    struct Case: Decodable {
        var align: String, relation: String, pairs: Int, stats: Stats
        var delta: Double?, deltaUnit: String?, allPairs: Bool?, pairsFromReference: Bool?
    }
    struct Dataset: Decodable { var ape: [Case]; var rpe: [Case] }
    struct Fixture: Decodable { var datasets: [String: Dataset] }
    static let evo: Dataset = {
        let dec = JSONDecoder()
        dec.keyDecodingStrategy = .convertFromSnakeCase
        let data = try! Data(contentsOf: URL(fileURLWithPath: metrics + "/evo_cases.json"))
        return try! dec.decode(Fixture.self, from: data).datasets["tum-fr1-xyz"]!
    }()

    func close(_ s: ErrorStatistics, _ e: Stats) -> Bool {
        let pairs = [(s.rmse, e.rmse), (s.mean, e.mean), (s.median, e.median), (s.std, e.std), (s.min, e.min), (s.max, e.max), (s.sse, e.sse)]
        return pairs.allSatisfy { abs($0 - $1) <= 1e-6 * Swift.max(1, abs($1)) }
    }

    @Test(arguments: ["none", "se3", "sim3", "origin"])
    func apeMatchesEvo(_ align: String) throws {
        for c in Self.evo.ape where c.align == align {
            let r = try evaluateAPE(
                reference: Self.ref, estimate: Self.est, relation: PoseRelation(rawValue: c.relation)!,
                settings: EvaluationSettings(alignment: AlignmentMethod(rawValue: align)!))
            #expect(r.pairs == c.pairs)
            #expect(close(r.statistics, c.stats), "\(align) \(c.relation)")
        }
    }

    @Test func rpeMatchesEvo() throws {
        for c in Self.evo.rpe where c.relation == "translation_part" || c.relation == "rotation_angle_deg" {
            let o = RPEOptions(
                delta: c.delta!, unit: c.deltaUnit == "f" ? .frames : .metres, allPairs: c.allPairs!,
                pairing: c.pairsFromReference! ? .reference : .evo)
            let r = try evaluateRPE(
                reference: Self.ref, estimate: Self.est, relation: PoseRelation(rawValue: c.relation)!, options: o,
                settings: EvaluationSettings(alignment: AlignmentMethod(rawValue: c.align)!))
            #expect(r.pairs == c.pairs)
            #expect(close(r.statistics, c.stats), "\(c.align) \(c.relation) \(c.delta!)\(c.deltaUnit!)")
        }
    }

    /// The in-memory entry points (trajectories, not paths) give evo's numbers too.
    @Test func inMemoryTrajectoriesMatchEvo() throws {
        let ref = try readTrajectory(at: Self.ref.path).trajectory, est = try readTrajectory(at: Self.est.path).trajectory
        for c in Self.evo.ape where c.align == "se3" {
            let r = try evaluateAPE(
                reference: ref, estimate: est, relation: PoseRelation(rawValue: c.relation)!,
                settings: EvaluationSettings(alignment: .se3))
            #expect(r.pairs == c.pairs)
            #expect(close(r.statistics, c.stats), "se3 \(c.relation)")
            #expect(r.referencePath == "reference" && r.estimatePath == "estimate")
        }
        for c in Self.evo.rpe where c.relation == "translation_part" && c.align == "none" && c.deltaUnit == "f" {
            let o = RPEOptions(delta: c.delta!, unit: .frames, allPairs: c.allPairs!, pairing: c.pairsFromReference! ? .reference : .evo)
            let r = try evaluateRPE(reference: ref, estimate: est, options: o)
            #expect(r.pairs == c.pairs)
            #expect(close(r.statistics, c.stats), "rpe \(c.delta!)f")
        }
    }

    @Test func yawAlignmentSitsBetweenNoneAndSE3() throws {
        // 4-DoF cannot beat the 6-DoF optimum on positions, and must beat no alignment.
        let none = try evaluateAPE(reference: Self.ref, estimate: Self.est).statistics.rmse
        let se3 = try evaluateAPE(reference: Self.ref, estimate: Self.est, settings: EvaluationSettings(alignment: .se3)).statistics.rmse
        let yaw = try evaluateAPE(reference: Self.ref, estimate: Self.est, settings: EvaluationSettings(alignment: .yaw)).statistics.rmse
        #expect(se3 <= yaw + 1e-12 && yaw <= none)
    }

    @Test func errorsNameTheInputs() throws {
        do {
            _ = try evaluateAPE(reference: Self.ref, estimate: Self.est, settings: EvaluationSettings(offset: 1000))
            Issue.record("expected no pairs")
        } catch {
            guard case .association = error else { Issue.record("wrong error \(error)"); return }
            #expect(error.description.contains(Self.ref.path) && error.description.contains(Self.est.path))
            #expect(error.description.contains("0.01 s") && error.description.contains("1000.0 s"))
        }
        do {
            _ = try evaluateAPE(reference: TrajectorySource(path: "/nonexistent.tum"), estimate: Self.est)
            Issue.record("expected an input error")
        } catch { #expect(error.description.hasPrefix("/nonexistent.tum: ")) }
        // The two files are read side by side; when both fail the reference's error is the one
        // reported (as when they were read in turn), and an estimate that fails alone is named.
        for _ in 0..<20 {
            do {
                _ = try evaluateAPE(
                    reference: TrajectorySource(path: "/nonexistent-ref.tum"), estimate: TrajectorySource(path: "/nonexistent-est.tum"))
                Issue.record("expected an input error")
            } catch { #expect(error.description.hasPrefix("/nonexistent-ref.tum: ")) }
        }
        do {
            _ = try evaluateAPE(reference: Self.ref, estimate: TrajectorySource(path: "/nonexistent-est.tum"))
            Issue.record("expected an input error")
        } catch { #expect(error.description.hasPrefix("/nonexistent-est.tum: ")) }
    }

    @Test func kittiWithoutTimesPairsByIndex() throws {
        let dir = NSTemporaryDirectory() + "nb-kitti-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let t = try readTrajectory(at: Self.est.path).trajectory
        try writeKITTI(t, to: dir + "/a.kitti")
        try writeKITTI(t, to: dir + "/b.kitti")
        let r = try evaluateAPE(reference: TrajectorySource(path: dir + "/a.kitti"), estimate: TrajectorySource(path: dir + "/b.kitti"))
        #expect(r.pairs == t.count && r.statistics.max < 1e-12)
    }

    @Test func simplifySweep() throws {
        let r = try simplifyTrajectory(Self.ref, tolerances: [0.05, 0.2], distance: .segment, plane: .xyz)
        #expect(r.count == 2 && r[0].keptCount >= r[1].keptCount && r[1].keptIndices.first == 0)
        #expect(throws: EvaluationError.route(.invalidTolerance(-1))) { try simplifyTrajectory(Self.ref, tolerances: [-1]) }
    }
}
