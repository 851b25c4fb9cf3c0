import Foundation
import NavCore
import NavGeometry
import NavMetrics
import Testing

/// Orientation error with world and body alignment against scipy.spatial.transform.Rotation
/// (fixtures from scripts/make_attitude_fixtures.py): W and B recovered on exact data, the
/// statistics of noisy data equal to scipy's, the tilt a yaw alignment cannot remove, and the
/// refusals (B not observable, bad quaternions, too few pairs).
@Suite struct OrientationAlignmentTests {
    struct Statistics: Decodable { var rmse, mean, median, std, min, max, sse: Double; var n: Int }
    struct Case: Decodable {
        var name, reference, align, body, upAxis: String
        var trueWorld, trueBody, expectedWorld, expectedBody: [Double]
        var statistics: Statistics?
    }
    struct OneAxis: Decodable { var reference, estimate: [[Double]] }
    struct Fixture: Decodable {
        var estimate: [[Double]]
        var references: [String: [[Double]]]
        var cases: [Case]
        var oneAxis: OneAxis
    }

    static func load() throws -> Fixture { try loadFixture("attitude/attitude_reference.json", as: Fixture.self) }

    /// A stored (x, y, z, w) quaternion.
    static func quaternion(_ v: [Double]) -> Quaternion { Quaternion(x: v[0], y: v[1], z: v[2], w: v[3]) }

    /// The angle between two rotations, radians.
    static func distance(_ a: Quaternion, _ b: Quaternion) -> Double { (a.conjugate * b).normalized.angle }

    static func options(_ c: Case) throws -> OrientationAlignmentOptions {
        let body: BodyRotation
        switch c.body {
        case "estimate": body = .estimate
        case "given": body = .given(quaternion(c.trueBody))
        default: body = .none
        }
        return OrientationAlignmentOptions(
            world: try #require(WorldAlignment(rawValue: c.align)), upAxis: try #require(UpAxis(rawValue: c.upAxis)), body: body)
    }

    static func run(_ f: Fixture, _ c: Case) throws -> OrientationErrors {
        let reference = try #require(f.references[c.reference]).map(quaternion)
        return try orientationErrors(reference: reference, estimate: f.estimate.map(quaternion), options: options(c))
    }

    /// Noise-free: W and B come back to 1e-9 rad of the true ones and every error is ≤ 1e-9°.
    @Test(arguments: ["exact_yaw_body", "exact_full_body", "tilt_full"])
    func exactDataIsRecovered(_ name: String) throws {
        let f = try Self.load()
        let c = try #require(f.cases.first { $0.name == name })
        let r = try Self.run(f, c)
        #expect(Self.distance(r.alignment.world, Self.quaternion(c.trueWorld)) <= 1e-9)
        #expect(Self.distance(r.alignment.body, Self.quaternion(c.trueBody)) <= 1e-9)
        #expect(r.errors.count == 120 && r.errors.allSatisfy { $0 <= 1e-9 }, "\(r.errors.max() ?? .nan)")
    }

    /// Noisy: the statistics equal scipy's within 1e-9 relative, W and B its estimates within 1e-9 rad.
    @Test(arguments: ["noisy_yaw_body", "noisy_full_body", "noisy_full", "noisy_yaw_given_body", "noisy_none", "tilt_yaw"])
    func noisyStatisticsEqualScipys(_ name: String) throws {
        let f = try Self.load()
        let c = try #require(f.cases.first { $0.name == name })
        let e = try #require(c.statistics)
        let r = try Self.run(f, c)
        let s = r.statistics
        for (ours, theirs) in [(s.rmse, e.rmse), (s.mean, e.mean), (s.median, e.median), (s.min, e.min), (s.max, e.max), (s.sse, e.sse)] {
            #expect(abs(ours - theirs) <= 1e-9 * abs(theirs), "\(name): \(ours) vs scipy \(theirs)")
        }
        // std of the tilt case is rounding noise around 0 (every error is 7.5°): absolute there.
        #expect(abs(s.std - e.std) <= 1e-9 * Swift.max(abs(e.std), name == "tilt_yaw" ? 1 : 0), "\(name): std \(s.std) vs \(e.std)")
        #expect(s.count == e.n)
        #expect(Self.distance(r.alignment.world, Self.quaternion(c.expectedWorld)) <= 1e-9)
        #expect(Self.distance(r.alignment.body, Self.quaternion(c.expectedBody)) <= 1e-9)
    }

    /// A world offset W = R_y(ψ)·R_h(τ) with h horizontal: a yaw alignment finds ψ and leaves
    /// exactly |τ| in every error (tr(R_y(δ)·R_h(τ)) = cos τ + cos δ·(1 + cos τ) is largest at
    /// δ = 0, and then R_refᵀ·W·R_est = R_estᵀ·R_h(−τ)·R_est turns by |τ|).
    @Test func yawAlignmentLeavesTheTilt() throws {
        let f = try Self.load()
        let c = try #require(f.cases.first { $0.name == "tilt_yaw" })
        let r = try Self.run(f, c)
        #expect(r.errors.allSatisfy { abs($0 - 7.5) <= 1e-9 })
        let yaw = Quaternion(axis: Vector3(0, 1, 0), angle: -23 * Double.pi / 180)
        #expect(Self.distance(r.alignment.world, yaw) <= 1e-12)
        #expect(r.statistics.std <= 1e-9 && abs(r.statistics.rmse - 7.5) <= 1e-9)
    }

    /// Orientations that all turn about +y: B cannot be told from W (yaw or full) and is refused,
    /// naming the excitation; with W = I it has a closed form and is estimated.
    @Test func bodyRotationAboutOneAxisIsRefused() throws {
        let f = try Self.load()
        let ref = f.oneAxis.reference.map(Self.quaternion), est = f.oneAxis.estimate.map(Self.quaternion)
        for world in [WorldAlignment.full, .yaw] {
            #expect {
                try orientationErrors(reference: ref, estimate: est, options: OrientationAlignmentOptions(world: world, body: .estimate))
            } throws: { error in
                guard case let .bodyUnobservable(x, minimum, w)? = error as? OrientationAlignmentError else { return false }
                let text = (error as? OrientationAlignmentError)?.description ?? ""
                return x < 1e-6 && minimum == .pi / 180 && w == world && !text.contains("\n")
                    && text.hasPrefix("body rotation not observable with --align \(world.rawValue): ")
            }
        }
        let given = try orientationErrors(reference: ref, estimate: est, options: OrientationAlignmentOptions(world: .full, body: .given(.identity)))
        #expect(given.errors.count == 120)
        let noWorld = try orientationErrors(reference: ref, estimate: est, options: OrientationAlignmentOptions(world: .none, body: .estimate))
        #expect(noWorld.alignment.excitation == nil)
    }

    /// The excitation is arccos of the mean orientation's largest singular value: about the
    /// rms tilt when orientations wobble about one axis.
    @Test func excitationIsReported() throws {
        let f = try Self.load()
        let c = try #require(f.cases.first { $0.name == "noisy_full_body" })
        let r = try Self.run(f, c)
        let x = try #require(r.alignment.excitation)
        #expect(x > 1 && x <= .pi / 2)  // random orientations: far from one axis
        #expect(r.alignment.iterations >= 1)
    }

    @Test func badQuaternionsAndTooFewPairsAreOneLine() throws {
        let f = try Self.load()
        var est = f.estimate.map(Self.quaternion)
        let ref = try #require(f.references["noisy_yaw"]).map(Self.quaternion)
        est[4] = Quaternion(x: est[4].x * 1.1, y: est[4].y * 1.1, z: est[4].z * 1.1, w: est[4].w * 1.1)
        #expect(throws: OrientationAlignmentError.notUnit(stream: "estimate", index: 4, norm: est[4].norm)) {
            try orientationErrors(reference: ref, estimate: est)
        }
        est[4] = Quaternion(x: .nan, y: 0, z: 0, w: 1)
        do {
            _ = try orientationErrors(reference: ref, estimate: est)
            Issue.record("a NaN quaternion was accepted")
        } catch {
            #expect(error.description == "estimate orientation 4: quaternion norm nan; expected a finite unit quaternion (|‖q‖ − 1| ≤ 1e-06)")
        }
        #expect(throws: OrientationAlignmentError.tooFewPairs(count: 2, needed: 3)) {
            try orientationErrors(reference: Array(ref.prefix(2)), estimate: Array(est.prefix(2)))
        }
        #expect(OrientationAlignmentError.tooFewPairs(count: 2, needed: 3).description == "2 matched orientation pairs; expected at least 3")
    }
}
