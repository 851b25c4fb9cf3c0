import Foundation

/// A problem with a robotics recording, reported as one line: `FILE: WHERE: problem`
/// (WHERE names the record, chunk or topic).
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The file ends inside a record or before the index / footer.
        case truncated
        /// A length, count or field that contradicts the specification or the rest of the file.
        case corrupt
        /// Something the specification allows that navbench does not read (a compression, a version).
        case unsupported
        /// A topic, connection or child frame that is not in the file.
        case missing
        /// Cannot open or read the file.
        case unreadable
    }

    public var kind: Kind
    public var file: String
    public var location: String?
    public var problem: String

    public init(_ kind: Kind, file: String, location: String? = nil, _ problem: String) {
        self.kind = kind; self.file = file; self.location = location; self.problem = problem
    }

    public var description: String {
        if let location { return "\(file): \(location): \(problem)" }
        return "\(file): \(problem)"
    }
}

/// Too few bytes left for a read: `needed` bytes at `offset`, `available` left.
struct Shortfall: Error {
    var needed: Int
    var available: Int
    var offset: Int
}

/// A bounds-checked little-endian cursor over bytes that live elsewhere (a mapped file or a
/// decompressed chunk). Every read checks the remaining length first; nothing is allocated
/// from a length read here before it is checked against `remaining`.
struct ByteReader {
    let base: UnsafeRawBufferPointer
    private(set) var offset: Int
    let end: Int

    init(_ base: UnsafeRawBufferPointer, from start: Int = 0, to end: Int? = nil) {
        self.base = base; offset = start; self.end = end ?? base.count
    }

    var remaining: Int { end - offset }
    var atEnd: Bool { offset >= end }

    @inline(__always) mutating func need(_ n: Int) throws(Shortfall) {
        guard n >= 0, n <= end - offset else { throw Shortfall(needed: n, available: end - offset, offset: offset) }
    }

    @inline(__always) mutating func load<T: FixedWidthInteger>(_: T.Type) throws(Shortfall) -> T {
        try need(MemoryLayout<T>.size)
        let v = base.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
        return T(littleEndian: v)
    }

    mutating func u8() throws(Shortfall) -> UInt8 { try load(UInt8.self) }
    mutating func u16() throws(Shortfall) -> UInt16 { try load(UInt16.self) }
    mutating func u32() throws(Shortfall) -> UInt32 { try load(UInt32.self) }
    mutating func u64() throws(Shortfall) -> UInt64 { try load(UInt64.self) }

    /// `n` bytes as a view into the same memory.
    mutating func bytes(_ n: Int) throws(Shortfall) -> UnsafeRawBufferPointer {
        try need(n)
        let slice = UnsafeRawBufferPointer(rebasing: base[offset..<(offset + n)])
        offset += n
        return slice
    }

    /// A length read from the data, as an Int that fits in what is left.
    mutating func length32() throws(Shortfall) -> Int {
        let n = Int(try u32())
        try need(n)
        return n
    }

    mutating func skip(_ n: Int) throws(Shortfall) {
        try need(n)
        offset += n
    }
}

extension UnsafeRawBufferPointer {
    /// UTF-8 text (invalid sequences replaced), for names and type strings.
    var text: String { String(decoding: self, as: UTF8.self) }

    func starts(with prefix: [UInt8]) -> Bool {
        count >= prefix.count && zip(self, prefix).allSatisfy { $0 == $1 }
    }
}

/// A read-only memory map of a whole file (unmapped when released). Files of 0 bytes get an
/// empty buffer.
final class MappedFile: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    private let mapped: UnsafeMutableRawPointer?

    init(path: String) throws(RecordingError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RecordingError(.unreadable, file: path, "no such file")
        }
        guard !isDirectory.boolValue else { throw RecordingError(.unreadable, file: path, "is a folder, expected a .bag or .mcap file") }
        // Non-blocking, so a FIFO without a writer cannot hang the open; the type is then checked
        // on the opened descriptor (no race with a file swapped in between).
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw RecordingError(.unreadable, file: path, "cannot open for reading") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw RecordingError(.unreadable, file: path, "cannot read the file's size") }
        guard st.st_mode & S_IFMT == S_IFREG else {
            let kind =
                switch st.st_mode & S_IFMT {
                case S_IFIFO: "a FIFO"
                case S_IFCHR, S_IFBLK: "a device"
                case S_IFSOCK: "a socket"
                default: "not a regular file"
                }
            throw RecordingError(.unreadable, file: path, "is \(kind), expected a .bag or .mcap file")
        }
        let size = Int(st.st_size)
        if size == 0 {
            mapped = nil
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw RecordingError(.unreadable, file: path, "cannot map the file into memory")
        }
        _ = madvise(p, size, MADV_SEQUENTIAL)
        mapped = p
        bytes = UnsafeRawBufferPointer(start: p, count: size)
    }

    deinit {
        if let mapped { munmap(mapped, bytes.count) }
    }
}
