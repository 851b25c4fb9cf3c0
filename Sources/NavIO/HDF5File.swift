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

/// Limits for reading files that may be hostile: a value handed to `HDF5Reader(path:policy:)` and
/// to every reader above it (`readTrace`, `validateTrace`, `readTrajectory`, …). The CLI builds it
/// from `--allow-external-links` and `NAVBENCH_MEMORY_BUDGET`; no library reads a flag or the
/// environment. The default (`standard`) refuses external links.
public struct HDF5ReadPolicy: Sendable, Equatable {
    /// Follow HDF5 external links (`--allow-external-links`). Off by default: a link to another file is
    /// refused with one line naming the dataset and the target. Even when on, a target that is a FIFO,
    /// a device or a folder is never opened.
    public var allowExternalLinks: Bool
    /// Largest number of bytes one dataset may need in memory (`NAVBENCH_MEMORY_BUDGET` in the CLI).
    public var memoryBudgetBytes: Int
    /// Largest decompressed-to-stored ratio a chunked dataset may declare (deflate's maximum is about 1032:1).
    public static let maxCompressionRatio = 1100
    /// Half the physical memory: the budget when none is given.
    public static var defaultMemoryBudget: Int { Int(clamping: ProcessInfo.processInfo.physicalMemory / 2) }
    /// External links refused, the default memory budget.
    public static var standard: HDF5ReadPolicy { HDF5ReadPolicy() }

    /// - Parameter memoryBudgetBytes: nil for `defaultMemoryBudget`.
    public init(allowExternalLinks: Bool = false, memoryBudgetBytes: Int? = nil) {
        self.allowExternalLinks = allowExternalLinks
        self.memoryBudgetBytes = memoryBudgetBytes ?? Self.defaultMemoryBudget
    }
}

/// `nil` when `path` is a regular file (symbolic links followed); else what it is ("a FIFO", …).
public func nonRegularFileKind(_ path: String) -> String? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    switch st.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR, S_IFBLK: return "a device"
    case S_IFSOCK: return "a socket"
    default: return "not a regular file"
    }
}

/// `2^k` when `n` is a power of two ≥ 2^20, else the decimal number (for "declares 2^40 rows").
func countText(_ n: UInt64) -> String {
    if n >= 1 << 20, n & (n - 1) == 0 { return "2^\(n.trailingZeroBitCount)" }
    return String(n)
}

/// Opens libhdf5 once without its exit handler; `silenceHDF5Errors` uses it.
private let openHDF5: Void = {
    // No library termination at exit: after a close that failed (a full disk) libhdf5 keeps the
    // file half-closed and its atexit handler crashed closing it again. navbench closes every
    // file it opens itself (readers and writers in deinit, writers' temporary files removed).
    H5dont_atexit()
    H5open()
}()

/// Turns off HDF5's automatic error printing on the calling thread; navbench reports its own
/// errors. The thread-safe libhdf5 keeps one error stack per thread, each printing by default,
/// so every reader and writer calls this where it opens a file (a no-op after the first time on
/// a thread).
var silenceHDF5Errors: Void {
    _ = openHDF5
    nb_silence_errors()
}

/// File access without HDF5's file locks, for every file navbench opens or creates (the shim says why).
let fileAccessWithoutLocking: hid_t = {
    _ = silenceHDF5Errors
    return nb_fapl_without_locking()
}()

/// A read-only HDF5 file. Every failure is a `TraceError` naming the file and object.
///
/// HDF5 calls are serialised by libhdf5's own global lock (Debian builds it thread-safe),
/// so a reader may be used from any thread, one call at a time.
public final class HDF5Reader: @unchecked Sendable {  // immutable; libhdf5 locks internally
    public let path: String
    /// What this reader follows and how much one dataset may need in memory.
    public let policy: HDF5ReadPolicy
    let file: hid_t

    /// Opens `path`, telling apart a missing file, an empty one, a non-HDF5 one and a corrupt one.
    public init(path: String, policy: HDF5ReadPolicy = .standard) throws(TraceError) {
        _ = silenceHDF5Errors
        self.path = path
        self.policy = policy
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw TraceError(.notFound, file: path, isDirectory.boolValue ? "is a folder, expected an HDF5 file" : "no such file")
        }
        if let kind = nonRegularFileKind(path) {
            throw TraceError(.notHDF5, file: path, "is \(kind), expected a regular HDF5 file (never opened)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size > 0 else { throw TraceError(.empty, file: path, "empty file (0 bytes), expected an HDF5 file") }
        guard H5Fis_hdf5(path) > 0 else {
            if isMATLAB5File(path) {
                throw TraceError(
                    .notHDF5, file: path,
                    "a MATLAB 5 MAT-file, not HDF5: import it with navbench import mat-mapped FILE --mapping M.yaml (docs/importers.md)"
                )
            }
            throw TraceError(.notHDF5, file: path, "not an HDF5 file (no HDF5 signature), expected trace format v1")
        }
        let id = H5Fopen(path, nb_H5F_ACC_RDONLY(), fileAccessWithoutLocking)
        guard id >= 0 else {
            throw TraceError(.corrupt, file: path, "HDF5 signature found but the file cannot be opened (truncated or corrupt)")
        }
        file = id
    }

    deinit { H5Fclose(file) }

    /// `true` when every component of the absolute `objectPath` exists.
    public func exists(_ objectPath: String) -> Bool {
        _ = silenceHDF5Errors
        if objectPath == "/" { return true }
        var prefix = ""
        for part in objectPath.split(separator: "/") {
            prefix += "/" + part
            guard H5Lexists(file, prefix, nb_H5P_DEFAULT()) > 0 else { return false }
            if (try? checkLink(prefix)) == nil { return false }
            guard H5Oexists_by_name(file, prefix, nb_H5P_DEFAULT()) > 0 else { return false }
        }
        return true
    }

    /// Throws when the link `objectPath` (its last component) is an external link that may not be
    /// followed: always when external links are off, and when its target is a FIFO, device or folder.
    func checkLink(_ objectPath: String) throws(TraceError) {
        guard nb_link_type(file, objectPath) == H5L_TYPE_EXTERNAL.rawValue else { return }
        var f = [CChar](repeating: 0, count: 4096), o = [CChar](repeating: 0, count: 4096)
        let target: String
        var targetFile = ""
        if nb_elink_target(file, objectPath, &f, 4096, &o, 4096) == 0 {
            targetFile = stringFromCBuffer(f)
            target = "\(escapedForMessage(targetFile)):\(escapedForMessage(stringFromCBuffer(o)))"
        } else {
            target = "an unreadable target"
        }
        guard policy.allowExternalLinks else {
            throw TraceError(
                .externalLink, file: path, object: objectPath,
                "external link to \(target) refused (pass --allow-external-links to follow it)")
        }
        if let kind = irregularSource(targetFile) {
            throw TraceError(.externalLink, file: path, object: objectPath, "external link to \(target), which is \(kind): never followed")
        }
    }

    /// What the file another file's object names is, when it is not a regular file (a FIFO, a
    /// device, a folder), wherever libhdf5 may look for it: as named, beside this file, and (for
    /// an absolute name not found) its last component beside this file. For external links,
    /// virtual dataset sources and external raw storage alike.
    func irregularSource(_ name: String) -> String? {
        guard !name.isEmpty else { return nil }
        let folder = parentFolder(of: path) as NSString
        for c in [name, folder.appendingPathComponent(name), folder.appendingPathComponent(fileName(of: name))] {
            if let kind = nonRegularFileKind(c) { return kind }
        }
        return nil
    }

    /// Checks every component of `objectPath` with `checkLink`.
    func checkLinks(_ objectPath: String) throws(TraceError) {
        var prefix = ""
        for part in objectPath.split(separator: "/") {
            prefix += "/" + part
            guard H5Lexists(file, prefix, nb_H5P_DEFAULT()) > 0 else { return }
            try checkLink(prefix)
        }
    }

    /// Absolute paths of every external link in the file (not followed), sorted; at most 10,000.
    public func externalLinks() -> [String] {
        guard let p = nb_external_links(file) else { return [] }
        defer { free(p) }
        return String(cString: p).split(separator: "\n").map { "/" + $0 }.sorted()
    }

    /// One line per external link: its path and target (for `validate`).
    public func externalLinkProblems() -> [TraceError] {
        var problems: [TraceError] = []
        for l in externalLinks() {
            do { try checkLink(l) } catch { problems.append(error) }
        }
        return problems
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
        try checkLinks(group)
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

    func openDataset(_ dataset: String) throws(TraceError) -> hid_t {
        _ = silenceHDF5Errors  // this thread's error stack (a reader moves between threads)
        try checkLinks(dataset)
        guard exists(dataset) else { throw TraceError(.missing, file: path, object: dataset, "dataset not found") }
        let d = H5Dopen2(file, dataset, nb_H5P_DEFAULT())
        guard d >= 0 else { throw TraceError(.wrongType, file: path, object: dataset, "expected a dataset, found a group or unreadable object") }
        let external: Bool
        do { external = try checkStorage(d, name: dataset) } catch {
            H5Dclose(d)
            throw error
        }
        guard external else { return d }
        // Allowed external raw storage is looked for beside this file, not in the working
        // folder: opened again with the prefix ${ORIGIN}. Only then: libhdf5 refuses to open a
        // dataset already open with another prefix (H5Oopen, attributes, in other threads).
        H5Dclose(d)
        let dapl = H5Pcreate(nb_H5P_DATASET_ACCESS())
        defer { if dapl >= 0 { H5Pclose(dapl) } }
        if dapl >= 0 { H5Pset_efile_prefix(dapl, "${ORIGIN}") }
        let beside = H5Dopen2(file, dataset, dapl >= 0 ? dapl : nb_H5P_DEFAULT())
        guard beside >= 0 else {
            throw TraceError(.externalLink, file: path, object: dataset, "cannot open its external raw storage beside the file")
        }
        return beside
    }

    /// The most mappings of a virtual dataset, or files of external raw storage, looked at.
    static let maximumStorageSources = 1_000

    /// Refuses a dataset whose storage reads from outside this file's own bytes, before anything
    /// reads it: **external raw storage** (raw bytes of any file: `/etc/passwd` came back as
    /// doubles, a FIFO hung, `/dev/zero` passed) and a **virtual dataset** (mappings onto other
    /// datasets, other files, or itself: a self-mapping overflows libhdf5's stack). Both are
    /// refused unless the policy allows external links (`--allow-external-links`), and even then
    /// never a FIFO, device or folder, a pattern source (`%b`), a mapping onto itself, a source
    /// that is itself virtual or external (no chains), or more than `maximumStorageSources`.
    /// - Returns: `true` when the dataset is in (allowed) external raw storage.
    @discardableResult
    func checkStorage(_ d: hid_t, name: String) throws(TraceError) -> Bool {
        let dcpl = H5Dget_create_plist(d)
        guard dcpl >= 0 else { throw TraceError(.corrupt, file: path, object: name, "cannot read the dataset's creation properties") }
        defer { H5Pclose(dcpl) }
        func refuse(_ problem: String) -> TraceError { TraceError(.externalLink, file: path, object: name, problem) }
        let externals = Int(H5Pget_external_count(dcpl))
        if externals > 0 {
            guard externals <= Self.maximumStorageSources else { throw refuse("external raw storage in \(externals) files refused") }
            var files: [String] = []
            for i in 0..<externals {
                var buf = [CChar](repeating: 0, count: 4097)
                var offset = off_t(0)
                var size = hsize_t(0)
                guard H5Pget_external(dcpl, UInt32(i), 4096, &buf, &offset, &size) >= 0 else { throw refuse("unreadable external raw storage") }
                files.append(stringFromCBuffer(buf))
            }
            let list = files.prefix(3).map { escapedForMessage($0) }.joined(separator: ", ") + (files.count > 3 ? ", …" : "")
            guard policy.allowExternalLinks else {
                throw refuse("external raw storage in \(list) refused (pass --allow-external-links to read it)")
            }
            for f in files {
                if let kind = irregularSource(f) { throw refuse("external raw storage in \(escapedForMessage(f)), which is \(kind): never read") }
            }
        }
        guard H5Pget_layout(dcpl) == H5D_VIRTUAL else { return externals > 0 }
        var count = 0
        guard H5Pget_virtual_count(dcpl, &count) >= 0 else { throw refuse("unreadable virtual dataset mappings") }
        func text(_ get: (UnsafeMutablePointer<CChar>?, Int) -> Int) -> String? {
            let n = get(nil, 0)
            guard n >= 0, n < 4096 else { return nil }
            var buf = [CChar](repeating: 0, count: n + 1)
            _ = get(&buf, n + 1)
            return stringFromCBuffer(buf)
        }
        var sources: [(file: String, dataset: String)] = []
        for i in 0..<min(count, Self.maximumStorageSources + 1) {
            guard let f = text({ H5Pget_virtual_filename(dcpl, i, $0, $1) }), let s = text({ H5Pget_virtual_dsetname(dcpl, i, $0, $1) }) else {
                throw refuse("unreadable virtual dataset mapping \(i)")
            }
            sources.append((f, s))
        }
        let first = sources.first.map { "\(escapedForMessage($0.file)):\(escapedForMessage($0.dataset))" } ?? "nothing"
        guard policy.allowExternalLinks else {
            throw refuse("virtual dataset mapped from \(first) refused (pass --allow-external-links to follow it)")
        }
        guard count <= Self.maximumStorageSources else { throw refuse("virtual dataset of \(count) mappings refused") }
        for (f, s) in sources {
            let source = "\(escapedForMessage(f)):\(escapedForMessage(s))"
            if f.contains("%") || s.contains("%") { throw refuse("virtual dataset mapped from the pattern \(source): never followed") }
            let absolute = s.hasPrefix("/") ? s : "/" + s
            if f == "." && absolute == (name.hasPrefix("/") ? name : "/" + name) {
                throw refuse("virtual dataset mapped onto itself: never followed")
            }
            if f != ".", let kind = irregularSource(f) { throw refuse("virtual dataset mapped from \(source), which is \(kind): never followed") }
            // The source must be plain storage (no chain of virtual or external datasets).
            let plain: Bool
            if f == "." {
                plain =
                    H5Lexists(file, absolute, nb_H5P_DEFAULT()) > 0 && nb_link_type(file, absolute) != H5L_TYPE_EXTERNAL.rawValue
                    && Self.isPlainStorage(file, absolute)
            } else {
                let resolved = f.hasPrefix("/") ? f : (parentFolder(of: path) as NSString).appendingPathComponent(f)
                let other = H5Fis_hdf5(resolved) > 0 ? H5Fopen(resolved, nb_H5F_ACC_RDONLY(), fileAccessWithoutLocking) : -1
                plain =
                    other >= 0 && H5Lexists(other, absolute, nb_H5P_DEFAULT()) > 0
                    && nb_link_type(other, absolute) != H5L_TYPE_EXTERNAL.rawValue && Self.isPlainStorage(other, absolute)
                if other >= 0 { H5Fclose(other) }
            }
            guard plain else { throw refuse("virtual dataset mapped from \(source), not a dataset of plain storage: never followed") }
        }
        return false
    }

    /// `true` when `dataset` of `file` opens and is neither virtual nor in external raw storage.
    static func isPlainStorage(_ file: hid_t, _ dataset: String) -> Bool {
        let d = H5Dopen2(file, dataset, nb_H5P_DEFAULT())
        guard d >= 0 else { return false }
        defer { H5Dclose(d) }
        let dcpl = H5Dget_create_plist(d)
        guard dcpl >= 0 else { return false }
        defer { H5Pclose(dcpl) }
        return H5Pget_layout(dcpl) != H5D_VIRTUAL && H5Pget_external_count(dcpl) == 0
    }

    /// Shape, type class and layout of a dataset.
    public func info(_ dataset: String) throws(TraceError) -> HDF5DatasetInfo {
        let d = try openDataset(dataset)
        defer { H5Dclose(d) }
        return try info(of: d, name: dataset)
    }

    func info(of d: hid_t, name: String) throws(TraceError) -> HDF5DatasetInfo {
        let space = H5Dget_space(d)
        defer { H5Sclose(space) }
        let rank = H5Sget_simple_extent_ndims(space)
        guard rank >= 0 else { throw TraceError(.corrupt, file: path, object: name, "cannot read the dataspace (truncated file?)") }
        guard rank <= 32 else { throw TraceError(.corrupt, file: path, object: name, "declares \(rank) dimensions, at most 32 exist in HDF5") }
        var dims = [hsize_t](repeating: 0, count: Int(rank))
        H5Sget_simple_extent_dims(space, &dims, nil)
        var shape: [Int] = []
        for d in dims {
            guard let i = Int(exactly: d), i <= Int(Int32.max) * 1 << 16 else {
                throw TraceError(.tooLarge, file: path, object: name, "declares \(countText(d)) rows, more than navbench can address")
            }
            shape.append(i)
        }
        let type = H5Dget_type(d)
        defer { H5Tclose(type) }
        let cls: HDF5TypeClass
        switch H5Tget_class(type) {
        case H5T_FLOAT: cls = .float
        case H5T_INTEGER: cls = .integer
        case H5T_STRING: cls = .string
        case H5T_ENUM: cls = enumBaseIsInteger(type) ? .integer : .other  // h5py's booleans: read as their 0/1 values
        default: cls = .other
        }
        let dcpl = H5Dget_create_plist(d)
        defer { H5Pclose(dcpl) }
        return HDF5DatasetInfo(
            shape: shape, typeClass: cls,
            elementSize: H5Tget_size(type), isChunked: H5Pget_layout(dcpl) == H5D_CHUNKED)
    }

    /// The element count of a dataset, checked before anything is allocated: the shape product
    /// without overflow, the declared bytes against what the file can hold (contiguous: the file
    /// size; chunked: the file size × `maxCompressionRatio`) and the memory against the budget.
    func checkedElementCount(_ d: hid_t, _ inf: HDF5DatasetInfo, name: String, memoryElementSize: Int) throws(TraceError) -> Int {
        var n = 1
        for dim in inf.shape {
            let (p, o) = n.multipliedReportingOverflow(by: dim)
            guard !o else {
                throw TraceError(.tooLarge, file: path, object: name, "declares shape \(inf.shape), whose element count overflows 64 bits")
            }
            n = p
        }
        let rows = UInt64(inf.shape.first ?? 1)
        let fileSize = UInt64((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        let (declared, o1) = UInt64(n).multipliedReportingOverflow(by: UInt64(max(1, inf.elementSize)))
        let canHold = inf.isChunked ? fileSize.multipliedReportingOverflow(by: UInt64(HDF5ReadPolicy.maxCompressionRatio)).partialValue : fileSize
        if n > 0 && (o1 || declared > canHold) {
            throw TraceError(
                .tooLarge, file: path, object: name,
                "declares \(countText(rows)) rows (shape \(inf.shape)), more than the file can hold (\(fileSize) bytes)")
        }
        let (mem, o2) = n.multipliedReportingOverflow(by: memoryElementSize)
        if o2 || mem > policy.memoryBudgetBytes {
            throw TraceError(
                .tooLarge, file: path, object: name,
                "declares \(countText(rows)) rows (shape \(inf.shape)), more than the memory budget of \(policy.memoryBudgetBytes) bytes (NAVBENCH_MEMORY_BUDGET)"
            )
        }
        return n
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
        let fileType = H5Dget_type(d)
        defer { H5Tclose(fileType) }
        // An enumeration is read through a raw buffer of up to 8 bytes an element besides the values.
        let isEnum = H5Tget_class(fileType) == H5T_ENUM
        let n = try checkedElementCount(d, inf, name: dataset, memoryElementSize: MemoryLayout<T>.stride + (isEnum ? 8 : 0))
        if isEnum { return (inf.shape, try readEnumValues(d, fileType, count: n, name: dataset)) }
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
            throw TraceError(
                .corrupt, file: path, object: dataset, "cannot read the data (truncated or corrupt file, or a filter that is not available)")
        }
        return (inf.shape, values)
    }

    /// The values of an enumeration dataset of an integer base type (h5py stores numpy booleans
    /// so: FALSE = 0, TRUE = 1), as numbers: read in the enumeration's native memory type (HDF5
    /// converts enumerations only to enumerations), each element's bytes taken as its base integer.
    private func readEnumValues<T: Numeric>(_ d: hid_t, _ fileType: hid_t, count n: Int, name: String) throws(TraceError) -> [T] {
        let memType = H5Tget_native_type(fileType, H5T_DIR_ASCEND)
        guard memType >= 0 else { throw TraceError(.wrongType, file: path, object: name, "an enumeration of no native type") }
        defer { H5Tclose(memType) }
        let base = H5Tget_super(memType)
        defer { H5Tclose(base) }
        let size = H5Tget_size(memType)
        guard H5Tget_class(base) == H5T_INTEGER, [1, 2, 4, 8].contains(size) else {
            throw TraceError(.wrongType, file: path, object: name, "expected an enumeration of 1–8-byte integers, found another")
        }
        let signed = H5Tget_sign(base) == H5T_SGN_2
        var bytes = [UInt8](repeating: 0, count: n * size)
        let status = n == 0 ? 0 : bytes.withUnsafeMutableBytes { H5Dread(d, memType, nb_H5S_ALL(), nb_H5S_ALL(), nb_H5P_DEFAULT(), $0.baseAddress) }
        guard status >= 0 else {
            throw TraceError(
                .corrupt, file: path, object: name, "cannot read the data (truncated or corrupt file, or a filter that is not available)")
        }
        var out: [T] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            var raw: UInt64 = 0
            for b in 0..<size { raw |= UInt64(bytes[i * size + b]) << (8 * UInt64(b)) }  // native order: little-endian on x86-64 and arm64
            let shift = UInt64(64 - 8 * size)
            let value = signed ? Int64(bitPattern: raw << shift) >> Int64(shift) : Int64(bitPattern: raw)
            guard let v = T(exactly: value) else {
                throw TraceError(.badValue, file: path, object: name, "element \(i): \(value) does not fit the values read")
            }
            out.append(v)
        }
        return out
    }

    /// Reads a 1-D string dataset (fixed-length or variable-length).
    public func readStrings(_ dataset: String) throws(TraceError) -> [String] {
        let d = try openDataset(dataset)
        defer { H5Dclose(d) }
        let inf = try info(of: d, name: dataset)
        guard inf.typeClass == .string else {
            throw TraceError(.wrongType, file: path, object: dataset, "expected a string dataset, found \(inf.typeClass.rawValue)")
        }
        let n = try checkedElementCount(
            d, inf, name: dataset, memoryElementSize: max(inf.elementSize, MemoryLayout<UnsafeMutablePointer<CChar>?>.stride))
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
        guard exists(object), (try? checkLinks(object)) != nil else { return nil }
        // Open the object first, then its attribute: the *_by_name calls do not find the
        // attributes of an object reached through an external link (libhdf5 1.10).
        let o = H5Oopen(file, object, nb_H5P_DEFAULT())
        guard o >= 0 else { return nil }
        defer { H5Oclose(o) }
        guard H5Aexists(o, name) > 0 else { return nil }
        let a = H5Aopen(o, name, nb_H5P_DEFAULT())
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

/// Whether an enumeration type's base type is an integer (true for h5py's booleans).
private func enumBaseIsInteger(_ type: hid_t) -> Bool {
    let base = H5Tget_super(type)
    guard base >= 0 else { return false }
    defer { H5Tclose(base) }
    return H5Tget_class(base) == H5T_INTEGER
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

/// Whether `path` starts with the header of a MATLAB level-5 (v5, v6, v7) MAT-file: the text
/// "MATLAB 5.0 MAT-file", or version 0x0100 and the endian indicator "IM" or "MI" at bytes
/// 124–127 (writers that word the text otherwise). Motion-capture software's usual export;
/// v7.3 files are HDF5 and open as such. Reads at most the first 128 bytes.
public func isMATLAB5File(_ path: String) -> Bool {
    guard let h = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? h.close() }
    guard let data = try? h.read(upToCount: 128) else { return false }
    return isMATLAB5Header([UInt8](data))
}

/// Whether `head` (a file's first bytes) is a MATLAB level-5 MAT-file header (`isMATLAB5File`).
public func isMATLAB5Header(_ head: [UInt8]) -> Bool {
    if head.starts(with: Array("MATLAB 5.0 MAT-file".utf8)) { return true }
    guard head.count >= 128 else { return false }
    return (head[124], head[125], head[126], head[127]) == (0x00, 0x01, 0x49, 0x4D)
        || (head[124], head[125], head[126], head[127]) == (0x01, 0x00, 0x4D, 0x49)
}

/// The UTF-8 text of a NUL-terminated C buffer (up to its first NUL, or all of it), invalid bytes
/// replaced: what `String(cString:)` of an array did before its deprecation.
func stringFromCBuffer(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
