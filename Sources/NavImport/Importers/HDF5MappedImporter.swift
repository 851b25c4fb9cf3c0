import Foundation
import NavCore
import NavIO

/// Imports an HDF5 file of any layout driven by a mapping file (`ImportMapping`,
/// docs/importers.md): each trace dataset from a dataset of the file (rows = samples,
/// optionally a selection of its columns), converted from the mapping's units or the
/// dataset's own `units` attribute, on a time dataset or a sample rate (a number or an
/// attribute, sample k at start + k / rate), positions and orientations turned from the
/// mapping's `frame` (ENU, NED) into ARKit's.
///
/// Proven on the BROAD benchmark (`Datasets/real/broad/broad.mapping.yaml`).
///
/// - Throws: one line naming the HDF5 file and dataset (missing, wrong shape, rows that
///   disagree, units attribute contradicting the mapping, an invalid row), or the mapping
///   file, its line and key.
public func importHDF5Mapped(_ path: String, mapping: ImportMapping, options: ImportOptions = ImportOptions()) throws(TraceError) -> ImportResult {
    if let s = mapping.source, s == .csv {
        throw TraceError(
            .badValue, file: mapping.file, object: "source", "the mapping is for \(s.rawValue) files; import it with csv, or set source: hdf5")
    }
    let reader = try HDF5Reader(path: path, policy: options.readPolicy)
    return try importMappedArrays(HDF5Arrays(reader: reader), mapping: mapping, options: options, format: "HDF5", article: "an")
}

/// An HDF5 file's datasets and attributes as a mapping reads them.
private struct HDF5Arrays: MappedArrays {
    let reader: HDF5Reader
    var path: String { reader.path }
    func exists(_ ds: String) -> Bool { reader.exists(ds) }
    func readDoubles(_ ds: String) throws(TraceError) -> (shape: [Int], values: [Double]) { try reader.readDoubles(ds) }
    func whatThereIs(near ds: String) throws(TraceError) -> String {
        let names = try reader.children(of: "/")
        return "the file has " + (names.isEmpty ? "no objects" : names.map { "/" + $0 }.joined(separator: ", "))
    }
    func unitsAttribute(of ds: String) -> String? { reader.attribute("units", of: ds)?.stringValue }
    func strings(_ ds: String) throws(TraceError) -> [String]? {
        try reader.info(ds).typeClass == .string ? try reader.readStrings(ds) : nil
    }

    /// A numeric attribute of the file (> 0).
    func rate(attribute name: String, of object: String, mapping: String) throws(TraceError) -> Double {
        guard let a = reader.attribute(name, of: object) else {
            throw TraceError(
                .missing, file: path, object: "\(object == "/" ? "" : object)/@\(name)",
                "attribute not found (the sample rate named by \(mapping))")
        }
        let value: Double?
        switch a {
        case let .float(f): value = f
        case let .integer(i): value = Double(i)
        case let .string(s): value = Double(s)
        case .other: value = nil
        }
        guard let value, value.isFinite, value > 0 else {
            throw TraceError(.badValue, file: path, object: "\(object == "/" ? "" : object)/@\(name)", "expected a sample rate > 0 Hz")
        }
        return value
    }
}
