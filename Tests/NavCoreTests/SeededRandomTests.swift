import NavCore
import Testing

@Suite struct SeededRandomTests {
    /// Reference outputs of Vigna's splitmix64.c for seed 0.
    @Test func matchesReferenceSplitMix64() {
        var g = SeededRandom(seed: 0)
        #expect(g.next() == 0xe220_a839_7b1d_cdaf)
        #expect(g.next() == 0x6e78_9e6a_a1b9_65f4)
        #expect(g.next() == 0x06c4_5d18_8009_454f)
    }

    /// Mean and variance of 200,000 normals within 5 standard errors of 0 and 1.
    @Test func gaussianMoments() {
        var g = SeededRandom(seed: 42, label: "moments")
        let n = 200_000
        var s = 0.0, s2 = 0.0
        for _ in 0..<n { let x = g.gaussian(); s += x; s2 += x * x }
        let mean = s / Double(n), variance = s2 / Double(n) - mean * mean
        #expect(abs(mean) < 5 / Double(n).squareRoot())
        #expect(abs(variance - 1) < 5 * (2 / Double(n)).squareRoot())
    }

    @Test func labelsGiveIndependentStreams() {
        var a = SeededRandom(seed: 1, label: "R1_nav1"), b = SeededRandom(seed: 1, label: "R1_nav2")
        #expect(a.next() != b.next())
    }
}
