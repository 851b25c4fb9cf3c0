/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF): the
/// checksum MCAP puts in chunks, the data end and the footer (https://mcap.dev/spec). Table
/// driven, one byte at a time; `update` can be called piece by piece.
///
/// - Complexity: O(n) per `update` of n bytes; the 256-entry table is built once.
public struct CRC32: Sendable {
    /// The checksum of everything passed to `update` so far (0 for nothing).
    public private(set) var value: UInt32 = 0

    public init() {}

    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        var c = ~value
        Self.table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        value = ~c
    }

    /// The checksum of `bytes` alone.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
