// Filters on a signal in memory: navbench filter (filter specs) and navbench psd (Welch).
import Foundation
import NavSignal  // FilterSpec, ExponentialLowPass
import NavSpectral  // Welch

func require(_ ok: Bool, _ what: String) { if !ok { print("FAIL: \(what)"); exit(1) } }

do {
    // 10 s at 100 Hz: a 1 Hz sway plus a 15 Hz vibration of half its amplitude.
    let fs = 100.0, t = (0..<1000).map { Double($0) / fs }
    let clean = t.map { sin(2 * .pi * $0) }, x = t.map { sin(2 * .pi * $0) + 0.5 * sin(2 * .pi * 15 * $0) }

    let butter = try FilterSpec(parsing: "butter:order=4,cutoff=5,zero-phase").apply(x, timestamps: t, sampleRate: fs)
    let ema = try FilterSpec(parsing: "ema:cutoff=2").apply(x, timestamps: t, sampleRate: fs)
    let emaDirect = try ExponentialLowPass(cutoff: 2).apply(x, timestamps: t)  // the same filter without a spec
    func rms(_ y: [Double]) -> Double {  // against the sway, away from the ends (1 s each)
        (y[100..<900].indices.map { (y[$0] - clean[$0]) * (y[$0] - clean[$0]) }.reduce(0, +) / 800).squareRoot()
    }
    let dominant = Welch.dominantFrequency(try Welch.psd(butter, sampleRate: fs, segmentLength: 256), low: 0.5, high: 20)
    print(
        String(
            format: "rms error: raw %.4f, butter %.2g, ema %.4f; dominant after butter %.3f Hz",
            rms(x), rms(butter), rms(ema), dominant ?? .nan))
    require(butter.count == x.count && ema.count == x.count, "each filtered signal has the input's length")
    require(rms(butter) < 1e-3 && rms(x) > 0.3, "the zero-phase Butterworth removes the 15 Hz vibration")
    require(ema == emaDirect, "the ema spec and ExponentialLowPass agree")
    require(abs((dominant ?? 0) - 1) < fs / 256, "the filtered signal's dominant frequency is 1 Hz")
} catch {
    print("FAIL: \(error)"); exit(1)
}
