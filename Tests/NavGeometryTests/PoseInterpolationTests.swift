import NavCore
import NavGeometry
import Testing

/// slerp and trajectory interpolation (evo's conventions).
@Suite struct PoseInterpolationTests {
    @Test func slerpMovesAlongTheArc() {
        let a = Quaternion(yaw: 0.2), b = Quaternion(yaw: 1.4)
        for f in [0.0, 0.25, 0.5, 0.9, 1.0] {
            let q = slerp(a, b, fraction: f)
            #expect(abs(yawAngle(of: q) - (0.2 + f * 1.2)) < 1e-14)
            #expect(abs(q.norm - 1) < 1e-15)
        }
        // Shorter arc: q and −q are the same rotation.
        let nb = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w)
        #expect(abs(yawAngle(of: slerp(a, nb, fraction: 0.5)) - 0.8) < 1e-14)
        // Identical rotations.
        #expect(slerp(a, a, fraction: 0.3) == a)
    }

    @Test func slerpAngleIsFractionOfTheWhole() {
        var rng = SeededRandom(seed: 31)
        for _ in 0..<100 {
            let a = randomRotation(&rng), b = randomRotation(&rng)
            let whole = angleBetween(a, b)
            let f = rng.uniform()
            #expect(abs(angleBetween(a, slerp(a, b, fraction: f)) - f * whole) < 1e-9)
        }
    }

    @Test func trajectoryInterpolationClampsOutside() throws {
        let t = try Trajectory(
            timestamps: [0, 1, 2],
            poses: [
                Pose(translation: Vector3(0, 0, 0)), Pose(rotation: Quaternion(yaw: 1), translation: Vector3(1, 0, 0)),
                Pose(translation: Vector3(1, 0, 2)),
            ])
        let out = interpolate(t, at: [-1, 0.5, 1.5, 2, 5])
        #expect(out[0].translation == Vector3(0, 0, 0))
        #expect((out[1].translation - Vector3(0.5, 0, 0)).norm < 1e-15)
        #expect(abs(yawAngle(of: out[1].rotation) - 0.5) < 1e-14)
        #expect((out[2].translation - Vector3(1, 0, 1)).norm < 1e-15)
        #expect(out[3].translation == Vector3(1, 0, 2))
        #expect(out[4].translation == Vector3(1, 0, 2))
    }
}
