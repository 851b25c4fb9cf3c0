import NavCore

/// Moving averages of a uniformly sampled series.
///
/// Numerical contract: the running sum is recomputed exactly every `window` samples, so
/// the accumulated rounding error stays below a few ulps of the window sum for any length.
public enum MovingAverage {
    /// Causal moving average: yₖ = mean(x[max(0, k−w+1) … k]). The first w−1 outputs average
    /// the samples available so far (a growing window), so the output has the input's length.
    ///
    /// - Complexity: O(n).
    public static func causal(_ x: [Double], window w: Int) throws(SignalError) -> [Double] {
        guard w >= 1 else { throw .invalidParameter(name: "window", value: String(w), expected: "an integer ≥ 1") }
        var y = [Double](repeating: 0, count: x.count)
        var sum = 0.0
        for k in x.indices {
            sum += x[k]
            if k >= w { sum -= x[k - w] }
            if k % w == w - 1 { sum = x[(k - min(k, w - 1))...k].reduce(0, +) }  // refresh: bound drift
            y[k] = sum / Double(min(k + 1, w))
        }
        return y
    }

    /// Centred moving average of odd width w, as `np.convolve(x, ones(w)/w, 'same')`:
    /// zero-padded at both ends (the edges are biased toward 0, exactly like numpy).
    ///
    /// - Complexity: O(n).
    public static func centred(_ x: [Double], window w: Int) throws(SignalError) -> [Double] {
        guard w >= 1, w % 2 == 1 else { throw .invalidParameter(name: "window", value: String(w), expected: "an odd integer ≥ 1") }
        let n = x.count, h = w / 2
        var y = [Double](repeating: 0, count: n)
        // Prefix sums with compensated (Kahan–Babuška) accumulation.
        var prefix = [Double](repeating: 0, count: n + 1)
        var s = 0.0, c = 0.0
        for i in 0..<n {
            let t = s + x[i]
            c += abs(s) >= abs(x[i]) ? (s - t) + x[i] : (x[i] - t) + s
            s = t
            prefix[i + 1] = s + c
        }
        for k in 0..<n {
            let lo = max(0, k - h), hi = min(n, k + h + 1)
            y[k] = (prefix[hi] - prefix[lo]) / Double(w)
        }
        return y
    }

    /// Expanding mean: yₖ = mean(x[0 … k]), the estimate after k+1 samples.
    ///
    /// - Complexity: O(n).
    public static func expanding(_ x: [Double]) -> [Double] {
        var y = [Double](repeating: 0, count: x.count)
        var mean = 0.0
        for k in x.indices {
            mean += (x[k] - mean) / Double(k + 1)  // Welford's update
            y[k] = mean
        }
        return y
    }

    /// Arithmetic mean (pairwise summation, as numpy's `mean`, to within rounding).
    public static func mean(_ x: [Double]) -> Double {
        x.isEmpty ? .nan : pairwiseSum(x[...]) / Double(x.count)
    }
}

/// Pairwise summation: error O(log n · ε) instead of O(n · ε).
func pairwiseSum(_ x: ArraySlice<Double>) -> Double {
    if x.count <= 128 { return x.reduce(0, +) }
    let mid = x.startIndex + x.count / 2
    return pairwiseSum(x[..<mid]) + pairwiseSum(x[mid...])
}
