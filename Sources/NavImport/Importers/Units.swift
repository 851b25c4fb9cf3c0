import Foundation
import NavIO

/// The physical quantities of trace datasets, each with the unit the trace stores it in.
public enum PhysicalQuantity: String, Sendable, CaseIterable {
    case time, length, acceleration, angularRate, magneticField, angle, signalStrength, dimensionless, level

    /// The unit trace format v1 stores this quantity in.
    public var traceUnit: String {
        switch self {
        case .time: return "s"
        case .length: return "m"
        case .acceleration: return "m/s^2"
        case .angularRate: return "rad/s"
        case .magneticField: return "uT"
        case .angle: return "deg"
        case .signalStrength: return "dBm"
        case .dimensionless: return "1"
        case .level: return "level"
        }
    }

    var phrase: String {
        switch self {
        case .angularRate: return "angular rate"
        case .magneticField: return "magnetic field"
        case .signalStrength: return "signal strength"
        default: return rawValue
        }
    }
}

/// Unit conversions the importers support: source value × `factor` = value in the trace's
/// unit for the quantity. Standard gravity g = 9.80665 m/s²; 1 G (gauss) = 100 µT.
public enum UnitConversion {
    /// (unit spelling, quantity, factor to the trace unit), in the order the docs list them.
    public static let table: [(unit: String, quantity: PhysicalQuantity, factor: Double)] = [
        ("s", .time, 1), ("ms", .time, 1e-3), ("us", .time, 1e-6), ("µs", .time, 1e-6), ("ns", .time, 1e-9),
        ("m", .length, 1), ("cm", .length, 0.01), ("mm", .length, 0.001), ("km", .length, 1000), ("ft", .length, 0.3048),
        ("m/s^2", .acceleration, 1), ("m/s²", .acceleration, 1), ("m/s2", .acceleration, 1),
        ("g", .acceleration, 9.80665), ("mg", .acceleration, 9.80665e-3),
        ("rad/s", .angularRate, 1), ("deg/s", .angularRate, Double.pi / 180), ("°/s", .angularRate, Double.pi / 180),
        ("uT", .magneticField, 1), ("µT", .magneticField, 1), ("μT", .magneticField, 1), ("nT", .magneticField, 1e-3),
        ("mT", .magneticField, 1e3), ("T", .magneticField, 1e6), ("G", .magneticField, 100), ("mG", .magneticField, 0.1),
        ("deg", .angle, 1), ("°", .angle, 1), ("rad", .angle, 180 / Double.pi),
        ("dBm", .signalStrength, 1),
        ("1", .dimensionless, 1),
        ("level", .level, 1), ("1", .level, 1),
    ]

    /// The factor from `unit` to the trace unit of `quantity`; nil when `unit` is not a unit
    /// of that quantity.
    public static func factor(from unit: String, to quantity: PhysicalQuantity) -> Double? {
        table.first { $0.unit == unit && $0.quantity == quantity }?.factor
    }

    /// The quantity a unit measures, if navbench knows the unit.
    public static func quantity(of unit: String) -> PhysicalQuantity? {
        table.first { $0.unit == unit }?.quantity
    }

    /// The units accepted for a quantity, for messages.
    public static func units(of quantity: PhysicalQuantity) -> [String] {
        table.filter { $0.quantity == quantity }.map(\.unit)
    }

    /// The one-line explanation of a unit that does not fit `quantity`.
    static func mismatch(_ unit: String, _ quantity: PhysicalQuantity, target: String) -> String {
        let accepted = units(of: quantity).joined(separator: ", ")
        if let other = self.quantity(of: unit) {
            return "units '\(unit)' measure \(other.phrase), but \(target) is \(quantity.phrase); expected one of \(accepted)"
        }
        return "unknown units '\(unit)' for \(target) (\(quantity.phrase)); expected one of \(accepted)"
    }
}
