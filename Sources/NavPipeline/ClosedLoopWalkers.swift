import Foundation
import NavSim

/// Each walker of a closed-loop cell, in run order: arrived (success), end-of-route error, SPL,
/// PPWS, mean route deviation, nDTW and SDTW. Stored with the cell (artifact `walkers`) so the report pairs
/// walkers across guidance configurations — walker `run` of one seed walks every configuration
/// with the same random streams (common random numbers) — and pools them, without walking again.
///
/// Encoding: one byte version (3), then per walker one byte (1 arrived, 0 not) and six IEEE 754
/// values (end error, SPL, PPWS, route deviation, nDTW, SDTW), 8 bytes little-endian each.
public struct ClosedLoopWalkers: Sendable, Equatable {
    public var success: [Bool]
    public var endOfRouteError: [Double]
    public var spl: [Double]
    public var ppws: [Double]
    public var routeDeviation: [Double]
    public var ndtw: [Double]
    public var sdtw: [Double]

    /// The artifact's name in the store.
    static let artifactName = "walkers"
    static let version: UInt8 = 3
    static let recordBytes = 1 + 6 * 8

    public init(
        success: [Bool], endOfRouteError: [Double], spl: [Double], ppws: [Double], routeDeviation: [Double], ndtw: [Double], sdtw: [Double]
    ) {
        self.success = success
        self.endOfRouteError = endOfRouteError
        self.spl = spl
        self.ppws = ppws
        self.routeDeviation = routeDeviation
        self.ndtw = ndtw
        self.sdtw = sdtw
    }

    init(_ outcomes: [WalkOutcome]) {
        self.init(
            success: outcomes.map(\.success), endOfRouteError: outcomes.map(\.end_of_route_error), spl: outcomes.map(\.spl),
            ppws: outcomes.map(\.ppws), routeDeviation: outcomes.map(\.route_deviation_mean), ndtw: outcomes.map(\.ndtw),
            sdtw: outcomes.map(\.sdtw))
    }

    /// The artifact's bytes. Complexity: O(walkers).
    var bytes: [UInt8] {
        var out: [UInt8] = [Self.version]
        out.reserveCapacity(1 + Self.recordBytes * success.count)
        for i in success.indices {
            out.append(success[i] ? 1 : 0)
            for v in [endOfRouteError[i], spl[i], ppws[i], routeDeviation[i], ndtw[i], sdtw[i]] { out.appendLittleEndian(v) }
        }
        return out
    }

    /// The walkers of `bytes`, or nil unless they are of this version with whole records of 0/1
    /// flags (a damaged artifact, or one of another version, is no result: the cell is walked again).
    init?(bytes: [UInt8]) {
        guard bytes.first == Self.version, (bytes.count - 1) % Self.recordBytes == 0 else { return nil }
        var walkers = ClosedLoopWalkers(success: [], endOfRouteError: [], spl: [], ppws: [], routeDeviation: [], ndtw: [], sdtw: [])
        var i = 1
        func value(_ at: Int) -> Double { bytes.littleEndianDouble(at: at) }
        while i < bytes.count {
            guard bytes[i] <= 1 else { return nil }
            walkers.success.append(bytes[i] == 1)
            walkers.endOfRouteError.append(value(i + 1))
            walkers.spl.append(value(i + 9))
            walkers.ppws.append(value(i + 17))
            walkers.routeDeviation.append(value(i + 25))
            walkers.ndtw.append(value(i + 33))
            walkers.sdtw.append(value(i + 41))
            i += Self.recordBytes
        }
        self = walkers
    }
}
