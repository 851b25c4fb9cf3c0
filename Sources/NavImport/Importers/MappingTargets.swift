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

    init(
        _ name: String, _ width: Int, _ kind: Kind, _ quantity: PhysicalQuantity, world: Bool = false, required: Bool = true,
        range: ClosedRange<Double>? = nil
    ) {
        self.name = name; self.width = width; self.kind = kind; self.quantity = quantity
        self.world = world; self.required = required; self.range = range
    }

    /// Derived from `TraceSchema.streams` (the table the reader, writer and validator use), so
    /// the importers cannot drift from the format: width from the columns, the physical quantity
    /// from the trace unit, ranges and optional datasets as the schema says. World-frame fields
    /// are the positions and quaternions of samples. Two importer rules differ on purpose:
    /// headings are reduced into [0, 360) rather than range-checked, and `vio/tracking_state`
    /// may be left out of a mapping (the importer fills it in).
    static let catalogue: [(stream: String, fields: [TargetField])] = TraceSchema.streams.map { st in
        (st.name, st.datasets.filter { $0.role != .timestamps && $0.rows == .samples }.map { TargetField(schema: $0, stream: st.name) })
    }

    /// Fields a mapping may leave out although the trace requires them (the importer fills them).
    static let filledByImporter: Set<String> = ["vio/tracking_state"]
    /// Fields the importer normalises instead of range-checking.
    static let normalisedByImporter: Set<String> = ["compass/heading"]

    init(schema d: TraceSchema.Dataset, stream: String) {
        let kind: Kind
        if d.role == .quaternion {
            kind = .quaternion
        } else if stream == "ble" && d.name == "beacon" {
            kind = .key
        } else if d.kind == .integer {
            kind = .integer
        } else if (d.columns ?? 1) > 1 {
            kind = .vector
        } else {
            kind = .scalar
        }
        let key = stream + "/" + d.name
        self.init(
            d.name, d.columns ?? 1, kind, PhysicalQuantity.allCases.first { $0.traceUnit == d.units } ?? .dimensionless,
            world: d.role == .quaternion || d.name == "position", required: d.required && !Self.filledByImporter.contains(key),
            range: Self.normalisedByImporter.contains(key) ? nil : d.range)
    }

    static func fields(of stream: String) -> [TargetField]? { catalogue.first { $0.stream == stream }?.fields }
}
