import NavCore

/// Filtering with second-order sections, as `scipy.signal.sosfilt`, `sosfilt_zi` and
/// `sosfiltfilt`. Each section is a direct form II transposed biquad:
///   y = b₀x + z₀;  z₀ ← b₁x − a₁y + z₁;  z₁ ← b₂x − a₂y.
public enum SecondOrderFilter {
    /// Causal filtering; `initialState` is one (z₀, z₁) pair per section (zeros by default).
    ///
    /// - Complexity: O(n · sections).
    public static func sosfilt(_ sos: SecondOrderSections, _ x: [Double], initialState: [[Double]]? = nil) throws(SignalError) -> (
        output: [Double], finalState: [[Double]]
    ) {
        let s = try validated(sos)
        let m = s.count
        var z = [Double](repeating: 0, count: 2 * m)
        if let zi = initialState {
            guard zi.count == m, zi.allSatisfy({ $0.count == 2 }) else {
                throw .countMismatch(what: "initial state (2 per section)", expected: 2 * m, found: zi.map(\.count).reduce(0, +))
            }
            for i in 0..<m { z[2 * i] = zi[i][0]; z[2 * i + 1] = zi[i][1] }
        }
        var y = x
        if m <= 2 {
            // One or two sections (Butterworth order ≤ 4) with coefficients and state in
            // registers, sample-major as scipy (the sections' chains overlap).
            let r0 = s[0], r1 = m == 2 ? s[1] : [0, 0, 0, 1, 0, 0]
            let b00 = r0[0], b01 = r0[1], b02 = r0[2], a01 = r0[4], a02 = r0[5]
            let b10 = r1[0], b11 = r1[1], b12 = r1[2], a11 = r1[4], a12 = r1[5]
            var z00 = z[0], z01 = z[1], z10 = m == 2 ? z[2] : 0, z11 = m == 2 ? z[3] : 0
            y.withUnsafeMutableBufferPointer { y in
                if m == 1 {
                    for n in 0..<y.count {
                        let cur = y[n]
                        let out = b00 * cur + z00
                        z00 = b01 * cur - a01 * out + z01
                        z01 = b02 * cur - a02 * out
                        y[n] = out
                    }
                } else {
                    for n in 0..<y.count {
                        let cur = y[n]
                        let mid = b00 * cur + z00
                        z00 = b01 * cur - a01 * mid + z01
                        z01 = b02 * cur - a02 * mid
                        let out = b10 * mid + z10
                        z10 = b11 * mid - a11 * out + z11
                        z11 = b12 * mid - a12 * out
                        y[n] = out
                    }
                }
            }
            z[0] = z00; z[1] = z01
            if m == 2 { z[2] = z10; z[3] = z11 }
        } else {
            let flat = s.flatMap { $0 }
            flat.withUnsafeBufferPointer { c in
                z.withUnsafeMutableBufferPointer { z in
                    y.withUnsafeMutableBufferPointer { y in
                        for n in 0..<y.count {
                            var cur = y[n]
                            for i in 0..<m {
                                let out = c[6 * i] * cur + z[2 * i]
                                z[2 * i] = c[6 * i + 1] * cur - c[6 * i + 4] * out + z[2 * i + 1]
                                z[2 * i + 1] = c[6 * i + 2] * cur - c[6 * i + 5] * out
                                cur = out
                            }
                            y[n] = cur
                        }
                    }
                }
            }
        }
        let finalState: [[Double]] = (0..<m).map { (i: Int) -> [Double] in [z[2 * i], z[2 * i + 1]] }
        return (y, finalState)
    }

    /// Steady-state initial conditions for a unit step (`sosfilt_zi`): each section's
    /// `lfilter_zi` scaled by the DC gain of the sections before it.
    public static func steadyStateInitialConditions(_ sos: SecondOrderSections) throws(SignalError) -> [[Double]] {
        let s = try validated(sos)
        var scale = 1.0
        var out: [[Double]] = []
        for row in s {
            let tf = TransferFunction(b: Array(row[0..<3]), a: Array(row[3..<6]))
            out.append(try LinearFilter.steadyStateInitialConditions(tf).map { $0 * scale })
            scale *= (row[0] + row[1] + row[2]) / (row[3] + row[4] + row[5])
        }
        return out
    }

    /// Zero-phase filtering (`sosfiltfilt`, odd padding of 3·(2·sections + 1 − trailing zero
    /// coefficients) samples unless `padLength` is given).
    ///
    /// - Complexity: O(n · sections).
    public static func sosfiltfilt(_ sos: SecondOrderSections, _ x: [Double], padLength: Int? = nil) throws(SignalError) -> [Double] {
        let s = try validated(sos)
        var taps = 2 * s.count + 1
        taps -= min(s.filter { $0[2] == 0 }.count, s.filter { $0[5] == 0 }.count)
        let edge = padLength ?? 3 * taps
        guard x.count > edge else { throw .tooShort(samples: x.count, needed: edge, reason: "zero-phase filtering with padding \(edge)") }
        let ext = oddExtension(x, edge: edge)
        let zi = try steadyStateInitialConditions(sos)
        var (y, _) = try sosfilt(sos, ext, initialState: zi.map { $0.map { $0 * ext[0] } })
        y.reverse()
        let y0 = y[0]
        var (back, _) = try sosfilt(sos, y, initialState: zi.map { $0.map { $0 * y0 } })
        back.reverse()
        return Array(back[edge..<(back.count - edge)])
    }

    static func validated(_ sos: SecondOrderSections) throws(SignalError) -> [[Double]] {
        guard !sos.sections.isEmpty, sos.sections.allSatisfy({ $0.count == 6 }) else {
            throw .invalidParameter(name: "sos", value: "\(sos.sections.count) sections", expected: "rows of 6 coefficients (b0 b1 b2 a0 a1 a2)")
        }
        // Normalise each section by its a₀ (scipy requires a₀ = 1; we divide).
        return try sos.sections.map { (row: [Double]) throws(SignalError) -> [Double] in
            guard row[3] != 0 else { throw .invalidParameter(name: "sos", value: "\(row)", expected: "a0 ≠ 0 in every section") }
            return row.map { $0 / row[3] }
        }
    }
}
