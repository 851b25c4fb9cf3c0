import Foundation
import NavCore

/// A filter named by a spec string, used identically by the CLI and experiment specs:
///
/// | spec | filter |
/// |---|---|
/// | `mean` / `mean:window=25` | expanding mean / causal moving average of 25 samples |
/// | `mean:window=25,centred` | centred moving average (odd window) |
/// | `circmean` / `circmean:window=25` | expanding / moving circular mean of angles (degrees) |
/// | `ema:tau=0.5` / `ema:cutoff=2` | exponential low-pass, τ in s or cutoff in Hz |
/// | `butter:order=4,cutoff=5[,type=low\|high],[zero-phase],[ba]` | Butterworth (sos by default) |
/// | `butter:order=2,low=0.5,high=3,type=band` | Butterworth band-pass |
/// | `kalman:q=0.01,r=4` | scalar random-walk Kalman filter |
/// | `kalman-cv:q=0.5,r=0.0016` | constant-velocity Kalman filter (position output) |
/// | `kalman-heading:q=1,r=25` | heading Kalman filter with wrapped innovation (degrees) |
///
/// Any filter takes `angle` to run on (sin, cos) of degrees and return degrees in [0, 360).
public struct FilterSpec: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        case mean, circmean, ema, butter, kalman
        case kalmanCV = "kalman-cv"
        case kalmanHeading = "kalman-heading"
    }

    public let kind: Kind
    public let parameters: [String: String]
    public let flags: Set<String>
    public let text: String

    static let allowed: [Kind: (params: [String], flags: [String])] = [
        .mean: (["window"], ["centred", "angle"]),
        .circmean: (["window"], []),
        .ema: (["tau", "cutoff"], ["angle"]),
        .butter: (["order", "cutoff", "low", "high", "type"], ["zero-phase", "ba", "angle"]),
        .kalman: (["q", "r"], ["angle"]),
        .kalmanCV: (["q", "r"], []),
        .kalmanHeading: (["q", "r"], []),
    ]

    public var description: String { text }

    /// Parses `name[:key=value,flag,…]`.
    ///
    /// - Throws: one-line `FilterSpecError` listing the valid names or parameters.
    public init(parsing text: String) throws(FilterSpecError) {
        self.text = text
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts.first ?? ""
        guard let kind = Kind(rawValue: name) else {
            throw FilterSpecError(spec: text, problem: "unknown filter '\(name)'; valid: \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.kind = kind
        var params: [String: String] = [:], flags: Set<String> = []
        let allowed = FilterSpec.allowed[kind]!
        if parts.count == 2 {
            for item in parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                let kv = item.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.count == 2 {
                    guard allowed.params.contains(kv[0]) else {
                        throw FilterSpecError(
                            spec: text,
                            problem: "'\(name)' has no parameter '\(kv[0])'; valid: \((allowed.params + allowed.flags).joined(separator: ", "))")
                    }
                    params[kv[0]] = kv[1]
                } else {
                    guard allowed.flags.contains(item) else {
                        throw FilterSpecError(
                            spec: text, problem: "'\(name)' has no flag '\(item)'; valid: \((allowed.params + allowed.flags).joined(separator: ", "))"
                        )
                    }
                    flags.insert(item)
                }
            }
        }
        self.parameters = params
        self.flags = flags
    }

    func number(_ key: String, default d: Double? = nil) throws(FilterSpecError) -> Double {
        guard let raw = parameters[key] else {
            if let d { return d }
            throw FilterSpecError(spec: text, problem: "'\(kind.rawValue)' needs parameter '\(key)'")
        }
        guard let v = Double(raw), v.isFinite else { throw FilterSpecError(spec: text, problem: "\(key)=\(raw): expected a number") }
        return v
    }

    func integer(_ key: String, default d: Int? = nil) throws(FilterSpecError) -> Int? {
        guard let raw = parameters[key] else { return d }
        guard let v = Int(raw) else { throw FilterSpecError(spec: text, problem: "\(key)=\(raw): expected an integer") }
        return v
    }

    /// Applies the filter to `values` sampled at `timestamps` (`sampleRate` for the
    /// filters defined on uniform sampling: mean, butter, kalman-cv).
    public func apply(_ values: [Double], timestamps: [Double], sampleRate: Double) throws(FilterSpecError) -> [Double] {
        do {
            if flags.contains("angle") {
                // Filter (sin, cos) and take the angle back: the wrap at 0°/360° is harmless.
                let r = values.map { $0 * .pi / 180 }
                let inner = try FilterSpec(parsing: text.replacingOccurrences(of: ",angle", with: "").replacingOccurrences(of: ":angle", with: ""))
                let s = try inner.apply(r.map(sin), timestamps: timestamps, sampleRate: sampleRate)
                let c = try inner.apply(r.map(cos), timestamps: timestamps, sampleRate: sampleRate)
                return zip(s, c).map { wrapDegrees360(atan2($0, $1) * 180 / .pi) }
            }
            switch kind {
            case .mean:
                guard let w = try integer("window") else { return MovingAverage.expanding(values) }
                return flags.contains("centred") ? try MovingAverage.centred(values, window: w) : try MovingAverage.causal(values, window: w)
            case .circmean:
                guard let w = try integer("window") else { return CircularStatistics.expandingMean(values) }
                return try CircularStatistics.movingMean(values, window: w)
            case .ema:
                if parameters["tau"] != nil && parameters["cutoff"] != nil {
                    throw FilterSpecError(spec: text, problem: "give tau or cutoff, not both")
                }
                let f =
                    parameters["tau"] != nil
                    ? try ExponentialLowPass(timeConstant: try number("tau"))
                    : try ExponentialLowPass(cutoff: try number("cutoff"))
                return try f.apply(values, timestamps: timestamps)
            case .butter:
                let order = try integer("order", default: 4)!
                let type = parameters["type"] ?? "low"
                let band: FilterBand
                switch type {
                case "low": band = .lowpass(cutoff: try number("cutoff"))
                case "high": band = .highpass(cutoff: try number("cutoff"))
                case "band": band = .bandpass(low: try number("low"), high: try number("high"))
                default: throw FilterSpecError(spec: text, problem: "type=\(type): expected low, high or band")
                }
                let zeroPhase = flags.contains("zero-phase")
                if flags.contains("ba") {
                    let tf = try Butterworth.transferFunction(order: order, band: band, sampleRate: sampleRate)
                    if zeroPhase { return try LinearFilter.filtfilt(tf, values) }
                    let zi = try LinearFilter.steadyStateInitialConditions(tf)
                    return try LinearFilter.lfilter(tf, values, initialState: zi.map { $0 * (values.first ?? 0) }).output
                }
                let sos = try Butterworth.sections(order: order, band: band, sampleRate: sampleRate)
                if zeroPhase { return try SecondOrderFilter.sosfiltfilt(sos, values) }
                let zi = try SecondOrderFilter.steadyStateInitialConditions(sos)
                return try SecondOrderFilter.sosfilt(sos, values, initialState: zi.map { $0.map { $0 * (values.first ?? 0) } }).output
            case .kalman:
                return try RandomWalkKalman(processNoise: try number("q"), measurementNoise: try number("r")).filter(values).map { $0.mean }
            case .kalmanCV:
                let kf = try ConstantVelocityKalman(processNoise: try number("q"), measurementNoise: try number("r"))
                guard let first = values.first else { return [] }
                let initial = Gaussian2(mean: (first, 0), covariance: Matrix2(kf.measurementNoise, 0, 0, 1))
                return try kf.filter(values, timestamps: timestamps, initial: initial, firstInterval: 0).map { $0.mean.0 }
            case .kalmanHeading:
                return try HeadingKalman(processNoise: try number("q"), measurementNoise: try number("r")).filter(values)
            }
        } catch let e as FilterSpecError {
            throw e
        } catch let e as SignalError {
            throw FilterSpecError(spec: text, problem: e.description)
        } catch {
            throw FilterSpecError(spec: text, problem: "\(error)")
        }
    }
}

/// A bad filter spec or parameter, one line: `filter 'SPEC': problem`.
public struct FilterSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    public var spec: String
    public var problem: String
    public init(spec: String, problem: String) { self.spec = spec; self.problem = problem }
    public var description: String { "filter '\(spec)': \(problem)" }
}
