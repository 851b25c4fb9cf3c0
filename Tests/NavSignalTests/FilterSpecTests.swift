import Foundation
import NavCore
import NavIO
import NavSignal
import NavTestSupport
import Testing

@Suite struct FilterSpecTests {
    @Test func unknownNamesAndParametersListTheChoices() {
        #expect(
            throws: FilterSpecError(
                spec: "buter", problem: "unknown filter 'buter'; valid: mean, circmean, ema, butter, kalman, kalman-cv, kalman-heading")
        ) {
            try FilterSpec(parsing: "buter")
        }
        #expect(
            throws: FilterSpecError(
                spec: "butter:foo=1", problem: "'butter' has no parameter 'foo'; valid: order, cutoff, low, high, type, zero-phase, ba, angle")
        ) {
            try FilterSpec(parsing: "butter:foo=1")
        }
        #expect(throws: FilterSpecError(spec: "kalman:q=x,r=1", problem: "q=x: expected a number")) {
            try FilterSpec(parsing: "kalman:q=x,r=1").apply([1, 2], timestamps: [0, 1], sampleRate: 1)
        }
        #expect(throws: FilterSpecError(spec: "butter:order=4,cutoff=80", problem: "cutoff=80.0: expected 0 < cutoff < rate/2 = 50.0 Hz")) {
            try FilterSpec(parsing: "butter:order=4,cutoff=80").apply(ref("/inputs/seeded"), timestamps: ref("/inputs/seeded_t"), sampleRate: 100)
        }
    }

    /// A spec gives the same numbers as the scipy reference it names.
    @Test func specsEqualTheirReferences() throws {
        let x = ref("/inputs/seeded"), t = ref("/inputs/seeded_t")
        let zp = try FilterSpec(parsing: "butter:order=4,cutoff=5,zero-phase").apply(x, timestamps: t, sampleRate: 100)
        expectMatches(zp, ref("/filter/seeded_low4/sosfiltfilt"), "butter zero-phase (sos)")
        let ba = try FilterSpec(parsing: "butter:order=4,cutoff=5,zero-phase,ba").apply(x, timestamps: t, sampleRate: 100)
        expectMatches(ba, ref("/filter/seeded_low4/filtfilt"), "butter zero-phase (ba)")
        let causal = try FilterSpec(parsing: "butter:order=3,cutoff=0.5,type=high").apply(x, timestamps: t, sampleRate: 100)
        expectMatches(causal, ref("/filter/seeded_high3/sosfilt_steady"), "butter causal from steady state")
        expectMatches(try FilterSpec(parsing: "mean:window=25").apply(x, timestamps: t, sampleRate: 100), ref("/means/causal25"), "mean")
        expectMatches(try FilterSpec(parsing: "ema:tau=0.5").apply(x, timestamps: t, sampleRate: 100), ref("/ema/seeded"), "ema")
        let rssi = ref("/kalman/rssi")
        expectMatches(
            try FilterSpec(parsing: "kalman:q=0.01,r=4").apply(rssi, timestamps: rssi.indices.map(Double.init), sampleRate: 1),
            ref("/kalman/random_walk"), "kalman")
    }

    /// `angle` filters on (sin, cos): a heading oscillating across north stays near north.
    @Test func angleFlagHandlesTheWrap() throws {
        let h = (0..<400).map { k in wrapDegrees360(8 * sin(Double(k) / 10)) }
        let t = h.indices.map { Double($0) / 10 }
        let plain = try FilterSpec(parsing: "mean:window=50").apply(h, timestamps: t, sampleRate: 10)
        let angle = try FilterSpec(parsing: "mean:window=50,angle").apply(h, timestamps: t, sampleRate: 10)
        #expect(plain[200...].contains { abs(wrapDegrees180($0)) > 90 })  // the arithmetic mean lands near 180°
        #expect(angle[200...].allSatisfy { abs(wrapDegrees180($0)) < 8.5 })
    }
}
