/// Rauch–Tung–Striebel fixed-interval smoother for the constant-velocity model, as
/// filterpy's `KalmanFilter.rts_smoother` for constant F and Q:
///   P⁻ₖ₊₁ = F Pₖ Fᵀ + Q,  Cₖ = Pₖ Fᵀ (P⁻ₖ₊₁)⁻¹,
///   x̂ₖ = xₖ + Cₖ (x̂ₖ₊₁ − F xₖ),  P̂ₖ = Pₖ + Cₖ (P̂ₖ₊₁ − P⁻ₖ₊₁) Cₖᵀ,  from k = n−2 down to 0.
public enum RTSSmoother {
    /// Smooths the output of `ConstantVelocityKalman.filter` (constant interval `dt`).
    ///
    /// - Complexity: O(n).
    public static func smooth(_ filtered: [Gaussian2], model: ConstantVelocityKalman, interval dt: Double) -> [Gaussian2] {
        guard filtered.count > 1 else { return filtered }
        let f = model.transition(dt), q = model.processCovariance(dt)
        var out = filtered
        for k in stride(from: filtered.count - 2, through: 0, by: -1) {
            let p = filtered[k].covariance
            let predictedCov = f * p * f.transposed + q
            let gain = p * f.transposed * predictedCov.inverse
            let predictedMean = f.times(filtered[k].mean)
            let diff = (out[k + 1].mean.0 - predictedMean.0, out[k + 1].mean.1 - predictedMean.1)
            let corr = gain.times(diff)
            out[k].mean = (filtered[k].mean.0 + corr.0, filtered[k].mean.1 + corr.1)
            out[k].covariance = p + gain * (out[k + 1].covariance - predictedCov) * gain.transposed
        }
        return out
    }
}
