import CHDF5
import Foundation

/// Writes an HDF5 file atomically and reproducibly.
///
/// Data go to a temporary file beside the target, renamed over it by `commit()`;
/// a writer dropped without `commit()` (or a killed process) leaves the target
/// untouched. Object modification times are not recorded, so the same content
/// gives byte-identical files.
public final class HDF5Writer {
    public let path: String
    let output: StagedOutput
    let temporaryPath: String
    var file: hid_t
    private var committed = false

    /// Datasets with at least this many rows are chunked and gzip-compressed.
    public static let compressionThresholdRows = 2048
    /// Rows per chunk of compressed datasets.
    public static let chunkRows = 16384
    /// gzip level of compressed datasets (with the shuffle filter) when none is chosen.
    public static let gzipLevel: UInt32 = 4
    /// Compression of the datasets this writer creates (`--compression`).
    public var compression: HDF5Compression = .default

    public init(path: String) throws(TraceError) {
        _ = silenceHDF5Errors
        self.path = path
        guard path != "-", !path.isEmpty else {
            throw TraceError(
                .writeFailed, file: path.isEmpty ? "''" : path, "an HDF5 trace cannot go to standard output or an empty path; name a .h5 file")
        }
        output = try StagedOutput(path: path)
        temporaryPath = output.temporary
        let fcpl = H5Pcreate(nb_H5P_FILE_CREATE())
        defer { H5Pclose(fcpl) }
        H5Pset_obj_track_times(fcpl, false)
        let id = H5Fcreate(temporaryPath, nb_H5F_ACC_EXCL(), fcpl, fileAccessWithoutLocking)
        guard id >= 0 else {
            let reason = errnoText(errno)
            unlink(temporaryPath)  // H5Fcreate may leave an empty file behind (a full disk)
            throw TraceError(.writeFailed, file: path, "cannot create the file (\(reason); is the folder writable?)")
        }
        file = id
    }

    deinit {
        if file >= 0 { H5Fclose(file) }
        if !committed { unlink(temporaryPath) }
    }

    /// Closes the file and moves it into place. A failed close (a full disk) releases the file
    /// all the same: it is never closed twice, and the temporary file is removed with the writer.
    public func commit() throws(TraceError) {
        let closed = H5Fclose(file)
        file = -1
        guard closed >= 0 else { throw TraceError(.writeFailed, file: path, "closing the file failed (disk full?)") }
        try output.replaceTarget()
        committed = true
    }

    /// Creates a group (and its parents).
    public func createGroup(_ group: String) throws(TraceError) {
        var prefix = ""
        for part in group.split(separator: "/") {
            prefix += "/" + part
            if H5Lexists(file, prefix, nb_H5P_DEFAULT()) > 0 { continue }
            let gcpl = H5Pcreate(nb_H5P_GROUP_CREATE())
            H5Pset_obj_track_times(gcpl, false)
            let g = H5Gcreate2(file, prefix, nb_H5P_DEFAULT(), gcpl, nb_H5P_DEFAULT())
            H5Pclose(gcpl)
            guard g >= 0 else { throw TraceError(.writeFailed, file: path, object: prefix, "cannot create group") }
            H5Gclose(g)
        }
    }

    /// Writes a float64 dataset of `shape` (row-major values) with a `units` attribute.
    public func write(_ dataset: String, doubles values: [Double], shape: [Int], units: String) throws(TraceError) {
        try write(dataset, shape: shape, fileType: nb_H5T_IEEE_F64LE(), memType: nb_H5T_NATIVE_DOUBLE(), units: units, values: values)
    }

    /// Writes an int32 dataset.
    public func write(_ dataset: String, int32s values: [Int32], shape: [Int], units: String) throws(TraceError) {
        try write(dataset, shape: shape, fileType: nb_H5T_STD_I32LE(), memType: nb_H5T_NATIVE_INT32(), units: units, values: values)
    }

    /// Writes an int8 dataset.
    public func write(_ dataset: String, int8s values: [Int8], shape: [Int], units: String) throws(TraceError) {
        try write(dataset, shape: shape, fileType: nb_H5T_STD_I8LE(), memType: nb_H5T_NATIVE_INT8(), units: units, values: values)
    }

    private func write<T>(_ dataset: String, shape: [Int], fileType: hid_t, memType: hid_t, units: String?, values: [T]) throws(TraceError) {
        guard shape.reduce(1, *) == values.count else {
            throw TraceError(.writeFailed, file: path, object: dataset, "shape \(shape) does not hold \(values.count) values")
        }
        let d = try createDataset(dataset, shape: shape, fileType: fileType)
        defer { H5Dclose(d) }
        if !values.isEmpty {
            let status = values.withUnsafeBytes { H5Dwrite(d, memType, nb_H5S_ALL(), nb_H5S_ALL(), nb_H5P_DEFAULT(), $0.baseAddress) }
            guard status >= 0 else { throw TraceError(.writeFailed, file: path, object: dataset, "cannot write data") }
        }
        if let units { try setAttribute("units", string: units, on: dataset) }
    }

    /// Writes a 1-D fixed-length string dataset (NUL-padded to the longest value).
    public func write(_ dataset: String, strings: [String]) throws(TraceError) {
        try createParent(of: dataset)
        let size = max(1, strings.map { $0.utf8.count }.max() ?? 1)
        var bytes = [UInt8](repeating: 0, count: size * strings.count)
        for (i, s) in strings.enumerated() { for (j, b) in s.utf8.enumerated() { bytes[i * size + j] = b } }
        let type = H5Tcopy(nb_H5T_C_S1())
        defer { H5Tclose(type) }
        H5Tset_size(type, size)
        H5Tset_strpad(type, H5T_STR_NULLPAD)
        var dims = [hsize_t(strings.count)]
        let space = H5Screate_simple(1, &dims, nil)
        defer { H5Sclose(space) }
        let dcpl = H5Pcreate(nb_H5P_DATASET_CREATE())
        defer { H5Pclose(dcpl) }
        H5Pset_obj_track_times(dcpl, false)
        let d = H5Dcreate2(file, dataset, type, space, nb_H5P_DEFAULT(), dcpl, nb_H5P_DEFAULT())
        guard d >= 0 else { throw TraceError(.writeFailed, file: path, object: dataset, "cannot create dataset") }
        defer { H5Dclose(d) }
        if !strings.isEmpty {
            guard H5Dwrite(d, type, nb_H5S_ALL(), nb_H5S_ALL(), nb_H5P_DEFAULT(), bytes) >= 0 else {
                throw TraceError(.writeFailed, file: path, object: dataset, "cannot write strings")
            }
        }
    }

    /// Creates `dataset` (and its parent groups) with `shape`, the file type and this writer's
    /// compression settings; the caller closes the returned id.
    func createDataset(_ dataset: String, shape: [Int], fileType: hid_t) throws(TraceError) -> hid_t {
        try createParent(of: dataset)
        let dims = shape.map { hsize_t($0) }
        let space = H5Screate_simple(Int32(dims.count), dims, nil)
        defer { H5Sclose(space) }
        let dcpl = datasetCreationProperties(shape: shape)
        defer { H5Pclose(dcpl) }
        let d = H5Dcreate2(file, dataset, fileType, space, nb_H5P_DEFAULT(), dcpl, nb_H5P_DEFAULT())
        guard d >= 0 else { throw TraceError(.writeFailed, file: path, object: dataset, "cannot create dataset") }
        return d
    }

    /// Sets every root attribute of a loaded trace (sorted by name; attributes of other HDF5
    /// types are left out).
    public func setRootAttributes(_ attributes: [String: HDF5Attribute]) throws(TraceError) {
        for name in attributes.keys.sorted() {
            switch attributes[name]! {
            case let .string(s): try setAttribute(name, string: s)
            case let .integer(i): try setAttribute(name, integer: i)
            case let .float(f): try setAttribute(name, double: f)
            case .other: continue
            }
        }
    }

    /// Sets a variable-length UTF-8 string attribute (h5py reads it as `str`).
    public func setAttribute(_ name: String, string value: String, on object: String = "/") throws(TraceError) {
        let type = H5Tcopy(nb_H5T_C_S1())
        defer { H5Tclose(type) }
        H5Tset_size(type, nb_H5T_VARIABLE())
        H5Tset_cset(type, H5T_CSET_UTF8)
        try withAttribute(name, on: object, type: type) { a in
            value.withCString { cstr in
                var p: UnsafePointer<CChar>? = cstr
                return H5Awrite(a, type, &p)
            }
        }
    }

    /// Sets an int64 attribute.
    public func setAttribute(_ name: String, integer value: Int64, on object: String = "/") throws(TraceError) {
        try withAttribute(name, on: object, type: nb_H5T_STD_I64LE()) { a in
            var v = value
            return H5Awrite(a, nb_H5T_NATIVE_INT64(), &v)
        }
    }

    /// Sets a float64 attribute.
    public func setAttribute(_ name: String, double value: Double, on object: String = "/") throws(TraceError) {
        try withAttribute(name, on: object, type: nb_H5T_IEEE_F64LE()) { a in
            var v = value
            return H5Awrite(a, nb_H5T_NATIVE_DOUBLE(), &v)
        }
    }

    private func withAttribute(_ name: String, on object: String, type: hid_t, _ body: (hid_t) -> herr_t) throws(TraceError) {
        let space = H5Screate(H5S_SCALAR)
        defer { H5Sclose(space) }
        let a = H5Acreate_by_name(file, object, name, type, space, nb_H5P_DEFAULT(), nb_H5P_DEFAULT(), nb_H5P_DEFAULT())
        guard a >= 0 else { throw TraceError(.writeFailed, file: path, object: "\(object)@\(name)", "cannot create attribute") }
        defer { H5Aclose(a) }
        guard body(a) >= 0 else { throw TraceError(.writeFailed, file: path, object: "\(object)@\(name)", "cannot write attribute") }
    }

    func createParent(of dataset: String) throws(TraceError) {
        let parent = parentFolder(of: dataset)
        if parent != "/" && !parent.isEmpty { try createGroup(parent) }
    }
}

// MARK: - Stamping an existing file (used by NavImport)

/// Adds a variable-length UTF-8 string attribute to the root group of an existing file.
package func setRootStringAttribute(file: String, name: String, value: String, reportAs: String) throws(TraceError) {
    _ = silenceHDF5Errors
    // H5F_ACC_RDWR is a macro Swift cannot import; its value is 0x0001 in every HDF5 release.
    let f = H5Fopen(file, 0x0001, fileAccessWithoutLocking)
    guard f >= 0 else { throw TraceError(.writeFailed, file: reportAs, "cannot reopen the new file to stamp it") }
    defer { H5Fclose(f) }
    let type = H5Tcopy(nb_H5T_C_S1())
    defer { H5Tclose(type) }
    H5Tset_size(type, nb_H5T_VARIABLE())
    H5Tset_cset(type, H5T_CSET_UTF8)
    let space = H5Screate(H5S_SCALAR)
    defer { H5Sclose(space) }
    if H5Aexists_by_name(f, "/", name, nb_H5P_DEFAULT()) > 0 { H5Adelete(f, name) }
    let a = H5Acreate_by_name(f, "/", name, type, space, nb_H5P_DEFAULT(), nb_H5P_DEFAULT(), nb_H5P_DEFAULT())
    guard a >= 0 else { throw TraceError(.writeFailed, file: reportAs, object: "/@\(name)", "cannot create attribute") }
    defer { H5Aclose(a) }
    let status = value.withCString { cstr -> herr_t in
        var p: UnsafePointer<CChar>? = cstr
        return H5Awrite(a, type, &p)
    }
    guard status >= 0 else { throw TraceError(.writeFailed, file: reportAs, object: "/@\(name)", "cannot write attribute") }
}
