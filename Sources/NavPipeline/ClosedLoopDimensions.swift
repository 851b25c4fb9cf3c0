import NavSim
import NavSynth

// The dimensions of the `closed_loop` section, defined once like the guidance sweep's
// (SweepDimension.swift): YAML key under `closed_loop:` (also the `navbench run SPEC KEY=…`
// override), `closed-loop.csv` column, label in cell names, the `navbench simulate` flag, the
// values each accepts. They set the walker and the phone of a closed-loop run
// (`ClosedLoopSettings`, `WallsMode`), not `GuidanceOptions`: their `apply` leaves the options
// alone, and they are not in `SweepDimension.all` (guidance runs never cross them).

extension SweepDimension {
    public static let walker = SweepDimension(
        key: "walker", label: "walker", flag: "walker",
        help: "Walker profile (ideal, cane, guide-dog) with optional overrides, e.g. cane:speed=0.8,reaction_time=1.5 (docs/navigator.md).",
        expected: "a walker profile (ideal, cane, guide-dog[:key=value,…], docs/navigator.md)", defaultValue: "ideal", describesValue: true,
        canonical: { s in (try? NavigatorProfile(parsing: s)) != nil ? s : nil }, apply: { _, _ in })
    public static let vioError = SweepDimension(
        key: "vio_error", label: "vio", flag: "vio-error",
        help:
            "VIO and registration error seen by the phone: none, synth, or yaw_offset=DEG,yaw_drift=DEG_PER_SQRT_S,scale=STD,position_noise=M_PER_SQRT_S,tracking_loss=P (docs/navigator.md).",
        expected: "a VIO error spec (none, synth, key=value pairs; docs/navigator.md)", defaultValue: "none", describesValue: true,
        canonical: { s in (try? VIOErrorSpec(parsing: s)) != nil ? s : nil }, apply: { _, _ in })
    public static let walls = SweepDimension(
        key: "walls", label: "walls", flag: "walls",
        help:
            "Walls: venue (the recording's floor plan, corridor when it has none), corridor[:HALF_WIDTH] around the true route, or none (open space); recordings without ground truth are open space.",
        expected: "venue, corridor, corridor:HALF_WIDTH_M or none", defaultValue: "venue", describesValue: true,
        canonical: { s in (try? WallsMode(parsing: s)) != nil ? s : nil }, apply: { _, _ in })

    /// The closed-loop dimensions, in the order of cell labels and `closed-loop.csv` columns.
    public static let closedLoop: [SweepDimension] = [walker, vioError, walls]

    /// The closed-loop dimension with this YAML key.
    public static func closedLoopNamed(_ key: String) -> SweepDimension? { closedLoop.first { $0.key == key } }
}

/// A closed-loop walk's settings from their text, as the `simulate` flags and the walker benchmark
/// take them (one definition of their parsing): the walker profile, the VIO error and the walls.
///
/// - Throws: the one-line error of the first value that does not parse.
public func parseWalkSettings(walker: String, vioError: String, walls: String) throws -> (
    walker: NavigatorProfile, vioError: VIOErrorSpec, walls: WallsMode
) {
    (try NavigatorProfile(parsing: walker), try VIOErrorSpec(parsing: vioError), try WallsMode(parsing: walls))
}
