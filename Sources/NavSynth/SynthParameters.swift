import NavCore

/// Every parameter of the synthetic venue generator, with its unit. Written as
/// JSON into each file's `generator` attribute; documented in `docs/synthetic-data.md`.
public struct SynthParameters: Codable, Sendable, Equatable {
    // Venue
    public var venue = "synthetic-venue"
    /// Geographic origin of the venue frame (x east, z south), degrees and metres.
    public var originLatitude = 42.2932
    public var originLongitude = -71.2637
    public var originAltitude = 45.0
    /// Storey height, m.
    public var floorHeight = 3.2
    public var navigationSessionsPerRoute = 3

    // Timing
    /// Simulation and IMU rate, Hz.
    public var imuRate = 100.0
    /// VIO, ground-truth, compass, BLE scan and location-fix rates, Hz (divisors of `imuRate`).
    public var vioRate = 25.0
    public var groundTruthRate = 50.0
    public var compassRate = 10.0
    public var bleScanRate = 1.0
    public var locationRate = 1.0
    /// Standing still at the start (anchor sightings happen here) and at the end, s.
    public var standStartSeconds = 4.0
    public var standEndSeconds = 2.0

    // Walking
    /// Nominal walking speed range, m/s, drawn per session.
    public var walkingSpeedRange = [1.0, 1.4]
    /// Step cadence range, Hz, drawn per session.
    public var cadenceRange = [1.8, 2.0]
    /// Phone bob amplitude at the step frequency, m (gives ≈ 2–3 m/s² in the accelerometer).
    public var bobAmplitude = 0.02
    /// Lateral wander (Ornstein–Uhlenbeck) std, m, and time constant, s; recording vs navigation.
    public var lateralStdRecording = 0.05
    public var lateralStdNavigation = 0.25
    public var lateralTimeConstant = 3.0
    /// Navigation sessions in a venue with a floor plan (the building venue): the navigator's
    /// own line, a slow Ornstein–Uhlenbeck offset from the recorder's centre line (std m, time
    /// constant s) added to the wander and bounded by the walls (`navigationWallMargin` m from
    /// the nearest wall across the line). nil (the corridors venue): no own line. A person guided
    /// later does not retrace the recorder's line: in open areas they pass keypoints metres aside.
    public var navigationLineStd: Double?
    public var navigationLineTimeConstant: Double?
    public var navigationWallMargin: Double?
    /// The recording's own line, std m (time constant and wall margin as the navigations'):
    /// the recorder meanders along a wide corridor the way people do rather than walking its
    /// centre line. nil (the building venue, whose planned legs curve already): none.
    public var recordingLineStd: Double?
    /// Centred moving-average window that rounds corners, s.
    public var cornerSmoothingSeconds = 0.8
    /// Phone pitch while walking, deg (negative = camera looking down).
    public var holdPitchDegrees = -10.0
    /// Episodes per session where the phone is lowered past the critical pitch.
    public var lowerPhoneEpisodesMax = 2
    public var lowerPhonePitchDegrees = -82.0
    public var lowerPhoneSeconds = 2.0

    // IMU
    public var accelerometerNoiseStd = 0.03
    public var gyroscopeNoiseStd = 0.004
    public var gyroscopeBiasStd = 0.003
    public var attitudeNoiseDegrees = 0.2
    /// Earth field, µT: horizontal (toward north, −z) and vertical (down) components.
    public var earthFieldHorizontal = 20.0
    public var earthFieldVertical = 45.0
    public var magnetometerNoiseStd = 0.5

    // Compass
    public var compassNoiseDegrees = 3.0
    /// Pitch beyond which the reported heading flips by 180°, deg.
    public var criticalPitchDegrees = 75.0
    /// Magnetic disturbances: dipole-like spots (x, z, strength µT at 1 m).
    public var disturbances: [[Double]] = [[0.8, -18, 25], [17.5, -12, 30], [30.8, -4, 20]]

    // VIO
    public var vioYawRandomWalkDegreesPerSqrtSecond = 0.15
    public var vioScaleErrorStd = 0.02
    public var vioPositionRandomWalkPerSqrtSecond = 0.01
    public var vioOrientationNoiseDegrees = 0.2
    /// Probability that a session has one tracking-loss episode, and its length range, s.
    public var trackingLossProbability = 0.5
    public var trackingLossSecondsRange = [1.0, 2.5]

    // Anchors
    public var anchorSightingRate = 10.0
    public var anchorDetectionProbability = 0.8
    public var anchorPositionNoiseStd = 0.01
    public var anchorRotationNoiseDegrees = 0.5

    // BLE
    public var beaconUUID = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    public var rssiAtOneMetre = -59.0
    public var pathLossExponent = 2.0
    public var shadowingStd = 4.0
    public var shadowingTimeConstant = 5.0
    public var fastFadingStd = 2.0
    public var missedScanProbability = 0.1
    public var bleSensitivity = -100.0
    public var beaconPositions: [[Double]] = [
        [1.5, 2.5, -2], [-1.5, 2.5, -15], [1.5, 2.5, -28], [6.5, 2.5, -6],
        [11, 2.5, -13.5], [18.5, 2.5, -18], [31.5, 2.5, -6], [31.5, 5.7, -15.5], [35, 5.7, -17.5],
    ]

    // Location fixes
    public var locationNoiseStd = 2.0
    public var altitudeNoiseStd = 1.0
    public var floorErrorProbability = 0.05

    public init() {}
}

/// A route: a polyline in the venue frame (x east, y up, z south), in metres.
public struct SynthRoute: Sendable, Equatable {
    public var id: String
    public var waypoints: [Vector3]
    /// Where the walker stands still (opening a door, at the top of a stair): arc length along
    /// the waypoints (m) and duration (s). Empty for the original venue's routes.
    public var pauses: [SynthPause] = []
    /// Speed changes: from an arc length (m) on, the walking speed is multiplied by `factor`
    /// (slower through doors and on stairs). Empty: one speed.
    public var speedChanges: [SynthSpeedChange] = []

    public init(id: String, waypoints: [Vector3], pauses: [SynthPause] = [], speedChanges: [SynthSpeedChange] = []) {
        self.id = id; self.waypoints = waypoints; self.pauses = pauses; self.speedChanges = speedChanges
    }

    /// The speed factor at arc length `s` (the last change at or before `s`; 1 before any).
    func speedFactor(at s: Double) -> Double { speedChanges.last { $0.at <= s }?.factor ?? 1 }

    /// The bundled venue: a straight corridor, a corridor with two turns, and a staircase.
    public static let venueRoutes: [SynthRoute] = [
        SynthRoute(id: "R1-corridor", waypoints: [Vector3(0, 0, 0), Vector3(0, 0, -30)]),
        SynthRoute(id: "R2-turns", waypoints: [Vector3(5, 0, 0), Vector3(5, 0, -12), Vector3(17, 0, -12), Vector3(17, 0, -20)]),
        SynthRoute(
            id: "R3-stairs",
            waypoints: [
                Vector3(30, 0, 0), Vector3(30, 0, -8), Vector3(30, 3.2, -14),
                Vector3(30, 3.2, -16), Vector3(36, 3.2, -16),
            ]),
    ]
}

/// A stop of the walker: at arc length `at` (m), for `seconds`.
public struct SynthPause: Sendable, Equatable, Codable {
    public var at: Double, seconds: Double
    public init(at: Double, seconds: Double) { self.at = at; self.seconds = seconds }
}

/// From arc length `at` (m) on, the walking speed times `factor`.
public struct SynthSpeedChange: Sendable, Equatable, Codable {
    public var at: Double, factor: Double
    public init(at: Double, factor: Double) { self.at = at; self.factor = factor }
}
