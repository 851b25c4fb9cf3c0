import NavCore

/// Rows per block when a trace is read without loading whole datasets (`validateTrace(…,
/// loadValues: false)`, streaming filters): 4 × `HDF5Writer.chunkRows`, so blocks written
/// back align with the writer's chunks.
public let traceBlockRows = 4 * HDF5Writer.chunkRows

/// The value checks of `validate` (finite, range, unit quaternions) accumulated over blocks,
/// so a dataset checked block by block reports exactly what the whole-array check reports.
struct ValueChecker {
    let spec: TraceSchema.Dataset
    let columns: Int
    var firstNonFinite: (row: Int, value: Double)?
    var nonFinite = 0
    var firstOutOfRange: (row: Int, value: Double)?
    var firstBadQuaternion: Int?
    var badQuaternions = 0
    var worst = 0.0

    init(spec: TraceSchema.Dataset, columns: Int) { self.spec = spec; self.columns = columns }

    /// Checks `v` (row-major, `columns` per row) whose first row is `firstRow`.
    mutating func check(_ v: [Double], firstRow: Int) {
        if spec.role == .timestamps { return }  // checked as a time axis
        if spec.role != .valuesOrNaN || v.contains(where: \.isInfinite) {
            // NaN marks "unknown" in a valuesOrNaN dataset; an infinity is never a value.
            for (i, x) in v.enumerated() where spec.role == .valuesOrNaN ? x.isInfinite : !x.isFinite {
                if firstNonFinite == nil { firstNonFinite = (firstRow + i / columns, x) }
                nonFinite += 1
            }
        }
        if firstOutOfRange == nil, let r = spec.range, let bad = v.firstIndex(where: { $0.isFinite && !r.contains($0) }) {
            firstOutOfRange = (firstRow + bad / columns, v[bad])
        }
        if spec.role == .quaternion {
            for i in 0..<(v.count / 4) {
                let q = Quaternion(x: v[4 * i], y: v[4 * i + 1], z: v[4 * i + 2], w: v[4 * i + 3])
                let dev = Swift.abs(q.norm - 1)
                if dev > TraceSchema.quaternionNormTolerance {
                    if firstBadQuaternion == nil { firstBadQuaternion = firstRow + i }
                    badQuaternions += 1
                    worst = Swift.max(worst, dev)
                }
            }
        }
    }

    /// Reports the first problem found (non-finite before range before quaternion norm).
    func finish(object: String, fail: (TraceError.Kind, String?, String) -> Void) {
        if let (row, value) = firstNonFinite {
            let expected = spec.role == .quaternion ? "; expected finite unit quaternions (x, y, z, w)" : ""
            fail(.badValue, object, "row \(row): value \(value) is not finite (\(nonFinite) non-finite values)\(expected)")
            return
        }
        if let (row, value) = firstOutOfRange, let r = spec.range {
            fail(.badValue, object, "row \(row): \(value) outside \(formatRange(r))")
            return
        }
        if let firstBadQuaternion {
            fail(
                .badValue, object,
                "expected unit quaternions (x, y, z, w) with |‖q‖−1| ≤ \(TraceSchema.quaternionNormTolerance); row \(firstBadQuaternion) and \(badQuaternions - 1) more deviate, worst by \(fmt(worst))"
            )
        }
    }
}

func formatRange(_ r: ClosedRange<Double>) -> String {
    "[\(fmt(r.lowerBound)), \(r.upperBound.isInfinite ? "∞" : fmt(r.upperBound))]"
}

/// Reads `rows` rows of `object` block by block and hands each block (row-major) and its
/// first row to `body`.
func forEachBlock(
    _ reader: HDF5Reader, _ object: String, rows: Int, blockRows: Int = traceBlockRows,
    _ body: ([Double], Int) throws -> Void
) throws {
    try reader.checkDeclaredSize(object)
    var start = 0
    while start < rows {
        let end = min(rows, start + blockRows)
        try body(try reader.readDoubles(object, rows: start..<end), start)
        start = end
    }
}

/// What a time axis checked block by block gives: the first order problem, and for the gap
/// warning the largest interval, where it starts and the median positive interval
/// (`SamplingSummary`'s definitions).
struct BlockTimeAxis {
    var error: TimestampError?
    var largestGap = 0.0
    var largestGapStart = 0.0
    var medianInterval = 0.0
}

/// Checks a time axis of `rows` stamps block by block (`validateTimestamps` semantics, the
/// same indices in its messages) and computes the gap statistics without holding the axis.
func checkTimeAxisInBlocks(_ reader: HDF5Reader, _ object: String, rows: Int, order: TimeOrder) throws -> BlockTimeAxis {
    var axis = BlockTimeAxis()
    var previous: Double?
    var first = true
    try forEachBlock(reader, object, rows: rows) { t, start in
        for (i, v) in t.enumerated() {
            let k = start + i
            if axis.error == nil {
                if !v.isFinite {
                    axis.error = .notFinite(index: k)
                } else if let p = previous {
                    let bad = order == .strictlyIncreasing ? !(v > p) : v < p
                    if bad { axis.error = .notIncreasing(index: k, previous: p, current: v, strict: order == .strictlyIncreasing) }
                }
            }
            if let p = previous {
                let gap = v - p
                if first || gap > axis.largestGap { axis.largestGap = gap; axis.largestGapStart = p; first = false }
            }
            previous = v
        }
    }
    if axis.error != nil { return axis }
    axis.medianInterval = try medianOfPositiveValues { visit in
        var last: Double?
        try forEachBlock(reader, object, rows: rows) { t, _ in
            var d = [Double]()
            d.reserveCapacity(t.count)
            if let last, let f = t.first { d.append(f - last) }
            for i in t.indices.dropFirst() { d.append(t[i] - t[i - 1]) }
            last = t.last
            d.withUnsafeBufferPointer { visit($0) }
        }
    }
    return axis
}
