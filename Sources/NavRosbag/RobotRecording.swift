import Foundation

/// The container of a robotics recording.
public enum RecordingFormat: String, Sendable, CaseIterable {
    /// ROS 1 bag, format version 2.0.
    case rosbag
    /// MCAP (ROS 2's default since Iron).
    case mcap
}

/// How a channel's messages are serialised.
public enum MessageEncoding: String, Sendable {
    /// ROS 1 serialisation: little-endian, packed, strings and arrays with a u32 length.
    case ros1
    /// OMG CDR (XCDR1) as ROS 2 writes it: a 4-byte encapsulation header, aligned primitives.
    case cdr
}

/// A ROS 1 connection or an MCAP channel: one topic with one message type.
public struct RecordingChannel: Sendable, Equatable {
    public var id: Int
    public var topic: String
    /// The type as the file names it: `sensor_msgs/Imu` (ROS 1) or `sensor_msgs/msg/Imu` (ROS 2).
    public var typeName: String { didSet { messageType = Self.decodable(typeName, encoding, md5) } }
    /// nil when the channel's encoding is not one navbench reads (MCAP `protobuf`, `json`, …).
    public var encoding: MessageEncoding? { didSet { messageType = Self.decodable(typeName, encoding, md5) } }
    /// The ROS 1 definition's MD5 (nil in MCAP).
    public var md5: String? { didSet { messageType = Self.decodable(typeName, encoding, md5) } }
    /// The MCAP channel's `message_encoding` or `ros1` for bags.
    public var encodingName: String
    /// The message type navbench decodes, or nil: an unknown type, an unknown encoding, or a
    /// ROS 1 definition whose MD5 is not the standard one (a different layout under the same name).
    /// Worked out once per channel (not per message).
    public private(set) var messageType: RosMessageType?

    public init(id: Int, topic: String, typeName: String, encoding: MessageEncoding?, md5: String?, encodingName: String) {
        self.id = id; self.topic = topic; self.typeName = typeName; self.encoding = encoding; self.md5 = md5; self.encodingName = encodingName
        messageType = Self.decodable(typeName, encoding, md5)
    }

    static func decodable(_ typeName: String, _ encoding: MessageEncoding?, _ md5: String?) -> RosMessageType? {
        guard encoding != nil, let t = RosMessageType(typeName: typeName) else { return nil }
        if let md5, md5 != "*", md5 != t.ros1MD5 { return nil }
        return t
    }

    /// The type name without ROS 2's `/msg/` (`sensor_msgs/Imu`).
    public var shortTypeName: String { RosMessageType.shortName(typeName) }
}

extension RecordingChannel {
    /// The message in `payload` (one of this channel's, recorded at `time` ns) decoded as `type`;
    /// a corrupt-file error naming `file`, the topic and the time when it does not decode.
    public func decode(_ payload: UnsafeRawBufferPointer, as type: RosMessageType, encoding: MessageEncoding, at time: UInt64, file: String)
        throws(RecordingError) -> RosMessage
    {
        do throws(MessageDecodingError) { return try decodeRosMessage(payload, type: type, encoding: encoding) } catch {
            throw RecordingError(
                .corrupt, file: file, location: "\(topic), message at \(RosStamp(nanoseconds: time).text)", "\(type.rawValue) \(error.problem)")
        }
    }
}

/// A ROS 1 bag or MCAP file, memory-mapped and read from its specification (no ROS, no
/// Python). The reader trusts nothing in the file: every length is checked against the bytes
/// that remain before it is used, chunk sizes are checked against what they decompress to,
/// and each problem is one `RecordingError` naming the file and the record.
///
/// The format is told from the file's first bytes (`#ROSBAG V2.0\n`, or MCAP's magic
/// `\u{89}MCAP0\r\n`), not from its name.
public final class RobotRecording: @unchecked Sendable {
    public let path: String
    public let format: RecordingFormat
    /// The name used in messages (the file name).
    public let displayName: String
    private let file: MappedFile

    static let bagMagic = Array("#ROSBAG V2.0\n".utf8)
    static let mcapMagic: [UInt8] = [0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A]

    public init(path: String) throws(RecordingError) {
        self.path = path
        displayName = path
        file = try MappedFile(path: path)
        let b = file.bytes
        if b.starts(with: Self.bagMagic) {
            format = .rosbag
        } else if b.starts(with: Self.mcapMagic) {
            format = .mcap
        } else if b.starts(with: Array("#ROSBAG V".utf8)) {
            let line = UnsafeRawBufferPointer(rebasing: b[0..<min(b.count, 16)]).text.split(separator: "\n").first ?? ""
            throw RecordingError(
                .unsupported, file: path, location: "byte 0",
                "'\(line)': navbench reads ROS bag format version 2.0 (ROS 1 since 2010); migrate older bags with `rosbag fix`")
        } else if b.isEmpty {
            throw RecordingError(.truncated, file: path, "empty file (0 bytes), expected a ROS 1 bag or an MCAP file")
        } else {
            throw RecordingError(
                .corrupt, file: path, location: "byte 0", "expected '#ROSBAG V2.0' (ROS 1 bag) or the MCAP magic 0x89 'MCAP0', found neither")
        }
    }

    /// Calls `body` with every message in file order: its channel, its receive time (ROS 1:
    /// the record's time; MCAP: `log_time`), in nanoseconds, and its serialised payload (valid
    /// only during the call).
    ///
    /// - Complexity: O(file size): one pass; each chunk is decompressed once.
    ///
    /// - Returns: every channel (connection) the file defines, by id, including those without
    ///   messages.
    @discardableResult
    public func forEachMessage(_ body: (RecordingChannel, UInt64, UnsafeRawBufferPointer) throws(RecordingError) -> Void) throws(RecordingError)
        -> [RecordingChannel]
    {
        var scanner = RecordScanner(file: displayName, bytes: file.bytes, releasesReadPages: true)
        switch format {
        case .rosbag: try scanner.scanBag(body)
        case .mcap: try scanner.scanMCAP(body)
        }
        return scanner.channels.values.sorted { $0.id < $1.id }
    }

    /// Topics, types, counts and time spans, from one pass over every message.
    public func summary() throws(RecordingError) -> RecordingSummary {
        var topics: [String: RecordingSummary.Topic] = [:]
        var order: [String] = []
        var channelTopic: [Int: String] = [:]
        var scanner = RecordScanner(file: displayName, bytes: file.bytes, releasesReadPages: true)
        let body: (RecordingChannel, UInt64, UnsafeRawBufferPointer) throws(RecordingError) -> Void = { channel, time, _ in
            if topics[channel.topic] == nil {
                topics[channel.topic] = RecordingSummary.Topic(
                    topic: channel.topic, typeName: channel.typeName, messageType: channel.messageType,
                    encodingName: channel.encodingName, count: 0, firstTime: time, lastTime: time)
                order.append(channel.topic)
            }
            channelTopic[channel.id] = channel.topic
            topics[channel.topic]!.count += 1
            topics[channel.topic]!.firstTime = min(topics[channel.topic]!.firstTime, time)
            topics[channel.topic]!.lastTime = max(topics[channel.topic]!.lastTime, time)
        }
        switch format {
        case .rosbag: try scanner.scanBag(body)
        case .mcap: try scanner.scanMCAP(body)
        }
        // Channels without messages are listed too (count 0).
        for c in scanner.channels.values.sorted(by: { $0.id < $1.id }) where topics[c.topic] == nil {
            topics[c.topic] = RecordingSummary.Topic(
                topic: c.topic, typeName: c.typeName, messageType: c.messageType,
                encodingName: c.encodingName, count: 0, firstTime: 0, lastTime: 0)
            order.append(c.topic)
        }
        return RecordingSummary(
            file: displayName, format: format, bytes: file.bytes.count, version: scanner.version,
            chunks: scanner.chunkCounts, topics: order.sorted().compactMap { topics[$0] })
    }
}

/// What `navbench import rosbag|mcap FILE --list` prints.
public struct RecordingSummary: Sendable {
    public struct Topic: Sendable {
        public var topic: String
        public var typeName: String
        public var messageType: RosMessageType?
        public var encodingName: String
        public var count: Int
        /// Receive times, ns.
        public var firstTime: UInt64
        public var lastTime: UInt64

        /// Messages per second over the topic's span ((count − 1) / span), nil below 2 messages.
        public var rate: Double? {
            guard count > 1, lastTime > firstTime else { return nil }
            return Double(count - 1) / (Double(lastTime - firstTime) / 1e9)
        }
    }

    public var file: String
    public var format: RecordingFormat
    public var bytes: Int
    /// `2.0` for bags; the MCAP header's profile and library.
    public var version: String
    /// Chunks per compression name.
    public var chunks: [String: Int]
    /// Sorted by topic name.
    public var topics: [Topic]

    public var messageCount: Int { topics.reduce(0) { $0 + $1.count } }
    public var start: UInt64? { topics.filter { $0.count > 0 }.map(\.firstTime).min() }
    public var end: UInt64? { topics.filter { $0.count > 0 }.map(\.lastTime).max() }

    /// `rosbag info`'s layout: path, version, duration, start, end, size, messages,
    /// compression, types, topics (count, rate, type; types navbench does not decode marked).
    public var text: String { text(escaping: { $0 }) }

    /// `text`, with every name that comes from the file (path, version, types, topics, chunk
    /// compressions) passed through `escape` first: a topic named with a newline or a terminal
    /// escape sequence cannot forge lines or control the terminal.
    public func text(escaping escape: (String) -> String) -> String {
        func seconds(_ ns: UInt64) -> String { String(format: "%.6f", Double(ns / 1_000_000_000) + Double(ns % 1_000_000_000) / 1e9) }
        var lines: [String] = []
        lines.append("path:        \(escape(file))")
        lines.append("format:      \(format == .rosbag ? "ROS 1 bag" : "MCAP")")
        lines.append("version:     \(escape(version))")
        if let s = start, let e = end {
            lines.append("duration:    \(String(format: "%.3f", Double(e - s) / 1e9)) s")
            lines.append("start:       \(seconds(s))")
            lines.append("end:         \(seconds(e))")
        }
        lines.append("size:        \(bytes) bytes")
        lines.append("messages:    \(messageCount)")
        let totalChunks = chunks.values.reduce(0, +)
        lines.append(
            "compression: "
                + (chunks.isEmpty
                    ? "none (no chunks)"
                    : chunks.keys.sorted().map { "\($0.isEmpty ? "none" : escape($0)) [\(chunks[$0]!)/\(totalChunks) chunks]" }.joined(
                        separator: ", ")))
        let types = Set(topics.map(\.typeName)).sorted()
        for (k, t) in types.enumerated() {
            let known = topics.first { $0.typeName == t }?.messageType != nil
            lines.append((k == 0 ? "types:       " : "             ") + escape(t) + (known ? "" : "  (not read by navbench)"))
        }
        let names = topics.map { escape($0.topic) }
        let width = names.map(\.count).max() ?? 0
        for (k, t) in topics.enumerated() {
            let rate = t.rate.map { String(format: " @ %.1f Hz", $0) } ?? ""
            let pad = String(repeating: " ", count: width - names[k].count)
            lines.append((k == 0 ? "topics:      " : "             ") + "\(names[k])\(pad)  \(t.count) msgs\(rate) : \(escape(t.typeName))")
        }
        return lines.joined(separator: "\n")
    }
}

// MARK: - Record scanning

/// One pass over a file's records; collects the channels it meets.
struct RecordScanner {
    let file: String
    let bytes: UnsafeRawBufferPointer
    var channels: [Int: RecordingChannel] = [:]
    var chunkCounts: [String: Int] = [:]
    var version = ""
    var mcapSchemas: [Int: (name: String, encoding: String)] = [:]
    /// `bytes` is a private, read-only file mapping (`MappedFile`) whose pages may be given back.
    let releasesReadPages: Bool
    /// Pages before this offset have been given back.
    var released = 0
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    init(file: String, bytes: UnsafeRawBufferPointer, releasesReadPages: Bool = false) {
        self.file = file; self.bytes = bytes; self.releasesReadPages = releasesReadPages
    }

    /// Gives back the mapped pages wholly before `offset`, which a sequential pass has read and
    /// decoded: they leave the process's resident set (the page cache keeps them, and a later
    /// read faults them in again from the file; `MADV_DONTNEED` on an unmodified private file
    /// mapping). Without it a 1 GB bag adds 1 GB to the import's peak memory.
    mutating func releaseRead(before offset: Int) {
        guard releasesReadPages, let base = bytes.baseAddress else { return }
        let end = min(offset, bytes.count) / Self.pageSize * Self.pageSize
        // In steps of at least 8 MiB: one system call per many records.
        guard end - released >= 8 << 20 else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + released), end - released, MADV_DONTNEED)
        released = end
    }

    typealias Visit = (RecordingChannel, UInt64, UnsafeRawBufferPointer) throws(RecordingError) -> Void

    /// Runs a read, turning a shortfall into a one-line error.
    /// `inChunk`: the bytes are inside a chunk or a record (`within` names which), so a
    /// shortfall is a wrong length, not the end of the file.
    func read<T>(_ location: @autoclosure () -> String, inChunk: Bool, within: String = "chunk", _ body: () throws(Shortfall) -> T)
        throws(RecordingError) -> T
    {
        do { return try body() } catch {
            if inChunk {
                throw RecordingError(
                    .corrupt, file: file, location: location(),
                    "needs \(error.needed) bytes at offset \(error.offset), the \(within) has \(error.available) left (a wrong length)")
            }
            throw RecordingError(
                .truncated, file: file, location: location(),
                "needs \(error.needed) bytes at byte \(error.offset), the file has \(error.available) left (a truncated \(file.hasSuffix(".mcap") ? "MCAP file" : "recording"))"
            )
        }
    }

    // MARK: ROS 1 bag v2.0

    /// The fields of a record header: `u32 length, name=value` repeated. Views into the
    /// record; looked up by name without building strings (a bag has millions of records).
    struct BagFields {
        var items: [(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)] = []

        /// The value of the last field called `name` (as a dictionary of the fields would give).
        subscript(_ name: StaticString) -> UnsafeRawBufferPointer? {
            let key = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            for item in items.reversed() where item.name.count == key.count && item.name.elementsEqual(key) {
                return item.value
            }
            return nil
        }
    }

    func bagFields(_ header: UnsafeRawBufferPointer, location: @autoclosure () -> String) throws(RecordingError) -> BagFields {
        var r = ByteReader(header)
        var fields = BagFields()
        fields.items.reserveCapacity(4)
        while !r.atEnd {
            let field = try read(location() + ", header", inChunk: true, within: "record header") { () throws(Shortfall) in
                try r.bytes(try r.length32())
            }
            guard let eq = field.firstIndex(of: UInt8(ascii: "=")) else {
                throw RecordingError(.corrupt, file: file, location: location(), "header field '\(field.text)' has no '=' (expected name=value)")
            }
            fields.items.append((UnsafeRawBufferPointer(rebasing: field[..<eq]), UnsafeRawBufferPointer(rebasing: field[(eq + 1)...])))
        }
        return fields
    }

    func bagField<T: FixedWidthInteger>(_ fields: BagFields, _ name: StaticString, _: T.Type, location: @autoclosure () -> String, op: String)
        throws(RecordingError) -> T
    {
        guard let v = fields[name] else {
            throw RecordingError(.corrupt, file: file, location: location(), "\(op) record has no '\(name)' header field")
        }
        guard v.count == MemoryLayout<T>.size else {
            throw RecordingError(
                .corrupt, file: file, location: location(), "\(op) field '\(name)' is \(v.count) bytes, expected \(MemoryLayout<T>.size)")
        }
        return T(littleEndian: v.loadUnaligned(as: T.self))
    }

    func bagString(_ fields: BagFields, _ name: StaticString, location: @autoclosure () -> String, op: String) throws(RecordingError) -> String {
        guard let v = fields[name] else {
            throw RecordingError(.corrupt, file: file, location: location(), "\(op) record has no '\(name)' header field")
        }
        return v.text
    }

    /// One record: header fields and data.
    func bagRecord(_ r: inout ByteReader, location: @autoclosure () -> String, inChunk: Bool) throws(RecordingError) -> (
        op: UInt8, fields: BagFields, data: UnsafeRawBufferPointer
    ) {
        let header = try read(location(), inChunk: inChunk) { () throws(Shortfall) in try r.bytes(try r.length32()) }
        let fields = try bagFields(header, location: location())
        let data = try read(location() + ", data", inChunk: inChunk) { () throws(Shortfall) in try r.bytes(try r.length32()) }
        guard let op = fields["op"], op.count == 1 else {
            throw RecordingError(.corrupt, file: file, location: location(), "record has no one-byte 'op' header field")
        }
        return (op[0], fields, data)
    }

    mutating func bagConnection(_ fields: BagFields, _ data: UnsafeRawBufferPointer, location: @autoclosure () -> String) throws(RecordingError) {
        let id = Int(try bagField(fields, "conn", UInt32.self, location: location(), op: "connection"))
        let topic = try bagString(fields, "topic", location: location(), op: "connection")
        let c = try bagFields(data, location: location() + ", connection header")
        guard let type = c["type"]?.text else {
            throw RecordingError(.corrupt, file: file, location: location(), "connection \(id) (\(topic)) has no 'type'")
        }
        channels[id] = RecordingChannel(id: id, topic: topic, typeName: type, encoding: .ros1, md5: c["md5sum"]?.text, encodingName: "ros1")
    }

    mutating func bagMessage(_ fields: BagFields, _ data: UnsafeRawBufferPointer, location: @autoclosure () -> String, _ visit: Visit)
        throws(RecordingError)
    {
        let conn = Int(try bagField(fields, "conn", UInt32.self, location: location(), op: "message data"))
        let time = try bagField(fields, "time", UInt64.self, location: location(), op: "message data")
        guard let channel = channels[conn] else {
            throw RecordingError(
                .corrupt, file: file, location: location(), "message of connection \(conn), which no earlier connection record defines")
        }
        let sec = time & 0xFFFF_FFFF, nsec = time >> 32
        guard nsec < 1_000_000_000 else { throw RecordingError(.corrupt, file: file, location: location(), "time has \(nsec) ns, expected < 10⁹") }
        try visit(channel, sec * 1_000_000_000 + nsec, data)
    }

    mutating func scanBag(_ visit: Visit) throws(RecordingError) {
        version = "2.0"
        var r = ByteReader(bytes, from: RobotRecording.bagMagic.count)
        let first = try bagRecord(&r, location: "bag header record at byte 13", inChunk: false)
        guard first.op == 0x03 else {
            throw RecordingError(.corrupt, file: file, location: "record at byte 13", "op \(first.op), expected the bag header record (op 0x03)")
        }
        let indexPos = try bagField(first.fields, "index_pos", UInt64.self, location: "bag header record", op: "bag header")
        guard indexPos <= UInt64(bytes.count) else {
            throw RecordingError(
                .truncated, file: file, location: "bag header record",
                "the index starts at byte \(indexPos), but the file has \(bytes.count) bytes (a truncated bag; expected the whole recording)")
        }
        while !r.atEnd {
            let at = r.offset
            let rec = try bagRecord(&r, location: "record at byte \(at)", inChunk: false)
            switch rec.op {
            case 0x05:
                let location = "chunk at byte \(at)"
                let name = try bagString(rec.fields, "compression", location: location, op: "chunk")
                guard let compression = ChunkCompression(bagName: name) else {
                    throw RecordingError(.unsupported, file: file, location: location, "compression '\(name)', expected none, bz2 or lz4")
                }
                let size = Int(try bagField(rec.fields, "size", UInt32.self, location: location, op: "chunk"))
                guard size <= maximumChunkBytes else {
                    throw RecordingError(
                        .corrupt, file: file, location: location,
                        "declares \(size) uncompressed bytes, more than navbench's limit of \(maximumChunkBytes)")
                }
                chunkCounts[name, default: 0] += 1
                let plain: ChunkBytes
                do { plain = try decompressChunk(rec.data, as: compression, declaredSize: size) } catch {
                    throw RecordingError(
                        .corrupt, file: file, location: location,
                        "\(name) chunk \(error.problem) (expected its 'size' field to give the uncompressed length)")
                }
                try withExtendedLifetime(plain) { () throws(RecordingError) in
                    let inner = plain.bytes
                    var c = ByteReader(inner)
                    while !c.atEnd {
                        let innerAt = c.offset
                        // Built only for a message (millions of records pass without one).
                        let loc = { "\(location), record at offset \(innerAt)" }
                        let ir = try bagRecord(&c, location: loc(), inChunk: true)
                        switch ir.op {
                        case 0x07: try bagConnection(ir.fields, ir.data, location: loc())
                        case 0x02: try bagMessage(ir.fields, ir.data, location: loc(), visit)
                        default:
                            throw RecordingError(
                                .corrupt, file: file, location: loc(),
                                "op 0x0\(String(ir.op, radix: 16)) inside a chunk, expected a connection (0x07) or message data (0x02)")
                        }
                    }
                }
            case 0x07: try bagConnection(rec.fields, rec.data, location: "connection record at byte \(at)")
            case 0x02: try bagMessage(rec.fields, rec.data, location: "message record at byte \(at)", visit)
            case 0x04, 0x06: break  // index data, chunk info: the sequential pass needs neither
            case 0x03: throw RecordingError(.corrupt, file: file, location: "record at byte \(at)", "a second bag header record")
            default:
                throw RecordingError(
                    .corrupt, file: file, location: "record at byte \(at)", "unknown op 0x\(String(rec.op, radix: 16)), expected 0x02…0x07")
            }
            releaseRead(before: r.offset)
        }
    }

    // MARK: MCAP

    func mcapString(_ r: inout ByteReader, location: String, inChunk: Bool) throws(RecordingError) -> String {
        try read(location, inChunk: true, within: "record") { () throws(Shortfall) in try r.bytes(try r.length32()) }.text
    }

    mutating func mcapRecord(op: UInt8, _ content: UnsafeRawBufferPointer, location: String, inChunk: Bool, _ visit: Visit) throws(RecordingError) {
        var r = ByteReader(content)
        switch op {
        case 0x01:  // Header
            let profile = try mcapString(&r, location: location, inChunk: inChunk)
            let library = try mcapString(&r, location: location, inChunk: inChunk)
            version = "profile '\(profile)', library '\(library)'"
        case 0x03:  // Schema
            let id = Int(try read(location, inChunk: true, within: "record") { () throws(Shortfall) in try r.u16() })
            let name = try mcapString(&r, location: location, inChunk: inChunk)
            let encoding = try mcapString(&r, location: location, inChunk: inChunk)
            mcapSchemas[id] = (name, encoding)
        case 0x04:  // Channel
            let (id, schemaID) = try read(location, inChunk: true, within: "record") { () throws(Shortfall) in (Int(try r.u16()), Int(try r.u16())) }
            let topic = try mcapString(&r, location: location, inChunk: inChunk)
            let encodingName = try mcapString(&r, location: location, inChunk: inChunk)
            let schema = mcapSchemas[schemaID]
            if schemaID != 0 && schema == nil {
                throw RecordingError(
                    .corrupt, file: file, location: location,
                    "channel \(id) (\(topic)) names schema \(schemaID), which no earlier schema record defines")
            }
            let known = encodingName == "cdr" && (schema?.encoding == "ros2msg" || schema?.encoding == "ros2idl")
            channels[id] = RecordingChannel(
                id: id, topic: topic, typeName: schema?.name ?? "(no schema)", encoding: known ? .cdr : nil,
                md5: nil, encodingName: encodingName)
        case 0x05:  // Message
            let (channelID, time) = try read(location, inChunk: true, within: "record") { () throws(Shortfall) in
                let c = Int(try r.u16()); _ = try r.u32(); let t = try r.u64(); _ = try r.u64(); return (c, t)
            }
            guard let channel = channels[channelID] else {
                throw RecordingError(
                    .corrupt, file: file, location: location, "message of channel \(channelID), which no earlier channel record defines")
            }
            try visit(channel, time, UnsafeRawBufferPointer(rebasing: content[r.offset...]))
        case 0x06:  // Chunk
            let (size, _, name) = try read(location, inChunk: false) { () throws(Shortfall) in
                _ = try r.u64(); _ = try r.u64()
                let s = try r.u64(); let crc = try r.u32()
                let n = try r.bytes(try r.length32()).text
                return (s, crc, n)
            }
            guard let compression = ChunkCompression(mcapName: name) else {
                throw RecordingError(.unsupported, file: file, location: location, "compression '\(name)', expected '' (none), lz4 or zstd")
            }
            guard size <= UInt64(maximumChunkBytes) else {
                throw RecordingError(
                    .corrupt, file: file, location: location,
                    "declares \(size) uncompressed bytes, more than navbench's limit of \(maximumChunkBytes)")
            }
            let records = try read(location, inChunk: true, within: "record") { () throws(Shortfall) in
                let n = try r.u64()
                guard n <= UInt64(r.remaining) else { throw Shortfall(needed: Int(clamping: n), available: r.remaining, offset: r.offset) }
                return try r.bytes(Int(n))
            }
            chunkCounts[name.isEmpty ? "none" : name, default: 0] += 1
            let plain: ChunkBytes
            do { plain = try decompressChunk(records, as: compression, declaredSize: Int(size)) } catch {
                throw RecordingError(
                    .corrupt, file: file, location: location,
                    "\(name.isEmpty ? "uncompressed" : name) chunk \(error.problem) (expected uncompressed_size to give its length)")
            }
            try withExtendedLifetime(plain) { () throws(RecordingError) in
                let inner = plain.bytes
                var c = ByteReader(inner)
                while !c.atEnd {
                    let innerAt = c.offset
                    let loc = "\(location), record at offset \(innerAt)"
                    let (innerOp, body) = try read(loc, inChunk: true) { () throws(Shortfall) in
                        let o = try c.u8(); let n = try c.u64()
                        guard n <= UInt64(c.remaining) else { throw Shortfall(needed: Int(clamping: n), available: c.remaining, offset: c.offset) }
                        return (o, try c.bytes(Int(n)))
                    }
                    guard [0x03, 0x04, 0x05].contains(innerOp) else {
                        throw RecordingError(
                            .corrupt, file: file, location: loc,
                            "op 0x\(String(innerOp, radix: 16)) inside a chunk, expected a schema, channel or message")
                    }
                    try mcapRecord(op: innerOp, body, location: loc, inChunk: true, visit)
                }
            }
        default:
            break  // Footer handled by the caller; indexes, attachments, metadata, statistics: not needed
        }
    }

    mutating func scanMCAP(_ visit: Visit) throws(RecordingError) {
        var r = ByteReader(bytes, from: RobotRecording.mcapMagic.count)
        var inSummary = false
        while true {
            let at = r.offset
            if r.atEnd {
                throw RecordingError(
                    .truncated, file: file, location: "byte \(at)",
                    "the file ends without a footer record (a truncated MCAP file; expected a footer and the closing magic)")
            }
            let (op, content) = try read("record at byte \(at)", inChunk: false) { () throws(Shortfall) in
                let o = try r.u8(); let n = try r.u64()
                guard n <= UInt64(r.remaining) else { throw Shortfall(needed: Int(clamping: n), available: r.remaining, offset: r.offset) }
                return (o, try r.bytes(Int(n)))
            }
            if op == 0x02 {  // Footer
                guard r.remaining == RobotRecording.mcapMagic.count,
                    UnsafeRawBufferPointer(rebasing: bytes[r.offset...]).starts(with: RobotRecording.mcapMagic)
                else {
                    throw RecordingError(.corrupt, file: file, location: "footer at byte \(at)", "expected the closing magic right after the footer")
                }
                return
            }
            if op == 0x0F { inSummary = true; continue }  // DataEnd: the summary repeats schemas and channels
            if inSummary && op != 0x03 && op != 0x04 { continue }
            if inSummary, op == 0x04 || op == 0x03 {
                // Repeated definitions: only new ones matter.
                var probe = ByteReader(content)
                if let id = try? probe.u16(), op == 0x04 ? channels[Int(id)] != nil : mcapSchemas[Int(id)] != nil { continue }
            }
            try mcapRecord(op: op, content, location: "\(opName(op)) record at byte \(at)", inChunk: false, visit)
            releaseRead(before: r.offset)
        }
    }

    func opName(_ op: UInt8) -> String {
        switch op {
        case 0x01: "header"
        case 0x03: "schema"
        case 0x04: "channel"
        case 0x05: "message"
        case 0x06: "chunk"
        default: "op 0x\(String(op, radix: 16))"
        }
    }
}
