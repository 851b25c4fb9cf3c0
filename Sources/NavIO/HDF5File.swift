import CHDF5
import Foundation
import NavCore

/// HDF5 type classes navbench distinguishes.
public enum HDF5TypeClass: String, Sendable {
    case float, integer, string, other
}

/// Shape and type of a dataset, read without its data.
public struct HDF5DatasetInfo: Sendable, Equatable {
    public var shape: [Int]
    public var typeClass: HDF5TypeClass
    /// Bytes per element in the file.
    public var elementSize: Int
    public var isChunked: Bool
}

/// Turns off HDF5's automatic error printing once; navbench reports its own errors.
let silenceHDF5Errors: Void = {
    H5open()
    nb_silence_errors()
}()

/// A read-only HDF5 file. Every failure is a `TraceError` naming the file and object.
///
/// HDF5 calls are serialised by libhdf5's own global lock (Debian builds it thread-safe),
/// so a reader may be used from any thread, one call at a time.
public final class HDF5Reader: @unchecked Sendable {  // immutable; libhdf5 locks internally
    public let path: String
    let file: hid_t

    /// Opens `path`, telling apart a missing file, an empty one, a non-HDF5 one and a corrupt one.
    public init(path: String) throws(TraceError) {
        _ = silenceHDF5Errors
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw TraceError(.notFound, file: path, "no such file")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size > 0 else { throw TraceError(.empty, file: path, "empty file (0 bytes), expected an HDF5 file") }
        guard H5Fis_hdf5(path) > 0 else {
            throw TraceError(.notHDF5, file: path, "not an HDF5 file (no HDF5 signature), expected trace format v1")
        }
        let id = H5Fopen(path, nb_H5F_ACC_RDONLY(), nb_H5P_DEFAULT())
        guard id >= 0 else {
            throw TraceError(.corrupt, file: path, "HDF5 signature found but the file cannot be opened (truncated or corrupt)")
        }
        file = id
    }

    deinit { H5Fclose(file) }

    /// `true` when every component of the absolute `objectPath` exists.
    public func exists(_ objectPath: String) -> Bool {
        if objectPath == "/" { return true }
        var prefix = ""
        for part in objectPath.split(separator: "/") {
            prefix += "/" + part
            guard H5Lexists(file, prefix, nb_H5P_DEFAULT()) > 0 else { return false }
            guard H5Oexists_by_name(file, prefix, nb_H5P_DEFAULT()) > 0 else { return false }
        }
        return true
    }

    /// `true` when `objectPath` names a group.
    public func isGroup(_ objectPath: String) -> Bool {
        guard exists(objectPath) else { return false }
        let g = H5Gopen2(file, objectPath, nb_H5P_DEFAULT())
        guard g >= 0 else { return false }
        H5Gclose(g)
        return true
    }

    /// Names of a group's members, sorted.
    public func children(of group: String) throws(TraceError) -> [String] {
        let g = H5Gopen2(file, group, nb_H5P_DEFAULT())
        guard g >= 0 else { throw TraceError(.missing, file: path, object: group, "expected a group") }
        defer { H5Gclose(g) }
        var info = H5G_info_t()
        guard H5Gget_info(g, &info) >= 0 else { throw TraceError(.corrupt, file: path, object: group, "cannot list members") }
        var names: [String] = []
        for i in 0..<info.nlinks {
            let len = H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, nil, 0, nb_H5P_DEFAULT())
            guard len >= 0 else { continue }
            var buf = [CChar](repeating: 0, count: Int(len) + 1)
            H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, &buf, Int(len) + 1, nb_H5P_DEFAULT())
            names.append(String(decoding: buf.prefix(Int(len)).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return names.sorted()
    }

    private func openDataset(_ dataset: String) throws(TraceError) -> hid_t {
        guard exists(dataset) else { throw TraceError(.missing, file: path, object: dataset, "dataset not found") }
        let d = H5Dopen2(file, dataset, nb_H5P_DEFAULT())
        guard d >= 0 else { throw TraceError(.wrongType, file: path, object: dataset, "expected a dataset, found a group or unreadable object") }
        return d
    }

    /// Shape, type class and layout of a dataset.
    public func info(_ dataset: String) throws(TraceError) -> HDF5DatasetInfo {
        let d = try openDataset(dataset)
        defer { H5Dclose(d) }
        return try info(of: d, name: dataset)
    }

    private func info(of d: hid_t, name: String) throws(TraceError) -> HDF5DatasetInfo {
        let space = H5Dget_space(d)
        defer { H5Sclose(space) }
        let rank = H5Sget_simple_extent_ndims(space)
        guard rank >= 0 else { throw TraceError(.corrupt, file: path, object: name, "cannot read the dataspace (truncated file?)") }
        var dims = [hsize_t](repeating: 0, count: Int(rank))
        H5Sget_simple_extent_dims(space, &dims, nil)
        let type = H5Dget_type(d)
        defer { H5Tclose(type) }
        let cls: HDF5TypeClass
        switch H5Tget_class(type) {
        case H5T_FLOAT: cls = .float
        case H5T_INTEGER: cls = .integer
        case H5T_STRING: cls = .string
        default: cls = .other
        }
        let dcpl = H5Dget_create_plist(d)
        defer { H5Pclose(dcpl) }
        return HDF5DatasetInfo(shape: dims.map { Int($0) }, typeClass: cls,
                               elementSize: H5Tget_size(type), isChunked: H5Pget_layout(dcpl) == H5D_CHUNKED)
    }

    /// Reads a numeric dataset as float64 (HDF5 converts integer and float32 storage).
    ///
    /// - Returns: the shape and the values in row-major order.
    public func readDoubles(_ dataset: String) throws(TraceError) -> (shape: [Int], values: [Double]) {
        try readNumeric(dataset, as: Double.self, memType: nb_H5T_NATIVE_DOUBLE())
    }

    /// Reads an integer dataset as int32.
    public func readInt32s(_ dataset: String) throws(TraceError) -> (shape: [Int], values: [Int32]) {
        try readNumeric(dataset, as: Int32.self, memType: nb_H5T_NATIVE_INT32())
    }

    private func readNumeric<T: Numeric>(_ dataset: String, as: T.Type, memType: hid_t) throws(TraceError) -> (shape: [Int], values: [T]) {
        let d = try openDataset(dataset)
        defer { H5Dclose(d) }
        let inf = try info(of: d, name: dataset)
        guard inf.typeClass == .float || inf.typeClass == .integer else {
            throw TraceError(.wrongType, file: path, object: dataset, "expected a numeric dataset, found \(inf.typeClass.rawValue)")
        }
        let n = inf.shape.reduce(1, *)
        var status: herr_t = 0
        let values = [T](unsafeUninitializedCapacity: n) { buf, count in
            adviseHugePages(UnsafeMutableRawBufferPointer(buf))  // NavCore
            if n > 0 {
                status = H5Dread(d, memType, nb_H5S_ALL(), nb_H5S_ALL(), nb_H5P_DEFAULT(), buf.baseAddress)
            }
            if status < 0 { for i in 0..<n { buf.initializeElement(at: i, to: 0) } }
            count = n
        }
        guard status >= 0 else {
            throw TraceError(.corrupt, file: path, object: dataset, "cannot read the data (truncated or corrupt file, or a filter that is not available)")
        }
        return (inf.shape, values)
    }

    /// Reads a 1-D string dataset (fixed-length or variable-length).
    public func readStrings(_ dataset: String) throws(TraceError) -> [String] {
        let d = try openDataset(dataset)
        defer { H5Dclose(d) }
        let inf = try info(of: d, name: dataset)
        guard inf.typeClass == .string else {
            throw TraceError(.wrongType, file: path, object: dataset, "expected a string dataset, found \(inf.typeClass.rawValue)")
        }
        let n = inf.shape.reduce(1, *)
        let fileType = H5Dget_type(d)
        defer { H5Tclose(fileType) }
        if n == 0 { return [] }
        if H5Tis_variable_str(fileType) > 0 {
            let mem = H5Tcopy(nb_H5T_C_S1())
            defer { H5Tclose(mem) }
            H5Tset_size(mem, nb_H5T_VARIABLE())
            H5Tset_cset(mem, H5T_CSET_UTF8)
            var ptrs = [UnsafeMutablePointer<CChar>?](repeating: nil, count: n)
            guard H5Dread(d, mem, nb_H5S_ALL(), nb_H5S_ALL(), nb_H5P_DEFAULT(), &ptrs) >= 0 else {
                throw TraceError(.corrupt, file: path, object: dataset, "cannot read the strings")
            }
            let out = ptrs.map { $0.map { String(cString: $0) } ?? "" }
            let space = H5Dget_space(d)
            H5Dvlen_reclaim(mem, space, nb_H5P_DEFAULT(), &ptrs)
            H5Sclose(space)
            return out
        }
        let size = inf.elementSize
        let mem = H5Tcopy(nb_H5T_C_S1())
        defer { H5Tclose(mem) }
        H5Tset_size(mem, size)
        H5Tset_strpad(mem, H5T_STR_NULLPAD)  // keep all `size` bytes; NULs are trimmed below
        var bytes = [UInt8](repeating: 0, count: n * size)
        guard H5Dread(d, mem, nb_H5S_ALL(), nb_H5S_ALL(), nb_H5P_DEFAULT(), &bytes) >= 0 else {
            throw TraceError(.corrupt, file: path, object: dataset, "cannot read the strings")
        }
        return (0..<n).map { i in
            let slice = bytes[(i * size)..<((i + 1) * size)]
            let end = slice.firstIndex(of: 0) ?? slice.endIndex
            return String(decoding: slice[slice.startIndex..<end], as: UTF8.self)
        }
    }

    /// An attribute of `object` as a string, integer or float rendered as text; nil when absent.
    public func attribute(_ name: String, of object: String = "/") -> HDF5Attribute? {
        guard exists(object), H5Aexists_by_name(file, object, name, nb_H5P_DEFAULT()) > 0 else { return nil }
        let a = H5Aopen_by_name(file, object, name, nb_H5P_DEFAULT(), nb_H5P_DEFAULT())
        guard a >= 0 else { return nil }
        defer { H5Aclose(a) }
        let type = H5Aget_type(a)
        defer { H5Tclose(type) }
        let space = H5Aget_space(a)
        defer { H5Sclose(space) }
        guard H5Sget_simple_extent_npoints(space) == 1 else { return .other }
        switch H5Tget_class(type) {
        case H5T_STRING:
            if H5Tis_variable_str(type) > 0 {
                let mem = H5Tcopy(nb_H5T_C_S1())
                defer { H5Tclose(mem) }
                H5Tset_size(mem, nb_H5T_VARIABLE())
                H5Tset_cset(mem, H5Tget_cset(type))
                guard let p = nb_read_vlen_string_attr(a, mem) else { return nil }
                defer { H5free_memory(p) }
                return .string(String(cString: p))
            }
            let size = H5Tget_size(type)
            var bytes = [UInt8](repeating: 0, count: size + 1)
            let mem = H5Tcopy(nb_H5T_C_S1())
            defer { H5Tclose(mem) }
            H5Tset_size(mem, size)
            H5Tset_strpad(mem, H5T_STR_NULLPAD)
            guard H5Aread(a, mem, &bytes) >= 0 else { return nil }
            let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
            return .string(String(decoding: bytes[..<end], as: UTF8.self))
        case H5T_INTEGER:
            var v: Int64 = 0
            guard H5Aread(a, nb_H5T_NATIVE_INT64(), &v) >= 0 else { return nil }
            return .integer(v)
        case H5T_FLOAT:
            var v: Double = 0
            guard H5Aread(a, nb_H5T_NATIVE_DOUBLE(), &v) >= 0 else { return nil }
            return .float(v)
        default:
            return .other
        }
    }
}

/// A scalar attribute value.
public enum HDF5Attribute: Equatable, Sendable {
    case string(String), integer(Int64), float(Double), other

    public var stringValue: String? { if case let .string(s) = self { return s }; return nil }
    public var integerValue: Int64? {
        switch self {
        case let .integer(i): return i
        case let .float(f) where f == f.rounded(): return Int64(exactly: f)
        case let .string(s): return Int64(s)
        default: return nil
        }
    }
}
