import Foundation
import NavIO

/// A value of a binary property list (`bplist00`), as NSKeyedArchiver writes them.
enum PlistValue: Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case real(Double)
    /// Seconds since 2001-01-01 UTC.
    case date(Double)
    case data([UInt8])
    case string(String)
    /// A keyed archiver's reference into `$objects`.
    case uid(Int)
    case array([PlistValue])
    case dict([String: PlistValue])

    var string: String? { if case let .string(s) = self { return s }; return nil }
    var dict: [String: PlistValue]? { if case let .dict(d) = self { return d }; return nil }
    var array: [PlistValue]? { if case let .array(a) = self { return a }; return nil }
    var uid: Int? { if case let .uid(u) = self { return u }; return nil }
}

/// Why a byte string is not a binary property list.
struct PlistError: Error { let problem: String }

/// Parses a binary property list (Apple's `bplist00` format: objects, an offset table and a
/// 32-byte trailer). Every offset and length is bounds-checked and nesting is limited, so a
/// corrupt or hostile file gives an error, never a crash.
///
/// - Complexity: O(file size).
func parseBinaryPlist(_ bytes: [UInt8]) throws(PlistError) -> PlistValue {
    guard bytes.count >= 40, Array(bytes.prefix(8)) == Array("bplist00".utf8) else {
        throw PlistError(
            problem: bytes.starts(with: Array("bplist".utf8))
                ? "unsupported binary property list version, expected bplist00"
                : "not a binary property list (no bplist00 signature)")
    }
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6]), refSize = Int(bytes[trailer + 7])
    func be(_ at: Int, _ n: Int) throws(PlistError) -> UInt64 {
        guard n >= 1, n <= 8, at >= 0, at + n <= bytes.count else {
            throw PlistError(problem: "truncated (an integer at byte \(at) runs past the end)")
        }
        var v: UInt64 = 0
        for i in 0..<n { v = v << 8 | UInt64(bytes[at + i]) }
        return v
    }
    let objectCount = try be(trailer + 8, 8), top = try be(trailer + 16, 8), tableStart = try be(trailer + 24, 8)
    guard (1...8).contains(offsetSize), (1...8).contains(refSize), objectCount > 0, objectCount < UInt64(bytes.count),
        top < objectCount, tableStart < UInt64(trailer), tableStart + objectCount * UInt64(offsetSize) <= UInt64(trailer)
    else {
        throw PlistError(problem: "corrupt trailer (object count, offsets or sizes out of range)")
    }
    var cache: [Int: PlistValue] = [:]

    /// An object reference read from the file, as Int; never traps (references ≥ 2^63 are errors).
    func objectRef(_ raw: UInt64) throws(PlistError) -> Int {
        guard raw < objectCount, let r = Int(exactly: raw) else {
            throw PlistError(problem: "object reference \(raw) out of range (\(objectCount) objects)")
        }
        return r
    }

    func offset(_ ref: Int) throws(PlistError) -> Int {
        guard ref >= 0, UInt64(ref) < objectCount else { throw PlistError(problem: "object reference \(ref) out of range (\(objectCount) objects)") }
        let o = try be(Int(tableStart) + ref * offsetSize, offsetSize)
        guard o >= 8, o < UInt64(tableStart) else { throw PlistError(problem: "object \(ref) has an offset outside the object area") }
        return Int(o)
    }
    /// The length of a data/string/array/dict object and where its content starts.
    func lengthAndStart(_ at: Int) throws(PlistError) -> (Int, Int) {
        let low = Int(bytes[at] & 0x0F)
        if low != 0x0F { return (low, at + 1) }
        guard at + 1 < bytes.count, bytes[at + 1] >> 4 == 0x1 else { throw PlistError(problem: "bad length at byte \(at)") }
        let n = 1 << Int(bytes[at + 1] & 0x0F)
        let v = try be(at + 2, n)
        guard v < UInt64(bytes.count) else { throw PlistError(problem: "length \(v) at byte \(at) exceeds the file") }
        return (Int(v), at + 2 + n)
    }
    func object(_ ref: Int, depth: Int) throws(PlistError) -> PlistValue {
        if let v = cache[ref] { return v }
        guard depth < 256 else { throw PlistError(problem: "objects nested more than 256 deep (a reference cycle?)") }
        let at = try offset(ref)
        let marker = bytes[at]
        let value: PlistValue
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: value = .null
            case 0x08: value = .bool(false)
            case 0x09: value = .bool(true)
            default: throw PlistError(problem: "unknown marker 0x\(String(marker, radix: 16)) at byte \(at)")
            }
        case 0x1:
            let n = 1 << Int(marker & 0x0F)
            guard n <= 8 else { throw PlistError(problem: "integer wider than 64 bits at byte \(at)") }
            let raw = try be(at + 1, n)
            value = .int(n == 8 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2:
            let n = 1 << Int(marker & 0x0F)
            let raw = try be(at + 1, n)
            switch n {
            case 4: value = .real(Double(Float(bitPattern: UInt32(raw))))
            case 8: value = .real(Double(bitPattern: raw))
            default: throw PlistError(problem: "real of \(n) bytes at byte \(at)")
            }
        case 0x3:
            guard marker == 0x33 else { throw PlistError(problem: "bad date marker at byte \(at)") }
            value = .date(Double(bitPattern: try be(at + 1, 8)))
        case 0x4:
            let (n, s) = try lengthAndStart(at)
            guard s + n <= trailer else { throw PlistError(problem: "data at byte \(at) runs past the object area") }
            value = .data(Array(bytes[s..<(s + n)]))
        case 0x5:
            let (n, s) = try lengthAndStart(at)
            guard s + n <= trailer else { throw PlistError(problem: "string at byte \(at) runs past the object area") }
            value = .string(String(decoding: bytes[s..<(s + n)], as: UTF8.self))
        case 0x6:
            let (n, s) = try lengthAndStart(at)
            guard s + 2 * n <= trailer else { throw PlistError(problem: "string at byte \(at) runs past the object area") }
            let units = (0..<n).map { UInt16(bytes[s + 2 * $0]) << 8 | UInt16(bytes[s + 2 * $0 + 1]) }
            value = .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            let n = Int(marker & 0x0F) + 1
            let raw = try be(at + 1, n)
            guard let u = Int(exactly: raw) else { throw PlistError(problem: "UID \(raw) at byte \(at) out of range") }
            value = .uid(u)
        case 0xA, 0xC:
            let (n, s) = try lengthAndStart(at)
            guard s + n * refSize <= trailer else { throw PlistError(problem: "array at byte \(at) runs past the object area") }
            var items: [PlistValue] = []
            items.reserveCapacity(n)
            for i in 0..<n { items.append(try object(try objectRef(try be(s + i * refSize, refSize)), depth: depth + 1)) }
            value = .array(items)
        case 0xD:
            let (n, s) = try lengthAndStart(at)
            guard s + 2 * n * refSize <= trailer else { throw PlistError(problem: "dictionary at byte \(at) runs past the object area") }
            var d: [String: PlistValue] = [:]
            for i in 0..<n {
                guard let key = try object(try objectRef(try be(s + i * refSize, refSize)), depth: depth + 1).string else {
                    throw PlistError(problem: "dictionary at byte \(at) has a key that is not a string")
                }
                d[key] = try object(try objectRef(try be(s + (n + i) * refSize, refSize)), depth: depth + 1)
            }
            value = .dict(d)
        default:
            throw PlistError(problem: "unknown marker 0x\(String(marker, radix: 16)) at byte \(at)")
        }
        cache[ref] = value
        return value
    }
    return try object(Int(top), depth: 0)
}

/// An NSKeyedArchiver archive: `$objects` with UID references, resolved on demand.
struct KeyedArchive {
    let objects: [PlistValue]
    let root: Int

    init(_ plist: PlistValue) throws(PlistError) {
        guard let top = plist.dict else { throw PlistError(problem: "top level is not a dictionary") }
        guard top["$archiver"]?.string == "NSKeyedArchiver" else { throw PlistError(problem: "not an NSKeyedArchiver archive ($archiver missing)") }
        guard let objects = top["$objects"]?.array else { throw PlistError(problem: "no $objects array") }
        guard let root = top["$top"]?.dict?["root"]?.uid, root < objects.count else { throw PlistError(problem: "no $top.root reference") }
        self.objects = objects
        self.root = root
    }

    /// Follows a UID to its object; other values are returned as they are. `$null` → nil.
    func resolve(_ v: PlistValue?) -> PlistValue? {
        guard let v else { return nil }
        if case let .uid(u) = v {
            guard u >= 0, u < objects.count else { return nil }
            let o = objects[u]
            if o == .string("$null") { return nil }
            return o
        }
        return v
    }

    /// The class name of an archived object (its `$class` entry's `$classname`).
    func className(_ object: PlistValue?) -> String? {
        resolve(object?.dict?["$class"])?.dict?["$classname"]?.string
    }

    /// The class chain (`$classes`) of an archived object.
    func classChain(_ object: PlistValue?) -> [String] {
        (resolve(object?.dict?["$class"])?.dict?["$classes"]?.array ?? []).compactMap(\.string)
    }

    /// The members of an NSArray / NSMutableArray / NSSet (`NS.objects`).
    func elements(_ object: PlistValue?) -> [PlistValue]? {
        guard let d = object?.dict, let items = d["NS.objects"]?.array else { return nil }
        return items.compactMap { resolve($0) }
    }

    /// Bytes stored inline or as an NSData object (plain data or `NS.data`).
    func bytes(_ v: PlistValue?) -> [UInt8]? {
        switch resolve(v) {
        case let .data(b)?: return b
        case let .dict(d)?: if case let .data(b)? = resolve(d["NS.data"]) { return b }; return nil
        default: return nil
        }
    }

    /// A string stored inline, as an NSString object, or as NSMutableString (`NS.string`).
    func string(_ v: PlistValue?) -> String? {
        switch resolve(v) {
        case let .string(s)?: return s
        case let .dict(d)?: return resolve(d["NS.string"])?.string
        default: return nil
        }
    }
}
