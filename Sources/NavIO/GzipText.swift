import CZlib

/// The gzip magic number (RFC 1952, ID1 ID2).
let gzipMagic: [UInt8] = [0x1F, 0x8B]

/// Whether `bytes` start with the gzip signature.
@inlinable func isGzip(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B }

/// Largest inflated-to-compressed ratio past the first 64 MiB. Text trajectories compress
/// about 3–5:1; gzip of repeated bytes reaches 1000:1, so a 4.6 MB file of zeros inflated to
/// 1 GiB (and 3 GB of memory) before this bound (review of the second wave).
public let maxTextCompressionRatio = 100

/// Inflates gzip data (RFC 1952; several concatenated members, as `cat a.gz b.gz`, are one
/// stream, as gzip(1) reads them) with the system zlib.
///
/// - Throws: a one-line `TraceError` naming the file when the data is not valid gzip, is
///   truncated, or inflates to more than `limit` bytes.
/// - Complexity: O(inflated size).
func inflateGzip(_ input: [UInt8], path: String, limit: Int = maxInflatedTextBytes) throws(TraceError) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(min(limit, max(1 << 16, input.count * 4)))
    var stream = z_stream()
    guard nb_inflate_init_gzip(&stream) == Z_OK else { throw TraceError(.corrupt, file: path, "cannot initialise zlib") }
    defer { inflateEnd(&stream) }
    var chunk = [UInt8](repeating: 0, count: 1 << 18)
    var failure: TraceError?
    let compressedBytes = max(1, input.count)
    input.withUnsafeBufferPointer { inBuf in
        var consumed = 0
        while consumed < inBuf.count {
            // avail_in is 32-bit: feed at most 1 GiB at a time.
            let feed = min(inBuf.count - consumed, 1 << 30)
            stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress! + consumed)
            stream.avail_in = uInt(feed)
            var ended = false
            while stream.avail_in > 0 || !ended {
                let produced: Int
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { c in
                    stream.next_out = c.baseAddress
                    stream.avail_out = uInt(c.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                produced = chunk.count - Int(stream.avail_out)
                if produced > 0 {
                    guard out.count + produced <= limit else {
                        failure = TraceError(
                            .wrongShape, file: path, "gzip data inflates to more than \(limit) bytes; expected a trajectory text file")
                        return
                    }
                    let total = out.count + produced
                    if total > 1 << 26 && total / compressedBytes > maxTextCompressionRatio {
                        failure = TraceError(
                            .wrongShape, file: path,
                            "gzip data inflates more than \(maxTextCompressionRatio):1 (\(compressedBytes) bytes to over \(total)); expected a trajectory text file, not a compression bomb"
                        )
                        return
                    }
                    out.append(contentsOf: chunk[0..<produced])
                }
                if status == Z_STREAM_END {
                    ended = true
                    // Another member follows (concatenated .gz files): start again.
                    if stream.avail_in > 0 {
                        guard inflateReset(&stream) == Z_OK else { failure = TraceError(.corrupt, file: path, "gzip: cannot reset zlib"); return }
                        ended = false
                        continue
                    }
                    break
                }
                if status == Z_BUF_ERROR && stream.avail_in == 0 { break }  // needs more input
                guard status == Z_OK else {
                    let detail = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                    failure = TraceError(.corrupt, file: path, "not valid gzip data (\(detail))")
                    return
                }
            }
            consumed += feed
            if ended && consumed >= inBuf.count { return }
        }
        failure = TraceError(.corrupt, file: path, "gzip data is truncated (the compressed stream ends early)")
    }
    if let failure { throw failure }
    return out
}

/// The bytes of a text file, inflated when it is gzip-compressed (told from its first two
/// bytes, not its name): every trajectory text reader goes through this.
///
/// - Throws: `TraceError` from reading or inflating.
/// - Complexity: O(file size + inflated size).
func readTextFileBytes(_ path: String) throws(TraceError) -> [UInt8] {
    let raw = try readFileBytes(path)
    return isGzip(raw) ? try inflateGzip(raw, path: path) : raw
}
