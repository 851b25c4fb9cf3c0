import Foundation
import NavAids
import NavCore
import NavSignal
import Testing

@Suite struct HeadingCalibrationTests {
    /// A user turning from 90° toward north at 30°/s, readings at 10 Hz, then standing.
    func turning() -> (t: [Double], h: [Double]) {
        var t: [Double] = [], h: [Double] = []
        for k in 0..<200 { let time = Double(k) / 10; t.append(time); h.append(max(0, 90 - 30 * time)) }
        return (t, h)
    }

    @Test func findingNorthAndVolume() throws {
        let (t, h) = turning()
        let r = try calibrateHeading(compassTimes: t, headings: h, tiltTimes: [], tilts: [])
        // 90 − 30t ≤ 10 first at t = 2.7 s (2.6667 rounded up to the 10 Hz grid).
        #expect(r.northFoundAt == 2.7)
        #expect(r.volumes.count == 27)
        for (k, v) in r.volumes.enumerated() { #expect(abs(v - (90 - 30 * Double(k) / 10) / 180) < 1e-12) }
        #expect(isInWindow(355, start: 350, end: 10) && isInWindow(5, start: 350, end: 10) && !isInWindow(180, start: 350, end: 10))
    }

    /// Headings scattered around north: the article's arithmetic mean lands near 180°, the circular
    /// mean near 0° (the check), with a phone held facing north.
    @Test func circularMeanBeatsArithmeticNearNorth() throws {
        var rng = SeededRandom(seed: 4, label: "north")
        let t = (0..<120).map { Double($0) / 10 }
        let h = t.map { _ in wrapDegrees360(rng.gaussian() * 6) }
        var p = CalibrationParameters()
        p.countdownSeconds = 1
        p.estimator = "mean"
        let arithmetic = try calibrateHeading(compassTimes: t, headings: h, tiltTimes: [], tilts: [], parameters: p)
        p.estimator = "circmean"
        let circular = try calibrateHeading(compassTimes: t, headings: h, tiltTimes: [], tilts: [], parameters: p)
        let errArithmetic = abs(wrapDegrees180(arithmetic.offset!)), errCircular = abs(wrapDegrees180(circular.offset!))
        #expect(errArithmetic > 90)
        #expect(errCircular < 3)
        // The circular estimate is the circular mean of exactly the collected readings.
        let first = t.firstIndex { $0 >= 1 }!
        #expect(abs(wrapDegrees180(circular.offset! - CircularStatistics.mean(Array(h[first..<(first + 50)])))) < 1e-9)
    }

    @Test func criticalTiltAborts() throws {
        let t = (0..<120).map { Double($0) / 10 }
        let h = t.map { _ in 2.0 }
        let tilts = t.map { $0 > 5 && $0 < 5.3 ? 80.0 : 20.0 }
        var p = CalibrationParameters()
        p.countdownSeconds = 1
        let r = try calibrateHeading(compassTimes: t, headings: h, tiltTimes: t, tilts: tilts, parameters: p)
        #expect(r.offset == nil)
        #expect(r.abortReason == "critical tilt 80.0° at t=5.10 s")
        #expect(calibrationMetrics(r, trueOffset: 0).first { $0.name == "aborted" }?.value == 1)
    }

    @Test func unknownEstimatorIsOneLine() {
        var p = CalibrationParameters()
        p.estimator = "median"
        #expect(
            throws: FilterSpecError(
                spec: "median", problem: "unknown filter 'median'; valid: mean, circmean, ema, butter, kalman, kalman-cv, kalman-heading")
        ) {
            try calibrateHeading(compassTimes: [0], headings: [0], tiltTimes: [], tilts: [], parameters: p)
        }
    }
}
