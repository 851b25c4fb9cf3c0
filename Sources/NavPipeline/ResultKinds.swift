/// The registry of result kinds (`ResultKind`) beside guidance replay runs.
public enum ResultKinds {
    /// The kinds every experiment runs when its spec asks for them, in the order of their report
    /// sections. A new kind is one file conforming to `ResultKind` plus its line here
    /// (docs/result-kinds.md); a caller may also pass its own list to `runExperiment(…, resultKinds:)`.
    public static let standard: [any ResultKind] = [
        HeadingCalibrationKind(), BeaconProximityKind(), GyroFilterKind(), TrajectoryAPEKind(), ClosedLoopKind(),
        WalkerUncertaintyKind(), WalkDetectionKind(),
    ]
}
