// ROS 1 bag bytes written by hand from the format's specification: the hostile recordings of
// NavRosbagTests and CLITests are built with these.

/// Pieces of a ROS 1 bag (format 2.0): little-endian integers, header fields, records.
public enum RosbagBytes {
    /// `v` in little-endian byte order.
    public static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

    /// Header fields as a record header or a connection header holds them: `u32 length,
    /// name=value` repeated, no outer length.
    public static func fields(_ fields: [(String, [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            bytes += le(UInt32(name.utf8.count + 1 + value.count))
            bytes += Array(name.utf8)
            bytes.append(UInt8(ascii: "="))
            bytes += value
        }
        return bytes
    }

    /// A record: its header fields and its data, each preceded by its u32 length.
    public static func record(_ fields: [(String, [UInt8])], data: [UInt8] = []) -> [UInt8] {
        let header = Self.fields(fields)
        return le(UInt32(header.count)) + header + le(UInt32(data.count)) + data
    }
}
