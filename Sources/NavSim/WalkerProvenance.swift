/// Where each walker parameter's value comes from, so a report can say what a closed-loop
/// conclusion rests on (issue 30, item 7; the reasoning and citations: docs/navigator.md).
public enum WalkerParameterSource: Sendable, Equatable {
    /// A published measurement (the citation).
    case published(String)
    /// No published value reachable: chosen (the note says what is known).
    case assumed(String)
    /// A modelling choice, not a property of people.
    case modellingChoice(String)
    /// Set by the experiment (`walker: ["cane:speed=0.8"]`).
    case setInSpec
    /// Read from a walker profile file (`@FILE`), with the source the file states.
    case fromFile(String)
    /// Fitted from real walkers (how, from whom, n).
    case fitted(String)

    /// One short phrase for a report's table.
    public var text: String {
        switch self {
        case .published(let c): return "published: " + c
        case .assumed(let n): return "assumed" + (n.isEmpty ? "" : " (" + n + ")")
        case .modellingChoice(let n): return "modelling choice" + (n.isEmpty ? "" : " (" + n + ")")
        case .setInSpec: return "set in the spec"
        case .fromFile(let n), .fitted(let n): return n
        }
    }
}

/// One parameter of a walker profile as a report lists it.
public struct WalkerParameter: Sendable, Equatable {
    public var key: String
    public var unit: String
    public var value: Double
    public var source: WalkerParameterSource
}

extension NavigatorProfile {
    /// Units and default sources of the override keys of the named profiles (docs/navigator.md's
    /// table, in its order), and for each parameter no published value fixes, the range a
    /// sensitivity analysis samples by default (`closed_loop.uncertainty`; reasoning in
    /// docs/navigator.md, "Plausible ranges"): for speed, step length and turn rate the range of
    /// WeAllWalk's blind subjects (each fitted as `fitted(to:)` fits a community), rounded outwards. The ideal walker's error parameters are zero by construction.
    static let parameterSources: [(key: String, unit: String, source: WalkerParameterSource, plausible: ClosedRange<Double>?)] = {
        let kallie = "Kallie, Schrater & Legge 2007 model; fitted values not available"
        return [
            ("speed", "m/s", .assumed("guide-dog faster than cane after Clark-Carter et al. 1986; values not available"), 0.78...1.38),
            ("step_length", "m", .assumed("Mason, Legge & Kallie 2005 not available"), 0.44...0.66),
            ("step_time_cv", "1", .modellingChoice("0: every step alike"), nil),
            ("steer_below", "deg", .modellingChoice("0: every turn made standing"), nil),
            ("steer_rate", "deg/s", .assumed("a turn made while walking; WeAllWalk's annotations time whole turn segments, not this rate"), 30...180),
            ("initial_orientation_std", "deg", .assumed(kallie), 2...10),
            ("step_bias", "deg/step", .assumed(kallie), nil),
            ("step_bias_std", "deg/step", .assumed(kallie), 0...1),
            ("step_direction_std", "deg/step", .assumed(kallie), 0.5...3),
            ("exact_angles", "0/1", .modellingChoice("the ideal walker turns the exact angle, others the spoken hour"), nil),
            ("over_rotation_slight", "deg", .published("Ahmetovic et al., ASSETS 2018"), nil),
            ("over_rotation_slight_std", "deg", .published("Ahmetovic et al., ASSETS 2018"), nil),
            ("over_rotation_ample", "deg", .published("Ahmetovic et al., ASSETS 2018"), nil),
            ("over_rotation_ample_std", "deg", .published("Ahmetovic et al., ASSETS 2018"), nil),
            ("mechanistic_turns", "0/1", .modellingChoice("0: the published over-rotation added to a turn; 1: turn rate × stop delay"), nil),
            ("stop_reaction_time", "s", .assumed("17.4° at 90 deg/s (Ahmetovic et al. 2018); used when mechanistic_turns=1"), nil),
            ("stop_reaction_time_std", "s", .assumed("4.0° at 90 deg/s (Ahmetovic et al. 2018); used when mechanistic_turns=1"), nil),
            ("turn_rate", "deg/s", .assumed(""), 16...34),
            ("reaction_time", "s", .assumed("Ohn-Bar et al. 2018 values not available"), 0.5...2),
            ("reaction_time_std", "s", .assumed("Ohn-Bar et al. 2018 values not available"), 0.1...0.6),
            ("haptic_reaction_time", "s", .assumed(""), 0.2...0.8),
            ("bear", "deg", .assumed("Clew's 'Bear left/right' names no angle"), 15...45),
            ("seek_after", "s", .assumed(""), 1...6),
            ("seek_rate", "deg/s", .assumed(""), 30...120),
            ("start_wait", "s", .modellingChoice(""), nil),
            ("lost_time_factor", "–", .assumed("the time limit"), nil),
            ("lost_time_margin", "s", .assumed("the time limit"), nil),
        ]
    }()

    /// The parameters a sensitivity analysis varies by default and their plausible ranges: every
    /// assumed parameter of a person (not the time limit, not the step bias's mean, whose sign
    /// only mirrors the veering), in the table's order.
    public static var plausibleRanges: [(key: String, unit: String, range: ClosedRange<Double>)] {
        parameterSources.compactMap { p in p.plausible.map { (p.key, p.unit, $0) } }
    }

    /// The unit of an override key (`nil`: not a key).
    public static func unit(of key: String) -> String? { parameterSources.first { $0.key == key }?.unit }

    /// The keys a numeric value can be set for (`setting(_:to:)`), in the table's order.
    public static var numericKeys: [String] { doubleKeys.map(\.0) }

    /// This walker with parameter `key` set to `value`, checked as a walker text's override is
    /// (`allowedRange`). Throws for an unknown key or a value out of range.
    public func setting(_ key: String, to value: Double) throws(NavigatorProfileError) -> NavigatorProfile {
        var p = self
        try p.set(key, value, given: "\(value)")
        return p
    }

    /// Every parameter of this walker with its value and source: `setInSpec` for the keys its
    /// text overrides (`cane:speed=0.8`), else the profile's default source; a zero of the ideal
    /// walker (its errors, spreads and delays) is a modelling choice (none by construction).
    public var parameters: [WalkerParameter] {
        let overridden = Set(
            (name.split(separator: ":", maxSplits: 1).dropFirst().first ?? "").split(separator: ",").compactMap {
                $0.split(separator: "=").first.map { $0.trimmingCharacters(in: .whitespaces) }
            })
        let base = name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? name
        return Self.parameterSources.map { p in
            let value =
                Self.flagKeys.first { $0.0 == p.key }.map { self[keyPath: $0.1] ? 1.0 : 0.0 }
                ?? Self.doubleKeys.first { $0.0 == p.key }.map { self[keyPath: $0.1] } ?? .nan
            var source = p.source
            if let fromFile = parameterSources[p.key] {
                source = .fromFile(fromFile)
            } else if overridden.contains(p.key) {
                source = .setInSpec
            } else if let fitted = Self.fittedSource(base: base, key: p.key) {
                source = fitted
            } else if base == "ideal" && value == 0 {
                // The ideal walker's errors, spreads and delays are zero: nothing about people.
                source = .modellingChoice("no error or delay by construction")
            } else if base == "sighted" && value == 0 && (p.key.hasPrefix("over_rotation") || p.key == "seek_after") {
                source = .modellingChoice("a sighted walker sees where to turn and where the corridor goes")
            }
            return WalkerParameter(key: p.key, unit: p.unit, value: value, source: source)
        }
    }
}
