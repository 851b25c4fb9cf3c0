import NavCore
import NavSignal
import NavTestSupport
import Testing

@Suite struct AllanDeviationTests {
    @Test(arguments: ["broad_gyr_x", "seeded_gyro"])
    func overlappingAllanDeviationEqualsAllantools(_ name: String) throws {
        let g = "/spectral/oadev_" + name
        let x = name == "seeded_gyro" ? ref("/inputs/seeded_gyro") : ref("/inputs/broad_gyr_x")
        let points = try AllanDeviation.overlapping(rates: x, sampleRate: refAttr("rate", g))
        expectMatches(points.map(\.tau), ref(g + "/taus"), "taus", tolerance: 1e-12)
        expectMatches(points.map(\.deviation), ref(g + "/adev"), "adev")
        #expect(points.map { Double($0.count) } == ref(g + "/n"))
    }

    /// A rate from a flag or from timestamps far apart may be tiny: the period 1/fs must be
    /// finite (5e-324 Hz: refused, it trapped converting an infinite τ·fs to an integer), and a
    /// tiny usable rate (1e-100 Hz; at 1e-300 the phase squares overflow, as in allantools) gives the closed form of a change of time unit: the same deviations
    /// (σ does not depend on fs for rate data) at τ scaled by 1/fs.
    @Test func tinySampleRates() throws {
        let x = ref("/inputs/seeded_gyro")
        #expect(throws: SignalError.self) { try AllanDeviation.overlapping(rates: x, sampleRate: .leastNonzeroMagnitude) }
        let unit = try AllanDeviation.overlapping(rates: x, sampleRate: 1)
        let tiny = try AllanDeviation.overlapping(rates: x, sampleRate: 1e-100)
        #expect(tiny.map(\.count) == unit.map(\.count))
        for (a, b) in zip(tiny, unit) {
            #expect(abs(a.tau / 1e100 - b.tau) <= 1e-12 * b.tau)
            #expect(abs(a.deviation - b.deviation) <= 1e-12 * b.deviation)
        }
    }
}
