import NavCore
import NavGeometry
import Testing

/// The 3×3 one-sided Jacobi SVD meets its documented contract.
@Suite struct SVD3Tests {
    func check(_ a: Matrix3, _ label: String) {
        let s = SVD3(a)
        let sv = s.singularValues
        #expect(sv.x >= sv.y && sv.y >= sv.z && sv.z >= 0, "\(label): \(sv)")
        let scale = max(a.frobeniusNorm, 1e-300)
        #expect((s.reconstructed - a).frobeniusNorm <= 1e-14 * scale, "\(label): reconstruction")
        #expect((s.u.transpose * s.u - .identity).frobeniusNorm <= 1e-14, "\(label): U orthogonal")
        #expect((s.v.transpose * s.v - .identity).frobeniusNorm <= 1e-14, "\(label): V orthogonal")
    }

    @Test func randomMatrices() {
        var rng = SeededRandom(seed: 1)
        for i in 0..<500 {
            check(Matrix3(rows: randomVector(&rng), randomVector(&rng), randomVector(&rng)), "random \(i)")
        }
    }

    @Test func rankDeficientAndSpecial() {
        var rng = SeededRandom(seed: 2)
        for i in 0..<100 {
            let a = randomVector(&rng), b = randomVector(&rng), c = randomVector(&rng)
            check(Matrix3.outer(a, b), "rank 1 \(i)")
            check(Matrix3.outer(a, b) + Matrix3.outer(c, a), "rank 2 \(i)")
        }
        check(.zero, "zero")
        check(.identity, "identity")
        check(Matrix3.diagonal(Vector3(1, 1, 1e-12)), "nearly singular")
        check(Matrix3.diagonal(Vector3(2, 2, 1)), "repeated")
        check(Matrix3(0, 1, 0, 0, 0, 1, 1, 0, 0), "permutation")
        let s = SVD3(Matrix3.diagonal(Vector3(-3, 1, 2)))
        #expect(s.singularValues == Vector3(3, 2, 1))
    }
}
