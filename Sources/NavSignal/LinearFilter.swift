import NavCore

/// IIR/FIR filtering with a transfer function, as `scipy.signal.lfilter`, `lfilter_zi`
/// and `filtfilt`.
///
/// Direct form II transposed (scipy's recurrence), with a normalised so a₀ = 1:
///   yₙ = b₀xₙ + z₀
///   zᵢ ← b_{i+1}xₙ − a_{i+1}yₙ + z_{i+1}   (z past the end is 0)
public enum LinearFilter {
    /// Causal filtering. `initialState` (length max(len a, len b) − 1) defaults to zeros.
    ///
    /// - Returns: the output and the final state.
    /// - Complexity: O(n · order).
    public static func lfilter(_ tf: TransferFunction, _ x: [Double], initialState: [Double]? = nil) throws(SignalError) -> (
        output: [Double], finalState: [Double]
    ) {
        let (b, a) = try normalised(tf)
        let order = b.count - 1
        var z = initialState ?? [Double](repeating: 0, count: order)
        guard z.count == order else { throw .countMismatch(what: "initial state", expected: order, found: z.count) }
        var y = [Double](repeating: 0, count: x.count)
        if order == 0 {
            for n in x.indices { y[n] = b[0] * x[n] }
            return (y, [])
        }
        if order <= 4 {
            // Orders 1–4 (every Butterworth up to order 4, and band-pass order 2) with the
            // delay line in registers; the same operations in the same order as below.
            let bb = b + [Double](repeating: 0, count: 4 - order), aa = a + [Double](repeating: 0, count: 4 - order)
            var d = z + [Double](repeating: 0, count: 4 - order)
            let b0 = bb[0], b1 = bb[1], b2 = bb[2], b3 = bb[3], b4 = bb.count > 4 ? bb[4] : 0
            let a1 = aa[1], a2 = aa[2], a3 = aa[3], a4 = aa.count > 4 ? aa[4] : 0
            var z0 = d[0], z1 = d[1], z2 = d[2], z3 = d[3]
            x.withUnsafeBufferPointer { x in
                y.withUnsafeMutableBufferPointer { y in
                    switch order {
                    case 1:
                        for n in 0..<x.count { let xn = x[n]; let yn = b0 * xn + z0; z0 = b1 * xn - a1 * yn; y[n] = yn }
                    case 2:
                        for n in 0..<x.count {
                            let xn = x[n]; let yn = b0 * xn + z0
                            z0 = b1 * xn + z1 - a1 * yn; z1 = b2 * xn - a2 * yn; y[n] = yn
                        }
                    case 3:
                        for n in 0..<x.count {
                            let xn = x[n]; let yn = b0 * xn + z0
                            z0 = b1 * xn + z1 - a1 * yn; z1 = b2 * xn + z2 - a2 * yn; z2 = b3 * xn - a3 * yn; y[n] = yn
                        }
                    default:
                        for n in 0..<x.count {
                            let xn = x[n]; let yn = b0 * xn + z0
                            z0 = b1 * xn + z1 - a1 * yn; z1 = b2 * xn + z2 - a2 * yn
                            z2 = b3 * xn + z3 - a3 * yn; z3 = b4 * xn - a4 * yn; y[n] = yn
                        }
                    }
                }
            }
            d = [z0, z1, z2, z3]
            return (y, Array(d.prefix(order)))
        }
        b.withUnsafeBufferPointer { b in
            a.withUnsafeBufferPointer { a in
                z.withUnsafeMutableBufferPointer { z in
                    x.withUnsafeBufferPointer { x in
                        y.withUnsafeMutableBufferPointer { y in
                            for n in 0..<x.count {
                                let xn = x[n]
                                let yn = b[0] * xn + z[0]
                                for i in 0..<(order - 1) {
                                    z[i] = b[i + 1] * xn + z[i + 1] - a[i + 1] * yn
                                }
                                z[order - 1] = b[order] * xn - a[order] * yn
                                y[n] = yn
                            }
                        }
                    }
                }
            }
        }
        return (y, z)
    }

    /// Steady-state initial conditions for a unit step (`lfilter_zi`): solves
    /// (I − Aᵀ) zi = b[1:] − a[1:]·b₀, with A the companion matrix of a.
    ///
    /// - Complexity: O(order³) (Gaussian elimination with partial pivoting).
    public static func steadyStateInitialConditions(_ tf: TransferFunction) throws(SignalError) -> [Double] {
        let (b, a) = try normalised(tf)
        let n = a.count - 1
        if n == 0 { return [] }
        // (I − companion(a)ᵀ): companion row 0 = −a[1:], subdiagonal ones.
        var m = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        for i in 0..<n {
            for j in 0..<n {
                let companionT = (j == 0 ? -a[i + 1] : 0) + (i == j - 1 ? 1 : 0)  // (Cᵀ)ᵢⱼ = C_ji
                m[i][j] = (i == j ? 1 : 0) - companionT
            }
        }
        var rhs = (0..<n).map { b[$0 + 1] - a[$0 + 1] * b[0] }
        return solveLinearSystem(&m, &rhs)
    }

    /// Zero-phase filtering (`filtfilt` with `padtype='odd'`): extend both ends by odd
    /// reflection of `padLength` samples (default 3·max(len a, len b)), filter forward from
    /// steady state on the first sample, backward from steady state on the last, and trim.
    ///
    /// - Throws: `.tooShort` when the input has no more than `padLength` samples.
    /// - Complexity: O(n · order).
    public static func filtfilt(_ tf: TransferFunction, _ x: [Double], padLength: Int? = nil) throws(SignalError) -> [Double] {
        let edge = padLength ?? 3 * max(tf.a.count, tf.b.count)
        guard x.count > edge else { throw .tooShort(samples: x.count, needed: edge, reason: "zero-phase filtering with padding \(edge)") }
        let ext = oddExtension(x, edge: edge)
        let zi = try steadyStateInitialConditions(tf)
        var (y, _) = try lfilter(tf, ext, initialState: zi.map { $0 * ext[0] })
        y.reverse()
        let y0 = y[0]
        var (back, _) = try lfilter(tf, y, initialState: zi.map { $0 * y0 })
        back.reverse()
        return Array(back[edge..<(back.count - edge)])
    }

    static func normalised(_ tf: TransferFunction) throws(SignalError) -> (b: [Double], a: [Double]) {
        guard let a0 = tf.a.first, a0 != 0, a0.isFinite else {
            throw .invalidParameter(name: "a", value: "\(tf.a)", expected: "a denominator with a nonzero, finite first coefficient")
        }
        guard !tf.b.isEmpty else { throw .invalidParameter(name: "b", value: "[]", expected: "at least one numerator coefficient") }
        let n = max(tf.a.count, tf.b.count)
        let b = (tf.b + Array(repeating: 0, count: n - tf.b.count)).map { $0 / a0 }
        let a = (tf.a + Array(repeating: 0, count: n - tf.a.count)).map { $0 / a0 }
        return (b, a)
    }
}

/// Odd extension (`scipy.signal._arraytools.odd_ext`):
/// [2x₀ − x_edge … 2x₀ − x₁, x, 2x_{n−1} − x_{n−2} … 2x_{n−1} − x_{n−1−edge}].
public func oddExtension(_ x: [Double], edge: Int) -> [Double] {
    guard edge > 0 else { return x }
    let n = x.count
    var out = [Double]()
    out.reserveCapacity(n + 2 * edge)
    for i in stride(from: edge, through: 1, by: -1) { out.append(2 * x[0] - x[i]) }
    out.append(contentsOf: x)
    for i in 1...edge { out.append(2 * x[n - 1] - x[n - 1 - i]) }
    return out
}

/// Solves m·v = rhs in place by Gaussian elimination with partial pivoting.
func solveLinearSystem(_ m: inout [[Double]], _ rhs: inout [Double]) -> [Double] {
    let n = rhs.count
    for col in 0..<n {
        var pivot = col
        for r in (col + 1)..<max(col + 1, n) where abs(m[r][col]) > abs(m[pivot][col]) { pivot = r }
        m.swapAt(col, pivot); rhs.swapAt(col, pivot)
        let d = m[col][col]
        guard d != 0 else { continue }
        for r in (col + 1)..<max(col + 1, n) {
            let f = m[r][col] / d
            if f == 0 { continue }
            for c in col..<n { m[r][c] -= f * m[col][c] }
            rhs[r] -= f * rhs[col]
        }
    }
    var v = [Double](repeating: 0, count: n)
    for r in stride(from: n - 1, through: 0, by: -1) {
        var s = rhs[r]
        for c in (r + 1)..<max(r + 1, n) { s -= m[r][c] * v[c] }
        v[r] = s / m[r][r]
    }
    return v
}
