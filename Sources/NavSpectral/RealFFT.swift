import CFFTW
import Numerics
import Foundation
import Synchronization

/// Real-input discrete Fourier transform through FFTW, as `numpy.fft.rfft`:
/// X_k = Σₙ xₙ e^{−2πikn/N}, k = 0 … ⌊N/2⌋ (unnormalised).
///
/// Plans are made once per length with `FFTW_ESTIMATE` (deterministic: the same plan, so the
/// same rounding, on every run) under a lock, because FFTW's planner is not thread-safe;
/// executing a plan on new arrays is, so transforms run concurrently.
public enum RealFFT {
    /// Transforms `x`; returns ⌊N/2⌋ + 1 complex coefficients.
    ///
    /// - Complexity: O(N log N).
    public static func forward(_ x: [Double]) -> [Complex<Double>] {
        let n = x.count
        guard n > 0 else { return [] }
        let m = n / 2 + 1
        let input = fftw_alloc_real(n)!
        let output = fftw_alloc_complex(m)!
        defer { fftw_free(input); fftw_free(output) }
        x.withUnsafeBufferPointer { input.update(from: $0.baseAddress!, count: n) }
        let plan = PlanCache.shared.plan(length: n)
        fftw_execute_dft_r2c(plan.pointer, input, output)
        let raw = UnsafeMutableRawPointer(output).assumingMemoryBound(to: Double.self)
        return (0..<m).map { Complex(raw[2 * $0], raw[2 * $0 + 1]) }
    }

    /// |X_k|² for k = 0 … ⌊N/2⌋ without building complex values.
    public static func powerSpectrum(_ x: [Double]) -> [Double] {
        forward(x).map { $0.real * $0.real + $0.imaginary * $0.imaginary }
    }
}

/// An FFTW plan, shared read-only once made.
final class FFTWPlan: @unchecked Sendable {
    let pointer: fftw_plan
    init(_ p: fftw_plan) { pointer = p }
}

/// Plans by length, created under a lock (FFTW planning is not thread-safe).
final class PlanCache: Sendable {
    static let shared = PlanCache()
    private let plans = Mutex<[Int: FFTWPlan]>([:])

    func plan(length n: Int) -> FFTWPlan {
        plans.withLock { cache in
            if let p = cache[n] { return p }
            // Planning with FFTW_ESTIMATE does not touch the arrays' contents; they only fix
            // the alignment, which fftw_alloc gives every later execution too.
            let input = fftw_alloc_real(n)!, output = fftw_alloc_complex(n / 2 + 1)!
            defer { fftw_free(input); fftw_free(output) }
            let p = FFTWPlan(fftw_plan_dft_r2c_1d(Int32(n), input, output, nb_FFTW_ESTIMATE())!)
            cache[n] = p
            return p
        }
    }
}
