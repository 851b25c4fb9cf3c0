import CFFTW
import Foundation
import NavCore
import Numerics
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
        guard !x.isEmpty else { return [] }
        return WorkspacePool.shared.with(length: x.count) { w in
            w.transform(x)
            return [Complex<Double>].large(count: w.bins) { out in
                for k in 0..<w.bins { out[k] = Complex(w.output[2 * k], w.output[2 * k + 1]) }
            }
        }
    }

    /// |X_k|² for k = 0 … ⌊N/2⌋.
    public static func powerSpectrum(_ x: [Double]) -> [Double] {
        guard !x.isEmpty else { return [] }
        return WorkspacePool.shared.with(length: x.count) { w in
            w.transform(x)
            return [Double].large(count: w.bins) { out in for k in 0..<w.bins { out[k] = w.power(at: k) } }
        }
    }
}

/// Free workspaces by length, so repeated transforms reuse their aligned buffers (fresh
/// buffers of many MB cost a page fault per 4 KiB on first touch).
final class WorkspacePool: Sendable {
    static let shared = WorkspacePool()
    private let free = Mutex<[Int: [RealFFTWorkspace]]>([:])

    func with<T>(length n: Int, _ body: (RealFFTWorkspace) -> T) -> T {
        let w = free.withLock { pool in pool[n]?.popLast() } ?? RealFFTWorkspace(length: n)
        defer { free.withLock { pool in if (pool[n]?.count ?? 0) < 4 { pool[n, default: []].append(w) } } }
        return body(w)
    }
}

/// Aligned input and output buffers and the cached plan for one transform length, reused
/// across many transforms of that length (Welch's segments). One workspace per thread.
public final class RealFFTWorkspace: @unchecked Sendable {  // used by one thread at a time
    public let length: Int
    public let bins: Int
    /// Input samples; fill `length` values, then call `execute()`.
    public let input: UnsafeMutablePointer<Double>
    /// Interleaved (re, im) output of `bins` coefficients.
    public let output: UnsafeMutablePointer<Double>
    private let complexOutput: UnsafeMutablePointer<fftw_complex>
    private let plan: FFTWPlan

    public init(length n: Int) {
        length = n
        bins = n / 2 + 1
        input = fftw_alloc_real(n)!
        complexOutput = fftw_alloc_complex(n / 2 + 1)!
        adviseHugePages(UnsafeMutableRawBufferPointer(start: input, count: 8 * n))
        adviseHugePages(UnsafeMutableRawBufferPointer(start: complexOutput, count: 16 * (n / 2 + 1)))
        output = UnsafeMutableRawPointer(complexOutput).assumingMemoryBound(to: Double.self)
        plan = PlanCache.shared.plan(length: n)
    }

    deinit { fftw_free(input); fftw_free(complexOutput) }

    /// Transforms the current contents of `input` into `output`.
    public func execute() { fftw_execute_dft_r2c(plan.pointer, input, complexOutput) }

    /// Copies `x` (exactly `length` values) into `input` and transforms.
    public func transform(_ x: [Double]) {
        x.withUnsafeBufferPointer { input.update(from: $0.baseAddress!, count: length) }
        execute()
    }

    /// |X_k|² of the last transform.
    @inline(__always) public func power(at k: Int) -> Double {
        let re = output[2 * k], im = output[2 * k + 1]
        return re * re + im * im
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
