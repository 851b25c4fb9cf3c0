import Foundation
import NavIO

/// One MATLAB array of a MAT-file.
public indirect enum MATArray: Sendable, Equatable {
    /// A numeric or logical array: `className` (double, single, int8 … uint64, logical), MATLAB's
    /// `dimensions`, the values converted to Double in MATLAB's column-major order (int64 and
    /// uint64 beyond 2^53 are rounded).
    case numeric(className: String, dimensions: [Int], values: [Double])
    /// A char array; its rows joined by newlines.
    case char(dimensions: [Int], text: String)
    /// A cell array, its elements in column-major order.
    case cell(dimensions: [Int], elements: [MATArray])
    /// A struct array: field names in file order, each element's field values in that order.
    case structure(dimensions: [Int], fieldNames: [String], elements: [[MATArray]])
    /// An array navbench does not read (sparse, complex, object, function handle, opaque):
    /// kept by name so that only a mapping reaching it fails.
    case unsupported(what: String)

    /// "3×100 double", "1×1 struct", … as MATLAB's whos names it.
    public var summary: String {
        switch self {
        case let .numeric(c, d, _): return "\(MATArray.size(d)) \(c)"
        case let .char(d, _): return "\(MATArray.size(d)) char"
        case let .cell(d, _): return "\(MATArray.size(d)) cell"
        case let .structure(d, names, _): return "\(MATArray.size(d)) struct (fields \(names.joined(separator: ", ")))"
        case let .unsupported(what): return what
        }
    }

    static func size(_ d: [Int]) -> String { d.map(String.init).joined(separator: "×") }
}

/// Bounds on what a MAT-file may make navbench allocate.
public struct MATLimits: Sendable {
    /// Arrays within arrays (struct fields, cells): deeper is refused.
    public var maxDepth = 32
    /// Bytes inflated from all compressed elements of a file (a declared size is checked
    /// before inflating, so a compression bomb is refused without allocating).
    public var maxInflatedBytes = 1 << 30
    public init(maxDepth: Int = 32, maxInflatedBytes: Int = 1 << 30) {
        self.maxDepth = maxDepth
        self.maxInflatedBytes = maxInflatedBytes
    }
}

/// A MATLAB level-5 MAT-file (v5, v6, v7: what `save` writes by default and Qualisys QTM
/// exports), read whole into its named arrays.
///
/// Layout (MathWorks, "MAT-File Format", R2024a, chapter 1 "Level 5 MAT-File Format"): a
/// 128-byte header (116 bytes of text, an 8-byte subsystem offset, version 0x0100, endian
/// indicator "IM" little-endian or "MI" big-endian), then data elements, each an 8-byte tag
/// (type, byte count) or a 4-byte small-element tag (count ≤ 4 in its upper 16 bits) and data
/// padded to 8 bytes. A variable is an miMATRIX (array flags with the class, dimensions, name,
/// then the real part, or a cell's and struct's elements as miMATRIX) or an miCOMPRESSED
/// element: one miMATRIX deflated with zlib. Numbers may be stored as any smaller mi type
/// (doubles as miUINT8 when they fit) and are converted. Every size, count and dimension product
/// is bounded by the bytes that hold it before anything is allocated.
///
/// - Complexity: O(file size + inflated size); depth ≤ `MATLimits.maxDepth`.
public struct MATFile: Sendable {
    public let path: String
    /// The named variables in file order (nameless ones, such as the subsystem data, are left out).
    public let variables: [(name: String, value: MATArray)]

    /// The header text MATLAB writes first in a level-5 file.
    public static let textHeader = Array("MATLAB 5.0 MAT-file".utf8)

    /// Reads `path`.
    ///
    /// - Throws: one line naming the file, the element (byte offset, variable path) and what was
    ///   expected: a truncated file, a size past its element, a dimension product that overflows,
    ///   a compressed element inflating to another size than it declares, nesting too deep; a
    ///   MAT 7.3 file is pointed to `import hdf5-mapped`.
    public init(path: String, limits: MATLimits = MATLimits()) throws(TraceError) {
        try self.init(bytes: try readFileBytes(path), path: path, limits: limits)
    }

    public init(bytes: [UInt8], path: String, limits: MATLimits = MATLimits()) throws(TraceError) {
        self.path = path
        guard bytes.count >= 128 else {
            throw TraceError(.corrupt, file: path, "\(bytes.count) bytes, expected a MAT-file's 128-byte header (truncated, or not a MAT-file)")
        }
        if bytes.count >= 520, Array(bytes[512..<520]) == [0x89, 0x48, 0x44, 0x46, 0x0D, 0x0A, 0x1A, 0x0A] {
            throw TraceError(
                .notHDF5, file: path,
                "a MATLAB 7.3 MAT-file, which is HDF5: import it with navbench import hdf5-mapped FILE --mapping M.yaml (docs/importers.md)")
        }
        let bigEndian: Bool
        switch (bytes[126], bytes[127]) {
        case (0x49, 0x4D): bigEndian = false  // "IM"
        case (0x4D, 0x49): bigEndian = true  // "MI"
        default:
            throw TraceError(
                .corrupt, file: path, "bytes 126–127 are not the endian indicator IM or MI; expected a MATLAB level-5 MAT-file")
        }
        let version = bigEndian ? UInt16(bytes[124]) << 8 | UInt16(bytes[125]) : UInt16(bytes[125]) << 8 | UInt16(bytes[124])
        guard version == 0x0100 else {
            throw TraceError(.unsupportedVersion, file: path, "MAT-file version 0x\(String(version, radix: 16)), expected 0x0100 (level 5)")
        }
        var reader = MATElementReader(path: path, bigEndian: bigEndian, limits: limits)
        variables = try reader.variables(bytes)
    }

    /// The array at `arrayPath`: `/var/field/field` or `var.field.field` (a leading `/` is
    /// optional), a segment may pick a struct or cell array's element with `(k)` or `{k}`
    /// (1-based, column-major). A 1×1 struct's fields are reached without an index.
    ///
    /// - Throws: one line naming the file and the path: a missing variable or field (listing
    ///   what there is), an index out of range, a field of what is not a struct.
    /// - Complexity: O(segments × fields).
    public func array(at arrayPath: String) throws(TraceError) -> MATArray {
        let segments = arrayPath.split(whereSeparator: { $0 == "/" || $0 == "." }).map(String.init)
        guard let first = segments.first else {
            throw TraceError(.missing, file: path, object: arrayPath, "expected a variable path such as /name/field")
        }
        var walked = ""
        var current: MATArray?
        for segment in segments {
            var name = Substring(segment)
            var index: Int?
            if let open = segment.firstIndex(where: { $0 == "(" || $0 == "{" }), let last = segment.last, last == ")" || last == "}" {
                name = segment[..<open]
                guard let k = Int(segment[segment.index(after: open)..<segment.index(before: segment.endIndex)]), k >= 1 else {
                    throw TraceError(.missing, file: path, object: arrayPath, "\(segment): expected a 1-based index such as (1)")
                }
                index = k
            }
            let here = walked.isEmpty ? String(name) : walked + "/" + name
            if let parent = current {
                current = try field(String(name), of: parent, at: walked, arrayPath: arrayPath)
            } else {
                guard let v = variables.first(where: { $0.name == name })?.value else {
                    let names = variables.map(\.name)
                    throw TraceError(
                        .missing, file: path, object: arrayPath,
                        "variable \(first) not found; the file has \(names.isEmpty ? "no variables" : names.joined(separator: ", "))")
                }
                current = v
            }
            if let index, let c = current {
                current = try element(index, of: c, at: here, arrayPath: arrayPath)
            }
            walked = here + (index.map { "(\($0))" } ?? "")
        }
        return current!
    }

    private func field(_ name: String, of parent: MATArray, at walked: String, arrayPath: String) throws(TraceError) -> MATArray {
        guard case let .structure(dims, names, elements) = parent else {
            throw TraceError(.missing, file: path, object: arrayPath, "\(walked) is a \(parent.summary), not a struct with field \(name)")
        }
        guard let k = names.firstIndex(of: name) else {
            throw TraceError(
                .missing, file: path, object: arrayPath, "\(walked) has no field \(name); its fields are \(names.joined(separator: ", "))")
        }
        guard elements.count == 1 else {
            throw TraceError(
                .missing, file: path, object: arrayPath, "\(walked) is a \(MATArray.size(dims)) struct array; pick one element, e.g. \(walked)(1)")
        }
        return elements[0][k]
    }

    private func element(_ k: Int, of array: MATArray, at here: String, arrayPath: String) throws(TraceError) -> MATArray {
        switch array {
        case let .cell(_, elements) where k <= elements.count:
            return elements[k - 1]
        case let .structure(d, names, elements) where k <= elements.count:
            return .structure(dimensions: d.map { _ in 1 }, fieldNames: names, elements: [elements[k - 1]])
        default:
            throw TraceError(
                .missing, file: path, object: arrayPath,
                "\(here)(\(k)): \(here) is a \(array.summary), expected a cell or struct array of at least \(k) elements")
        }
    }
}

/// The data elements of one MAT-file: tags, arrays, compressed elements, with the byte offsets
/// and variable paths of messages.
private struct MATElementReader {
    let path: String
    let bigEndian: Bool
    let limits: MATLimits
    var inflated = 0

    /// Where an element is: a byte of the file, or of the data inflated from a compressed element.
    struct Place {
        var bytes: [UInt8]
        /// " of the data inflated from the compressed element at byte N", or "".
        var within: String
        func at(_ offset: Int) -> String { "byte \(offset)\(within)" }
    }

    struct Tag {
        var type: UInt32
        var size: Int
        var data: Int
        /// The next element (data padded to 8 bytes; an miCOMPRESSED element is not padded).
        var next: Int
    }

    static let miINT8: UInt32 = 1, miINT32: UInt32 = 5, miUINT32: UInt32 = 6, miMATRIX: UInt32 = 14, miCOMPRESSED: UInt32 = 15

    mutating func variables(_ bytes: [UInt8]) throws(TraceError) -> [(name: String, value: MATArray)] {
        var out: [(name: String, value: MATArray)] = []
        let file = Place(bytes: bytes, within: "")
        var offset = 128
        while offset < bytes.count {
            try readCut(file, offset, end: bytes.count, parent: "", depth: 1)
            let tag = try self.tag(file, offset, end: bytes.count, path: "variable \(out.count + 1)", padded: false)
            var matrix = (place: file, offset: offset)
            if tag.type == Self.miCOMPRESSED {
                matrix = (try inflate(file, tag, at: offset), 0)
            } else if tag.type != Self.miMATRIX {
                throw TraceError(
                    .corrupt, file: path,
                    "element at \(file.at(offset)): type \(tag.type), expected a variable (miMATRIX 14 or miCOMPRESSED 15)")
            }
            let inner = try self.tag(matrix.place, matrix.offset, end: matrix.place.bytes.count, path: "variable \(out.count + 1)", padded: true)
            guard inner.type == Self.miMATRIX else {
                throw TraceError(
                    .corrupt, file: path, "element at \(matrix.place.at(matrix.offset)): type \(inner.type), expected miMATRIX (14)")
            }
            let (name, value) = try array(matrix.place, inner, at: matrix.offset, parent: "", depth: 1)
            if !name.isEmpty { out.append((name, value)) }
            offset = tag.next
        }
        return out
    }

    /// When the miMATRIX at `offset` declares more bytes than `end` leaves (a truncated file),
    /// reads what is there, so that the error names the innermost element cut (its path).
    mutating func readCut(_ p: Place, _ offset: Int, end: Int, parent: String, depth: Int) throws(TraceError) {
        guard offset + 8 <= end, u32(p.bytes, offset) == Self.miMATRIX, Int(u32(p.bytes, offset + 4)) > end - offset - 8 else { return }
        _ = try array(p, Tag(type: Self.miMATRIX, size: end - offset - 8, data: offset + 8, next: end), at: offset, parent: parent, depth: depth)
    }

    func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        let v = UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
        return bigEndian ? v.byteSwapped : v
    }

    /// The tag at `offset`, its data within `end`.
    func tag(_ p: Place, _ offset: Int, end: Int, path name: String, padded: Bool) throws(TraceError) -> Tag {
        guard offset + 8 <= end else {
            throw TraceError(
                .corrupt, file: path, object: name.isEmpty ? nil : name,
                "element at \(p.at(offset)): expected an 8-byte tag, \(end - offset) bytes left (truncated)")
        }
        let first = u32(p.bytes, offset)
        if first >> 16 != 0 {  // small data element: count in the upper 16 bits, data in the tag's last 4 bytes
            let size = Int(first >> 16)
            guard size <= 4 else {
                throw TraceError(
                    .corrupt, file: path, object: name.isEmpty ? nil : name,
                    "element at \(p.at(offset)): a small element of \(size) bytes, expected at most 4")
            }
            return Tag(type: first & 0xFFFF, size: size, data: offset + 4, next: offset + 8)
        }
        let size = Int(u32(p.bytes, offset + 4))
        guard size <= end - offset - 8 else {
            throw TraceError(
                .corrupt, file: path, object: name.isEmpty ? nil : name,
                "element at \(p.at(offset)): declares \(size) bytes, only \(end - offset - 8) follow (truncated)")
        }
        return Tag(type: first, size: size, data: offset + 8, next: min(end, padded ? offset + 8 + ((size + 7) & ~7) : offset + 8 + size))
    }

    /// The miMATRIX inflated from the compressed element `tag`: its declared size bounded
    /// before inflating, its inflated size equal to the declared one.
    mutating func inflate(_ file: Place, _ tag: Tag, at offset: Int) throws(TraceError) -> Place {
        let data = file.bytes[tag.data..<tag.data + tag.size]
        let what = "compressed element at byte \(offset)"
        let head: [UInt8]
        do { head = try inflateZlib(data, capacity: 8).bytes } catch { throw zlibFailure(error, what) }
        guard head.count == 8 else { throw TraceError(.corrupt, file: path, "\(what): inflates to \(head.count) bytes, expected an 8-byte tag") }
        let declared = Int(u32(head, 4))
        let total = 8 + declared
        guard total <= limits.maxInflatedBytes - inflated else {
            throw TraceError(
                .tooLarge, file: path,
                "\(what): declares \(declared) inflated bytes, past navbench's limit of \(limits.maxInflatedBytes) per file (a compression bomb?)")
        }
        let out: (bytes: [UInt8], ended: Bool)
        do { out = try inflateZlib(data, capacity: total + 1) } catch { throw zlibFailure(error, what) }
        guard out.ended, out.bytes.count == total else {
            throw TraceError(
                .corrupt, file: path,
                "\(what): inflates to \(out.ended ? "\(out.bytes.count)" : "more than \(total)") bytes, but its tag declares \(total) (8 + \(declared))"
            )
        }
        inflated += total
        return Place(bytes: out.bytes, within: " of the data inflated from the \(what)")
    }

    func zlibFailure(_ e: ZlibInflateError, _ what: String) -> TraceError {
        switch e {
        case .truncated: return TraceError(.corrupt, file: path, "\(what): the zlib data ends early (truncated)")
        case let .corrupt(m): return TraceError(.corrupt, file: path, "\(what): not valid zlib data (\(m))")
        }
    }

    /// One miMATRIX (`tag` at `offset`): flags, dimensions, name, then its class's data.
    mutating func array(_ p: Place, _ tag: Tag, at offset: Int, parent: String, depth: Int) throws(TraceError) -> (String, MATArray) {
        let end = tag.data + tag.size
        let label = parent.isEmpty ? "variable at \(p.at(offset))" : parent
        guard depth <= limits.maxDepth else {
            throw TraceError(
                .tooLarge, file: path, object: label,
                "arrays nested more than \(limits.maxDepth) deep (element at \(p.at(offset))); expected struct fields and cells at most that deep")
        }
        if tag.size == 0 { return ("", .numeric(className: "double", dimensions: [0, 0], values: [])) }  // an empty cell's placeholder
        let flagsTag = try self.tag(p, tag.data, end: end, path: label, padded: true)
        guard flagsTag.type == Self.miUINT32, flagsTag.size == 8 else {
            throw TraceError(
                .corrupt, file: path, object: label,
                "array flags at \(p.at(tag.data)): type \(flagsTag.type), \(flagsTag.size) bytes, expected miUINT32 (6), 8 bytes")
        }
        let flags = u32(p.bytes, flagsTag.data)
        let classID = flags & 0xFF
        let complex = flags & 0x800 != 0, logical = flags & 0x200 != 0
        let dimsTag = try self.tag(p, flagsTag.next, end: end, path: label, padded: true)
        guard dimsTag.type == Self.miINT32, dimsTag.size % 4 == 0, dimsTag.size >= 8 else {
            throw TraceError(
                .corrupt, file: path, object: label,
                "dimensions at \(p.at(flagsTag.next)): type \(dimsTag.type), \(dimsTag.size) bytes, expected miINT32 (5), at least 2 dimensions")
        }
        var dims: [Int] = []
        var count = 1
        for k in 0..<dimsTag.size / 4 {
            let d = Int(Int32(bitPattern: u32(p.bytes, dimsTag.data + 4 * k)))
            let (product, overflow) = count.multipliedReportingOverflow(by: max(d, 0))
            guard d >= 0, !overflow, product <= Int(UInt32.max) else {
                throw TraceError(
                    .corrupt, file: path, object: label,
                    "dimensions at \(p.at(dimsTag.data)): \(dims.map(String.init).joined(separator: "×"))\(dims.isEmpty ? "" : "×")\(d)… "
                        + (d < 0 ? "has a negative size" : "hold more than 2^32 elements") + "; expected sizes whose product fits the file")
            }
            dims.append(d)
            count = product
        }
        let nameTag = try self.tag(p, dimsTag.next, end: end, path: label, padded: true)
        guard nameTag.type == Self.miINT8 || nameTag.type == 2 || nameTag.type == 16 else {
            throw TraceError(.corrupt, file: path, object: label, "array name at \(p.at(dimsTag.next)): type \(nameTag.type), expected miINT8 (1)")
        }
        let name = String(decoding: p.bytes[nameTag.data..<nameTag.data + nameTag.size], as: UTF8.self)
        let here = parent.isEmpty ? name : parent
        let body = nameTag.next
        let kind: String
        switch classID {
        case 1: return (name, try cell(p, body, end: end, dims: dims, count: count, path: here, depth: depth))
        case 2: return (name, try structure(p, body, end: end, dims: dims, count: count, path: here, depth: depth))
        case 4: return (name, try char(p, body, end: end, dims: dims, count: count, path: here))
        case 6...15:
            let className = logical ? "logical" : Self.classNames[Int(classID) - 6]
            if complex { return (name, .unsupported(what: "a complex \(className) array")) }
            let real = try self.tag(p, body, end: end, path: here, padded: true)
            let values = try numbers(p, real, count: count, at: body, path: here)
            return (name, .numeric(className: className, dimensions: dims, values: values))
        case 3: kind = "a MATLAB object"
        case 5: kind = "a sparse array (save full(X) instead)"
        case 16: kind = "a function handle"
        case 17: kind = "an opaque object (string, table, datetime…)"
        default: kind = "an array of unknown class \(classID)"
        }
        return (name, .unsupported(what: kind))
    }

    static let classNames = ["double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]

    /// `count` numbers stored as any mi numeric type, converted to Double.
    func numbers(_ p: Place, _ t: Tag, count: Int, at offset: Int, path name: String) throws(TraceError) -> [Double] {
        let width: Int
        switch t.type {
        case 1, 2: width = 1
        case 3, 4: width = 2
        case 5, 6, 7: width = 4
        case 9, 12, 13: width = 8
        default:
            throw TraceError(
                .corrupt, file: path, object: name, "data at \(p.at(offset)): type \(t.type), expected a numeric mi type (1–7, 9, 12, 13)")
        }
        guard t.size == count * width else {  // count ≤ 2^32 and width ≤ 8: no overflow
            throw TraceError(
                .corrupt, file: path, object: name,
                "data at \(p.at(offset)): \(t.size) bytes, expected \(count) values of \(width) bytes (the product of the dimensions)")
        }
        let be = bigEndian
        return p.bytes.withUnsafeBytes { raw in
            func load<T: FixedWidthInteger>(_: T.Type, _ i: Int) -> T {
                let v = raw.loadUnaligned(fromByteOffset: t.data + i * width, as: T.self)
                return be ? T(bigEndian: v) : T(littleEndian: v)
            }
            switch t.type {
            case 1: return (0..<count).map { Double(Int8(bitPattern: raw[t.data + $0])) }
            case 2: return (0..<count).map { Double(raw[t.data + $0]) }
            case 3: return (0..<count).map { Double(load(Int16.self, $0)) }
            case 4: return (0..<count).map { Double(load(UInt16.self, $0)) }
            case 5: return (0..<count).map { Double(load(Int32.self, $0)) }
            case 6: return (0..<count).map { Double(load(UInt32.self, $0)) }
            case 7: return (0..<count).map { Double(Float(bitPattern: load(UInt32.self, $0))) }
            case 9: return (0..<count).map { Double(bitPattern: load(UInt64.self, $0)) }
            case 12: return (0..<count).map { Double(load(Int64.self, $0)) }
            default: return (0..<count).map { Double(load(UInt64.self, $0)) }
            }
        }
    }

    /// A char array: UTF-16 code units (miUINT16) or UTF-8 / 8-bit characters, rows joined by newlines.
    func char(_ p: Place, _ offset: Int, end: Int, dims: [Int], count: Int, path name: String) throws(TraceError) -> MATArray {
        let t = try tag(p, offset, end: end, path: name, padded: true)
        var units: [UInt16]
        switch t.type {
        case 4, 17:
            guard t.size == 2 * count else { throw sizeMismatch(p, offset, name, t.size, "\(count) UTF-16 characters") }
            units = (try numbers(p, Tag(type: 4, size: t.size, data: t.data, next: t.next), count: count, at: offset, path: name)).map { UInt16($0) }
        case 1, 2, 16:
            guard t.size == count || t.type == 16 else { throw sizeMismatch(p, offset, name, t.size, "\(count) characters") }
            let text = String(decoding: p.bytes[t.data..<t.data + t.size], as: UTF8.self)
            return .char(dimensions: dims, text: text)
        default:
            throw TraceError(
                .corrupt, file: path, object: name, "characters at \(p.at(offset)): type \(t.type), expected miUINT16 (4) or miUTF8 (16)")
        }
        // Column-major to rows.
        let rows = max(dims.first ?? 1, 1)
        if rows > 1 {
            let cols = count / rows
            var joined: [UInt16] = []
            for r in 0..<rows {
                if r > 0 { joined.append(10) }
                for c in 0..<cols { joined.append(units[c * rows + r]) }
            }
            units = joined
        }
        return .char(dimensions: dims, text: String(decoding: units, as: UTF16.self))
    }

    func sizeMismatch(_ p: Place, _ offset: Int, _ name: String, _ size: Int, _ expected: String) -> TraceError {
        TraceError(.corrupt, file: path, object: name, "data at \(p.at(offset)): \(size) bytes, expected \(expected)")
    }

    /// A cell array: `count` miMATRIX elements.
    mutating func cell(_ p: Place, _ offset: Int, end: Int, dims: [Int], count: Int, path name: String, depth: Int) throws(TraceError) -> MATArray {
        guard count <= (end - offset) / 8 else {  // every element takes at least a tag
            throw TraceError(
                .corrupt, file: path, object: name, "cell at \(p.at(offset)): \(count) elements cannot fit in \(end - offset) bytes (truncated)")
        }
        var elements: [MATArray] = []
        elements.reserveCapacity(count)
        var at = offset
        for k in 0..<count {
            let here = "\(name){\(k + 1)}"
            try readCut(p, at, end: end, parent: here, depth: depth + 1)
            let t = try tag(p, at, end: end, path: here, padded: true)
            guard t.type == Self.miMATRIX else {
                throw TraceError(.corrupt, file: path, object: here, "element at \(p.at(at)): type \(t.type), expected miMATRIX (14)")
            }
            elements.append(try array(p, t, at: at, parent: here, depth: depth + 1).1)
            at = t.next
        }
        return .cell(dimensions: dims, elements: elements)
    }

    /// A struct array: the field-name length, the names, then each element's fields as miMATRIX.
    mutating func structure(_ p: Place, _ offset: Int, end: Int, dims: [Int], count: Int, path name: String, depth: Int) throws(TraceError)
        -> MATArray
    {
        let lenTag = try tag(p, offset, end: end, path: name, padded: true)
        guard lenTag.type == Self.miINT32, lenTag.size == 4 else {
            throw TraceError(.corrupt, file: path, object: name, "field name length at \(p.at(offset)): expected one miINT32 (5)")
        }
        let len = Int(Int32(bitPattern: u32(p.bytes, lenTag.data)))
        let namesTag = try tag(p, lenTag.next, end: end, path: name, padded: true)
        guard namesTag.type == Self.miINT8, len > 0, namesTag.size % len == 0 else {
            throw TraceError(
                .corrupt, file: path, object: name,
                "field names at \(p.at(lenTag.next)): type \(namesTag.type), \(namesTag.size) bytes, expected miINT8 (1) names of \(len) bytes each")
        }
        let names = stride(from: namesTag.data, to: namesTag.data + namesTag.size, by: len).map { s in
            String(decoding: p.bytes[s..<s + len].prefix { $0 != 0 }, as: UTF8.self)
        }
        let (cells, overflow) = count.multipliedReportingOverflow(by: names.count)
        guard !overflow, cells <= (end - namesTag.next) / 8 else {
            throw TraceError(
                .corrupt, file: path, object: name,
                "struct at \(p.at(offset)): \(count) elements × \(names.count) fields cannot fit in \(end - namesTag.next) bytes (truncated)")
        }
        var elements: [[MATArray]] = []
        elements.reserveCapacity(count)
        var at = namesTag.next
        for e in 0..<count {
            var fields: [MATArray] = []
            for f in names {
                let here = (count == 1 ? name : "\(name)(\(e + 1))") + "/" + f
                try readCut(p, at, end: end, parent: here, depth: depth + 1)
                let t = try tag(p, at, end: end, path: here, padded: true)
                guard t.type == Self.miMATRIX else {
                    throw TraceError(.corrupt, file: path, object: here, "element at \(p.at(at)): type \(t.type), expected miMATRIX (14)")
                }
                fields.append(try array(p, t, at: at, parent: here, depth: depth + 1).1)
                at = t.next
            }
            elements.append(fields)
        }
        return .structure(dimensions: dims, fieldNames: names, elements: elements)
    }
}
