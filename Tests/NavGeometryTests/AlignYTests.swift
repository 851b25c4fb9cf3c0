import NavCore
import NavGeometry
import Testing

/// Clew's alignY: y-column onto world up, translation kept, yaw kept.
@Suite struct AlignYTests {
    @Test func removesTiltKeepsYawAndTranslation() {
        var rng = SeededRandom(seed: 21)
        for _ in 0..<200 {
            let yaw = rng.uniform(-.pi, .pi)
            let tilt = Quaternion(axis: Vector3(rng.gaussian(), 0, rng.gaussian()), angle: rng.uniform(0, 1.2))
            let pose = Pose(rotation: Quaternion(yaw: yaw) * tilt, translation: randomVector(&rng, scale: 4))
            let a = alignY(pose)
            #expect((a.rotation.act(on: Vector3(0, 1, 0)) - Vector3(0, 1, 0)).norm < 1e-15)
            #expect(a.translation == pose.translation)
            #expect(abs(a.rotation.norm - 1) < 1e-15)
            // The shortest arc from the tilted up axis to up: the result differs from the input
            // by that rotation only, so the input's up axis maps back.
            let u = pose.rotation.act(on: Vector3(0, 1, 0))
            let back = a.rotation * pose.rotation.conjugate
            #expect((back.act(on: u) - Vector3(0, 1, 0)).norm < 1e-12)
        }
    }

    @Test func pureYawIsUnchanged() {
        for yaw in stride(from: -3.0, through: 3.0, by: 0.5) {
            let pose = Pose(rotation: Quaternion(yaw: yaw), translation: Vector3(1, 2, 3))
            #expect(angleBetween(alignY(pose).rotation, pose.rotation) < 1e-7)
            #expect(abs(Angle.wrapToPi(yawAngle(of: alignY(pose).rotation) - yaw)) < 1e-12)
        }
    }

    @Test func upsideDownIsDefined() {
        let pose = Pose(rotation: Quaternion(axis: Vector3(1, 0, 0), angle: .pi), translation: .zero)
        let a = alignY(pose)
        #expect((a.rotation.act(on: Vector3(0, 1, 0)) - Vector3(0, 1, 0)).norm < 1e-12)
        #expect(a.rotation.isFinite)
    }
}
