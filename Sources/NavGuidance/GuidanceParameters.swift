/// Every constant of the Clew guidance model, with Clew's value as the default.
public struct GuidanceParameters: Sendable, Hashable, Codable {
    /// How the arrival box is tested.
    public enum ArrivalTest: String, Sendable, Hashable, Codable, CaseIterable {
        /// Clew's `xDiff <= depth && yDiff <= height && zDiff <= width` without absolute
        /// values: the box is open on one side along each axis.
        case faithful
        /// |xDiff| ≤ depth, |yDiff| ≤ height, |zDiff| ≤ width.
        case symmetric
    }

    /// Arrival box of intermediate keypoints, metres (along the route, vertical, lateral).
    public var targetDepth = 0.5, targetHeight = 3.0, targetWidth = 2.0
    /// Arrival box of the last keypoint.
    public var lastTargetDepth = 1.0, lastTargetHeight = 3.0, lastTargetWidth = 1.0
    public var arrivalTest = ArrivalTest.faithful
    /// Arrival and keypoint checks run every this many seconds (Clew's `followCrumb` timer).
    public var followInterval = 0.3
    /// Haptic checks run every this many seconds (100 Hz).
    public var hapticInterval = 0.01
    /// Minimum time between on-track pulses, s (`FEEDBACKDELAY`).
    public var pulseInterval = 0.4
    /// Strict haptics: cone π/12 and lateral ratio 0.5; relaxed: π/6 and 1.0.
    public var strictHaptic = true
    /// Off course for this long before a correction, s (`offTrackGracePeriod`).
    public var offTrackGracePeriod = 2.0
    /// No correction within this long after a direction, s (`directionTextGracePeriod`).
    public var directionGracePeriod = 3.5
    /// Corrections repeat at most this often, s; doubled toward the first keypoint.
    public var correctionInterval = 5.0
    /// Six-sector wording (Clew with haptic feedback on) instead of clock hours.
    public var sixSectorWording = false
    /// Speak the distance with directions after a keypoint (Clew: no; its codesigners asked
    /// for "Continue straight for 15 feet").
    public var announceDistance = false
    public var units = ClockFace.Units.feet
    /// Stairs: |Δy| between keypoints above this, metres …
    public var stairsHeight = 1.0
    /// … and |slope| above this.
    public var stairsSlope = 0.3
    /// Time after arrival at the last keypoint during which the end-of-route haptic is recorded, s.
    public var endOfRouteSeconds = 2.0

    public init() {}

    /// How directions are worded.
    public enum Wording: String, Sendable, Hashable, CaseIterable {
        /// Clock hours ("at 2 o'clock"): Clew without haptic feedback.
        case clock
        /// Six sectors ("slight right"): Clew with haptic feedback on.
        case sixSector = "six-sector"
    }

    /// The on-track haptic cone.
    public enum Haptic: String, Sendable, Hashable, CaseIterable {
        /// Cone π/12, lateral ratio 0.5 (Clew).
        case strict
        /// Cone π/6, lateral ratio 1.0.
        case relaxed
    }

    /// `sixSectorWording` as a named choice.
    public var wording: Wording {
        get { sixSectorWording ? .sixSector : .clock }
        set { sixSectorWording = newValue == .sixSector }
    }

    /// `strictHaptic` as a named choice.
    public var haptic: Haptic {
        get { strictHaptic ? .strict : .relaxed }
        set { strictHaptic = newValue == .strict }
    }

    public var coneHalfWidth: Double { strictHaptic ? .pi / 12 : .pi / 6 }
    public var lateralToleranceRatio: Double { strictHaptic ? 0.5 : 1.0 }
}
