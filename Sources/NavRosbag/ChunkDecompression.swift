import CBZip2
import CLZ4
import CZstd
import Foundation

/// The largest uncompressed chunk navbench accepts (rosbag writes 768 KiB chunks, MCAP
/// writers 1–4 MiB; a chunk holds at least one whole message): a declared size above it is
/// refused before anything is allocated. It also bounds what a small compressed chunk that
/// expands enormously (a "zip bomb") can cost: at most this much memory and the time to
/// decompress it.
public let maximumChunkBytes = 256 << 20

/// Chunk compressions of ROS 1 bags (`none`, `bz2`, `lz4`) and MCAP (`""`, `lz4`, `zstd`).
enum ChunkCompression: String {
    case none, bz2, lz4, zstd

    /// - Returns: nil for a name neither specification defines for the container.
    init?(bagName: String) {
        switch bagName {
        case "none": self = .none
        case "bz2": self = .bz2
        case "lz4": self = .lz4
        default: return nil
        }
    }

    init?(mcapName: String) {
        switch mcapName {
        case "": self = .none
        case "lz4": self = .lz4
        case "zstd": self = .zstd
        default: return nil
        }
    }
}

/// Why a chunk did not decompress: the message names the library's complaint or the size.
struct DecompressionFailure: Error {
    var problem: String
}

/// The bytes of one decompressed chunk: memory of their own (freed with the value) or, for an
/// uncompressed chunk, a view into the mapped file.
final class ChunkBytes {
    let bytes: UnsafeRawBufferPointer
    private let owned: UnsafeMutableRawPointer?

    init(view: UnsafeRawBufferPointer) { bytes = view; owned = nil }
    init(owned: UnsafeMutableRawPointer, count: Int) { self.owned = owned; bytes = UnsafeRawBufferPointer(start: owned, count: count) }
    deinit { free(owned) }
}

/// An output buffer that starts small and doubles up to `limit` bytes, so memory follows what
/// the data really decompresses to, not what the chunk declares.
struct GrowingOutput {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    var count = 0
    let limit: Int

    init(initial: Int, limit: Int) throws(DecompressionFailure) {
        self.limit = limit
        capacity = max(1, min(initial, limit))
        guard let p = malloc(capacity) else { throw DecompressionFailure(problem: "cannot allocate \(capacity) bytes to decompress it") }
        base = p
    }

    var spare: Int { capacity - count }
    var tail: UnsafeMutableRawPointer { base + count }

    /// Doubles the capacity (at most `limit`); false when it is already `limit`.
    mutating func grow() throws(DecompressionFailure) -> Bool {
        guard capacity < limit else { return false }
        let next = min(limit, capacity > limit / 2 ? limit : capacity * 2)
        guard let p = realloc(base, next) else {
            free(base)
            throw DecompressionFailure(problem: "cannot allocate \(next) bytes to decompress it")
        }
        base = p; capacity = next
        return true
    }

    /// Gives up the memory (after a failure).
    func release() { free(base) }
}

/// Decompresses `source` into exactly `declaredSize` bytes.
///
/// bz2 (libbz2's stream API), LZ4 frames (liblz4 `LZ4F_decompress`, as rosbag's roslz4 and
/// MCAP write them), Zstandard (libzstd `ZSTD_decompressStream`). The output buffer starts at
/// min(declared, max(4 × compressed, 1 MiB)) bytes and grows by doubling up to the declared
/// size + 1 (the spare byte shows data beyond the declared size): a chunk that lies about its
/// size costs what it really holds, and never more than `declaredSize` + 1.
///
/// - Precondition: the caller checked `declaredSize` against `maximumChunkBytes`.
/// - Throws: when the data does not decompress, or decompresses to more or fewer bytes than
///   declared (a chunk with a wrong length).
/// - Complexity: O(declaredSize) time; memory ≤ declaredSize + 1 bytes (a realloc may hold
///   two copies while it moves).
func decompressChunk(
    _ source: UnsafeRawBufferPointer, as compression: ChunkCompression,
    declaredSize: Int
) throws(DecompressionFailure) -> ChunkBytes {
    if compression == .none {
        guard source.count == declaredSize else {
            throw DecompressionFailure(problem: "holds \(source.count) bytes, but declares \(declaredSize) uncompressed bytes")
        }
        return ChunkBytes(view: source)
    }
    let limit = declaredSize + 1
    var out = try GrowingOutput(
        initial: max(source.count.multipliedReportingOverflow(by: 4).overflow ? limit : source.count * 4, 1 << 20), limit: limit)
    do throws(DecompressionFailure) {
        switch compression {
        case .none: break
        case .bz2: try bunzip2(source, into: &out)
        case .lz4: try unlz4(source, into: &out)
        case .zstd: try unzstd(source, into: &out)
        }
    } catch {
        out.release()
        throw error
    }
    guard out.count == declaredSize else {
        out.release()
        throw DecompressionFailure(
            problem: out.count > declaredSize
                ? "decompresses to more than the declared \(declaredSize) bytes"
                : "decompresses to \(out.count) bytes, but declares \(declaredSize)")
    }
    return ChunkBytes(owned: out.base, count: out.count)
}

/// bz2 through `BZ2_bzDecompress`, stopping at the end of the stream or when `out` is full at its limit.
private func bunzip2(_ source: UnsafeRawBufferPointer, into out: inout GrowingOutput) throws(DecompressionFailure) {
    guard source.count <= Int(UInt32.max) else {
        throw DecompressionFailure(problem: "bz2 data of \(source.count) bytes, more than libbz2 takes at once")
    }
    var stream = bz_stream()
    guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else { throw DecompressionFailure(problem: "cannot start libbz2") }
    defer { BZ2_bzDecompressEnd(&stream) }
    stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress?.assumingMemoryBound(to: CChar.self))
    stream.avail_in = UInt32(source.count)
    while true {
        if out.spare == 0 {
            guard try out.grow() else { return }  // at the limit: the size check reports it
        }
        let room = min(out.spare, Int(UInt32.max))
        stream.next_out = out.tail.assumingMemoryBound(to: CChar.self)
        stream.avail_out = UInt32(room)
        let rc = BZ2_bzDecompress(&stream)
        out.count += room - Int(stream.avail_out)
        if rc == BZ_STREAM_END { return }
        guard rc == BZ_OK else { throw DecompressionFailure(problem: "bz2 data does not decompress (libbz2 error \(rc))") }
        if stream.avail_in == 0 && Int(stream.avail_out) == room {
            throw DecompressionFailure(problem: "bz2 data ends early (after \(out.count) of \(out.limit - 1) bytes)")
        }
    }
}

/// An LZ4 frame through `LZ4F_decompress`.
private func unlz4(_ source: UnsafeRawBufferPointer, into out: inout GrowingOutput) throws(DecompressionFailure) {
    var context: OpaquePointer?
    guard LZ4F_isError(LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))) == 0, let context else {
        throw DecompressionFailure(problem: "cannot create an LZ4 decompression context")
    }
    defer { LZ4F_freeDecompressionContext(context) }
    var inOffset = 0
    while true {
        if out.spare == 0 {
            guard try out.grow() else { return }
        }
        var outSize = out.spare
        var inSize = source.count - inOffset
        let hint = LZ4F_decompress(context, out.tail, &outSize, source.baseAddress.map { $0 + inOffset }, &inSize, nil)
        if LZ4F_isError(hint) != 0 {
            throw DecompressionFailure(problem: "LZ4 frame does not decompress (\(String(cString: LZ4F_getErrorName(hint))))")
        }
        inOffset += inSize; out.count += outSize
        if hint == 0 { return }  // frame complete
        if inOffset >= source.count && inSize == 0 && outSize == 0 {
            throw DecompressionFailure(problem: "LZ4 frame ends early (after \(out.count) of \(out.limit - 1) bytes)")
        }
    }
}

/// Zstandard frames through `ZSTD_decompressStream`.
private func unzstd(_ source: UnsafeRawBufferPointer, into out: inout GrowingOutput) throws(DecompressionFailure) {
    guard let stream = ZSTD_createDStream() else { throw DecompressionFailure(problem: "cannot create a Zstandard stream") }
    defer { ZSTD_freeDStream(stream) }
    var input = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
    while true {
        if out.spare == 0 {
            guard try out.grow() else { return }
        }
        var output = ZSTD_outBuffer(dst: out.tail, size: out.spare, pos: 0)
        let rc = ZSTD_decompressStream(stream, &output, &input)
        out.count += output.pos
        if ZSTD_isError(rc) != 0 {
            throw DecompressionFailure(problem: "Zstandard data does not decompress (\(String(cString: ZSTD_getErrorName(rc))))")
        }
        if rc == 0 && input.pos == input.size { return }  // last frame complete, input used up
        if input.pos == input.size && output.pos < output.size {
            guard rc == 0 else { throw DecompressionFailure(problem: "Zstandard data ends early (after \(out.count) of \(out.limit - 1) bytes)") }
            return
        }
    }
}
