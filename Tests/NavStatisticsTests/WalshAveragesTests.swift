import NavCore
import Testing

@testable import NavStatistics

/// `WalshAverages.orderStatistic` against a full sort of the n(n+1)/2 averages (the definition).
@Suite struct WalshAveragesTests {
    static func brute(_ d: [Double]) -> [Double] {
        var w: [Double] = []
        for i in d.indices { for j in d.indices where j >= i { w.append((d[i] + d[j]) / 2) } }
        return w.sorted()
    }

    /// Every order statistic of samples with ties, zeros, negatives and a wide range of scales.
    @Test(arguments: [1, 2, 3, 5, 17, 64])
    func everyOrderStatisticEqualsTheSortedAverages(_ n: Int) {
        var rng = SeededRandom(seed: 4_000 + UInt64(n))
        let d = (0..<n).map { i -> Double in
            let u = Double(rng.next() % 1_000_000) / 1_000_000
            switch i % 5 {
            case 0: return 0  // ties at zero
            case 1: return (u - 0.5) * 1e-12  // tiny
            case 2: return (u - 0.5) * 1e12  // huge
            case 3: return Double(Int(u * 4)) - 2  // integer ties
            default: return u - 0.3
            }
        }
        let w = Self.brute(d), walsh = WalshAverages(d)
        #expect(walsh.count == w.count)
        for k in 1...w.count {
            let x = walsh.orderStatistic(k)
            #expect(x == w[k - 1] && x.sign == (w[k - 1] == 0 ? .plus : w[k - 1].sign), "n=\(n) k=\(k): \(x) vs \(w[k - 1])")
        }
    }

    /// Hodges–Lehmann at a size where the old O(n²)-memory implementation held n(n+1)/2 averages:
    /// the estimate and both bounds equal the brute force's order statistics.
    @Test func largeSampleEqualsBruteForce() throws {
        var rng = SeededRandom(seed: 77)
        let n = 1_500
        let d = (0..<n).map { _ in Double(rng.next() >> 11) / Double(1 << 53) - 0.4 + (rng.next() % 7 == 0 ? 0 : 0.01) }
        let w = Self.brute(d)
        let hl = try #require(HodgesLehmann(differences: d))
        let m = w.count
        #expect(hl.estimate == (m % 2 == 1 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2))
        // Normal approximation C (n > 60), as documented.
        let nn = Double(n)
        let sigma = (nn * (nn + 1) * (2 * nn + 1) / 24).squareRoot()
        let c = Int((nn * (nn + 1) / 4 - StandardNormal.quantile(0.975) * sigma + 0.5).rounded(.down))
        #expect(hl.low == w[c - 1])
        #expect(hl.high == w[m - c])
    }
}
