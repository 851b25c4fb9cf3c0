import NavCore
import NavSignal
import NavTestSupport
import Testing

/// Butterworth designs and filtering against scipy.signal (butter, lfilter, lfilter_zi,
/// filtfilt, sosfilt, sosfilt_zi, sosfiltfilt).
@Suite struct ButterworthTests {
    static let designs = (1...8).map { "low\($0)" } + (1...8).map { "high\($0)" } + (1...4).map { "band\($0)" }

    /// The band stored with a fixture group: type low/high/band (or scipy's names), cutoffs.
    func band(_ g: String) -> FilterBand {
        switch refString("type", g) {
        case "low", "lowpass": return .lowpass(cutoff: refAttr("cutoff", g))
        case "high", "highpass": return .highpass(cutoff: refAttr("cutoff", g))
        default: return .bandpass(low: refAttr("cutoff", g), high: refAttr("cutoff_high", g))
        }
    }

    @Test(arguments: designs)
    func coefficientsEqualScipy(_ name: String) throws {
        let g = "/butter/\(name)"
        let order = Int(refAttr("order", g))
        let tf = try Butterworth.transferFunction(order: order, band: band(g), sampleRate: 100)
        // Coefficients of a polynomial with roots near 1 vary over many orders of magnitude:
        // compare each to scipy's within 1e-9 of the largest.
        expectMatches(tf.b, ref(g + "/b"), "\(name) b")
        expectMatches(tf.a, ref(g + "/a"), "\(name) a")
        let sos = try Butterworth.sections(order: order, band: band(g), sampleRate: 100)
        expectMatches(sos.sections.flatMap { $0 }, ref(g + "/sos"), "\(name) sos")
    }

    static let cases = ["seeded_low4", "seeded_high3", "seeded_band2", "seeded_low8", "broad_low4"]

    @Test(arguments: cases)
    func filteringEqualsScipy(_ name: String) throws {
        let g = "/filter/\(name)"
        let x = ref("/inputs/" + refString("input", g))
        let rate = refAttr("rate", g)
        let b = band(g)
        let order = Int(refAttr("order", g))
        let tf = try Butterworth.transferFunction(order: order, band: b, sampleRate: rate)
        let sos = try Butterworth.sections(order: order, band: b, sampleRate: rate)

        let zi = try LinearFilter.steadyStateInitialConditions(tf)
        expectMatches(zi, ref(g + "/lfilter_zi"), "\(name) lfilter_zi")
        expectMatches(try LinearFilter.lfilter(tf, x).output, ref(g + "/lfilter"), "\(name) lfilter")
        expectMatches(
            try LinearFilter.lfilter(tf, x, initialState: zi.map { $0 * x[0] }).output,
            ref(g + "/lfilter_steady"), "\(name) lfilter with zi")
        expectMatches(try LinearFilter.filtfilt(tf, x), ref(g + "/filtfilt"), "\(name) filtfilt")

        let szi = try SecondOrderFilter.steadyStateInitialConditions(sos)
        expectMatches(szi.flatMap { $0 }, ref(g + "/sosfilt_zi"), "\(name) sosfilt_zi")
        expectMatches(try SecondOrderFilter.sosfilt(sos, x).output, ref(g + "/sosfilt"), "\(name) sosfilt")
        expectMatches(
            try SecondOrderFilter.sosfilt(sos, x, initialState: szi.map { $0.map { $0 * x[0] } }).output,
            ref(g + "/sosfilt_steady"), "\(name) sosfilt with zi")
        expectMatches(try SecondOrderFilter.sosfiltfilt(sos, x), ref(g + "/sosfiltfilt"), "\(name) sosfiltfilt")
    }

    @Test func badDesignsAreOneLineErrors() {
        #expect(throws: SignalError.invalidParameter(name: "cutoff", value: "60.0", expected: "0 < cutoff < rate/2 = 50.0 Hz")) {
            try Butterworth.sections(order: 4, band: .lowpass(cutoff: 60), sampleRate: 100)
        }
        #expect(throws: SignalError.invalidParameter(name: "order", value: "0", expected: "an integer 1–40")) {
            try Butterworth.sections(order: 0, band: .lowpass(cutoff: 5), sampleRate: 100)
        }
        #expect(throws: SignalError.tooShort(samples: 10, needed: 15, reason: "zero-phase filtering with padding 15")) {
            try LinearFilter.filtfilt(
                try Butterworth.transferFunction(order: 4, band: .lowpass(cutoff: 5), sampleRate: 100), [Double](repeating: 1, count: 10))
        }
    }
}
