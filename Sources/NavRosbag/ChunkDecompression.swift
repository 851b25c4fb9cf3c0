import CBZip2
import CLZ4
import CZstd

/// The largest uncompressed chunk navbench accepts (rosbag writes 768 KiB chunks, MCAP
/// writers about 1 MiB): a declared size above it is refused before anything is allocated.
public let maximumChunkBytes = 1 << 30

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

/// Decompresses `source` into exactly `declaredSize` bytes.
///
/// bz2 (libbz2 `BZ2_bzBuffToBuffDecompress`), LZ4 frames (liblz4 `LZ4F_decompress`, as
/// rosbag's roslz4 and MCAP write them), Zstandard (libzstd `ZSTD_decompress`).
///
/// - Throws: when the data does not decompress, or decompresses to more or fewer bytes than
///   declared (a chunk with a wrong length).
/// - Complexity: O(declaredSize); one allocation of `declaredSize` bytes, made only after
///   the caller checked it against `maximumChunkBytes`.
func decompressChunk(_ source: UnsafeRawBufferPointer, as compression: ChunkCompression,
                     declaredSize: Int) throws(DecompressionFailure) -> [UInt8] {
    if compression == .none {
        guard source.count == declaredSize else {
            throw DecompressionFailure(problem: "holds \(source.count) bytes, but declares \(declaredSize) uncompressed bytes")
        }
        return Array(source)
    }
    var failure: DecompressionFailure?
    // One spare byte shows data beyond the declared size.
    let out = [UInt8](unsafeUninitializedCapacity: declaredSize + 1) { buffer, initialised in
        initialised = 0
        guard let dst = buffer.baseAddress else { return }
        switch compression {
        case .none:
            break
        case .bz2:
            guard let src = source.baseAddress, source.count <= Int(UInt32.max), declaredSize < Int(UInt32.max) else {
                failure = DecompressionFailure(problem: "bz2 data too large"); return
            }
            var produced = UInt32(declaredSize + 1)
            let rc = BZ2_bzBuffToBuffDecompress(UnsafeMutableRawPointer(dst).assumingMemoryBound(to: CChar.self), &produced,
                                                UnsafeMutableRawPointer(mutating: src).assumingMemoryBound(to: CChar.self),
                                                UInt32(source.count), 0, 0)
            if rc == BZ_OUTBUFF_FULL {
                failure = DecompressionFailure(problem: "bz2 data decompresses to more than the declared \(declaredSize) bytes")
            } else if rc != BZ_OK {
                failure = DecompressionFailure(problem: "bz2 data does not decompress (libbz2 error \(rc))")
            } else {
                initialised = Int(produced)
            }
        case .lz4:
            var context: OpaquePointer?
            guard LZ4F_isError(LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))) == 0, let context else {
                failure = DecompressionFailure(problem: "cannot create an LZ4 decompression context"); return
            }
            defer { LZ4F_freeDecompressionContext(context) }
            var inOffset = 0, outOffset = 0
            while true {
                var outSize = declaredSize + 1 - outOffset
                var inSize = source.count - inOffset
                let hint = LZ4F_decompress(context, dst + outOffset, &outSize, source.baseAddress.map { $0 + inOffset }, &inSize, nil)
                if LZ4F_isError(hint) != 0 {
                    failure = DecompressionFailure(problem: "LZ4 frame does not decompress (\(String(cString: LZ4F_getErrorName(hint))))"); return
                }
                inOffset += inSize; outOffset += outSize
                if hint == 0 { break }  // frame complete
                if outOffset > declaredSize {
                    failure = DecompressionFailure(problem: "LZ4 data decompresses to more than the declared \(declaredSize) bytes"); return
                }
                if inOffset >= source.count && inSize == 0 && outSize == 0 {
                    failure = DecompressionFailure(problem: "LZ4 frame ends early (after \(outOffset) of \(declaredSize) bytes)"); return
                }
            }
            initialised = outOffset
        case .zstd:
            let n = ZSTD_decompress(dst, declaredSize + 1, source.baseAddress, source.count)
            if ZSTD_isError(n) != 0 {
                failure = DecompressionFailure(problem: "Zstandard data does not decompress (\(String(cString: ZSTD_getErrorName(n))))")
            } else {
                initialised = n
            }
        }
    }
    if let failure { throw failure }
    guard out.count == declaredSize else {
        throw DecompressionFailure(problem: out.count > declaredSize
            ? "decompresses to more than the declared \(declaredSize) bytes"
            : "decompresses to \(out.count) bytes, but declares \(declaredSize)")
    }
    return out
}
