import Foundation
import NavCore

/// A `FilterSpec` applied block by block to a series of known length, for recordings too long
/// to hold in memory. Every block's output is bit for bit what `FilterSpec.apply` gives on the
/// whole series: each filter carries its state across blocks (running sums, delay lines,
/// Kalman beliefs, the previous timestamp) and runs the same operations in the same order.
///
/// Use: call `forward` for consecutive blocks covering `0..<count` (any sizes, each with the
/// `lookahead` samples that follow it). Causal filters (and the centred mean, through its
/// lookahead) return each block's output there. Zero-phase filters (`isTwoPass`) return nil:
/// their backward pass needs the end of the series first, so after the last block call
/// `backward` for blocks in *decreasing* order (ending at 0) to get their output.
///
/// Memory: O(block + window) for every filter except zero-phase Butterworth, which keeps its
/// forward pass (count + 2·padding doubles, the size of the output) for the backward pass.
///
/// - Complexity: the whole-array filter's O(n · order) in total, O(1) extra per block.
public final class ChunkedFilter {
    /// Total number of samples the blocks will cover.
    public let count: Int
    /// Samples after each block that `forward` needs (centred mean: window / 2; else 0).
    public var lookahead: Int { stage.lookahead }
    /// True for zero-phase filters: outputs come from `backward`.
    public var isTwoPass: Bool { stage.twoPass }
    private let stage: BlockStage
    private var consumed = 0
    private var nextBackwardEnd: Int

    /// - Throws: the `FilterSpecError` that `spec.apply` would throw on a series of `count` samples.
    public init(spec: FilterSpec, sampleRate: Double, count: Int) throws(FilterSpecError) {
        self.count = count
        nextBackwardEnd = count
        do {
            stage = try makeStage(spec, sampleRate: sampleRate, count: count)
        } catch let e as FilterSpecError {
            throw e
        } catch let e as SignalError {
            throw FilterSpecError(spec: spec.text, problem: e.description)
        } catch {
            throw FilterSpecError(spec: spec.text, problem: "\(error)")
        }
    }

    /// Consumes samples `consumed ..< consumed + x.count`; `ahead` holds the next
    /// min(lookahead, remaining) samples. Returns the block's output, or nil for two-pass filters.
    public func forward(_ x: [Double], timestamps: [Double], ahead: [Double] = []) throws(FilterSpecError) -> [Double]? {
        guard x.count == timestamps.count, consumed + x.count <= count else {
            throw FilterSpecError(
                spec: "chunked",
                problem: "block of \(x.count) values / \(timestamps.count) stamps at \(consumed) exceeds the \(count) samples declared")
        }
        let start = consumed
        consumed += x.count
        let y = stage.forward(x, t: timestamps, ahead: ahead, start: start, count: count)
        return stage.twoPass ? nil : y
    }

    /// The output of rows `rows` of a two-pass filter; blocks must come in decreasing order,
    /// each ending where the previous one started, the first ending at `count`.
    public func backward(rows: Range<Int>) throws(FilterSpecError) -> [Double] {
        guard stage.twoPass, consumed == count, rows.upperBound == nextBackwardEnd else {
            throw FilterSpecError(spec: "chunked", problem: "backward block \(rows) out of order (expected one ending at \(nextBackwardEnd))")
        }
        nextBackwardEnd = rows.lowerBound
        return stage.backward(rows, count: count)
    }
}

// MARK: - Stages

/// One filter's block form (reference type: the state lives in the object).
class BlockStage {
    var lookahead: Int { 0 }
    var twoPass: Bool { false }
    /// Output for samples start ..< start + x.count (ignored for two-pass stages).
    func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] { fatalError("abstract") }
    func backward(_ rows: Range<Int>, count: Int) -> [Double] { fatalError("not a two-pass stage") }
}

private func makeStage(_ spec: FilterSpec, sampleRate: Double, count: Int) throws -> BlockStage {
    if spec.flags.contains("angle") {
        let inner = try FilterSpec(parsing: spec.text.replacingOccurrences(of: ",angle", with: "").replacingOccurrences(of: ":angle", with: ""))
        return AngleStage(
            sin: try makeStage(inner, sampleRate: sampleRate, count: count),
            cos: try makeStage(inner, sampleRate: sampleRate, count: count))
    }
    switch spec.kind {
    case .mean:
        guard let w = try spec.integer("window") else { return ExpandingMeanStage() }
        if spec.flags.contains("centred") {
            guard w >= 1, w % 2 == 1 else { throw SignalError.invalidParameter(name: "window", value: String(w), expected: "an odd integer ≥ 1") }
            return CentredMeanStage(window: w)
        }
        guard w >= 1 else { throw SignalError.invalidParameter(name: "window", value: String(w), expected: "an integer ≥ 1") }
        return CausalMeanStage(window: w)
    case .circmean:
        guard let w = try spec.integer("window") else { return CircularExpandingStage() }
        guard w >= 1 else { throw SignalError.invalidParameter(name: "window", value: String(w), expected: "an integer ≥ 1") }
        return CircularMovingStage(window: w)
    case .ema:
        if spec.parameters["tau"] != nil && spec.parameters["cutoff"] != nil {
            throw FilterSpecError(spec: spec.text, problem: "give tau or cutoff, not both")
        }
        let f =
            spec.parameters["tau"] != nil
            ? try ExponentialLowPass(timeConstant: try spec.number("tau"))
            : try ExponentialLowPass(cutoff: try spec.number("cutoff"))
        return EMAStage(f)
    case .butter:
        let order = try spec.integer("order", default: 4)!
        let type = spec.parameters["type"] ?? "low"
        let band: FilterBand
        switch type {
        case "low": band = .lowpass(cutoff: try spec.number("cutoff"))
        case "high": band = .highpass(cutoff: try spec.number("cutoff"))
        case "band": band = .bandpass(low: try spec.number("low"), high: try spec.number("high"))
        default: throw FilterSpecError(spec: spec.text, problem: "type=\(type): expected low, high or band")
        }
        let zeroPhase = spec.flags.contains("zero-phase")
        if spec.flags.contains("ba") {
            let tf = try Butterworth.transferFunction(order: order, band: band, sampleRate: sampleRate)
            let zi = try LinearFilter.steadyStateInitialConditions(tf)
            let stage = IIRStage(
                flatZi: [zi],
                run: { x, state in
                    let r = try LinearFilter.lfilter(tf, x, initialState: state.first)
                    return (r.output, [r.finalState])
                })
            let edge = 3 * max(tf.a.count, tf.b.count)
            if zeroPhase {
                guard count > edge else {
                    throw SignalError.tooShort(samples: count, needed: edge, reason: "zero-phase filtering with padding \(edge)")
                }
                return ZeroPhaseStage(stage, edge: edge)
            }
            return stage
        }
        let sos = try Butterworth.sections(order: order, band: band, sampleRate: sampleRate)
        let zi = try SecondOrderFilter.steadyStateInitialConditions(sos)
        let stage = IIRStage(flatZi: zi, run: { x, s in try SecondOrderFilter.sosfilt(sos, x, initialState: s) })
        if zeroPhase {
            let s = try SecondOrderFilter.validated(sos)
            var taps = 2 * s.count + 1
            taps -= min(s.filter { $0[2] == 0 }.count, s.filter { $0[5] == 0 }.count)
            let edge = 3 * taps
            guard count > edge else { throw SignalError.tooShort(samples: count, needed: edge, reason: "zero-phase filtering with padding \(edge)") }
            return ZeroPhaseStage(stage, edge: edge)
        }
        return stage
    case .kalman:
        return StepStage(try RandomWalkKalman(processNoise: try spec.number("q"), measurementNoise: try spec.number("r")))
    case .kalmanCV:
        return KalmanCVStage(try ConstantVelocityKalman(processNoise: try spec.number("q"), measurementNoise: try spec.number("r")))
    case .kalmanHeading:
        return HeadingStage(try HeadingKalman(processNoise: try spec.number("q"), measurementNoise: try spec.number("r")))
    }
}

/// `MovingAverage.expanding`: Welford's running mean.
final class ExpandingMeanStage: BlockStage {
    var mean = 0.0
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] {
        var y = [Double](repeating: 0, count: x.count)
        for i in x.indices {
            mean += (x[i] - mean) / Double(start + i + 1)
            y[i] = mean
        }
        return y
    }
}

/// `MovingAverage.causal`: the running sum with its refresh every `window` samples; keeps
/// the last `window` samples so the refresh and the subtraction see the same values.
final class CausalMeanStage: BlockStage {
    let w: Int
    var sum = 0.0
    var history: [Double] = []  // samples start − history.count ..< start
    init(window: Int) { w = window }
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] {
        let ext = history + x
        let base = start - history.count  // global index of ext[0]
        var y = [Double](repeating: 0, count: x.count)
        for i in x.indices {
            let k = start + i
            sum += ext[k - base]
            if k >= w { sum -= ext[k - w - base] }
            if k % w == w - 1 { sum = ext[(k - min(k, w - 1) - base)...(k - base)].reduce(0, +) }
            y[i] = sum / Double(min(k + 1, w))
        }
        history = Array(ext.suffix(w))
        return y
    }
}

/// `MovingAverage.centred`: compensated prefix sums, each output `window / 2` samples ahead.
final class CentredMeanStage: BlockStage {
    let w: Int, h: Int
    var s = 0.0, c = 0.0
    var prefix: [Double] = [0]  // prefix[j] is the global prefix sum index prefixBase + j
    var prefixBase = 0
    var consumed = 0
    init(window: Int) { w = window; h = window / 2 }
    override var lookahead: Int { h }
    private func consume(_ v: Double) {
        let t = s + v
        c += abs(s) >= abs(v) ? (s - t) + v : (v - t) + s
        s = t
        prefix.append(s + c)
        consumed += 1
    }
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] {
        let all = x + ahead
        for j in all.indices where start + j >= consumed { consume(all[j]) }
        var y = [Double](repeating: 0, count: x.count)
        for i in x.indices {
            let k = start + i
            let lo = max(0, k - h), hi = min(count, k + h + 1)
            y[i] = (prefix[hi - prefixBase] - prefix[lo - prefixBase]) / Double(w)
        }
        let keepFrom = max(0, start + x.count - h)
        if keepFrom > prefixBase {
            prefix.removeFirst(keepFrom - prefixBase)
            prefixBase = keepFrom
        }
        return y
    }
}

/// `CircularStatistics.expandingMean` (degrees).
final class CircularExpandingStage: BlockStage {
    var s = 0.0, c = 0.0
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] {
        x.map { a in
            let r = CircularStatistics.toRadians(a, .degrees); s += sin(r); c += cos(r)
            var m = atan2(s, c)
            if m < 0 { m += 2 * .pi }
            return CircularStatistics.fromRadians(m, .degrees)
        }
    }
}

/// `CircularStatistics.movingMean` (degrees): causal means of sin and cos.
final class CircularMovingStage: BlockStage {
    let sinMean: CausalMeanStage, cosMean: CausalMeanStage
    init(window: Int) { sinMean = CausalMeanStage(window: window); cosMean = CausalMeanStage(window: window) }
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] {
        let r = x.map { CircularStatistics.toRadians($0, .degrees) }
        let s = sinMean.forward(r.map(sin), t: t, ahead: [], start: start, count: count)
        let c = cosMean.forward(r.map(cos), t: t, ahead: [], start: start, count: count)
        return zip(s, c).map { s, c in
            var m = atan2(s, c)
            if m < 0 { m += 2 * .pi }
            return CircularStatistics.fromRadians(m, .degrees)
        }
    }
}

/// `ExponentialLowPass.apply`: the state and the previous timestamp carried over.
final class EMAStage: BlockStage {
    let f: ExponentialLowPass
    var state = 0.0, lastT = 0.0
    init(_ f: ExponentialLowPass) { self.f = f }
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] {
        var y = [Double](repeating: 0, count: x.count)
        for i in x.indices {
            if start + i == 0 {
                state = x[i]
            } else {
                let alpha = -expm1(-(t[i] - lastT) / f.timeConstant)
                state += alpha * (x[i] - state)
            }
            lastT = t[i]
            y[i] = state
        }
        return y
    }
}

/// Causal IIR (`sosfilt` / `lfilter` from steady state on the first sample): the delay line
/// carried from block to block (the kernels return their final state).
final class IIRStage: BlockStage {
    typealias Run = ([Double], [[Double]]) throws -> (output: [Double], finalState: [[Double]])
    let zi: [[Double]]
    let run: Run
    var state: [[Double]]?
    init(flatZi: [[Double]], run: @escaping Run) { zi = flatZi; self.run = run }
    /// Filters `x` continuing the state; the first call starts at `zi · x₀`.
    func filter(_ x: [Double]) -> [Double] {
        guard let first = x.first else { return [] }
        let s = state ?? zi.map { $0.map { $0 * first } }
        // The kernels only throw for coefficients and state sizes already checked at init.
        let r: (output: [Double], finalState: [[Double]])
        do { r = try run(x, s) } catch { preconditionFailure("IIR kernel refused sizes checked at init: \(error)") }
        state = r.finalState
        return r.output
    }
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] { filter(x) }
}

/// `sosfiltfilt` / `filtfilt`: odd extension by `edge` samples, a forward pass kept in memory,
/// and a backward pass from the end, block by block.
final class ZeroPhaseStage: BlockStage {
    let forwardFilter: IIRStage
    let backwardFilter: IIRStage
    let edge: Int
    var pending: [Double] = []  // first edge + 1 samples, until the left pad can be built
    var leftDone = false
    var tail: [Double] = []  // last edge + 1 samples seen
    var fwd: [Double] = []  // forward output over the extension, count + 2·edge
    var nextFwd = -1  // next forward index the backward pass consumes (descending)
    init(_ f: IIRStage, edge: Int) {
        forwardFilter = f
        backwardFilter = IIRStage(flatZi: f.zi, run: f.run)
        self.edge = edge
    }
    override var twoPass: Bool { true }
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] {
        if fwd.isEmpty { fwd.reserveCapacity(count + 2 * edge) }
        var input = x
        if !leftDone {
            pending += x
            guard pending.count > edge else { tail = pending; return [] }
            // [2x₀ − x_edge … 2x₀ − x₁] then the samples so far.
            var left: [Double] = []
            for i in stride(from: edge, through: 1, by: -1) { left.append(2 * pending[0] - pending[i]) }
            input = left + pending
            pending = []
            leftDone = true
        }
        tail = Array((tail + x).suffix(edge + 1))
        fwd += forwardFilter.filter(input)
        if start + x.count == count {
            // [2x_{n−1} − x_{n−2} … 2x_{n−1} − x_{n−1−edge}]
            let last = tail[edge]
            var right: [Double] = []
            for i in 1...edge { right.append(2 * last - tail[edge - i]) }
            fwd += forwardFilter.filter(right)
        }
        return []
    }
    override func backward(_ rows: Range<Int>, count: Int) -> [Double] {
        if nextFwd < 0 {
            // Start from steady state on the last forward value; run over the right pad (trimmed).
            nextFwd = fwd.count - 1
            _ = backwardFilter.filter(Array(fwd[(count + edge)...].reversed()))
            nextFwd = count + edge - 1
        }
        guard !rows.isEmpty else { return [] }
        let lo = rows.lowerBound + edge, hi = rows.upperBound - 1 + edge
        precondition(hi == nextFwd, "backward blocks out of order")  // guarded by ChunkedFilter.backward
        let out = backwardFilter.filter(Array(fwd[lo...hi].reversed()))
        nextFwd = lo - 1
        if rows.lowerBound == 0 { fwd = [] }
        return out.reversed()
    }
}

/// A filter with a stateful `step` (the scalar and heading Kalman filters).
final class StepStage: BlockStage {
    var kf: RandomWalkKalman
    init(_ kf: RandomWalkKalman) { self.kf = kf }
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] { x.map { kf.step($0) } }
}

final class HeadingStage: BlockStage {
    var kf: HeadingKalman
    init(_ kf: HeadingKalman) { self.kf = kf }
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] { x.map { kf.step($0) } }
}

/// `FilterSpec`'s kalman-cv: prior (z₀, 0) with covariance diag(r, 1), first interval 0.
final class KalmanCVStage: BlockStage {
    let kf: ConstantVelocityKalman
    var s = Gaussian2(mean: (0, 0), covariance: .identity)
    var lastT = 0.0
    init(_ kf: ConstantVelocityKalman) { self.kf = kf }
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] {
        var y = [Double](repeating: 0, count: x.count)
        for i in x.indices {
            let dt: Double
            if start + i == 0 {
                s = Gaussian2(mean: (x[i], 0), covariance: Matrix2(kf.measurementNoise, 0, 0, 1))
                dt = 0
            } else {
                dt = t[i] - lastT
            }
            s = kf.updated(kf.predicted(s, dt: dt), measurement: x[i])
            lastT = t[i]
            y[i] = s.mean.0
        }
        return y
    }
}

/// The `angle` flag: the inner filter on sin and cos of degrees, atan2 back to [0, 360).
final class AngleStage: BlockStage {
    let s: BlockStage, c: BlockStage
    init(sin s: BlockStage, cos c: BlockStage) { self.s = s; self.c = c }
    override var lookahead: Int { s.lookahead }
    override var twoPass: Bool { s.twoPass }
    private static func combine(_ s: [Double], _ c: [Double]) -> [Double] { zip(s, c).map { wrapDegrees360(atan2($0, $1) * 180 / .pi) } }
    override func forward(_ x: [Double], t: [Double], ahead: [Double], start: Int, count: Int) -> [Double] {
        let r = x.map { $0 * .pi / 180 }, ra = ahead.map { $0 * .pi / 180 }
        let ys = s.forward(r.map(sin), t: t, ahead: ra.map(sin), start: start, count: count)
        let yc = c.forward(r.map(cos), t: t, ahead: ra.map(cos), start: start, count: count)
        return AngleStage.combine(ys, yc)
    }
    override func backward(_ rows: Range<Int>, count: Int) -> [Double] {
        AngleStage.combine(s.backward(rows, count: count), c.backward(rows, count: count))
    }
}
