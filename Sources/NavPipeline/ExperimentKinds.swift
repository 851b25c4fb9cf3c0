/// The kinds an experiment runs.
public enum ExperimentKinds {
    /// The kinds every experiment runs when its spec asks for them, in the order of their report
    /// sections (the replay's first). A new kind is one file conforming to `ExperimentKind` plus
    /// its line here (docs/result-kinds.md); a caller may also pass its own list to
    /// `runExperiment(…, kinds:)`.
    public static let standard: [any ExperimentKind] = [
        GuidanceReplayKind(),
        HeadingCalibrationKind(), BeaconProximityKind(), GyroFilterKind(), TrajectoryAPEKind(), ClosedLoopKind(),
        WalkerUncertaintyKind(), WalkDetectionKind(),
    ]
}
