import NavSpectral
import NavTestSupport
import Testing

@Suite struct SpectralTests {
    @Test(arguments: [1000, 1024, 4097])
    func rfftEqualsNumpy(_ n: Int) {
        let x = ref("/spectral/rfft\(n)_in")
        let X = RealFFT.forward(x)
        expectMatches(X.map(\.real), ref("/spectral/rfft\(n)_re"), "re")
        expectMatches(X.map(\.imaginary), ref("/spectral/rfft\(n)_im"), "im")
    }

    @Test(arguments: ["seeded_256_density", "seeded_1024_spectrum", "seeded_255_density", "broad_512_density"])
    func welchEqualsScipy(_ name: String) throws {
        let g = "/spectral/welch_" + name
        let x = ref("/inputs/" + refString("input", g))
        let r = try Welch.psd(
            x, sampleRate: refAttr("rate", g), segmentLength: Int(refAttr("nperseg", g)),
            scaling: Welch.Scaling(rawValue: refString("scaling", g))!)
        expectMatches(r.frequencies, ref(g + "/f"), "frequencies", tolerance: 1e-12)
        expectMatches(r.power, ref(g + "/p"), "power")
    }

    /// The seeded signal's strongest component in 0.5–5 Hz is the 1.9 Hz "cadence".
    @Test func dominantFrequencyFindsCadence() throws {
        let r = try Welch.psd(ref("/inputs/seeded"), sampleRate: 100, segmentLength: 2048)
        let f = try #require(Welch.dominantFrequency(r))
        #expect(abs(f - 1.9) < 0.02)
    }
}
