import Foundation
import NavCore
import Numerics

/// Which band a digital IIR filter passes, with cutoffs in Hz.
public enum FilterBand: Sendable, Equatable {
    case lowpass(cutoff: Double)
    case highpass(cutoff: Double)
    case bandpass(low: Double, high: Double)
}

/// Zeros, poles and gain of a digital filter H(z) = k · Π(z − zᵢ) / Π(z − pᵢ).
public struct ZeroPoleGain: Sendable {
    public var zeros: [Complex<Double>]
    public var poles: [Complex<Double>]
    public var gain: Double
}

/// Transfer-function coefficients b (numerator) and a (denominator), a₀ = 1.
public struct TransferFunction: Sendable, Equatable {
    public var b: [Double]
    public var a: [Double]
    public init(b: [Double], a: [Double]) { self.b = b; self.a = a }
}

/// A cascade of biquads; each row is (b₀, b₁, b₂, 1, a₁, a₂), as scipy's `sos`.
public struct SecondOrderSections: Sendable, Equatable {
    public var sections: [[Double]]
    public init(_ sections: [[Double]]) { self.sections = sections }
}

/// Digital Butterworth design, step for step as `scipy.signal.butter(N, Wn, btype, fs=fs)`:
/// analog prototype poles pₘ = −exp(iπm / 2N), m = −N+1, −N+3, …, N−1 (`buttap`); pre-warp
/// ω = 4·tan(π·Wn/2) with Wn = 2f/fs (bilinear with fs = 2); frequency transform
/// (`lp2lp_zpk`, `lp2hp_zpk`, `lp2bp_zpk`); bilinear transform z = (4 + s)/(4 − s)
/// (`bilinear_zpk`).
public enum Butterworth {
    public static func zpk(order: Int, band: FilterBand, sampleRate fs: Double) throws(SignalError) -> ZeroPoleGain {
        guard order >= 1, order <= 40 else { throw .invalidParameter(name: "order", value: String(order), expected: "an integer 1–40") }
        guard fs > 0, fs.isFinite else { throw .invalidParameter(name: "rate", value: "\(fs)", expected: "a sample rate > 0 Hz") }
        func normalised(_ f: Double, _ name: String) throws(SignalError) -> Double {
            let wn = 2 * f / fs
            guard wn > 0, wn < 1 else {
                throw .invalidParameter(name: name, value: "\(f)", expected: "0 < cutoff < rate/2 = \(fs / 2) Hz")
            }
            return 4 * tan(.pi * wn / 2)
        }
        // buttap
        var poles: [Complex<Double>] = stride(from: -order + 1, to: order, by: 2).map { m in
            -Complex.exp(Complex(0, Double.pi * Double(m) / Double(2 * order)))
        }
        var zeros: [Complex<Double>] = []
        var k = 1.0
        let degree = order
        switch band {
        case let .lowpass(cutoff):
            let wo = try normalised(cutoff, "cutoff")
            poles = poles.map { $0 * Complex(wo) }
            k *= pow(wo, Double(degree))
        case let .highpass(cutoff):
            let wo = try normalised(cutoff, "cutoff")
            // k · Re(Π(−z) / Π(−p)) with no zeros
            let prodNegP = poles.reduce(Complex<Double>.one) { $0 * -$1 }
            k *= (Complex<Double>.one / prodNegP).real
            poles = poles.map { Complex(wo) / $0 }
            zeros = Array(repeating: .zero, count: degree)
        case let .bandpass(low, high):
            guard low < high else { throw .invalidParameter(name: "cutoff", value: "\(low)-\(high)", expected: "low < high") }
            let w1 = try normalised(low, "low"), w2 = try normalised(high, "high")
            let bw = w2 - w1, wo = (w1 * w2).squareRoot()
            let lp = poles.map { $0 * Complex(bw / 2) }
            let woSquared = Complex(wo * wo)
            poles = lp.map { $0 + Complex.sqrt($0 * $0 - woSquared) } + lp.map { $0 - Complex.sqrt($0 * $0 - woSquared) }
            zeros = Array(repeating: .zero, count: degree)
            k *= pow(bw, Double(degree))
        }
        // bilinear_zpk with fs = 2 (fs2 = 4)
        let fs2 = Complex(4.0)
        let relativeDegree = poles.count - zeros.count
        let numerator = zeros.reduce(Complex<Double>.one) { $0 * (fs2 - $1) }
        let denominator = poles.reduce(Complex<Double>.one) { $0 * (fs2 - $1) }
        k *= (numerator / denominator).real
        let zz = zeros.map { (fs2 + $0) / (fs2 - $0) } + Array(repeating: Complex(-1.0), count: relativeDegree)
        let pz = poles.map { (fs2 + $0) / (fs2 - $0) }
        return ZeroPoleGain(zeros: zz, poles: pz, gain: k)
    }

    /// (b, a) as `butter(..., output='ba')`.
    public static func transferFunction(order: Int, band: FilterBand, sampleRate: Double) throws(SignalError) -> TransferFunction {
        let z = try zpk(order: order, band: band, sampleRate: sampleRate)
        return z.transferFunction
    }

    /// Second-order sections as `butter(..., output='sos')` (scipy's 'nearest' pairing).
    public static func sections(order: Int, band: FilterBand, sampleRate: Double) throws(SignalError) -> SecondOrderSections {
        try zpk(order: order, band: band, sampleRate: sampleRate).secondOrderSections
    }
}

extension ZeroPoleGain {
    /// b = k·poly(z), a = poly(p), real parts (`zpk2tf`).
    public var transferFunction: TransferFunction {
        TransferFunction(b: polynomial(zeros).map { $0.real * gain }, a: polynomial(poles).map(\.real))
    }

    /// scipy's `zpk2sos(z, p, k, pairing='nearest')`: repeatedly take the pole closest to the
    /// unit circle, pair it with its conjugate (or the next real pole) and with the nearest
    /// zeros; sections are filled from the last, so the poles nearest the circle come last;
    /// the gain goes into the first section.
    public var secondOrderSections: SecondOrderSections {
        var z = zeros, p = poles
        if z.count < p.count { z += Array(repeating: .zero, count: p.count - z.count) }
        if p.count < z.count { p += Array(repeating: .zero, count: z.count - p.count) }
        let nSections = (max(p.count, z.count) + 1) / 2
        if p.count % 2 == 1 { p.append(.zero); z.append(.zero) }
        z = conjugateRepresentatives(z)
        p = conjugateRepresentatives(p)
        func isReal(_ c: Complex<Double>) -> Bool { c.imaginary == 0 }
        func worst(_ c: [Complex<Double>]) -> Int {
            var best = 0
            for i in c.indices where abs(1 - c[i].length) < abs(1 - c[best].length) { best = i }
            return best
        }
        func nearest(_ from: [Complex<Double>], to target: Complex<Double>, realOnly: Bool? = nil) -> Int {
            let order = from.indices.sorted { (from[$0] - target).length < (from[$1] - target).length }
            switch realOnly {
            case nil: return order[0]
            case true?: return order.first { isReal(from[$0]) }!
            case false?: return order.first { !isReal(from[$0]) }!
            }
        }
        var sos = [[Double]](repeating: [0, 0, 0, 1, 0, 0], count: nSections)
        for si in stride(from: nSections - 1, through: 0, by: -1) {
            let p1 = p.remove(at: worst(p))
            if isReal(p1) && !p.contains(where: isReal) {
                let z1 = z.remove(at: nearest(z, to: p1, realOnly: true))
                sos[si] = section([z1, .zero], [p1, .zero])
            } else if p.count + 1 == z.count && !isReal(p1) && p.filter(isReal).count == 1 && z.filter(isReal).count == 1 {
                let z1 = z.remove(at: nearest(z, to: p1, realOnly: false))
                sos[si] = section([z1, z1.conjugate], [p1, p1.conjugate])
            } else {
                var p2 = p1.conjugate
                if isReal(p1) {
                    let realIdx = p.indices.filter { isReal(p[$0]) }
                    let j = realIdx[worst(realIdx.map { p[$0] })]
                    p2 = p.remove(at: j)
                }
                if !z.isEmpty {
                    let z1 = z.remove(at: nearest(z, to: p1))
                    if !isReal(z1) {
                        sos[si] = section([z1, z1.conjugate], [p1, p2])
                    } else if !z.isEmpty {
                        let z2 = z.remove(at: nearest(z, to: p1, realOnly: true))
                        sos[si] = section([z1, z2], [p1, p2])
                    } else {
                        sos[si] = section([z1], [p1, p2])
                    }
                } else {
                    sos[si] = section([], [p1, p2])
                }
            }
        }
        for j in 0..<3 { sos[0][j] *= gain }
        return SecondOrderSections(sos)
    }
}

/// One biquad from up to two zeros and poles, right-aligned as scipy's `_single_zpksos`.
private func section(_ z: [Complex<Double>], _ p: [Complex<Double>]) -> [Double] {
    var row = [Double](repeating: 0, count: 6)
    let b = polynomial(z).map(\.real), a = polynomial(p).map(\.real)
    for (i, v) in b.enumerated() { row[3 - b.count + i] = v }
    for (i, v) in a.enumerated() { row[6 - a.count + i] = v }
    return row
}

/// Coefficients of Π(x − rᵢ), highest power first (`numpy.poly`: successive convolutions).
func polynomial(_ roots: [Complex<Double>]) -> [Complex<Double>] {
    var c: [Complex<Double>] = [.one]
    for r in roots {
        var next = [Complex<Double>](repeating: .zero, count: c.count + 1)
        for i in c.indices {
            next[i] = next[i] + c[i]
            next[i + 1] = next[i + 1] + c[i] * -r
        }
        c = next
    }
    return c
}

/// scipy's `_cplxreal`: one representative (positive imaginary part, averaged with the
/// conjugate) per complex pair sorted by real part, then the real values sorted; the
/// representatives come first. Tolerance 100·ε·|z|.
func conjugateRepresentatives(_ values: [Complex<Double>]) -> [Complex<Double>] {
    let tol = 100 * Double.ulpOfOne
    let sorted = values.sorted { ($0.real, abs($0.imaginary)) < ($1.real, abs($1.imaginary)) }
    var reals: [Complex<Double>] = [], positive: [Complex<Double>] = [], negative: [Complex<Double>] = []
    for v in sorted {
        if abs(v.imaginary) <= tol * v.length {
            reals.append(Complex(v.real, 0))
        } else if v.imaginary > 0 {
            positive.append(v)
        } else {
            negative.append(v)
        }
    }
    // Within runs of equal real part, order by |imag| (already the sort's second key).
    let pairs = zip(positive, negative).map { Complex(($0.real + $1.real) / 2, ($0.imaginary - $1.imaginary) / 2) }
    return pairs + reals
}
