import CHDF5

/// How `HDF5Writer` stores the numeric datasets of at least `compressionThresholdRows` rows:
/// contiguous and uncompressed, or in chunks of `chunkRows` rows with the shuffle filter and
/// gzip at a level 1–9. Smaller datasets are always contiguous.
///
/// `default` (shuffle + gzip 4) is what every writer used before the choice existed, so the
/// bundled datasets and imports keep their bytes; `navbench filter` has its own default,
/// `filterDefault`, chosen from a measurement (docs/benchmarks.md, "Long recordings").
public enum HDF5Compression: Sendable, Equatable, CustomStringConvertible {
    case none
    case gzip(level: Int)

    public static let `default` = HDF5Compression.gzip(level: 4)
    /// `navbench filter`'s default output compression.
    public static let filterDefault = HDF5Compression.gzip(level: 1)

    /// Parses `none` or `gzip:N` (N in 1…9); `gzip` alone is level 4.
    ///
    /// - Throws: one line naming the value and what is expected.
    public init(parsing text: String) throws(CompressionSpecError) {
        switch text {
        case "none": self = .none
        case "gzip": self = .gzip(level: 4)
        default:
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "gzip", let level = Int(parts[1]), (1...9).contains(level) else {
                throw CompressionSpecError(text: text)
            }
            self = .gzip(level: level)
        }
    }

    public var description: String {
        switch self {
        case .none: return "none"
        case let .gzip(level): return "gzip:\(level)"
        }
    }
}

/// A `--compression` value that is not `none` or `gzip:1`…`gzip:9`.
public struct CompressionSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public var description: String { "--compression \(text): expected none or gzip:N with N from 1 to 9" }
}

extension HDF5Writer {
    /// The dataset creation properties for a dataset of `shape` (caller closes): no time
    /// stamps; chunked with shuffle + gzip when compressed and at least the threshold rows.
    func datasetCreationProperties(shape: [Int]) -> hid_t {
        let dcpl = H5Pcreate(nb_H5P_DATASET_CREATE())
        H5Pset_obj_track_times(dcpl, false)
        if case let .gzip(level) = compression, let rows = shape.first, rows >= HDF5Writer.compressionThresholdRows {
            var chunk = shape.map { hsize_t($0) }
            chunk[0] = hsize_t(min(rows, HDF5Writer.chunkRows))
            H5Pset_chunk(dcpl, Int32(chunk.count), chunk)
            H5Pset_shuffle(dcpl)
            H5Pset_deflate(dcpl, UInt32(level))
        }
        return dcpl
    }

    /// Creates a float64 dataset of `shape` with a `units` attribute, to be filled by rows
    /// with `writeRows` (any order; whole chunks are cheapest).
    public func createDoubles(_ dataset: String, shape: [Int], units: String) throws(TraceError) -> HDF5RowSink {
        let d = try createDataset(dataset, shape: shape, fileType: nb_H5T_IEEE_F64LE())
        let sink = HDF5RowSink(dataset: d, name: dataset, file: path, shape: shape)
        try setAttribute("units", string: units, on: dataset)
        return sink
    }
}

/// A float64 dataset being written row block by row block (closed on deinit).
public final class HDF5RowSink {
    let dataset: hid_t
    let name: String
    let file: String
    public let shape: [Int]
    init(dataset: hid_t, name: String, file: String, shape: [Int]) {
        self.dataset = dataset; self.name = name; self.file = file; self.shape = shape
    }
    deinit { H5Dclose(dataset) }

    /// Writes rows `firstRow ..< firstRow + values.count / columns` (row-major values).
    public func writeRows(_ values: [Double], at firstRow: Int) throws(TraceError) {
        let columns = shape.dropFirst().reduce(1, *)
        let rows = columns == 0 ? 0 : values.count / columns
        guard rows * columns == values.count, firstRow >= 0, firstRow + rows <= (shape.first ?? 0) else {
            throw TraceError(.writeFailed, file: file, object: name, "block of \(values.count) values at row \(firstRow) does not fit shape \(shape)")
        }
        if rows == 0 { return }
        let status = withRowSelection(dataset, shape: shape, rows: firstRow..<(firstRow + rows)) { mem, fileSpace in
            values.withUnsafeBytes { H5Dwrite(dataset, nb_H5T_NATIVE_DOUBLE(), mem, fileSpace, nb_H5P_DEFAULT(), $0.baseAddress) }
        }
        guard status >= 0 else { throw TraceError(.writeFailed, file: file, object: name, "cannot write rows \(firstRow)..<\(firstRow + rows)") }
    }
}

/// Runs `body` with a memory space for `rows` whole rows and the file space selecting them.
func withRowSelection(_ dataset: hid_t, shape: [Int], rows: Range<Int>, _ body: (hid_t, hid_t) -> herr_t) -> herr_t {
    var count = shape.map { hsize_t($0) }
    count[0] = hsize_t(rows.count)
    var start = [hsize_t](repeating: 0, count: shape.count)
    start[0] = hsize_t(rows.lowerBound)
    let fileSpace = H5Dget_space(dataset)
    defer { H5Sclose(fileSpace) }
    guard H5Sselect_hyperslab(fileSpace, H5S_SELECT_SET, start, nil, count, nil) >= 0 else { return -1 }
    let mem = H5Screate_simple(Int32(count.count), count, nil)
    defer { H5Sclose(mem) }
    return body(mem, fileSpace)
}

extension HDF5Reader {
    /// The declared-size checks of a whole read (shape product without overflow, bytes the
    /// file can hold) without the memory budget, for a dataset read in bounded blocks: a file
    /// declaring 2^40 rows is refused before any block is read.
    public func checkDeclaredSize(_ dataset: String) throws(TraceError) {
        let d = try openDataset(dataset)
        defer { H5Dclose(d) }
        _ = try checkedElementCount(d, try info(of: d, name: dataset), name: dataset, memoryElementSize: 0)
    }

    /// Reads rows `rows` of a numeric dataset as float64 (row-major), checking the range
    /// against the dataset's shape before allocating.
    public func readDoubles(_ dataset: String, rows: Range<Int>) throws(TraceError) -> [Double] {
        let d = try openDataset(dataset)
        defer { H5Dclose(d) }
        let inf = try info(of: d, name: dataset)
        guard inf.typeClass == .float || inf.typeClass == .integer else {
            throw TraceError(.wrongType, file: path, object: dataset, "expected a numeric dataset, found \(inf.typeClass.rawValue)")
        }
        guard let total = inf.shape.first, rows.lowerBound >= 0, rows.upperBound <= total else {
            throw TraceError(.wrongShape, file: path, object: dataset, "rows \(rows) outside the dataset's \(inf.shape.first ?? 0) rows")
        }
        let columns = inf.shape.dropFirst().reduce(1) { $0.multipliedReportingOverflow(by: $1).overflow ? Int.max : $0 * $1 }
        let (n, o) = rows.count.multipliedReportingOverflow(by: columns)
        guard !o, n <= policy.memoryBudgetBytes / 8 else {
            throw TraceError(
                .tooLarge, file: path, object: dataset, "a block of \(rows.count) rows of shape \(inf.shape) is more than the memory budget")
        }
        if n == 0 { return [] }
        var status: herr_t = 0
        let values = [Double](unsafeUninitializedCapacity: n) { buf, count in
            status = withRowSelection(d, shape: inf.shape, rows: rows) { mem, fileSpace in
                H5Dread(d, nb_H5T_NATIVE_DOUBLE(), mem, fileSpace, nb_H5P_DEFAULT(), buf.baseAddress)
            }
            if status < 0 { for i in 0..<n { buf.initializeElement(at: i, to: 0) } }
            count = n
        }
        guard status >= 0 else {
            throw TraceError(
                .corrupt, file: path, object: dataset, "cannot read rows \(rows) (truncated or corrupt file, or a filter that is not available)")
        }
        return values
    }
}
