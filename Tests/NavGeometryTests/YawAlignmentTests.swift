import NavCore
import NavGeometry
import Testing

/// 4-DoF yaw + translation alignment about +y.
@Suite struct YawAlignmentTests {
    @Test func recoversKnownYawAndTranslation() throws {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<50 {
            let yaw = rng.uniform(-.pi, .pi)
            let t = randomVector(&rng, scale: 20)
            let x = (0..<15).map { _ in randomVector(&rng, scale: 4) }
            let y = x.map { yawRotation(yaw) * $0 + t }
            let a = try yawAlignment(source: x, target: y)
            #expect((a.rotation - yawRotation(yaw)).frobeniusNorm < 1e-12)
            #expect((a.translation - t).norm < 1e-11)
            #expect(a.rotation.row1 == Vector3(0, 1, 0))  // the up axis is untouched
        }
    }

    @Test func tiltIsNotAbsorbed() throws {
        // Target tilted by 5° about x: SE(3) Umeyama absorbs the tilt, yaw alignment cannot,
        // so a tilt error stays visible in the residual.
        var rng = SeededRandom(seed: 12)
        let x = (0..<40).map { _ in randomVector(&rng, scale: 5) }
        let tilt = Matrix3(Quaternion(axis: Vector3(1, 0, 0), angle: 5 * .pi / 180))
        let y = x.map { tilt * $0 }
        let yawOnly = try yawAlignment(source: x, target: y)
        let full = try umeyamaAlignment(source: x, target: y, withScale: false)
        let residual = { (s: Similarity3) in zip(x, y).map { (s.act(on: $0) - $1).norm }.max()! }
        #expect(residual(full) < 1e-12)
        #expect(residual(yawOnly) > 0.1)
    }

    @Test func degenerate() {
        let pts = [Vector3(0, 0, 0), Vector3(0, 5, 0)]  // same floor position
        #expect(throws: AlignmentError.self) { try yawAlignment(source: pts, target: pts) }
        #expect(throws: AlignmentError.tooFewPoints(count: 1, needed: 2)) { try yawAlignment(source: [.zero], target: [.zero]) }
    }

    @Test func originAlignmentMovesFirstPoseOntoReference() {
        var rng = SeededRandom(seed: 13)
        let p0 = Pose(rotation: randomRotation(&rng), translation: randomVector(&rng, scale: 3))
        let q0 = Pose(rotation: randomRotation(&rng), translation: randomVector(&rng, scale: 3))
        let t = originAlignment(estimateFirst: p0, referenceFirst: q0)
        let moved = t.apply(to: p0)
        #expect((moved.translation - q0.translation).norm < 1e-12)
        #expect(angleBetween(moved.rotation, q0.rotation) < 1e-7)
    }
}
