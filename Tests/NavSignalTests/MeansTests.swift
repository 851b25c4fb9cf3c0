import Foundation
import NavCore
import NavSignal
import NavTestSupport
import Testing

@Suite struct MeansTests {
    let x = ref("/inputs/seeded")

    @Test func movingAveragesEqualNumpy() throws {
        expectMatches(try MovingAverage.causal(x, window: 25), ref("/means/causal25"), "causal 25")
        expectMatches(try MovingAverage.centred(x, window: 25), ref("/means/centred25"), "centred 25 (np.convolve same)")
        expectMatches(MovingAverage.expanding(x), ref("/means/expanding"), "expanding")
        expectMatches(try MovingAverage.causal(ref("/inputs/broad_acc_x"), window: 101), ref("/means/broad_causal101"), "BROAD causal 101")
    }

    /// The brief's example: 350° and 10° average to 0° on the circle, 180° arithmetically.
    @Test func circularMeanAcrossNorth() {
        #expect(abs(MovingAverage.mean([350, 10]) - 180) < 1e-12)
        let c = CircularStatistics.mean([350, 10])
        #expect(min(c, 360 - c) < 1e-9)
    }

    @Test func circularStatisticsEqualScipy() {
        let h = ref("/inputs/coremotion_heading")
        #expect(abs(CircularStatistics.mean(h) - refAttr("heading_mean", "/circular")) < 1e-9)
        #expect(abs(CircularStatistics.standardDeviation(h) - refAttr("heading_std", "/circular")) < 1e-9)
        let north = ref("/circular/north_scatter")
        #expect(abs(CircularStatistics.mean(north) - refAttr("north_mean", "/circular")) < 1e-9)
        #expect(abs(CircularStatistics.standardDeviation(north) - refAttr("north_std", "/circular")) < 1e-9)
        // Around north the arithmetic mean is far off; the circular one is within a degree.
        #expect(abs(MovingAverage.mean(north) - refAttr("north_arith_mean", "/circular")) < 1e-9)
        let m = CircularStatistics.mean(north)
        #expect(min(m, 360 - m) < 1.5)
        #expect(abs(MovingAverage.mean(north) - 180) < 60)
        // Expanding circular mean: compare on the circle (359.99° vs 0.01° is a 0.02° error).
        let ours = CircularStatistics.expandingMean(north), theirs = ref("/circular/north_expanding")
        let worst = zip(ours, theirs).map { abs(wrapDegrees180($0 - $1)) }.max()!
        #expect(worst < 1e-9)
    }

    @Test func exponentialLowPassEqualsLfilter() throws {
        let t = ref("/inputs/seeded_t")
        let f = try ExponentialLowPass(timeConstant: refAttr("tau", "/ema"))
        expectMatches(try f.apply(x, timestamps: t), ref("/ema/seeded"), "ema uniform")
    }

    /// Irregular sampling, closed form: a unit step at t₀ gives yₖ = 1 − exp(−(tₖ − t₀)/τ).
    @Test func exponentialLowPassIrregularStep() throws {
        let t = [0.0, 0.013, 0.05, 0.051, 0.3, 0.31, 1.7, 2.0]
        let x = [0.0] + Array(repeating: 1.0, count: t.count - 1)
        let y = try ExponentialLowPass(timeConstant: 0.4).apply(x, timestamps: t)
        for k in 1..<t.count {
            #expect(abs(y[k] - (1 - exp(-t[k] / 0.4))) < 1e-14)
        }
    }
}
