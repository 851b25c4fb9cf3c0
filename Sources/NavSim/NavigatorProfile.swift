import Foundation
import NavCore

/// A virtual blind navigator: how they walk, veer, turn on a spoken direction and react to
/// Clew's haptics. Every field is documented with unit, default and source in
/// docs/navigator.md; profiles are named presets and every field can be overridden
/// (`cane:speed=0.8,reaction_time=1.5`).
public struct NavigatorProfile: Sendable, Hashable, Codable {
    public var name = "ideal"
    // Walking
    /// Walking speed, m/s.
    public var speed = 1.0
    /// Step length, m (step frequency = speed / step length).
    public var stepLength = 0.6
    /// Step-to-step variability: each step's length (so, at constant speed, its duration) is
    /// `stepLength` × max(0.5, 1 + step_time_cv · z), z standard normal from the stream
    /// `walker-gait` (0: every step alike, nothing drawn).
    public var stepTimeCV = 0.0
    /// Turns smaller than this (after over-rotation), deg, are made while walking, rotating at
    /// `steerRateDegreesPerSecond` without stopping; larger ones in place at
    /// `turnRateDegreesPerSecond` (0: every turn in place).
    public var steerBelowDegrees = 0.0
    /// Rotation speed of a turn made while walking, deg/s.
    public var steerRateDegreesPerSecond = 90.0
    // Veering (Kallie, Schrater & Legge 2007: three sources of undetected motor error)
    /// Initial orientation error when starting to walk, std, deg.
    public var initialOrientationStdDegrees = 0.0
    /// Consistent step-direction bias, deg per step (positive = veer right), drawn per walker
    /// as N(stepBiasMean, stepBiasStd).
    public var stepBiasMeanDegrees = 0.0
    public var stepBiasStdDegrees = 0.0
    /// Variable error of each step's direction, std, deg per step (a heading random walk).
    public var stepDirectionStdDegrees = 0.0
    // Turning on a spoken direction
    /// The walker executes the exact angle of the instruction (an ideal reference) instead of
    /// the spoken hour or sector.
    public var exactAngles = true
    /// Over-rotation of slight turns (spoken 22.5–60°) and its std, deg (Ahmetovic et al. 2018).
    public var overRotationSlightDegrees = 0.0
    public var overRotationSlightStdDegrees = 0.0
    /// Over-rotation of ample turns (60–120°, also used beyond 120°) and its std, deg.
    public var overRotationAmpleDegrees = 0.0
    public var overRotationAmpleStdDegrees = 0.0
    /// Rotation speed while turning in place, deg/s (0 = instantaneous).
    public var turnRateDegreesPerSecond = 0.0
    /// How a turn over 22.5° misses its commanded angle. false: the fixed offsets above (the
    /// published over-rotations). true: mechanistically (Ahmetovic et al., PerCom 2019 and TACCESS
    /// 2019, attribute over-rotation to the delay between the cue to stop and stopping): the walker
    /// keeps rotating at `turnRateDegreesPerSecond` for a stop delay drawn as
    /// N(stopReactionSeconds, stopReactionStdSeconds) (clamped at 0), so the over-rotation is
    /// turn rate × delay, the same for slight and ample turns.
    public var mechanisticTurns = false
    /// The stop delay of mechanistic turns, mean and std, s (defaults: the published 17.4° ± 4.0°
    /// slight-turn over-rotation at the 90°/s turn rate).
    public var stopReactionSeconds = 17.4 / 90
    public var stopReactionStdSeconds = 4.0 / 90
    /// Reaction time to speech (onset to start of turning), mean and std, s.
    public var speechReactionSeconds = 0.0
    public var speechReactionStdSeconds = 0.0
    /// Reaction time to a haptic pulse, s.
    public var hapticReactionSeconds = 0.0
    /// "Bear left/right": turn by this much toward the side, deg (exact angle when `exactAngles`).
    public var bearDegrees = 30.0
    // Haptics
    /// Stop and sweep for an on-track pulse when none was felt for this long, s (0 = never).
    public var seekAfterSeconds = 0.0
    /// Sweep speed while seeking, deg/s.
    public var seekRateDegreesPerSecond = 60.0
    // Start, end, lost
    /// Walk ahead anyway when no direction was heard this long after the start, s.
    public var startWaitSeconds = 3.0
    /// Lost when not arrived after lostTimeFactor · route length / speed + lostTimeMarginSeconds.
    public var lostTimeFactor = 2.0
    public var lostTimeMarginSeconds = 20.0
    /// Where values read from a profile file come from, by override key (`--walker @FILE`): the
    /// file and the source it states (WalkerProvenance lists them).
    public var parameterSources: [String: String] = [:]
    /// SHA-256 of the profile file it was read from (empty: a built-in profile), so results
    /// keyed by a walker change when its file does.
    public var sourceSHA256 = ""

    public init() {}

    /// The named profiles.
    public static let names = ["ideal", "cane", "guide-dog"] + weAllWalkProfiles.map(\.name)

    /// A named profile: `ideal` (no noise, exact angles, no delays), `cane`, `guide-dog` (walking
    /// and turning assumed), and those whose walking and turning are fitted from WeAllWalk:
    /// `cane-weallwalk`, `guide-dog-weallwalk`, `sighted` (WeAllWalkProfiles.swift).
    public static func named(_ name: String) -> NavigatorProfile? {
        if let fitted = weAllWalkProfile(name) { return fitted }
        var p = NavigatorProfile()
        p.name = name
        switch name {
        case "ideal":
            return p
        case "cane", "guide-dog":
            p.exactAngles = false
            p.initialOrientationStdDegrees = 5
            p.stepBiasMeanDegrees = 0
            p.overRotationSlightDegrees = 17.4
            p.overRotationSlightStdDegrees = 4.0
            p.overRotationAmpleDegrees = 13.4
            p.overRotationAmpleStdDegrees = 3.7
            p.turnRateDegreesPerSecond = 90
            p.bearDegrees = 30
            p.seekAfterSeconds = 3
            p.seekRateDegreesPerSecond = 60
            if name == "cane" {
                p.speed = 0.9
                p.stepLength = 0.55
                p.stepBiasStdDegrees = 0.3
                p.stepDirectionStdDegrees = 1.5
                p.speechReactionSeconds = 1.2
                p.speechReactionStdSeconds = 0.3
                p.hapticReactionSeconds = 0.4
            } else {
                p.speed = 1.15
                p.stepLength = 0.65
                p.stepBiasStdDegrees = 0.1
                p.stepDirectionStdDegrees = 0.7
                p.speechReactionSeconds = 1.0
                p.speechReactionStdSeconds = 0.25
                p.hapticReactionSeconds = 0.35
            }
            return p
        default:
            return nil
        }
    }

    /// Override keys and the fields they set (docs/navigator.md).
    static var doubleKeys: [(String, WritableKeyPath<NavigatorProfile, Double>)] {
        [
            ("speed", \.speed), ("step_length", \.stepLength), ("step_time_cv", \.stepTimeCV), ("steer_below", \.steerBelowDegrees),
            ("steer_rate", \.steerRateDegreesPerSecond),
            ("initial_orientation_std", \.initialOrientationStdDegrees),
            ("step_bias", \.stepBiasMeanDegrees), ("step_bias_std", \.stepBiasStdDegrees),
            ("step_direction_std", \.stepDirectionStdDegrees),
            ("over_rotation_slight", \.overRotationSlightDegrees), ("over_rotation_slight_std", \.overRotationSlightStdDegrees),
            ("over_rotation_ample", \.overRotationAmpleDegrees), ("over_rotation_ample_std", \.overRotationAmpleStdDegrees),
            ("turn_rate", \.turnRateDegreesPerSecond),
            ("stop_reaction_time", \.stopReactionSeconds), ("stop_reaction_time_std", \.stopReactionStdSeconds),
            ("reaction_time", \.speechReactionSeconds), ("reaction_time_std", \.speechReactionStdSeconds),
            ("haptic_reaction_time", \.hapticReactionSeconds), ("bear", \.bearDegrees),
            ("seek_after", \.seekAfterSeconds), ("seek_rate", \.seekRateDegreesPerSecond),
            ("start_wait", \.startWaitSeconds), ("lost_time_factor", \.lostTimeFactor), ("lost_time_margin", \.lostTimeMarginSeconds),
        ]
    }

    /// Override keys that are 0 or 1 and the fields they set.
    static var flagKeys: [(String, WritableKeyPath<NavigatorProfile, Bool>)] {
        [("exact_angles", \.exactAngles), ("mechanistic_turns", \.mechanisticTurns)]
    }

    /// Accepted values of each override key: what a person can do, so that a typo such as
    /// `speed=1e308` is one line rather than an overflow, and `speed=0.0001` is refused rather
    /// than a walk of years (docs/navigator.md).
    public static func allowedRange(_ key: String) -> ClosedRange<Double> {
        switch key {
        case "speed": return 0.1...5  // m/s
        case "step_length": return 0.1...3  // m
        case "step_bias": return -90...90  // deg, signed
        case "step_time_cv": return 0...0.5
        case "turn_rate", "seek_rate", "steer_rate": return 1...3600  // deg/s
        case "lost_time_factor": return 1...100
        case "lost_time_margin", "seek_after", "start_wait": return 0...3600  // s
        case "reaction_time", "reaction_time_std", "haptic_reaction_time", "stop_reaction_time", "stop_reaction_time_std": return 0...60  // s
        default: return 0...180  // angles and their spreads, deg
        }
    }

    /// Parses `PROFILE[:key=value,…]`, e.g. `cane:speed=0.8,exact_angles=1`.
    public init(parsing text: String) throws(NavigatorProfileError) {
        let head = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let base = head.first, let p = NavigatorProfile.named(base) else {
            throw NavigatorProfileError(
                "walker '\(text)': unknown profile '\(head.first ?? "")' (expected \(NavigatorProfile.names.joined(separator: ", ")), optionally :key=value,…)"
            )
        }
        self = p
        if head.count == 2 {
            do { try applyOverrides(head[1]) } catch { throw NavigatorProfileError("walker '\(text)': " + error.description) }
        }
        name = text
    }
}

extension NavigatorProfile {
    /// Applies overrides `key=value,…` in order (the part of a walker text after `:`, also after
    /// `@FILE:`): each value a number, checked by `set(_:_:given:)`.
    ///
    /// - Throws: the line of the first bad override, without the walker text (callers prefix it).
    public mutating func applyOverrides(_ list: some StringProtocol) throws(NavigatorProfileError) {
        for part in list.split(separator: ",") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, let x = numberFromText(kv[1]), x.isFinite else { throw NavigatorProfileError("expected key=number, got '\(part)'") }
            try set(kv[0], x, given: kv[1])
        }
    }

    /// Sets override `key` to `x` (`given`: the value as written, for the message): a 0/1 key
    /// (`flagKeys`) or a number within `allowedRange`. The one check of every override, whether
    /// from a walker text, a profile file or a sensitivity design.
    ///
    /// - Throws: `key is 0 or 1, got …`, `unknown key '…' (expected …)`, `key must be from A to B, got …`.
    public mutating func set(_ key: String, _ x: Double, given: String) throws(NavigatorProfileError) {
        if let flag = NavigatorProfile.flagKeys.first(where: { $0.0 == key })?.1 {
            guard x == 0 || x == 1 else { throw NavigatorProfileError("\(key) is 0 or 1, got \(given)") }
            self[keyPath: flag] = x == 1
            return
        }
        guard let path = NavigatorProfile.doubleKeys.first(where: { $0.0 == key })?.1 else {
            throw NavigatorProfileError(
                "unknown key '\(key)' (expected \((NavigatorProfile.flagKeys.map(\.0) + NavigatorProfile.doubleKeys.map(\.0)).joined(separator: ", ")))"
            )
        }
        let allowed = NavigatorProfile.allowedRange(key)
        guard x.isFinite, allowed.contains(x) else {
            throw NavigatorProfileError("\(key) must be from \(allowed.lowerBound.formatted) to \(allowed.upperBound.formatted), got \(given)")
        }
        self[keyPath: path] = x
    }
}

/// A walker spec that cannot be parsed: one line saying what was expected.
public struct NavigatorProfileError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ d: String) { description = d }
}

private extension Double {
    /// 0.1, 5, 3600 (no trailing ".0").
    var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}
