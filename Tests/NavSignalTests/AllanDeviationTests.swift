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
}
