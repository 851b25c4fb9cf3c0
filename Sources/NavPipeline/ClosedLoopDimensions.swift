import NavSim
import NavSynth

// The dimensions of the `closed_loop` section, defined once like the guidance sweep's
// (SweepDimension.swift): YAML key under `closed_loop:` (also the `navbench run SPEC KEY=…`
// override), `closed-loop.csv` column, label in cell names, the `navbench simulate` flag, the
// values each accepts. They set the walker and the phone of a closed-loop run
// (`ClosedLoopSettings`, `WallsMode`), not `GuidanceOptions`: their `apply` leaves the options
// alone, and they are not in `SweepDimension.all` (guidance runs never cross them).

extension SweepDimension {
    public static let walker = closedLoopDimension(
        key: "walker", label: "walker", flag: "walker",
        help:
            "Walker profile (ideal, cane, guide-dog) with optional overrides, e.g. cane:speed=0.8,reaction_time=1.5, or @FILE of a walker profile file (docs/navigator.md).",
        expected: "a walker profile (ideal, cane, guide-dog[:key=value,…], docs/navigator.md)", defaultValue: "ideal",
        parse: { try walkerProfile(parsing: $0) })
    public static let vioError = closedLoopDimension(
        key: "vio_error", label: "vio", flag: "vio-error",
        help:
            "VIO and registration error seen by the phone: none, synth, or yaw_offset=DEG,yaw_drift=DEG_PER_SQRT_S,scale=STD,position_noise=M_PER_SQRT_S,tracking_loss=P (docs/navigator.md).",
        expected: "a VIO error spec (none, synth, key=value pairs; docs/navigator.md)", defaultValue: "none",
        parse: { try VIOErrorSpec(parsing: $0) })
    public static let walls = closedLoopDimension(
        key: "walls", label: "walls", flag: "walls",
        help:
            "Walls: venue (the recording's floor plan, corridor when it has none), corridor[:HALF_WIDTH] around the true route, or none (open space); recordings without ground truth are open space.",
        expected: "venue, corridor, corridor:HALF_WIDTH_M or none", defaultValue: "venue",
        parse: { try WallsMode(parsing: $0) })

    /// A closed-loop dimension: a value is valid when `parse` accepts it, and its level is the
    /// text as given; its level sets nothing on `GuidanceOptions`. A spec's values are not read
    /// through it: `ClosedLoopSpec.parse` parses each once into its typed `ClosedLoopLevel`.
    static func closedLoopDimension<Value>(
        key: String, label: String, flag: String, help: String, expected: String, defaultValue: String,
        parse: @escaping @Sendable (String) throws -> Value
    ) -> SweepDimension {
        typed(
            key: key, label: label, flag: flag, help: help, expected: expected, default: defaultValue, describesValue: true,
            parse: { s in
                do { _ = try parse(s) } catch { return nil }
                return s
            }, format: { $0 }, set: { _, _ in })
    }

    /// The closed-loop dimensions, in the order of cell labels and `closed-loop.csv` columns.
    public static let closedLoop: [SweepDimension] = [walker, vioError, walls]
}

/// A closed-loop walk's settings from their text, as the `simulate` flags and the walker benchmark
/// take them (one definition of their parsing): the walker profile, the VIO error and the walls.
///
/// - Throws: the one-line error of the first value that does not parse.
public func parseWalkSettings(walker: String, vioError: String, walls: String) throws -> (
    walker: NavigatorProfile, vioError: VIOErrorSpec, walls: WallsMode
) {
    (try walkerProfile(parsing: walker), try VIOErrorSpec(parsing: vioError), try WallsMode(parsing: walls))
}

/// A value of a closed-loop dimension: the text it was given as and its parsed value.
public struct ClosedLoopLevel<Value: Sendable & Hashable>: Sendable, Hashable {
    public let text: String
    public let value: Value
}

/// The sweep dimensions that belong to recorded navigation sessions (registration, anchor
/// sightings, position filter, their seed): the closed loop replaces them with its VIO error
/// levels and does not cross them — but registration and anchor sightings when it simulates
/// the registration (`closedLoopDimensions`).
let navigationSessionDimensions: Set<String> = [
    SweepDimension.registration.key, SweepDimension.anchorSightings.key,
    SweepDimension.positionFilter.key, SweepDimension.seeds.key,
]

/// The sweep dimensions the closed loop crosses, in `SweepDimension.all` order.
func closedLoopDimensions(simulatesRegistration: Bool) -> [SweepDimension] {
    let crossedAnyway: Set<String> = simulatesRegistration ? [SweepDimension.registration.key, SweepDimension.anchorSightings.key] : []
    return SweepDimension.all.filter { !navigationSessionDimensions.contains($0.key) || crossedAnyway.contains($0.key) }
}
