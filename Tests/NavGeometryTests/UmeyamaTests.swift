import NavCore
import NavGeometry
import Testing

/// Umeyama recovers a known similarity; degenerate inputs throw typed errors.
@Suite struct UmeyamaTests {
    @Test func recoversKnownRotationTranslationScale() throws {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<50 {
            let q = randomRotation(&rng)
            let r = Matrix3(q)
            let t = randomVector(&rng, scale: 10)
            let s = 0.5 + rng.uniform() * 2
            let x = (0..<20).map { _ in randomVector(&rng, scale: 5) }
            let y = x.map { s * (r * $0) + t }
            let sim = try umeyamaAlignment(source: x, target: y, withScale: true)
            #expect((sim.rotation - r).frobeniusNorm < 1e-12)
            #expect((sim.translation - t).norm < 1e-11)
            #expect(abs(sim.scale - s) < 1e-12)
            // Without scale: rotation still exact when the true scale is 1.
            let y1 = x.map { r * $0 + t }
            let se3 = try umeyamaAlignment(source: x, target: y1, withScale: false)
            #expect((se3.rotation - r).frobeniusNorm < 1e-12 && (se3.translation - t).norm < 1e-11 && se3.scale == 1)
            #expect(abs(se3.rotation.determinant - 1) < 1e-14)
        }
    }

    @Test func reflectionIsNeverReturned() throws {
        // Points mirrored in z: the best proper rotation, det +1.
        var rng = SeededRandom(seed: 8)
        let x = (0..<30).map { _ in randomVector(&rng) }
        let y = x.map { Vector3($0.x, $0.y, -$0.z) }
        let sim = try umeyamaAlignment(source: x, target: y, withScale: false)
        #expect(abs(sim.rotation.determinant - 1) < 1e-12)
    }

    @Test func degenerateInputsThrow() {
        let line = (0..<5).map { Vector3(Double($0), 0, 0) }
        #expect(throws: AlignmentError.self) { try umeyamaAlignment(source: line, target: line, withScale: false) }
        let same = Array(repeating: Vector3(1, 2, 3), count: 4)
        #expect(throws: AlignmentError.self) { try umeyamaAlignment(source: same, target: same, withScale: true) }
        #expect(throws: AlignmentError.tooFewPoints(count: 2, needed: 3)) {
            try umeyamaAlignment(source: Array(line.prefix(2)), target: Array(line.prefix(2)), withScale: false)
        }
        #expect(throws: AlignmentError.countMismatch(source: 5, target: 4)) {
            try umeyamaAlignment(source: line, target: Array(line.prefix(4)), withScale: false)
        }
    }

    @Test func appliesToPosesLikeEvo() throws {
        // evo scales the translation first, then applies (R, t): p' = R·(s·p) + t, R' = R·R_i.
        let sim = Similarity3(rotation: yawRotation(0.3), translation: Vector3(1, 2, 3), scale: 2)
        let pose = Pose(rotation: Quaternion(axis: Vector3(1, 0, 0), angle: 0.2), translation: Vector3(1, 0, 0))
        let out = sim.apply(to: pose)
        #expect((out.translation - (yawRotation(0.3) * Vector3(2, 0, 0) + Vector3(1, 2, 3))).norm < 1e-15)
        #expect(angleBetween(out.rotation, Quaternion(yaw: 0.3) * pose.rotation) < 1e-7)
    }
}
