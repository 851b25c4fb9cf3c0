import NavCore
import NavGeometry
import NavGuidance
import NavIO
import NavSignal

/// A value of a sweep dimension, parsed once where text enters (a spec, a flag, an override):
/// its canonical text — what `metrics.csv`, configuration labels and YAML show — and the typed
/// setting it makes on `GuidanceOptions`. Nothing parses the text again; two levels are equal
/// when their canonical texts are.
public struct SweepLevel: Sendable, Hashable, CustomStringConvertible {
    /// The canonical text (`0.3`, `gravity-aligned`, `all`).
    public let text: String
    private let set: @Sendable (inout GuidanceOptions) -> Void

    init(text: String, set: @escaping @Sendable (inout GuidanceOptions) -> Void) { self.text = text; self.set = set }

    public var description: String { text }
    /// Sets this level's value on `options`.
    public func apply(to options: inout GuidanceOptions) { set(&options) }
    public static func == (a: SweepLevel, b: SweepLevel) -> Bool { a.text == b.text }
    public func hash(into h: inout Hasher) { h.combine(text) }
}

/// One option of a guidance run that an experiment can sweep, defined once: its YAML key under
/// `sweep:` (also the `navbench run SPEC KEY=…` override), its `metrics.csv` column, its label in
/// configuration names, the `navbench guide` flag, the values it accepts and how a value sets
/// `GuidanceOptions`. A new dimension is one entry of `SweepDimension.all`, made by
/// `typed(…)` from its value type's parse, canonical text and setter.
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
    /// The level when the spec does not sweep this dimension.
    public let defaultLevel: SweepLevel
    /// The level of a text, or nil when the text is not a valid value.
    private let parse: @Sendable (String) -> SweepLevel?
    /// Whether an invalid value is reported as "'v' is not a …" (numbers) rather than "not one of".
    let describesValue: Bool

    /// The canonical text of the default level.
    public var defaultValue: String { defaultLevel.text }

    /// A dimension whose values are of type `Value`: `parse` reads one from text (nil when
    /// invalid), `format` writes its canonical text, `set` puts it on the options.
    static func typed<Value: Sendable>(
        key: String, column: String? = nil, label: String, flag: String, help: String, expected: String, default d: Value,
        describesValue: Bool = false, parse: @escaping @Sendable (String) -> Value?, format: @escaping @Sendable (Value) -> String,
        set: @escaping @Sendable (inout GuidanceOptions, Value) -> Void
    ) -> SweepDimension {
        let level: @Sendable (Value) -> SweepLevel = { v in SweepLevel(text: format(v), set: { o in set(&o, v) }) }
        return SweepDimension(
            key: key, column: column ?? key, label: label, flag: flag, help: help, expected: expected, defaultLevel: level(d),
            parse: { text in parse(text).map(level) }, describesValue: describesValue)
    }

    private init(
        key: String, column: String, label: String, flag: String, help: String, expected: String, defaultLevel: SweepLevel,
        parse: @escaping @Sendable (String) -> SweepLevel?, describesValue: Bool
    ) {
        self.key = key; self.column = column; self.label = label; self.flag = flag; self.help = help
        self.expected = expected; self.defaultLevel = defaultLevel; self.parse = parse; self.describesValue = describesValue
    }

    /// The problem of an invalid value, for `SpecError` and CLI messages.
    public func problem(_ value: String) -> String {
        describesValue ? "'\(value)' is not \(expected)" : "'\(value)' is not one of \(expected)"
    }

    /// The level of `text`, or nil when it is not a valid value.
    public func level(parsing text: String) -> SweepLevel? { parse(text) }

    /// The canonical text of `value`, or nil when it is not valid.
    public func validate(_ value: String) -> String? { parse(value)?.text }

    /// A choice among an enum's raw values.
    static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ type: E.Type, key: String, label: String, flag: String, help: String, default d: E, expected: String? = nil,
        apply: @escaping @Sendable (inout GuidanceOptions, E) -> Void
    ) -> SweepDimension where E.RawValue == String {
        typed(
            key: key, label: label, flag: flag, help: help, expected: expected ?? E.allCases.map(\.rawValue).joined(separator: ", "),
            default: d, parse: { E(rawValue: $0) }, format: { $0.rawValue }, set: apply)
    }

    public static let rdpTolerance = typed(
        key: "rdp_tolerance", label: "tol", flag: "tolerance", help: "RDP tolerance (Clew's pathWidth), metres.",
        expected: "a tolerance ≥ 0 m", default: 0.3, describesValue: true,
        parse: { s in Double(s).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }, format: formatNumber,
        set: { o, v in o.rdpTolerance = v })
    public static let rdpDistance = choice(
        RDPDistance.self, key: "rdp_distance", label: "dist", flag: "distance",
        help: "RDP distance: line (Clew) or segment.", default: .line
    ) { $0.rdpDistance = $1 }
    public static let registration = choice(
        RegistrationMode.self, key: "registration", label: "reg", flag: "registration",
        help: "Registration: gravity-aligned (Clew) or full.", default: .gravityAligned,
        expected: "gravity-aligned, full"
    ) { $0.registration = $1 }
    /// nil: all sightings.
    public static let anchorSightings = typed(
        key: "anchor_sightings", label: "anchors", flag: "anchor-sightings",
        help: "Anchor sightings of the navigation session used, chosen by the seed: all, or a count ≥ 1.",
        expected: "all or an integer ≥ 1", default: Int?.none,
        parse: { s -> Int?? in s == "all" ? .some(nil) : Int(s).flatMap { $0 >= 1 ? .some($0) : nil } },
        format: { $0.map(String.init) ?? "all" }, set: { o, v in o.anchorSightings = v })
    /// nil: none; else a filter spec `FilterRegistry.validate` accepts.
    public static let positionFilter = typed(
        key: "position_filter", label: "filter", flag: "position-filter",
        help: "Filter spec applied to each VIO position axis, e.g. ema:tau=0.3, or none.",
        expected: "none or a filter spec (docs/filters.md)", default: String?.none,
        parse: { s -> String?? in
            if s == "none" { return .some(nil) }
            do { try FilterRegistry.validate(s) } catch { return nil }
            return .some(s)
        },
        format: { $0 ?? "none" }, set: { o, v in o.positionFilter = v })
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
    public static let seeds = typed(
        key: "seeds", column: "seed", label: "seed", flag: "seed", help: "Seed for choosing anchor sightings.",
        expected: "non-negative integers", default: UInt64(1), parse: { UInt64($0) }, format: { String($0) }, set: { o, v in o.seed = v })

    /// Every dimension, in the order of configuration labels and `metrics.csv` columns.
    public static let all: [SweepDimension] = [
        rdpTolerance, rdpDistance, registration, anchorSightings, positionFilter,
        wording, arrival, haptic, seeds, estimator,
    ]

    /// The dimension with this YAML key.
    public static func named(_ key: String) -> SweepDimension? { all.first { $0.key == key } }

    /// Options from levels by key (missing keys keep the dimension's default level).
    public static func options(_ levels: [String: SweepLevel], base: GuidanceOptions = GuidanceOptions()) -> GuidanceOptions {
        var o = base
        for d in all { (levels[d.key] ?? d.defaultLevel).apply(to: &o) }
        return o
    }
}
