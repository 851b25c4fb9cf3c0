import Foundation
import NavCore

/// The gait a walker profile is fitted to: what WeAllWalk's annotated walks measure per mobility
/// aid (`GaitFit`, means over subjects), and who they came from.
public struct FittedGait: Sendable, Equatable {
    /// Heel strikes per second on straight segments.
    public var cadence: Double
    /// Time of the sighted walkers on the same corridor segment ÷ this walker's time.
    public var relativeSpeed: Double
    /// Length of the annotated 90° turn segment (approach, turn, exit), s.
    public var turnDuration90: Double
    /// Standard deviation ÷ mean of the intervals between heel strikes on straight segments.
    public var stepTimeCV: Double
    /// The subjects the means are over (n = their count).
    public var subjects: [String]

    public init(cadence: Double, relativeSpeed: Double, turnDuration90: Double, stepTimeCV: Double, subjects: [String]) {
        self.cadence = cadence; self.relativeSpeed = relativeSpeed; self.turnDuration90 = turnDuration90; self.stepTimeCV = stepTimeCV
        self.subjects = subjects
    }
}

extension NavigatorProfile {
    /// Preferred walking speed of sighted adults with vision, m/s (Hallemans et al., Gait &
    /// Posture 2010: 1.27 ± 0.13): the factor that turns a relative speed into metres per second.
    public static let preferredSightedSpeed = 1.27

    /// The gait of the 60 shared WeAllWalk walks (subjects 1–5, 11–13; `walker fit --imu`,
    /// equal to `scripts/make_gait_fixtures.py --all`, which WalkerValidationTests check), by
    /// community. WeAllWalk: Flores & Manduchi 2018, CC BY 4.0.
    public static let weAllWalkGait: [String: FittedGait] = [
        "cane": FittedGait(
            cadence: 1.678824041081667, relativeSpeed: 0.6534295497401341, turnDuration90: 6.073694736842106, stepTimeCV: 0.15243152195833165,
            subjects: ["1", "2", "3", "5"]),
        "guide-dog": FittedGait(
            cadence: 2.022213334425019, relativeSpeed: 0.9211458489043405, turnDuration90: 4.786573684210525, stepTimeCV: 0.15822558669558945,
            subjects: ["1", "4"]),
        "sighted": FittedGait(
            cadence: 1.728776931144573, relativeSpeed: 1.040598365496323, turnDuration90: 3.7432754385964913, stepTimeCV: 0.1295247412778151,
            subjects: ["11", "12", "13"]),
    ]

    /// The profiles fitted from WeAllWalk: their names, the base profile each starts from and
    /// the community whose gait sets its walking and turning.
    static let weAllWalkProfiles: [(name: String, base: String, community: String)] = [
        ("cane-weallwalk", "cane", "cane"), ("guide-dog-weallwalk", "guide-dog", "guide-dog"), ("sighted", "sighted-base", "sighted"),
    ]

    /// The sighted control before fitting: sees the corridor (no over-rotation, no seeking for a
    /// pulse), hears the clock hours; its veering and reaction times are assumed.
    static var sightedBase: NavigatorProfile {
        var p = NavigatorProfile()
        p.exactAngles = false
        p.initialOrientationStdDegrees = 2
        p.stepBiasStdDegrees = 0.1
        p.stepDirectionStdDegrees = 0.5
        p.speechReactionSeconds = 0.8
        p.speechReactionStdSeconds = 0.2
        p.hapticReactionSeconds = 0.3
        p.bearDegrees = 30
        return p
    }

    /// This walker with its walking and turning set from `gait` (docs/navigator.md, "Walkers
    /// fitted from WeAllWalk"):
    /// - speed = `preferredSightedSpeed` × relative speed;
    /// - step length = speed ÷ cadence;
    /// - turn rate such that a simulated 90° turn segment — the reaction to the spoken direction,
    ///   then the rotation through 90° plus the ample over-rotation — lasts as long as the real one:
    ///   (90 + over_rotation_ample) ÷ (turn_duration_90 − reaction_time), at least 1 deg/s.
    ///   An effective rate of the whole manoeuvre (a real turn segment includes slowing down and
    ///   speeding up), not the body's peak rotation rate;
    /// - step-time CV = the real one.
    public func fitted(to gait: FittedGait) -> NavigatorProfile {
        var p = self
        p.stepTimeCV = min(0.5, max(0, gait.stepTimeCV))
        p.speed = Self.preferredSightedSpeed * gait.relativeSpeed
        p.stepLength = p.speed / gait.cadence
        let rotating = gait.turnDuration90 - speechReactionSeconds
        p.turnRateDegreesPerSecond = rotating > 0 ? max(1, (90 + overRotationAmpleDegrees) / rotating) : 3600
        return p
    }

    /// The keys `fitted(to:)` sets.
    public static let fittedKeys = ["speed", "step_length", "step_time_cv", "turn_rate"]
    /// Turns below this are steered while walking in the fitted profiles, deg: the corrections
    /// ("bear", 30°) and 1 o'clock with their over-rotation (30° + 17.4° ± 4.0°); 2 o'clock
    /// (60° + 13.4°) and more are turned standing.
    public static let fittedSteerBelowDegrees = 60.0

    /// A profile fitted from WeAllWalk by name (nil: not one of them).
    static func weAllWalkProfile(_ name: String) -> NavigatorProfile? {
        guard let entry = weAllWalkProfiles.first(where: { $0.name == name }), let gait = weAllWalkGait[entry.community] else { return nil }
        guard var p = entry.base == "sighted-base" ? sightedBase : named(entry.base) else { return nil }
        p = p.fitted(to: gait)
        p.steerBelowDegrees = fittedSteerBelowDegrees
        p.name = name
        return p
    }

    /// How a parameter of the fitted profile `base` was obtained, for the provenance table (nil:
    /// not a fitted profile, or a parameter it keeps from its base).
    static func fittedSource(base: String, key: String) -> WalkerParameterSource? {
        guard let entry = weAllWalkProfiles.first(where: { $0.name == base }), let gait = weAllWalkGait[entry.community] else { return nil }
        if key == "steer_below" {
            return .modellingChoice(
                "corrections and turns under 60° made while walking, as real walkers keep their cadence on straight segments (docs/navigator.md)")
        }
        guard fittedKeys.contains(key) else { return nil }
        let n = "n = \(gait.subjects.count) \(entry.community) subjects (\(gait.subjects.joined(separator: ", ")))"
        func g(_ x: Double) -> String { String(format: "%.3g", x) }
        switch key {
        case "speed": return .fitted("fitted (WeAllWalk, \(n)): 1.27 m/s (Hallemans et al. 2010) × relative speed \(g(gait.relativeSpeed))")
        case "step_length": return .fitted("fitted (WeAllWalk, \(n)): speed ÷ cadence \(g(gait.cadence)) steps/s")
        case "step_time_cv": return .fitted("fitted (WeAllWalk, \(n)): the step-time CV on straight segments")
        default: return .fitted("fitted (WeAllWalk, \(n)): a 90° turn segment of \(g(gait.turnDuration90)) s after the reaction time")
        }
    }
}
