import Foundation
import NavCore
import NavIO

/// Imports a MATLAB level-5 MAT-file (`MATFile`) driven by a mapping file, as
/// `importHDF5Mapped` imports HDF5: a mapping's `dataset:` is a variable path, `/QTM/RigidBodies/Positions`
/// or `QTM.RigidBodies.Positions` (a struct's fields; `(k)` picks an element of a struct or
/// cell array). A MATLAB array of size d1×…×dn is seen as HDF5 sees the same variable saved with
/// `-v7.3`: shape (dn, …, d1), row-major, with its singleton dimensions dropped, so rows are
/// its last non-singleton MATLAB dimension (QTM's frames) and one mapping reads both files.
/// A MAT-file has no attributes: a sample rate comes from `sample_rate: {dataset: PATH}`.
///
/// - Throws: one line naming the MAT-file and the variable path (missing, a class navbench does
///   not read, wrong shape), the mapping file's line and key, or `MATFile`'s format errors.
/// - Complexity: O(file size + values read).
public func importMATMapped(
    _ path: String, mapping: ImportMapping, options: ImportOptions = ImportOptions(), limits: MATLimits = MATLimits()
) throws(TraceError) -> ImportResult {
    if let s = mapping.source, s == .csv {
        throw TraceError(
            .badValue, file: mapping.file, object: "source", "the mapping is for csv files; import it with csv, or set source: mat")
    }
    let file = try MATFile(path: path, limits: limits)
    return try importMappedArrays(MATArrays(file: file), mapping: mapping, options: options, format: "MAT-file", article: "a")
}

/// A MAT-file's arrays as a mapping reads them.
private struct MATArrays: MappedArrays {
    let file: MATFile
    var path: String { file.path }

    func exists(_ ds: String) -> Bool { (try? file.array(at: ds)) != nil }

    func readDoubles(_ ds: String) throws(TraceError) -> (shape: [Int], values: [Double]) {
        let a = try file.array(at: ds)
        guard case let .numeric(_, dims, values) = a else { throw notNumeric(ds, a) }
        // Column-major d1×…×dn is row-major (dn, …, d1).
        let shape = dims.reversed().filter { $0 != 1 }
        return (shape.isEmpty ? [values.count] : Array(shape), values)
    }

    func notNumeric(_ ds: String, _ a: MATArray) -> TraceError {
        if case let .unsupported(what) = a {
            return TraceError(.wrongType, file: path, object: ds, "\(what), which navbench does not read; expected a numeric array")
        }
        return TraceError(.wrongType, file: path, object: ds, "a \(a.summary), expected a numeric array")
    }

    /// Why `ds` is missing, from `MATFile.array(at:)`'s message (what the file or struct holds).
    func whatThereIs(near ds: String) throws(TraceError) -> String {
        do {
            _ = try file.array(at: ds)
            return "the file has it"
        } catch { return error.problem }
    }

    func unitsAttribute(of ds: String) -> String? { nil }

    /// A cell array of char arrays, or a char array's rows.
    func strings(_ ds: String) throws(TraceError) -> [String]? {
        switch try file.array(at: ds) {
        case let .char(_, text): return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case let .cell(_, elements):
            var out: [String] = []
            for (k, e) in elements.enumerated() {
                guard case let .char(_, text) = e else { throw notNumeric("\(ds){\(k + 1)}", e) }
                out.append(text)
            }
            return out
        default: return nil
        }
    }

    func rate(attribute name: String, of object: String, mapping: String) throws(TraceError) -> Double {
        throw TraceError(
            .badValue, file: mapping, object: "sample_rate.attribute",
            "a MAT-file has no attributes; name the variable holding the rate, e.g. sample_rate: {dataset: /QTM/FrameRate}")
    }
}
