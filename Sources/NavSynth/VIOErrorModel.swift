import Foundation
import NavCore

/// The error a phone's tracking and registration add to the true motion, as a spec that
/// `navbench simulate --vio-error` and experiment specs parse and `navbench synth` shares.
///
/// Keys (comma-separated `key=value`, or a named level):
///
/// | key | unit | meaning |
/// |---|---|---|
/// | `yaw_offset` | deg | registration yaw error about the anchor (the whole estimate rotated about the anchor's vertical axis) |
/// | `yaw_drift` | deg/√s | VIO yaw random walk |
/// | `scale` | – | std of the VIO scale error ε (displacements × (1 + ε), ε drawn once per run) |
/// | `position_noise` | m/√s | VIO position random walk per axis |
/// | `tracking_loss` | – | probability of one tracking-loss episode per run (position frozen, displacement lost) |
/// | `tracking_loss_seconds` | s | its length, `a-b` (default 1-2.5) |
///
/// Accepted values: `yaw_offset` ±180, `yaw_drift` 0…10, `scale` 0…0.5, `position_noise` 0…1,
/// `tracking_loss` 0…1, `tracking_loss_seconds` within 0…600.
///
/// Named levels: `none` (all zero) and `synth` (the defaults of `SynthParameters`).
public struct VIOErrorSpec: Sendable, Hashable, Codable {
    public var yawOffsetDegrees = 0.0
    public var yawRandomWalkDegreesPerSqrtSecond = 0.0
    public var scaleErrorStd = 0.0
    public var positionRandomWalkPerSqrtSecond = 0.0
    public var trackingLossProbability = 0.0
    public var trackingLossSecondsRange = [1.0, 2.5]

    public init() {}

    public static let none = VIOErrorSpec()

    /// The VIO error of the synthetic sessions (`SynthParameters` defaults), without registration error.
    public static var synth: VIOErrorSpec { VIOErrorSpec(synth: SynthParameters()) }

    /// The VIO error `navbench synth` applies with parameters `p` (no registration error).
    public init(synth p: SynthParameters) {
        self.init()
        yawRandomWalkDegreesPerSqrtSecond = p.vioYawRandomWalkDegreesPerSqrtSecond
        scaleErrorStd = p.vioScaleErrorStd
        positionRandomWalkPerSqrtSecond = p.vioPositionRandomWalkPerSqrtSecond
        trackingLossProbability = p.trackingLossProbability
        trackingLossSecondsRange = p.trackingLossSecondsRange
    }

    /// Parses `none`, `synth`, or `key=value[,key=value…]` (keys above; a named level may come
    /// first: `synth,yaw_offset=5`).
    public init(parsing text: String) throws(VIOErrorSpecError) {
        self.init()
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for (i, part) in parts.enumerated() {
            if i == 0 && part == "none" { continue }
            if i == 0 && part == "synth" { self = .synth; continue }
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else {
                throw VIOErrorSpecError(
                    "vio-error '\(text)': expected none, synth or key=value pairs (yaw_offset, yaw_drift, scale, position_noise, tracking_loss, tracking_loss_seconds), got '\(part)'"
                )
            }
            let key = kv[0], value = kv[1]
            if key == "tracking_loss_seconds" {
                let ab = value.split(separator: "-").compactMap { numberFromText($0) }
                guard ab.count == 2, ab[0] >= 0, ab[1] >= ab[0], ab[1] <= 600 else {
                    throw VIOErrorSpecError("vio-error '\(text)': tracking_loss_seconds expects a-b seconds with 0 ≤ a ≤ b ≤ 600, got '\(value)'")
                }
                trackingLossSecondsRange = ab
                continue
            }
            guard let x = Double(value), x.isFinite else {
                throw VIOErrorSpecError("vio-error '\(text)': \(key) expects a finite number, got '\(value)'")
            }
            // Bounds: far beyond any phone's tracking error, small enough that a typo (1e308)
            // is one line instead of an overflow.
            let bounds: [String: ClosedRange<Double>] = ["yaw_offset": -180...180, "yaw_drift": 0...10, "scale": 0...0.5, "position_noise": 0...1]
            if let b = bounds[key], !b.contains(x) {
                throw VIOErrorSpecError("vio-error '\(text)': \(key) must be from \(b.lowerBound) to \(b.upperBound), got \(value)")
            }
            switch key {
            case "yaw_offset": yawOffsetDegrees = x
            case "yaw_drift", "scale", "position_noise":
                if key == "yaw_drift" { yawRandomWalkDegreesPerSqrtSecond = x }
                if key == "scale" { scaleErrorStd = x }
                if key == "position_noise" { positionRandomWalkPerSqrtSecond = x }
            case "tracking_loss":
                guard x >= 0, x <= 1 else { throw VIOErrorSpecError("vio-error '\(text)': tracking_loss is a probability in [0, 1], got \(value)") }
                trackingLossProbability = x
            default:
                throw VIOErrorSpecError(
                    "vio-error '\(text)': unknown key '\(key)' (expected yaw_offset, yaw_drift, scale, position_noise, tracking_loss, tracking_loss_seconds)"
                )
            }
        }
    }

    /// Canonical text: `none`, or every non-zero key in a fixed order (parses back to `self`).
    public var canonical: String {
        var parts: [String] = []
        func f(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) : String(x) }
        if yawOffsetDegrees != 0 { parts.append("yaw_offset=\(f(yawOffsetDegrees))") }
        if yawRandomWalkDegreesPerSqrtSecond != 0 { parts.append("yaw_drift=\(f(yawRandomWalkDegreesPerSqrtSecond))") }
        if scaleErrorStd != 0 { parts.append("scale=\(f(scaleErrorStd))") }
        if positionRandomWalkPerSqrtSecond != 0 { parts.append("position_noise=\(f(positionRandomWalkPerSqrtSecond))") }
        if trackingLossProbability != 0 {
            parts.append("tracking_loss=\(f(trackingLossProbability))")
            if trackingLossSecondsRange != [1.0, 2.5] {
                parts.append("tracking_loss_seconds=\(f(trackingLossSecondsRange[0]))-\(f(trackingLossSecondsRange[1]))")
            }
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ",")
    }
}

/// A `--vio-error` spec that cannot be parsed: one line saying what was expected.
public struct VIOErrorSpecError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ d: String) { description = d }
}

/// VIO drift accumulated online, step by step: the one implementation of `navbench synth`'s
/// VIO stream and of the closed-loop walker's estimated pose.
///
/// Per step of length Δt with true displacement Δp (equations of docs/synthetic-data.md):
/// ψ_k = ψ_{k−1} + N(0, 1)·σ_ψ·√Δt (yaw random walk, σ_ψ in deg/√s);
/// p̂_k = p̂_{k−1} + R_y(ψ_k)·(1 + ε)·Δp + N(0, I)·σ_p·√Δt, skipped while tracking is lost.
/// The draws happen in this order (yaw, then the three position components unless lost), so
/// a given stream of random numbers reproduces the bundled Datasets bit for bit.
///
/// - Complexity: O(1) per step.
public struct VIODrift: Sendable {
    /// 1 + ε.
    public var scale: Double
    /// Accumulated yaw drift, radians.
    public var yawDrift = 0.0
    /// The estimated position (in the frame of the true displacements).
    public var estimate: Vector3
    /// Tracking-loss episode [lossStart, lossEnd), s (empty when lossStart < 0).
    public var lossStart = -1.0, lossEnd = -1.0
    public let yawRandomWalkDegreesPerSqrtSecond: Double
    public let positionRandomWalkPerSqrtSecond: Double

    /// Draws the per-run quantities in `synth`'s order: the scale error, then whether (and
    /// when, uniformly in `lossWindow`) tracking is lost.
    public init(spec: VIOErrorSpec, start: Vector3, lossWindow: (Double, Double), rng: inout SeededRandom) {
        scale = 1 + rng.gaussian() * spec.scaleErrorStd
        if rng.bernoulli(spec.trackingLossProbability) {
            lossStart = rng.uniform(lossWindow.0, lossWindow.1)
            lossEnd = lossStart + rng.uniform(spec.trackingLossSecondsRange[0], spec.trackingLossSecondsRange[1])
        }
        estimate = start
        yawRandomWalkDegreesPerSqrtSecond = spec.yawRandomWalkDegreesPerSqrtSecond
        positionRandomWalkPerSqrtSecond = spec.positionRandomWalkPerSqrtSecond
    }

    /// Tracking is lost at `time`.
    @inlinable public func isLost(at time: Double) -> Bool { time >= lossStart && time < lossEnd }

    /// Both random walks are zero: `advance` draws four normals a step only to multiply them by 0.
    @inlinable public var isNoiseless: Bool { yawRandomWalkDegreesPerSqrtSecond == 0 && positionRandomWalkPerSqrtSecond == 0 }

    /// `advance` of a noiseless drift (`isNoiseless`) without its draws, for a caller whose
    /// stream nothing reads afterwards (the closed-loop walker's `vio/ROUTE/RUN`). The same
    /// estimate: `advance` adds ψ += N·0 (+0 + ±0 is +0, so ψ stays +0) and p̂ += R·Δp + N·0
    /// (a ±0 term, which changes no component but the sign of a zero that is already −0:
    /// the estimate's components start at the walk's start, and a −0 there is the one case
    /// whose zero could come out +0 the other way). `ClosedLoopWalkTests` compares the two
    /// outcome by outcome.
    ///
    /// - Complexity: O(1), no draw.
    @discardableResult
    public mutating func advanceNoiseless(trueStep step: Vector3, time: Double) -> Bool {
        let lost = isLost(at: time)
        if !lost {
            // ψ does not move without noise: its rotation is computed once (the same bits).
            if noiselessTurn?.yaw.bitPattern != yawDrift.bitPattern { noiselessTurn = (yawDrift, Quaternion(yaw: yawDrift)) }
            estimate += noiselessTurn!.rotation.act(on: scale * step)
        }
        return lost
    }

    /// R_y(ψ) of `advanceNoiseless`, with the ψ it was computed for.
    private var noiselessTurn: (yaw: Double, rotation: Quaternion)?

    /// Advances by one step of `dt` seconds whose true displacement is `step`; returns whether
    /// tracking was lost.
    @discardableResult
    public mutating func advance(trueStep step: Vector3, time: Double, dt: Double, rng: inout SeededRandom) -> Bool {
        let lost = isLost(at: time)
        yawDrift += rng.gaussian() * yawRandomWalkDegreesPerSqrtSecond * .pi / 180 * dt.squareRoot()
        if !lost {
            estimate +=
                Quaternion(yaw: yawDrift).act(on: scale * step)
                + Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * (positionRandomWalkPerSqrtSecond * dt.squareRoot())
        }
        return lost
    }
}
