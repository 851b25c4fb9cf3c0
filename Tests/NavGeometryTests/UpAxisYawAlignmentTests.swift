import NavCore
import NavGeometry
import RealModule
import Testing

/// 4-DoF alignment about any up axis: a known rotation about the axis and translation are
/// recovered exactly (closed form), rpg's single-pose posyaw, n-to-align, up-axis inference.
@Suite struct UpAxisYawAlignmentTests {
    static func cloud(_ n: Int, seed: UInt64) -> [Vector3] {
        var rng = SeededRandom(seed: seed)
        return (0..<n).map { _ in Vector3(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-1, 1)) }
    }

    @Test(arguments: UpAxis.allCases)
    func recoversRotationAboutEachAxis(_ axis: UpAxis) throws {
        let x = Self.cloud(200, seed: 7)
        let r = rotation(about: axis, angle: 0.5236)
        let t = Vector3(1.5, -2, 0.25)
        let y = x.map { r * $0 + t }
        let s = try yawAlignment(source: x, target: y, about: axis)
        for (a, b) in zip(x, y) { #expect((s.act(on: a) - b).norm < 1e-12) }
        #expect(abs(s.scale - 1) == 0)
        // The rotation fixes the axis.
        #expect((s.rotation * axis.vector - axis.vector).norm < 1e-15)
    }

    @Test func yAxisEqualsTheARKitYawAlignment() throws {
        let x = Self.cloud(50, seed: 8), y = Self.cloud(50, seed: 9)
        let a = try yawAlignment(source: x, target: y, about: .y), b = try yawAlignment(source: x, target: y)
        #expect((a.translation - b.translation).norm < 1e-12)
        for (ra, rb) in zip([a.rotation.row0, a.rotation.row1, a.rotation.row2], [b.rotation.row0, b.rotation.row1, b.rotation.row2]) {
            #expect((ra - rb).norm < 1e-12)
        }
    }

    @Test func wrongAxisCannotAlign() throws {
        let x = Self.cloud(200, seed: 7)
        let y = x.map { rotation(about: .z, angle: 0.5236) * $0 }
        let s = try yawAlignment(source: x, target: y, about: .y)
        let worst = zip(x, y).map { (s.act(on: $0) - $1).norm }.max()!
        #expect(worst > 0.1)
    }

    @Test func posyawSinglePoseUsesTheOrientation() throws {
        // Estimate = reference turned 40° about z, tilted frames: rpg's single-pose rule
        // recovers the 40° from the first orientation alone.
        let q0 = Quaternion(axis: Vector3(1, 0.2, 0), angle: 0.3)
        let ref = Pose(rotation: q0, translation: Vector3(1, 2, 3))
        let turn = Similarity3(rotation: rotation(about: .z, angle: -0.698), translation: Vector3(0.5, 0, -1), scale: 1)
        let est = turn.apply(to: ref)
        let s = yawAlignment(estimateFirst: est, referenceFirst: ref, about: .z)
        let back = s.apply(to: est)
        #expect((back.translation - ref.translation).norm < 1e-12)
        #expect((back.rotation.conjugate * ref.rotation).angle < 1e-12)
        let viaMethod = try alignmentTransform(reference: [ref, ref], estimate: [est, est], method: .posyaw, upAxis: .z, count: 1)
        #expect((viaMethod.translation - s.translation).norm == 0)
    }

    @Test func nToAlignUsesTheFirstPairsOnly() throws {
        // The first 10 estimate poses are an exact rotated copy, the rest are off by 1 m:
        // aligning on 10 pairs maps the first 10 exactly.
        let x = Self.cloud(40, seed: 11)
        let r = rotation(about: .z, angle: 1.1)
        var y = x.map { r * $0 }
        for i in 10..<40 { y[i] += Vector3(1, 0, 0) }
        let est = x.map { Pose(rotation: .identity, translation: $0) }, ref = y.map { Pose(rotation: .identity, translation: $0) }
        for m in [AlignmentMethod.se3, .yaw] {
            let s = try alignmentTransform(reference: ref, estimate: est, method: m, upAxis: .z, count: 10)
            for i in 0..<10 { #expect((s.act(on: x[i]) - y[i]).norm < 1e-9, "\(m)") }
            let all = try alignmentTransform(reference: ref, estimate: est, method: m, upAxis: .z)
            #expect((all.act(on: x[0]) - y[0]).norm > 1e-3)
        }
    }

    @Test func infersTheFlattestAxis() {
        #expect(inferUpAxis(Self.cloud(100, seed: 3)) == .z)
        #expect(inferUpAxis(Self.cloud(100, seed: 3).map { Vector3($0.x, $0.z, $0.y) }) == .y)
        var rng = SeededRandom(seed: 4)
        let ball = (0..<100).map { _ in Vector3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)) }
        #expect(inferUpAxis(ball) == nil)
    }
}
