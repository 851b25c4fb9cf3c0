import Foundation
import NavCore
import NavSignal

/// CoreLocation's proximity classes, by distance.
public enum ProximityClass: String, Sendable, CaseIterable, Codable {
    case immediate, near, far, unknown
}

/// Log-distance path loss: RSSI(d) = RSSI(1 m) − 10·n·log10(d).
public struct PathLossModel: Sendable, Equatable, Codable {
    public var rssiAtOneMetre: Double
    public var exponent: Double
    public init(rssiAtOneMetre: Double, exponent: Double) { self.rssiAtOneMetre = rssiAtOneMetre; self.exponent = exponent }

    /// d = 10^((RSSI(1 m) − rssi) / (10·n)), metres.
    public func distance(rssi: Double) -> Double { pow(10, (rssiAtOneMetre - rssi) / (10 * exponent)) }

    /// Least-squares fit of rssi = a + b·log10(d): RSSI(1 m) = a, n = −b/10.
    ///
    /// - Returns: nil with fewer than two distinct distances.
    public static func fit(rssi: [Double], distance: [Double]) -> PathLossModel? {
        let pairs = zip(rssi, distance).filter { $0.0.isFinite && $0.1 > 0 }
        guard pairs.count >= 2 else { return nil }
        let x = pairs.map { log10($0.1) }, y = pairs.map(\.0)
        let mx = x.reduce(0, +) / Double(x.count), my = y.reduce(0, +) / Double(y.count)
        var sxy = 0.0, sxx = 0.0
        for (a, b) in zip(x, y) { sxy += (a - mx) * (b - my); sxx += (a - mx) * (a - mx) }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        return PathLossModel(rssiAtOneMetre: my - slope * mx, exponent: -slope / 10)
    }
}

/// What the path-loss fit of the proximity experiment is computed on (`ProximityParameters.fitData`).
public enum PathLossFitData: String, Sendable, Equatable, Codable, CaseIterable {
    case scans, readings
}

/// Parameters of the proximity experiment (the iBeacon article's monitor by default).
public struct ProximityParameters: Sendable, Equatable, Codable {
    /// Class boundaries, metres: immediate ≤ 0.5 < near ≤ 3 < far.
    public var immediateMetres = 0.5, nearMetres = 3.0
    /// A beacon leaves the found set after more than this many consecutive scans without it
    /// (the article's `scansSinceLastFound > 1`).
    public var missedScansBeforeExit = 1
    /// The region a beacon must be in to count as found: near or immediate.
    public var regionMetres = 3.0
    /// RSSI filter spec applied per beacon over its readings ("none" for raw).
    public var filter = "none"
    /// Readings are grouped into scans of this many seconds (iOS ranges about once a second),
    /// each beacon's RSSI averaged within a scan; nil: every distinct timestamp is a scan.
    public var scanWindow: Double? = 1.0
    /// The (RSSI, true distance) pairs the path-loss model is fitted on when none is given:
    /// each beacon's mean per scan (`scans`, the default: what the monitor sees) or every raw
    /// reading before scans are formed (`readings`).
    public var fitData = PathLossFitData.scans
    /// Only pairs whose true distance lies in this range enter the fit (nil: every pair with a
    /// positive distance), e.g. 0.2…∞ m to leave out readings taken on top of a beacon.
    public var fitDistance: ClosedRange<Double>? = nil
    public init() {}

    public func proximity(_ d: Double?) -> ProximityClass {
        guard let d, d.isFinite else { return .unknown }
        return d <= immediateMetres ? .immediate : d <= nearMetres ? .near : .far
    }
}

/// One reading, scored.
public struct ScoredReading: Sendable, Equatable {
    public var time: Double
    public var beacon: Int
    public var estimatedDistance: Double
    public var trueDistance: Double
    public var estimated: ProximityClass
    public var truth: ProximityClass
}

/// A region entry or exit.
public struct RegionEvent: Sendable, Equatable {
    public enum Kind: String, Sendable { case enter, exit }
    public var time: Double
    public var beacon: Int
    public var kind: Kind
}

/// The proximity experiment of one session.
public struct ProximityResult: Sendable {
    public var model: PathLossModel
    public var readings: [ScoredReading]
    public var events: [RegionEvent]
    /// True region crossings (truth: distance ≤ regionMetres at the scan times).
    public var trueEvents: [RegionEvent]
    public var duration: Double

    /// confusion[truth][estimated] counts over readings.
    public var confusion: [ProximityClass: [ProximityClass: Int]] {
        var c: [ProximityClass: [ProximityClass: Int]] = [:]
        for r in readings { c[r.truth, default: [:]][r.estimated, default: 0] += 1 }
        return c
    }
}

/// Runs RSSI → (filter) → distance → class, and the monitor with missed-scan hysteresis, on a
/// BLE stream, scoring against true distances (`truePosition(t)` minus the beacon position).
///
/// Scans are the distinct timestamps of the stream. The filter runs per beacon over that
/// beacon's readings in time order.
///
/// - Complexity: O(readings · log readings).
public func runProximity(
    _ raw: BLEStream, truePosition: (Double) -> Vector3?, model given: PathLossModel?,
    parameters p: ProximityParameters = ProximityParameters()
) throws(FilterSpecError) -> ProximityResult {
    let ble = p.scanWindow.map { groupIntoScans(raw, window: $0) } ?? raw
    let n = ble.rssi.count
    func trueDistance(_ stream: BLEStream, _ i: Int) -> Double {
        guard let b = stream.beacons[Int(stream.beaconIndex[i])].position, let q = truePosition(stream.timestamps[i]) else { return .nan }
        return (b - q).norm
    }
    let truths = (0..<n).map { trueDistance(ble, $0) }
    // Filter each beacon's RSSI series.
    var filtered = ble.rssi
    if p.filter != "none" {
        let spec = try FilterSpec(parsing: p.filter)
        for b in Set(ble.beaconIndex) {
            let idx = (0..<n).filter { ble.beaconIndex[$0] == b }
            let t = idx.map { ble.timestamps[$0] }
            var times = t
            for k in times.indices.dropFirst() where times[k] <= times[k - 1] { times[k] = times[k - 1] + 1e-6 }
            let fs = idx.count > 1 ? 1 / max(1e-6, SamplingSummary(timestamps: times).medianInterval) : 1
            let y = try spec.apply(idx.map { ble.rssi[$0] }, timestamps: times, sampleRate: fs)
            for (k, i) in idx.enumerated() { filtered[i] = y[k] }
        }
    }
    func fitted() -> PathLossModel? {
        var (rssi, distance) = p.fitData == .scans ? (ble.rssi, truths) : (raw.rssi, raw.rssi.indices.map { trueDistance(raw, $0) })
        if let range = p.fitDistance {
            let kept = distance.indices.filter { range.contains(distance[$0]) }
            (rssi, distance) = (kept.map { rssi[$0] }, kept.map { distance[$0] })
        }
        return PathLossModel.fit(rssi: rssi, distance: distance)
    }
    let model = given ?? fitted() ?? PathLossModel(rssiAtOneMetre: -59, exponent: 2)
    var readings: [ScoredReading] = []
    for i in 0..<n {
        let d = model.distance(rssi: filtered[i])
        readings.append(
            ScoredReading(
                time: ble.timestamps[i], beacon: Int(ble.beaconIndex[i]), estimatedDistance: d, trueDistance: truths[i],
                estimated: p.proximity(d), truth: p.proximity(truths[i].isFinite ? truths[i] : nil)))
    }
    // Monitor: per scan, the beacons found in the region; hysteresis on exits.
    var scans: [(Double, [Int])] = []
    for i in 0..<n {
        if scans.last?.0 != ble.timestamps[i] { scans.append((ble.timestamps[i], [])) }
        scans[scans.count - 1].1.append(i)
    }
    var inRegion: [Int: Int] = [:]  // beacon → scans since last found
    var events: [RegionEvent] = [], trueEvents: [RegionEvent] = []
    var trulyIn = Set<Int>()
    for (t, rows) in scans {
        let found = Set(rows.filter { readings[$0].estimatedDistance <= p.regionMetres }.map { readings[$0].beacon })
        for b in found.sorted() where inRegion[b] == nil { events.append(RegionEvent(time: t, beacon: b, kind: .enter)) }
        for b in inRegion.keys.sorted() {
            if found.contains(b) {
                inRegion[b] = 0
            } else {
                inRegion[b]! += 1
                if inRegion[b]! > p.missedScansBeforeExit { inRegion[b] = nil; events.append(RegionEvent(time: t, beacon: b, kind: .exit)) }
            }
        }
        for b in found where inRegion[b] == nil { inRegion[b] = 0 }
        // Truth: every beacon with a position, at this scan time.
        guard let q = truePosition(t) else { continue }
        for (b, beacon) in ble.beacons.enumerated() {
            guard let pos = beacon.position else { continue }
            let inside = (pos - q).norm <= p.regionMetres
            if inside && !trulyIn.contains(b) { trulyIn.insert(b); trueEvents.append(RegionEvent(time: t, beacon: b, kind: .enter)) }
            if !inside && trulyIn.contains(b) { trulyIn.remove(b); trueEvents.append(RegionEvent(time: t, beacon: b, kind: .exit)) }
        }
    }
    let duration = (ble.timestamps.last ?? 0) - (ble.timestamps.first ?? 0)
    return ProximityResult(model: model, readings: readings, events: events, trueEvents: trueEvents, duration: duration)
}

/// Groups readings into scans of `window` seconds (scan k covers [t₀ + k·w, t₀ + (k+1)·w), stamped
/// at its start) with each beacon's mean RSSI, rows sorted by (scan, beacon).
///
/// - Complexity: O(n log n).
public func groupIntoScans(_ ble: BLEStream, window: Double) -> BLEStream {
    guard let t0 = ble.timestamps.first, window > 0 else { return ble }
    // Scan numbers stay Double: a timestamp of 1e300 s gives a huge scan number, never a trap.
    var sums: [Double: [Int32: (Double, Int)]] = [:]
    for i in ble.rssi.indices {
        let k = ((ble.timestamps[i] - t0) / window).rounded(.down)
        guard k.isFinite else { continue }
        let (s, c) = sums[k, default: [:]][ble.beaconIndex[i]] ?? (0, 0)
        sums[k, default: [:]][ble.beaconIndex[i]] = (s + ble.rssi[i], c + 1)
    }
    var t: [Double] = [], b: [Int32] = [], r: [Double] = []
    for k in sums.keys.sorted() {
        for beacon in sums[k]!.keys.sorted() {
            let (s, c) = sums[k]![beacon]!
            t.append(t0 + k * window); b.append(beacon); r.append(s / Double(c))
        }
    }
    return BLEStream(timestamps: t, beaconIndex: b, rssi: r, beacons: ble.beacons)
}
