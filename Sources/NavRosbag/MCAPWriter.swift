/// A call `MCAPWriter` refuses: the file it would write breaks the MCAP specification.
public enum MCAPWriterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More than 65,535 schemas or channels (ids are uint16).
    case tooManyIDs(String)
    /// A string or schema longer than a uint32 length prefix holds.
    case tooLong(String)
    /// A message on a channel that was never added.
    case unknownChannel(UInt16)
    /// A call after `finish()`.
    case finished

    public var description: String {
        switch self {
        case .tooManyIDs(let what): "more than 65,535 \(what) (MCAP ids are 16-bit)"
        case .tooLong(let what): "\(what) is longer than 4 GiB (MCAP lengths are 32-bit)"
        case .unknownChannel(let id): "a message on channel \(id), which was never added"
        case .finished: "the MCAP file is already finished"
        }
    }
}

/// Writes an MCAP file (https://mcap.dev/spec) to `sink`, record by record: the magic, the
/// header, uncompressed chunks (schemas, channels and messages), each followed by one message
/// index per channel, the data end (CRC-32 of the data section), a summary (schemas, channels,
/// statistics, chunk indexes, grouped by opcode), its summary offsets, the footer (CRC-32 of the
/// summary) and the closing magic. Ids are given out from 1 in call order and nothing depends
/// on the clock or on hashing, so the same calls write the same bytes.
///
/// - Complexity: O(bytes written); memory O(chunk size + one chunk's message count + chunks).
public final class MCAPWriter {
    public static let magic: [UInt8] = [0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A]

    struct Channel {
        var record: [UInt8]
        /// This chunk's messages: log time, offset in the chunk's records.
        var index: [(UInt64, UInt64)] = []
        var count: UInt64 = 0
    }

    private let sink: ([UInt8]) -> Void
    private let chunkSize: Int
    private var position: UInt64 = 0
    private var dataCRC = CRC32()
    private var schemas: [[UInt8]] = []
    private var channels: [Channel] = []
    private var chunk: [UInt8] = []
    private var chunkTimes: ClosedRange<UInt64>?
    private var chunkIndexes: [[UInt8]] = []
    private var times: ClosedRange<UInt64>?
    private var messageCount: UInt64 = 0
    private var done = false

    /// Writes the magic and the header. `chunkSize`: a chunk is closed once its records reach
    /// this many bytes.
    public init(profile: String = "", library: String, chunkSize: Int = 1 << 20, sink: @escaping ([UInt8]) -> Void) {
        self.sink = sink
        self.chunkSize = max(1, chunkSize)
        var header: [UInt8] = []
        header.appendString(profile)
        header.appendString(library)
        emit(Self.magic + record(0x01, header), inData: true)
    }

    /// Adds a schema record (into the open chunk); returns its id.
    public func addSchema(name: String, encoding: String, data: [UInt8]) throws(MCAPWriterError) -> UInt16 {
        guard !done else { throw .finished }
        guard schemas.count < Int(UInt16.max) else { throw .tooManyIDs("schemas") }
        guard data.count <= Int(UInt32.max) else { throw .tooLong("schema \(name)") }
        try fits(name, "a schema name"); try fits(encoding, "a schema encoding")
        let id = UInt16(schemas.count + 1)
        var content: [UInt8] = []
        content.appendInteger(id)
        content.appendString(name)
        content.appendString(encoding)
        content.appendInteger(UInt32(data.count))
        content += data
        let r = record(0x03, content)
        schemas.append(r)
        chunk += r
        return id
    }

    /// Adds a channel record (into the open chunk); returns its id. `schema` 0: no schema.
    /// Metadata is written sorted by key.
    public func addChannel(topic: String, messageEncoding: String, schema: UInt16, metadata: [String: String] = [:])
        throws(MCAPWriterError) -> UInt16
    {
        guard !done else { throw .finished }
        guard channels.count < Int(UInt16.max) else { throw .tooManyIDs("channels") }
        try fits(topic, "a topic"); try fits(messageEncoding, "a message encoding")
        let id = UInt16(channels.count + 1)
        var content: [UInt8] = []
        content.appendInteger(id)
        content.appendInteger(schema)
        content.appendString(topic)
        content.appendString(messageEncoding)
        var map: [UInt8] = []
        for key in metadata.keys.sorted() {
            map.appendString(key)
            map.appendString(metadata[key] ?? "")
        }
        guard map.count <= Int(UInt32.max) else { throw .tooLong("the metadata of \(topic)") }
        content.appendInteger(UInt32(map.count))
        content += map
        let r = record(0x04, content)
        channels.append(Channel(record: r))
        chunk += r
        return id
    }

    /// Adds a message record to the open chunk (closing it when it is full).
    public func addMessage(channel id: UInt16, sequence: UInt32, logTime: UInt64, publishTime: UInt64, data: [UInt8])
        throws(MCAPWriterError)
    {
        guard !done else { throw .finished }
        guard id >= 1, Int(id) <= channels.count else { throw .unknownChannel(id) }
        let k = Int(id) - 1
        channels[k].index.append((logTime, UInt64(chunk.count)))
        channels[k].count += 1
        messageCount += 1
        chunkTimes = chunkTimes.map { min($0.lowerBound, logTime)...max($0.upperBound, logTime) } ?? logTime...logTime
        times = times.map { min($0.lowerBound, logTime)...max($0.upperBound, logTime) } ?? logTime...logTime
        chunk.append(0x05)
        chunk.appendInteger(UInt64(2 + 4 + 8 + 8 + data.count))
        chunk.appendInteger(id)
        chunk.appendInteger(sequence)
        chunk.appendInteger(logTime)
        chunk.appendInteger(publishTime)
        chunk += data
        if chunk.count >= chunkSize { closeChunk() }
    }

    /// Closes the last chunk and writes the data end, the summary, the footer and the magic.
    public func finish() throws(MCAPWriterError) {
        guard !done else { throw .finished }
        closeChunk()
        var dataEnd: [UInt8] = []
        dataEnd.appendInteger(dataCRC.value)
        emit(record(0x0F, dataEnd), inData: false)

        let summaryStart = position
        var tail: [UInt8] = []
        var groups: [(op: UInt8, start: UInt64, length: UInt64)] = []
        func group(_ op: UInt8, _ records: [[UInt8]]) {
            guard !records.isEmpty else { return }
            let start = tail.count
            for r in records { tail += r }
            groups.append((op, summaryStart + UInt64(start), UInt64(tail.count - start)))
        }
        group(0x03, schemas)
        group(0x04, channels.map(\.record))
        group(0x0B, [record(0x0B, statistics())])
        group(0x08, chunkIndexes)
        let offsetStart = summaryStart + UInt64(tail.count)
        for g in groups {
            var content: [UInt8] = [g.op]
            content.appendInteger(g.start)
            content.appendInteger(g.length)
            tail += record(0x0E, content)
        }
        tail.append(0x02)
        tail.appendInteger(UInt64(20))
        tail.appendInteger(summaryStart)
        tail.appendInteger(offsetStart)
        tail.appendInteger(CRC32.checksum(tail))
        tail += Self.magic
        emit(tail, inData: false)
        done = true
    }

    private func fits(_ s: String, _ what: String) throws(MCAPWriterError) {
        guard s.utf8.count <= Int(UInt32.max) else { throw .tooLong(what) }
    }

    private func statistics() -> [UInt8] {
        var s: [UInt8] = []
        s.appendInteger(messageCount)
        s.appendInteger(UInt16(schemas.count))
        s.appendInteger(UInt32(channels.count))
        s.appendInteger(UInt32(0))  // attachments
        s.appendInteger(UInt32(0))  // metadata
        s.appendInteger(UInt32(chunkIndexes.count))
        s.appendInteger(times?.lowerBound ?? 0)
        s.appendInteger(times?.upperBound ?? 0)
        var counts: [UInt8] = []
        for (k, c) in channels.enumerated() where c.count > 0 {
            counts.appendInteger(UInt16(k + 1))
            counts.appendInteger(c.count)
        }
        s.appendInteger(UInt32(counts.count))
        s += counts
        return s
    }

    /// Writes the open chunk and its message indexes, and keeps its chunk index for the summary.
    private func closeChunk() {
        guard !chunk.isEmpty else { return }
        let start = chunkTimes?.lowerBound ?? 0, end = chunkTimes?.upperBound ?? 0
        var content: [UInt8] = []
        content.appendInteger(start)
        content.appendInteger(end)
        content.appendInteger(UInt64(chunk.count))
        content.appendInteger(CRC32.checksum(chunk))
        content.appendString("")
        content.appendInteger(UInt64(chunk.count))
        content += chunk
        let chunkRecord = record(0x06, content)
        let chunkStart = position
        var indexes: [UInt8] = []
        var offsets: [UInt8] = []
        for k in channels.indices where !channels[k].index.isEmpty {
            offsets.appendInteger(UInt16(k + 1))
            offsets.appendInteger(chunkStart + UInt64(chunkRecord.count + indexes.count))
            var entries: [UInt8] = []
            entries.reserveCapacity(channels[k].index.count * 16)
            for (time, offset) in channels[k].index {
                entries.appendInteger(time)
                entries.appendInteger(offset)
            }
            var m: [UInt8] = []
            m.appendInteger(UInt16(k + 1))
            m.appendInteger(UInt32(entries.count))
            m += entries
            indexes += record(0x07, m)
            channels[k].index.removeAll()
        }
        emit(chunkRecord, inData: true)
        emit(indexes, inData: true)
        var ci: [UInt8] = []
        ci.appendInteger(start)
        ci.appendInteger(end)
        ci.appendInteger(chunkStart)
        ci.appendInteger(UInt64(chunkRecord.count))
        ci.appendInteger(UInt32(offsets.count))
        ci += offsets
        ci.appendInteger(UInt64(indexes.count))
        ci.appendString("")
        ci.appendInteger(UInt64(chunk.count))
        ci.appendInteger(UInt64(chunk.count))
        chunkIndexes.append(record(0x08, ci))
        chunk.removeAll(keepingCapacity: true)
        chunkTimes = nil
    }

    private func record(_ op: UInt8, _ content: [UInt8]) -> [UInt8] {
        var r: [UInt8] = [op]
        r.reserveCapacity(9 + content.count)
        r.appendInteger(UInt64(content.count))
        r += content
        return r
    }

    private func emit(_ bytes: [UInt8], inData: Bool) {
        guard !bytes.isEmpty else { return }
        if inData { dataCRC.update(bytes) }
        position += UInt64(bytes.count)
        sink(bytes)
    }
}

extension [UInt8] {
    /// Little-endian, as every MCAP integer.
    mutating func appendInteger<T: FixedWidthInteger>(_ v: T) {
        Swift.withUnsafeBytes(of: v.littleEndian) { append(contentsOf: $0) }
    }

    /// A uint32 byte length and the UTF-8 bytes (`MCAPWriter` checks the length first).
    mutating func appendString(_ s: String) {
        appendInteger(UInt32(truncatingIfNeeded: s.utf8.count))
        append(contentsOf: s.utf8)
    }
}
