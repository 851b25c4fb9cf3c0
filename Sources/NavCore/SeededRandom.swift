import RealModule

/// SplitMix64 (Steele, Lea & Flood 2014): a small, fast generator whose output
/// depends only on its seed, on every platform. navbench uses it wherever a
/// result must be reproducible.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator for a named sub-stream, so adding a stream elsewhere does not
    /// shift this one: seed' = mix(seed ⊕ FNV-1a(label)).
    public init(seed: UInt64, label: String) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in label.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        var g = SeededRandom(seed: seed ^ h)
        state = g.next()
    }

    /// SplitMix64's increment: the state after k draws is the seed + k·γ.
    private static let gamma: UInt64 = 0x9e37_79b9_7f4a_7c15

    /// The generator after `count` draws of this one (jump ahead in O(1): the state advances by
    /// the same constant each draw), so independent lanes can draw, each from its own copy, what
    /// one sequential stream would give them (the bootstrap's and the sign-flip test's lanes).
    public func advanced(by count: Int) -> SeededRandom {
        SeededRandom(seed: state &+ UInt64(truncatingIfNeeded: count) &* Self.gamma)
    }

    public mutating func next() -> UInt64 {
        state &+= Self.gamma
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform in [a, b).
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * uniform() }

    /// Standard normal by Box–Muller (one value per call; deterministic).
    public mutating func gaussian() -> Double {
        var u1 = uniform()
        if u1 < 0x1.0p-60 { u1 = 0x1.0p-60 }
        let u2 = uniform()
        return (-2 * Double.log(u1)).squareRoot() * Double.cos(2 * .pi * u2)
    }

    /// Normal with mean and standard deviation.
    public mutating func gaussian(mean: Double, std: Double) -> Double { mean + std * gaussian() }

    /// `true` with probability p.
    public mutating func bernoulli(_ p: Double) -> Bool { uniform() < p }
}
