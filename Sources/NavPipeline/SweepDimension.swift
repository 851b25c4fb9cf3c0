import NavCore
import NavGeometry
import NavGuidance
import NavIO
import NavSignal

/// One option of a guidance run that an experiment can sweep, defined once: its YAML key under
/// `sweep:` (also the `navbench run SPEC KEY=…` override), its `metrics.csv` column, its label in
/// configuration names, the `navbench guide` flag, the values it accepts and how a value sets
/// `GuidanceOptions`. A new dimension is one entry of `SweepDimension.all`.
///
/// Values are kept as canonical text (what `metrics.csv` shows: `0.3`, `gravity-aligned`, `all`).
public struct SweepDimension: Sendable {
    /// YAML key under `sweep:` and override key.
    public let key: String
    /// Column of `metrics.csv`.
    public let column: String
    /// Short name in configuration labels (`tol=0.3 anchors=all`).
    public let label: String
    /// Long flag of `navbench guide` (without `--`).
    public let flag: String
    /// One line for help texts and docs.
    public let help: String
    /// What an invalid value is told it should be (`'x' is not one of …`).
    public let expected: String
    /// The canonical value when the spec does not sweep this dimension.
    public let defaultValue: String
    /// The canonical text of a value, or nil when it is not valid.
    let canonical: @Sendable (String) -> String?
    /// Sets a canonical value on the options.
    let apply: @Sendable (inout GuidanceOptions, String) -> Void
    /// Whether an invalid value is reported as "'v' is not a …" (numbers) rather than "not one of".
    let describesValue: Bool

    init(
        key: String, column: String? = nil, label: String, flag: String, help: String, expected: String, defaultValue: String,
        describesValue: Bool = false, canonical: @escaping @Sendable (String) -> String?,
        apply: @escaping @Sendable (inout GuidanceOptions, String) -> Void
    ) {
        self.key = key; self.column = column ?? key; self.label = label; self.flag = flag; self.help = help
        self.expected = expected; self.defaultValue = defaultValue; self.describesValue = describesValue
        self.canonical = canonical; self.apply = apply
    }

    /// The problem of an invalid value, for `SpecError` and CLI messages.
    public func problem(_ value: String) -> String {
        describesValue ? "'\(value)' is not \(expected)" : "'\(value)' is not one of \(expected)"
    }

    /// The canonical text of `value`, or nil when it is not valid.
    public func validate(_ value: String) -> String? { canonical(value) }

    /// A choice among an enum's raw values.
    static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ type: E.Type, key: String, label: String, flag: String, help: String, default d: E, expected: String? = nil,
        apply: @escaping @Sendable (inout GuidanceOptions, E) -> Void
    ) -> SweepDimension where E.RawValue == String {
        SweepDimension(
            key: key, label: label, flag: flag, help: help, expected: expected ?? E.allCases.map(\.rawValue).joined(separator: ", "),
            defaultValue: d.rawValue, canonical: { E(rawValue: $0)?.rawValue },
            apply: { o, v in apply(&o, E(rawValue: v)!) })
    }

    public static let rdpTolerance = SweepDimension(
        key: "rdp_tolerance", label: "tol", flag: "tolerance", help: "RDP tolerance (Clew's pathWidth), metres.",
        expected: "a tolerance ≥ 0 m", defaultValue: "0.3", describesValue: true,
        canonical: { s in Double(s).flatMap { $0.isFinite && $0 >= 0 ? formatNumber($0) : nil } },
        apply: { o, v in o.rdpTolerance = Double(v)! })
    public static let rdpDistance = choice(
        RDPDistance.self, key: "rdp_distance", label: "dist", flag: "distance",
        help: "RDP distance: line (Clew) or segment.", default: .line
    ) { $0.rdpDistance = $1 }
    public static let registration = choice(
        RegistrationMode.self, key: "registration", label: "reg", flag: "registration",
        help: "Registration: gravity-aligned (Clew) or full.", default: .gravityAligned,
        expected: "gravity-aligned, full"
    ) { $0.registration = $1 }
    public static let anchorSightings = SweepDimension(
        key: "anchor_sightings", label: "anchors", flag: "anchor-sightings",
        help: "Anchor sightings of the navigation session used, chosen by the seed: all, or a count ≥ 1.",
        expected: "all or an integer ≥ 1", defaultValue: "all",
        canonical: { s in s == "all" ? "all" : Int(s).flatMap { $0 >= 1 ? String($0) : nil } },
        apply: { o, v in o.anchorSightings = Int(v) })
    public static let positionFilter = SweepDimension(
        key: "position_filter", label: "filter", flag: "position-filter",
        help: "Filter spec applied to each VIO position axis, e.g. ema:tau=0.3, or none.",
        expected: "none or a filter spec (docs/filters.md)", defaultValue: "none",
        canonical: { s in s == "none" || (try? FilterRegistry.validate(s)) != nil ? s : nil },
        apply: { o, v in o.positionFilter = v == "none" ? nil : v })
    public static let wording = choice(
        GuidanceParameters.Wording.self, key: "wording", label: "words", flag: "wording",
        help: "Wording: clock (Clew without haptics) or six-sector (Clew with haptics).",
        default: .clock
    ) { $0.guidance.wording = $1 }
    public static let arrival = choice(
        GuidanceParameters.ArrivalTest.self, key: "arrival", label: "arrival", flag: "arrival",
        help: "Arrival box test: faithful (Clew's open box) or symmetric.", default: .faithful
    ) { $0.guidance.arrivalTest = $1 }
    public static let haptic = choice(
        GuidanceParameters.Haptic.self, key: "haptic", label: "haptic", flag: "haptic",
        help: "Haptic cone: strict (π/12, Clew) or relaxed (π/6).", default: .strict
    ) { $0.guidance.haptic = $1 }
    public static let seeds = SweepDimension(
        key: "seeds", column: "seed", label: "seed", flag: "seed", help: "Seed for choosing anchor sightings.",
        expected: "non-negative integers", defaultValue: "1",
        canonical: { s in UInt64(s).map(String.init) }, apply: { o, v in o.seed = UInt64(v)! })

    /// Every dimension, in the order of configuration labels and `metrics.csv` columns.
    public static let all: [SweepDimension] = [
        rdpTolerance, rdpDistance, registration, anchorSightings, positionFilter,
        wording, arrival, haptic, seeds, estimator,
    ]

    /// The dimension with this YAML key.
    public static func named(_ key: String) -> SweepDimension? { all.first { $0.key == key } }

    /// Options from canonical values by key (missing keys keep the dimension's default).
    public static func options(_ values: [String: String], base: GuidanceOptions = GuidanceOptions()) -> GuidanceOptions {
        var o = base
        for d in all { d.apply(&o, values[d.key] ?? d.defaultValue) }
        return o
    }
}
