import NavCore

/// A filter of one sampled signal: what a filter spec names (`FilterSpec`, an `exec:` plugin, or
/// a type of your own registered in NavPipeline's `FilterRegistry`; docs/extending.md).
///
/// Contract: `apply` returns exactly one output per input sample, in order, for `values`
/// sampled at the strictly increasing `timestamps` (seconds); `sampleRate` (Hz) is 1 / the
/// median interval of `timestamps` unless the caller gives one. Errors are one line.
public protocol SignalFilter: Sendable {
    /// The filtered signal, one value per sample.
    func apply(_ values: [Double], timestamps: [Double], sampleRate: Double) throws -> [Double]

    /// A 3-vector signal (a position, an acceleration) filtered as a whole: the default filters
    /// each axis on its own; a filter that couples the axes (an `exec:` plugin reading `t,x,y,z`)
    /// overrides it. Returns one vector per sample.
    func apply(vectors: [Vector3], timestamps: [Double], sampleRate: Double) throws -> [Vector3]
}

extension SignalFilter {
    public func apply(vectors: [Vector3], timestamps: [Double], sampleRate: Double) throws -> [Vector3] {
        let axes = try [\Vector3.x, \Vector3.y, \Vector3.z].map { k in
            try apply(vectors.map { $0[keyPath: k] }, timestamps: timestamps, sampleRate: sampleRate)
        }
        guard axes.allSatisfy({ $0.count == vectors.count }) else {
            throw FilterSpecError(spec: "\(Self.self)", problem: "returned \(axes.map(\.count)) values for \(vectors.count) samples")
        }
        return vectors.indices.map { Vector3(axes[0][$0], axes[1][$0], axes[2][$0]) }
    }
}

extension FilterSpec: SignalFilter {}
