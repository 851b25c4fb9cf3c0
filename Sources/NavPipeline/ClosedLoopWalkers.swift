import Foundation
import NavSim

/// Each walker of a closed-loop cell: arrived (success) and its end-of-route error, in run order.
/// Stored with the cell (artifact `walkers`) so the report pairs walkers across guidance
/// configurations — walker `run` of one seed walks every configuration with the same random
/// streams (common random numbers) — without walking anything again.
///
/// Encoding: one byte version (1), then per walker one byte (1 arrived, 0 not) and the end error's
/// IEEE 754 bits, 8 bytes little-endian.
public struct ClosedLoopWalkers: Sendable, Equatable {
    public var success: [Bool]
    public var endOfRouteError: [Double]

    /// The artifact's name in the store.
    static let artifactName = "walkers"

    public init(success: [Bool], endOfRouteError: [Double]) {
        self.success = success
        self.endOfRouteError = endOfRouteError
    }

    init(_ outcomes: [WalkOutcome]) {
        self.init(success: outcomes.map(\.success), endOfRouteError: outcomes.map(\.end_of_route_error))
    }

    /// The artifact's bytes. Complexity: O(walkers).
    var bytes: [UInt8] {
        var out: [UInt8] = [1]
        out.reserveCapacity(1 + 9 * success.count)
        for (s, e) in zip(success, endOfRouteError) {
            out.append(s ? 1 : 0)
            withUnsafeBytes(of: e.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        }
        return out
    }

    /// The walkers of `bytes`, or nil unless they are version 1 with whole records of 0/1 flags
    /// (a damaged artifact is no result: the cell is walked again).
    init?(bytes: [UInt8]) {
        guard bytes.first == 1, (bytes.count - 1) % 9 == 0 else { return nil }
        var success: [Bool] = [], errors: [Double] = []
        var i = 1
        while i < bytes.count {
            guard bytes[i] <= 1 else { return nil }
            success.append(bytes[i] == 1)
            var bits: UInt64 = 0
            for k in 0..<8 { bits |= UInt64(bytes[i + 1 + k]) << (8 * UInt64(k)) }
            errors.append(Double(bitPattern: bits))
            i += 9
        }
        self.init(success: success, endOfRouteError: errors)
    }
}
