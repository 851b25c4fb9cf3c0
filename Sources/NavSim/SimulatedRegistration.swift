import NavCore
import NavGeometry
import NavSynth

/// Clew's registration simulated in the closed loop (issue 30, item 6): the navigation session
/// sees the anchor a number of times with the recordings' sighting noise, and T_RN is estimated
/// from those sightings as the replay does (`consensusRegistration`, gravity-aligned or full), so
/// the registration error of a walk emerges from the choices a study compares instead of being
/// typed in (`yaw_offset`, which still composes on top).
///
/// Model (as `SessionSynthesizer` makes the bundled sessions' sightings): sighting k is
/// T_NA,k = T_NR · T_RA · Nₖ with T_NR the true navigation-from-route transform (the venue's),
/// T_RA the anchor's pose in the recording, and Nₖ the synthesiser's sighting noise
/// (`anchorSightingNoise`: a rotation about a random axis by `rotationNoiseDegrees` · |z|, a
/// translation N(0, `positionNoiseStd`²) per axis). The noises come from the walk's own stream (`registration/ROUTE/RUN`), all `available`
/// drawn whatever `sightings` is, so "1" uses the first sighting of "all" (common random numbers).
public struct SimulatedRegistration: Sendable, Hashable {
    public var mode: RegistrationMode
    /// Sightings used (nil: all `available`).
    public var sightings: Int?
    /// Sightings a navigation session makes while standing at the start: the synthesised
    /// sessions' expectation, (standing − 1 s) × sighting rate × detection probability.
    public var available: Int
    public var positionNoiseStd: Double
    public var rotationNoiseDegrees: Double

    /// The recordings' values (`SynthParameters`' defaults: 24 sightings, 0.01 m, 0.5°).
    public init(mode: RegistrationMode, sightings: Int? = nil) {
        let p = SynthParameters()
        self.mode = mode
        self.sightings = sightings
        available = max(1, Int(((p.standStartSeconds - 1) * p.anchorSightingRate * p.anchorDetectionProbability).rounded()))
        positionNoiseStd = p.anchorPositionNoiseStd
        rotationNoiseDegrees = p.anchorRotationNoiseDegrees
    }

    /// T_RN estimated from simulated sightings of the anchor at `anchorInRoute` (T_RA), with
    /// `navigationFromRoute` (T_NR) the truth, drawing from `rng`.
    ///
    /// - Throws: `AnchorRegistrationError` (a non-finite pose).
    /// - Complexity: O(available log available).
    public func estimate(anchorInRoute: Pose, navigationFromRoute: Pose, rng: inout SeededRandom) throws(AnchorRegistrationError) -> Pose {
        let trueInNavigation = navigationFromRoute * anchorInRoute
        var all: [AnchorSighting] = []
        for _ in 0..<available {
            var seen = trueInNavigation * anchorSightingNoise(&rng, rotationDegrees: rotationNoiseDegrees, positionStd: positionNoiseStd)
            seen.rotation = seen.rotation.normalized
            all.append(AnchorSighting(inRecording: anchorInRoute, inNavigation: seen))
        }
        let used = Array(all.prefix(max(1, min(sightings ?? available, available))))
        return try consensusRegistration(used, mode: mode).transform
    }
}
