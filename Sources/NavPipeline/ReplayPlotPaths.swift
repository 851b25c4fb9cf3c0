import Foundation

/// What the report's plots draw of one guidance replay run (`JobResult`'s paths): stored with
/// the run as its artifact `plot_paths` when the run is in the plot sample (`PlotSample`), so
/// a report, a cached rerun or a `merge` draws the plots from the store and runs nothing again.
///
/// Bytes: four little-endian `UInt32` counts (points of the true path, of the estimated path,
/// of the route, position errors), then every coordinate and error as the little-endian IEEE 754
/// bits of its `Double` (x then y per point): exact, NaN and −0 included.
///
/// Complexity: O(points) to encode and decode.
struct ReplayPlotPaths: Equatable {
    /// The artifact's name in the store.
    static let artifactName = "plot_paths"

    var truePath: [[Double]]
    var estimatedPath: [[Double]]
    var route2D: [[Double]]
    var positionErrors: [Double]

    init(_ result: JobResult) {
        truePath = result.truePath; estimatedPath = result.estimatedPath; route2D = result.route2D
        positionErrors = result.positionErrors
    }

    /// The encoded bytes, or nil when they would exceed `limit` (such a run is not stored with
    /// its paths: a report runs it again to draw it) or a point is not (x, y).
    func bytes(limit: Int) -> [UInt8]? {
        let paths = [truePath, estimatedPath, route2D]
        guard paths.allSatisfy({ $0.allSatisfy { $0.count == 2 } }) else { return nil }
        let counts = paths.map(\.count) + [positionErrors.count]
        let size = 16 + 8 * (2 * (counts[0] + counts[1] + counts[2]) + counts[3])
        guard counts.allSatisfy({ $0 <= Int(UInt32.max) }), size <= limit else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(size)
        for c in counts { withUnsafeBytes(of: UInt32(c).littleEndian) { out.append(contentsOf: $0) } }
        func add(_ v: Double) { out.appendLittleEndian(v) }
        for path in paths { for p in path { add(p[0]); add(p[1]) } }
        for e in positionErrors { add(e) }
        return out
    }

    /// Decodes `bytes`; nil unless they are exactly what `bytes(limit:)` writes (counts that
    /// match the length), so a damaged artifact is never drawn. Without `walkedPaths` the true
    /// and estimated paths are left empty (skipped, not decoded): a run whose walk is not drawn
    /// needs only the route and its position errors.
    init?(bytes: [UInt8], walkedPaths: Bool = true) {
        guard bytes.count >= 16 else { return nil }
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let counts = (0..<4).map { u32(4 * $0) }
        // Checked in 64 bits from counts below 2^32: no overflow.
        guard 16 + 8 * (2 * (counts[0] + counts[1] + counts[2]) + counts[3]) == bytes.count else { return nil }
        var at = 16
        func next() -> Double {
            defer { at += 8 }
            return bytes.littleEndianDouble(at: at)
        }
        func path(_ n: Int) -> [[Double]] {
            (0..<n).map { _ in
                let x = next(); return [x, next()]
            }
        }
        if walkedPaths {
            truePath = path(counts[0]); estimatedPath = path(counts[1])
        } else {
            truePath = []; estimatedPath = []
            at += 16 * (counts[0] + counts[1])
        }
        route2D = path(counts[2])
        positionErrors = (0..<counts[3]).map { _ in next() }
    }
}
