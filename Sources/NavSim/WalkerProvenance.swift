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

    /// One short phrase for a report's table.
    public var text: String {
        switch self {
        case .published(let c): return "published: " + c
        case .assumed(let n): return "assumed" + (n.isEmpty ? "" : " (" + n + ")")
        case .modellingChoice(let n): return "modelling choice" + (n.isEmpty ? "" : " (" + n + ")")
        case .setInSpec: return "set in the spec"
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
    /// table, in its order). The ideal walker's error parameters are zero by construction.
    static let parameterSources: [(key: String, unit: String, source: WalkerParameterSource)] = {
        let kallie = "Kallie, Schrater & Legge 2007 model; fitted values not available"
        return [
            ("speed", "m/s", .assumed("guide-dog faster than cane after Clark-Carter et al. 1986; values not available")),
            ("step_length", "m", .assumed("Mason, Legge & Kallie 2005 not available")),
            ("initial_orientation_std", "deg", .assumed(kallie)),
            ("step_bias", "deg/step", .assumed(kallie)),
            ("step_bias_std", "deg/step", .assumed(kallie)),
            ("step_direction_std", "deg/step", .assumed(kallie)),
            ("exact_angles", "0/1", .modellingChoice("the ideal walker turns the exact angle, others the spoken hour")),
            ("over_rotation_slight", "deg", .published("Ahmetovic et al., ASSETS 2018")),
            ("over_rotation_slight_std", "deg", .published("Ahmetovic et al., ASSETS 2018")),
            ("over_rotation_ample", "deg", .published("Ahmetovic et al., ASSETS 2018")),
            ("over_rotation_ample_std", "deg", .published("Ahmetovic et al., ASSETS 2018")),
            ("turn_rate", "deg/s", .assumed("")),
            ("reaction_time", "s", .assumed("Ohn-Bar et al. 2018 values not available")),
            ("reaction_time_std", "s", .assumed("Ohn-Bar et al. 2018 values not available")),
            ("haptic_reaction_time", "s", .assumed("")),
            ("bear", "deg", .assumed("Clew's 'Bear left/right' names no angle")),
            ("seek_after", "s", .assumed("")),
            ("seek_rate", "deg/s", .assumed("")),
            ("start_wait", "s", .modellingChoice("")),
            ("lost_time_factor", "–", .assumed("the time limit")),
            ("lost_time_margin", "s", .assumed("the time limit")),
        ]
    }()

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
            let value = p.key == "exact_angles" ? (exactAngles ? 1 : 0) : Self.doubleKeys.first { $0.0 == p.key }.map { self[keyPath: $0.1] } ?? .nan
            var source = p.source
            if overridden.contains(p.key) {
                source = .setInSpec
            } else if base == "ideal" && value == 0 {
                // The ideal walker's errors, spreads and delays are zero: nothing about people.
                source = .modellingChoice("no error or delay by construction")
            }
            return WalkerParameter(key: p.key, unit: p.unit, value: value, source: source)
        }
    }
}
