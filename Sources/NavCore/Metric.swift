/// A named number with its unit: one metric of a run (guidance, registration, calibration,
/// proximity). Definitions of the names: docs/metrics.md and docs/aids.md.
public struct Metric: Sendable, Equatable, Codable {
    public var name: String
    public var value: Double
    public var unit: String
    public init(_ name: String, _ value: Double, _ unit: String) { self.name = name; self.value = value; self.unit = unit }
}
