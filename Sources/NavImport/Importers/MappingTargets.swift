import Foundation
import NavCore
import NavIO

// What each trace dataset a mapping may fill needs: width, kind, physical quantity, frame, range.

/// A trace dataset a mapping may fill.
struct TargetField: Sendable {
    enum Kind: Sendable { case vector, quaternion, scalar, integer, key }
    let name: String
    let width: Int
    let kind: Kind
    let quantity: PhysicalQuantity
    /// Positions and orientations in the world frame (changed by `frame`).
    let world: Bool
    let required: Bool
    /// Inclusive range the value must lie in (after conversion), else the row is invalid.
    let range: ClosedRange<Double>?

    init(_ name: String, _ width: Int, _ kind: Kind, _ quantity: PhysicalQuantity, world: Bool = false, required: Bool = true,
         range: ClosedRange<Double>? = nil) {
        self.name = name; self.width = width; self.kind = kind; self.quantity = quantity
        self.world = world; self.required = required; self.range = range
    }

    static let catalogue: [(stream: String, fields: [TargetField])] = [
        ("imu", [TargetField("accelerometer", 3, .vector, .acceleration), TargetField("gyroscope", 3, .vector, .angularRate),
                 TargetField("attitude", 4, .quaternion, .dimensionless, world: true, required: false),
                 TargetField("magnetometer", 3, .vector, .magneticField, required: false)]),
        ("compass", [TargetField("heading", 1, .scalar, .angle), TargetField("accuracy", 1, .scalar, .angle, required: false, range: 0...360)]),
        ("ble", [TargetField("beacon", 1, .key, .dimensionless), TargetField("rssi", 1, .scalar, .signalStrength, range: -150...20)]),
        ("vio", [TargetField("position", 3, .vector, .length, world: true), TargetField("orientation", 4, .quaternion, .dimensionless, world: true),
                 TargetField("tracking_state", 1, .integer, .dimensionless, required: false, range: 0...2)]),
        ("anchors", [TargetField("anchor_id", 1, .integer, .dimensionless), TargetField("position", 3, .vector, .length, world: true),
                     TargetField("orientation", 4, .quaternion, .dimensionless, world: true)]),
        ("location", [TargetField("latitude", 1, .scalar, .angle, range: -90...90), TargetField("longitude", 1, .scalar, .angle, range: -180...180),
                      TargetField("altitude", 1, .scalar, .length), TargetField("horizontal_accuracy", 1, .scalar, .length, range: 0...Double.infinity),
                      TargetField("floor", 1, .integer, .level, required: false)]),
        ("groundtruth", [TargetField("position", 3, .vector, .length, world: true), TargetField("orientation", 4, .quaternion, .dimensionless, world: true),
                         TargetField("floor", 1, .integer, .level, required: false)]),
    ]

    static func fields(of stream: String) -> [TargetField]? { catalogue.first { $0.stream == stream }?.fields }
}
