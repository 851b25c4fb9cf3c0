import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import NavReport
import Testing

/// Files with repeated timestamps (as real TUM RGB-D and EuRoC ground truths) against evo
/// 1.38.1 (`scripts/make_evo_timestamp_fixtures.py`): the same associated index pairs and
/// statistics within 1e-9, with and without --t-offset and --n-to-align.
@Suite struct DuplicateTimestampTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let fixtures = root + "/Tests/NavMetricsTests/Fixtures"

    struct Stats: Decodable { var rmse, mean, median, std, min, max, sse: Double }
    struct Association: Decodable { var tOffset: Double; var referenceIndices: [Int]; var estimateIndices: [Int] }
    struct APECase: Decodable { var tOffset: Double; var align: String; var nToAlign: Int; var relation: String; var pairs: Int; var stats: Stats }
    struct RPECase: Decodable {
        var tOffset: Double; var align: String; var delta: Double; var deltaUnit: String; var allPairs: Bool; var pairs: Int; var stats: Stats
    }
    struct Interp: Decodable { var pairs: Int; var stats: Stats }
    struct Dataset: Decodable {
        var reference: String, estimate: String
        var referenceDuplicates: Int, estimateDuplicates: Int
        var association: [Association], ape: [APECase], rpe: [RPECase]
        var interpolationApeTranslation: Interp
    }
    struct Fixture: Decodable { var datasets: [String: Dataset] }
    static let evo: [String: Dataset] = {
        let dec = JSONDecoder()
        dec.keyDecodingStrategy = .convertFromSnakeCase
        let data = try! Data(contentsOf: URL(fileURLWithPath: fixtures + "/duplicates/evo_duplicates.json"))
        return try! dec.decode(Fixture.self, from: data).datasets
    }()

    func within(_ s: ErrorStatistics, _ e: Stats, _ tol: Double = 1e-9) -> Bool {
        [(s.rmse, e.rmse), (s.mean, e.mean), (s.median, e.median), (s.std, e.std), (s.min, e.min), (s.max, e.max), (s.sse, e.sse)]
            .allSatisfy { abs($0 - $1) <= tol * Swift.max(1, abs($1)) }
    }

    func sources(_ d: Dataset) -> (TrajectorySource, TrajectorySource) {
        (TrajectorySource(path: Self.fixtures + "/" + d.reference), TrajectorySource(path: Self.fixtures + "/" + d.estimate))
    }

    @Test(arguments: ["tum", "euroc"])
    func sameAssociationAsEvo(_ name: String) throws {
        let d = Self.evo[name]!
        let (r, e) = sources(d)
        for a in d.association {
            let p = try prepareTrajectoryPair(reference: r, estimate: e, settings: EvaluationSettings(offset: a.tOffset))
            #expect(p.associated.referenceIndices == a.referenceIndices, "\(name) offset \(a.tOffset)")
            #expect(p.associated.estimateIndices == a.estimateIndices, "\(name) offset \(a.tOffset)")
            #expect(p.reference.duplicateTimestamps == d.referenceDuplicates)
            #expect(p.estimate.duplicateTimestamps == d.estimateDuplicates)
            #expect(p.context.warnings.count == (d.referenceDuplicates > 0 ? 1 : 0) + (d.estimateDuplicates > 0 ? 1 : 0))
        }
    }

    @Test(arguments: ["tum", "euroc"])
    func apeEqualsEvo(_ name: String) throws {
        let d = Self.evo[name]!
        let (r, e) = sources(d)
        for c in d.ape {
            let s = EvaluationSettings(
                alignment: AlignmentMethod(rawValue: c.align)!, offset: c.tOffset, alignCount: c.nToAlign < 0 ? nil : c.nToAlign)
            let rep = try evaluateAPE(reference: r, estimate: e, relation: PoseRelation(rawValue: c.relation)!, settings: s)
            #expect(rep.pairs == c.pairs)
            #expect(within(rep.statistics, c.stats), "\(name) \(c.align) n=\(c.nToAlign) \(c.relation) offset \(c.tOffset)")
        }
    }

    @Test(arguments: ["tum", "euroc"])
    func rpeEqualsEvo(_ name: String) throws {
        let d = Self.evo[name]!
        let (r, e) = sources(d)
        for c in d.rpe {
            let o = RPEOptions(delta: c.delta, unit: c.deltaUnit == "f" ? .frames : .metres, allPairs: c.allPairs)
            let rep = try evaluateRPE(
                reference: r, estimate: e, options: o,
                settings: EvaluationSettings(alignment: AlignmentMethod(rawValue: c.align)!, offset: c.tOffset))
            #expect(rep.pairs == c.pairs, "\(name) \(c.align) \(c.delta)\(c.deltaUnit) all=\(c.allPairs)")
            #expect(within(rep.statistics, c.stats), "\(name) \(c.align) \(c.delta)\(c.deltaUnit) all=\(c.allPairs) offset \(c.tOffset)")
        }
    }

    @Test(arguments: ["tum", "euroc"])
    func interpolationEqualsEvo(_ name: String) throws {
        let d = Self.evo[name]!
        let (r, e) = sources(d)
        let rep = try evaluateAPE(reference: r, estimate: e, settings: EvaluationSettings(association: .interpolation))
        #expect(rep.pairs == d.interpolationApeTranslation.pairs)
        #expect(within(rep.statistics, d.interpolationApeTranslation.stats))
    }

    @Test func gzipReadsTheSameValues() throws {
        let plain = try readTrajectory(at: Self.fixtures + "/duplicates/tum_groundtruth.tum")
        let packed = try readTrajectory(at: Self.fixtures + "/duplicates/tum_groundtruth.tum.gz")
        #expect(packed.format == .tum)
        #expect(packed.trajectory.timestamps == plain.trajectory.timestamps)
        #expect(packed.trajectory.poses.values == plain.trajectory.poses.values)
        #expect(packed.duplicateTimestamps == 12)
    }

    @Test func truncatedGzipIsOneLineError() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/duplicates/tum_groundtruth.tum.gz"))
        let path = NSTemporaryDirectory() + "navbench-truncated-\(getpid()).tum.gz"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TraceError.self) { try readTrajectory(at: path) }
        do { _ = try readTrajectory(at: path) } catch {
            #expect(error.description.contains("truncated"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func decreasingStampIsStillAnError() throws {
        let path = NSTemporaryDirectory() + "navbench-decreasing-\(getpid()).tum"
        try "1 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1\n1.5 0 0 0 0 0 0 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do { _ = try readTrajectory(at: path); Issue.record("accepted a decreasing stamp") } catch {
            #expect(error.description == "\(path): line 4: expected non-decreasing timestamps (repeats are accepted); 1.5 is before 2.0 (line 3)")
        }
    }
}

/// `--align yaw --up-axis z` on a z-up pair rotated about z (the issue's failing case).
@Suite struct UpAxisEvaluationTests {
    @Test func zUpPairRotatedAboutZAlignsExactly() throws {
        // Without the repeats (a repeated stamp pairs with the other pose of its run, as evo).
        let t = removingDuplicateTimestamps(try readTrajectory(at: DuplicateTimestampTests.fixtures + "/duplicates/tum_groundtruth.tum").trajectory)
            .trajectory
        let turn = Similarity3(rotation: rotation(about: .z, angle: Double.pi / 6), translation: Vector3(3, -1, 0.5), scale: 1)
        let ref = NSTemporaryDirectory() + "navbench-zref-\(getpid()).tum", est = NSTemporaryDirectory() + "navbench-zturn-\(getpid()).tum"
        try writeTUM(t, to: ref)
        try writeTUM(Trajectory(timestamps: t.timestamps, poses: turn.apply(to: t.poses.values)), to: est)
        defer { try? FileManager.default.removeItem(atPath: est); try? FileManager.default.removeItem(atPath: ref) }
        let z = try evaluateAPE(
            reference: TrajectorySource(path: ref), estimate: TrajectorySource(path: est),
            settings: EvaluationSettings(alignment: .yaw, upAxis: .z))
        #expect(z.statistics.rmse < 1e-9)
        #expect(z.context.upAxisSource == "--up-axis")
        let y = try evaluateAPE(
            reference: TrajectorySource(path: ref), estimate: TrajectorySource(path: est),
            settings: EvaluationSettings(alignment: .yaw, upAxis: .y))
        #expect(y.statistics.rmse > 0.05)
        // auto: a TUM walk is flattest along z.
        let auto = try evaluateAPE(
            reference: TrajectorySource(path: ref), estimate: TrajectorySource(path: est),
            settings: EvaluationSettings(alignment: .yaw))
        #expect(auto.settings.upAxis == .z)
        #expect(auto.statistics.rmse < 1e-9)
        #expect(
            auto.text.hasPrefix(
                "up axis: z (auto: smallest spread of the reference positions)\n\nAPE w.r.t. translation part (m)\n(with 4-DoF yaw + translation alignment about +z)\n"
            ))
    }
}
