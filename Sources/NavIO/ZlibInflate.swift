import CZlib

/// Why a zlib stream could not be inflated.
public enum ZlibInflateError: Error, Equatable, Sendable {
    /// Not zlib data; zlib's own message.
    case corrupt(String)
    /// The input ends before the stream does.
    case truncated
}

/// Inflates one zlib stream (RFC 1950; a gzip header is accepted too) into at most `capacity`
/// bytes, with the system zlib: the output is allocated once, so a caller bounds memory by
/// `capacity` before any byte is inflated (MAT-file compressed elements).
///
/// - Returns: the inflated bytes and whether the stream ended within them; `ended` false with
///   `capacity` bytes means the stream holds more (a size declared too small, or a bomb).
/// - Throws: `ZlibInflateError` when the data is not zlib or ends before the stream does.
/// - Complexity: O(min(inflated size, capacity)).
public func inflateZlib(_ input: ArraySlice<UInt8>, capacity: Int) throws(ZlibInflateError) -> (bytes: [UInt8], ended: Bool) {
    let cap = max(0, capacity)
    var stream = z_stream()
    guard nb_inflate_init_gzip(&stream) == Z_OK else { throw .corrupt("cannot initialise zlib") }
    defer { inflateEnd(&stream) }
    var status = Z_OK
    var produced = 0
    let out = [UInt8](unsafeUninitializedCapacity: cap) { buf, count in
        input.withUnsafeBufferPointer { inBuf in
            var consumed = 0
            while true {
                // avail_in and avail_out are 32-bit: feed and take at most 1 GiB at a time.
                let feed = min(inBuf.count - consumed, 1 << 30)
                stream.next_in = feed > 0 ? UnsafeMutablePointer(mutating: inBuf.baseAddress! + consumed) : nil
                stream.avail_in = uInt(feed)
                let room = min(cap - produced, 1 << 30)
                stream.next_out = room > 0 ? buf.baseAddress! + produced : nil
                stream.avail_out = uInt(room)
                status = inflate(&stream, Z_NO_FLUSH)
                consumed += feed - Int(stream.avail_in)
                produced += room - Int(stream.avail_out)
                if status == Z_STREAM_END || produced == cap { break }
                if status == Z_BUF_ERROR && consumed == inBuf.count { break }  // input used up
                if status != Z_OK { break }
            }
        }
        // zlib wrote bytes [0, produced): a byte array needs no deinitialisation.
        count = produced
    }
    if status == Z_STREAM_END { return (out, true) }
    if produced == cap && (status == Z_OK || status == Z_BUF_ERROR) { return (out, false) }
    if status == Z_BUF_ERROR || status == Z_OK { throw .truncated }
    throw .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib status \(status)")
}
