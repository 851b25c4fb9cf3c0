/// What the largest power of a spectrum inside a band is: a peak (a dominant frequency), or the
/// band's edge (the spectrum still rising past it: no dominant frequency in the band), and
/// whether a peak at half or twice its frequency competes (a walking spectrum's stride and step
/// rates: the step rate is twice the stride rate).
public struct SpectralPeak: Sendable, Equatable {
    /// The frequency of the largest power in the band (refined by a parabola through three bins
    /// when it is a peak), Hz.
    public var frequency: Double
    /// The largest power lies on the band's first or last bin and rises beyond it (or the band
    /// ends at the spectrum's end there): not a peak.
    public var isBandEdge: Bool
    /// A local maximum near half the frequency (within two bins) with at least `harmonicShare`
    /// of the peak's power: the peak may be a harmonic (steps) of that one (strides), Hz.
    public var subharmonic: Double?
    /// A local maximum near twice the frequency with at least `harmonicShare` of its power, Hz.
    public var harmonic: Double?

    /// Power share above which a half or double frequency counts as competing.
    public static let harmonicShare = 0.25

    /// The largest power of `r` in [low, high]; nil when the band holds no bin.
    ///
    /// - Complexity: O(bins).
    public init?(_ r: Welch.Result, low: Double, high: Double) {
        let f = r.frequencies, p = r.power
        let idx = f.indices.filter { f[$0] >= low && f[$0] <= high }
        guard let first = idx.first, let last = idx.last, let k = idx.max(by: { p[$0] < p[$1] }) else { return nil }
        let rising = (k == first && k > 0 && p[k - 1] > p[k]) || (k == last && k + 1 < p.count && p[k + 1] > p[k])
        isBandEdge = rising || ((k == first || k == last) && (k == 0 || k == p.count - 1))
        frequency = isBandEdge ? f[k] : (Welch.dominantFrequency(r, low: low, high: high) ?? f[k])
        let df = f.count > 1 ? f[1] - f[0] : 0
        func competitor(near target: Double) -> Double? {
            guard df > 0 else { return nil }
            let candidates = f.indices.filter { i in
                i > 0 && i < p.count - 1 && abs(f[i] - target) <= 2 * df && p[i] >= p[i - 1] && p[i] >= p[i + 1]
                    && p[i] >= SpectralPeak.harmonicShare * p[k] && i != k
            }
            return candidates.max { p[$0] < p[$1] }.map { f[$0] }
        }
        subharmonic = isBandEdge ? nil : competitor(near: frequency / 2)
        harmonic = isBandEdge ? nil : competitor(near: frequency * 2)
    }

    /// One line for `psd`: "1.7188 Hz", "none: the largest power is at the band's edge (0.59 Hz) …", with the
    /// competing frequencies named.
    public func describe(low: Double, high: Double) -> String {
        func hz(_ x: Double) -> String { String(format: "%.4f Hz", x) }
        if isBandEdge {
            return
                "none: the largest power in \(low)–\(high) Hz is at the band's edge (\(hz(frequency))) and rises beyond it; widen --band or look at the spectrum"
        }
        var s = hz(frequency)
        if let sub = subharmonic {
            s +=
                " — also a peak at \(hz(sub)), half of it: \(hz(frequency)) may be its harmonic (walking: the step rate over the stride rate, or two acceleration peaks per step); check it against a step count"
        } else if let h = harmonic {
            s += " — also a peak at \(hz(h)), twice it (walking: the stride rate under the step rate, or two acceleration peaks per step)"
        }
        return s
    }
}
