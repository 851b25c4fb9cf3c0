import NavCore
import NavGuidance
import NavSim
import NavSynth

/// A guidance configuration as the closed loop sees it: what changes the route or the guidance
/// (RDP, crumbs, guidance parameters), and with `closed_loop.registration: simulated` the
/// registration mode and anchor sightings Clew's simulated registration uses; otherwise those
/// belong to the recorded navigation sessions and are replaced by the VIO error levels.
struct ClosedLoopConfiguration {
    var label: String
    var options: GuidanceOptions
    /// Whether the walks simulate Clew's registration from anchor sightings (`options.registration`,
    /// `options.anchorSightings`), else a perfect one.
    var simulatesRegistration = false

    /// The walk settings of this configuration for a walker and a VIO error level.
    func settings(walker: NavigatorProfile, vioError: VIOErrorSpec) -> ClosedLoopSettings {
        ClosedLoopSettings(
            walker: walker, vioError: vioError, guidance: options.guidance,
            registration: simulatesRegistration ? SimulatedRegistration(mode: options.registration, sightings: options.anchorSightings) : nil)
    }
}

/// The sweep's configurations deduplicated on the dimensions the closed loop crosses
/// (`closedLoopDimensions`); labels name those that vary (`tol=0.6 words=clock`).
func closedLoopConfigurations(_ sweep: Sweep, simulatesRegistration: Bool = false) -> [ClosedLoopConfiguration] {
    // The other dimensions keep their default levels (`SweepDimension.options`).
    let dims = closedLoopDimensions(simulatesRegistration: simulatesRegistration)
    var combos: [[SweepLevel]] = [[]]
    for d in dims { combos = combos.flatMap { c in sweep.levels(of: d).map { c + [$0] } } }
    return combos.map { levels in
        let label = zip(dims, levels).filter { sweep.levels(of: $0.0).count > 1 }.map { "\($0.0.label)=\($0.1.text)" }.joined(separator: " ")
        let chosen = Dictionary(uniqueKeysWithValues: zip(dims.map(\.key), levels))
        return ClosedLoopConfiguration(
            label: label.isEmpty ? "default" : label, options: SweepDimension.options(chosen), simulatesRegistration: simulatesRegistration)
    }
}
