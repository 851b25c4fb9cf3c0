import Foundation
import NavRosbag
import NavTestSupport
import Testing

/// `MCAPWriter` against the MCAP specification (https://mcap.dev/spec): the records are walked
/// here from the bytes (magic, header, chunks and message indexes, data end, summary groups,
/// summary offsets, footer), every offset and length checked against what it points at, and
/// navbench's own reader (`RobotRecording`) reads the messages back.
@Suite struct MCAPWriterTests {
    /// A little-endian cursor over the written bytes (independent of the reader under test).
    struct Cursor {
        let b: [UInt8]
        var at: Int
        mutating func int<T: FixedWidthInteger>(_: T.Type) -> T {
            var v: T = 0
            for k in 0..<MemoryLayout<T>.size { v |= T(b[at + k]) << (8 * k) }
            at += MemoryLayout<T>.size
            return v
        }
        mutating func string() -> String {
            let n = Int(int(UInt32.self))
            defer { at += n }
            return String(decoding: b[at..<(at + n)], as: UTF8.self)
        }
        /// One record: opcode, content range.
        mutating func record() -> (op: UInt8, content: Range<Int>) {
            let op = int(UInt8.self)
            let n = Int(int(UInt64.self))
            defer { at += n }
            return (op, at..<(at + n))
        }
    }

    struct Sent: Equatable { var channel: UInt16; var time: UInt64; var payload: [UInt8] }

    /// Two schemas, three channels (one without messages), 40 messages in chunks of about 300 bytes.
    func write(chunkSize: Int = 300) throws -> (bytes: [UInt8], sent: [Sent]) {
        var bytes: [UInt8] = []
        let w = MCAPWriter(profile: "", library: "navbench test", chunkSize: chunkSize, sink: { bytes += $0 })
        let pose = try w.addSchema(name: "foxglove.PoseInFrame", encoding: "jsonschema", data: Array("{\"type\":\"object\"}".utf8))
        let log = try w.addSchema(name: "foxglove.Log", encoding: "jsonschema", data: Array("{}".utf8))
        let a = try w.addChannel(topic: "/vio", messageEncoding: "json", schema: pose, metadata: ["b": "2", "a": "1"])
        let b = try w.addChannel(topic: "/annotations/events", messageEncoding: "json", schema: log)
        _ = try w.addChannel(topic: "/empty", messageEncoding: "json", schema: log)
        var sent: [Sent] = []
        for k in 0..<40 {
            let s = Sent(channel: k % 3 == 0 ? b : a, time: 1_000_000_000 + UInt64(k) * 10_000_000, payload: Array("{\"k\":\(k)}".utf8))
            try w.addMessage(channel: s.channel, sequence: UInt32(k), logTime: s.time, publishTime: s.time, data: s.payload)
            sent.append(s)
        }
        try w.finish()
        return (bytes, sent)
    }

    @Test func crc32OfTheCheckString() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)  // the CRC-32/ISO-HDLC check value
        var piecewise = CRC32()
        piecewise.update(Array("1234".utf8))
        piecewise.update(Array("56789".utf8))
        #expect(piecewise.value == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test func recordsOffsetsAndChecksumsFollowTheSpecification() throws {
        let (b, sent) = try write()
        let magic: [UInt8] = [0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A]
        #expect(Array(b.prefix(8)) == magic && Array(b.suffix(8)) == magic)

        // Header.
        var c = Cursor(b: b, at: 8)
        let header = c.record()
        #expect(header.op == 0x01)
        var h = Cursor(b: b, at: header.content.lowerBound)
        #expect(h.string() == "" && h.string() == "navbench test")

        // Data section: chunks, each followed by its message indexes, then the data end.
        var chunks: [(start: Int, length: Int, records: Range<Int>, indexes: [UInt16: Int])] = []
        var dataEnd: Range<Int>?
        while dataEnd == nil {
            let start = c.at
            let r = c.record()
            switch r.op {
            case 0x06:
                var k = Cursor(b: b, at: r.content.lowerBound)
                _ = k.int(UInt64.self); _ = k.int(UInt64.self)
                let size = Int(k.int(UInt64.self)), crc = k.int(UInt32.self)
                #expect(k.string() == "")
                let n = Int(k.int(UInt64.self))
                #expect(n == size && k.at + n == r.content.upperBound)
                #expect(CRC32.checksum(b[k.at..<(k.at + n)]) == crc)
                chunks.append((start, c.at - start, k.at..<(k.at + n), [:]))
            case 0x07:
                var k = Cursor(b: b, at: r.content.lowerBound)
                chunks[chunks.count - 1].indexes[k.int(UInt16.self)] = start
            case 0x0F:
                dataEnd = r.content
            default:
                Issue.record("op \(r.op) in the data section")
                return
            }
        }
        #expect(chunks.count > 3)  // 300-byte chunks
        var d = Cursor(b: b, at: dataEnd!.lowerBound)
        #expect(d.int(UInt32.self) == CRC32.checksum(b[0..<(dataEnd!.lowerBound - 9)]))

        // Footer: the summary and its offsets, and the summary's CRC.
        var f = Cursor(b: b, at: b.count - 8 - 29)
        let footer = f.record()
        #expect(footer.op == 0x02 && footer.content.count == 20)
        var ff = Cursor(b: b, at: footer.content.lowerBound)
        let summaryStart = Int(ff.int(UInt64.self))
        let offsetStart = Int(ff.int(UInt64.self))
        #expect(ff.int(UInt32.self) == CRC32.checksum(b[summaryStart..<(b.count - 8 - 4)]))
        #expect(summaryStart == c.at)  // right after the data end

        // Summary groups, one opcode each, as the summary offsets say.
        var s = Cursor(b: b, at: summaryStart)
        var groups: [(op: UInt8, start: Int, length: Int)] = []
        var records: [(op: UInt8, content: Range<Int>)] = []
        while s.at < offsetStart {
            let start = s.at
            let r = s.record()
            records.append(r)
            if groups.last?.op == r.op { groups[groups.count - 1].length += s.at - start } else { groups.append((r.op, start, s.at - start)) }
        }
        #expect(groups.map(\.op) == [0x03, 0x04, 0x0B, 0x08])
        var o = Cursor(b: b, at: offsetStart)
        for g in groups {
            let r = o.record()
            #expect(r.op == 0x0E)
            var k = Cursor(b: b, at: r.content.lowerBound)
            #expect(k.int(UInt8.self) == g.op && Int(k.int(UInt64.self)) == g.start && Int(k.int(UInt64.self)) == g.length)
        }
        #expect(o.at == b.count - 8 - 29)

        // Channels in the summary, metadata sorted by key.
        let channelRecords = records.filter { $0.op == 0x04 }
        #expect(channelRecords.count == 3)
        var ch = Cursor(b: b, at: channelRecords[0].content.lowerBound)
        #expect(ch.int(UInt16.self) == 1 && ch.int(UInt16.self) == 1 && ch.string() == "/vio" && ch.string() == "json")
        #expect(ch.int(UInt32.self) == 20 && ch.string() == "a" && ch.string() == "1" && ch.string() == "b" && ch.string() == "2")

        // Statistics.
        let stats = try #require(records.first { $0.op == 0x0B })
        var st = Cursor(b: b, at: stats.content.lowerBound)
        #expect(st.int(UInt64.self) == 40 && st.int(UInt16.self) == 2 && st.int(UInt32.self) == 3)
        #expect(st.int(UInt32.self) == 0 && st.int(UInt32.self) == 0 && Int(st.int(UInt32.self)) == chunks.count)
        #expect(st.int(UInt64.self) == sent.first!.time && st.int(UInt64.self) == sent.last!.time)
        #expect(st.int(UInt32.self) == 20)
        #expect(st.int(UInt16.self) == 1 && st.int(UInt64.self) == 26 && st.int(UInt16.self) == 2 && st.int(UInt64.self) == 14)

        // Chunk indexes point at their chunk and its message indexes, which point at messages.
        let chunkIndexes = records.filter { $0.op == 0x08 }
        #expect(chunkIndexes.count == chunks.count)
        var found: [Sent] = []
        for (ci, chunk) in zip(chunkIndexes, chunks) {
            var k = Cursor(b: b, at: ci.content.lowerBound)
            let first = k.int(UInt64.self), last = k.int(UInt64.self)
            #expect(Int(k.int(UInt64.self)) == chunk.start && Int(k.int(UInt64.self)) == chunk.length)
            let mapEnd = Int(k.int(UInt32.self)) + k.at
            var offsets: [UInt16: Int] = [:]
            while k.at < mapEnd { offsets[k.int(UInt16.self)] = Int(k.int(UInt64.self)) }
            #expect(offsets == chunk.indexes)
            let indexLength = Int(k.int(UInt64.self))
            #expect(k.string() == "" && Int(k.int(UInt64.self)) == chunk.records.count && Int(k.int(UInt64.self)) == chunk.records.count)
            // The message indexes fill the bytes up to the next chunk (or the data end).
            let next = chunks.first { $0.start > chunk.start }?.start ?? (dataEnd!.lowerBound - 9)
            #expect(indexLength == next - chunk.start - chunk.length)
            var times: [UInt64] = []
            for (channel, at) in offsets {
                var m = Cursor(b: b, at: at)
                let r = m.record()
                #expect(r.op == 0x07)
                m.at = r.content.lowerBound
                #expect(m.int(UInt16.self) == channel)
                let end = Int(m.int(UInt32.self)) + m.at
                while m.at < end {
                    let time = m.int(UInt64.self), offset = Int(m.int(UInt64.self))
                    var msg = Cursor(b: b, at: chunk.records.lowerBound + offset)
                    let r = msg.record()
                    #expect(r.op == 0x05)
                    msg.at = r.content.lowerBound
                    let id = msg.int(UInt16.self)
                    _ = msg.int(UInt32.self)
                    let log = msg.int(UInt64.self), publish = msg.int(UInt64.self)
                    #expect(id == channel && log == time && publish == time)
                    found.append(Sent(channel: id, time: log, payload: Array(b[msg.at..<r.content.upperBound])))
                    times.append(time)
                }
            }
            #expect(times.min() == first && times.max() == last)
        }
        #expect(found.sorted { $0.time < $1.time } == sent)
    }

    @Test func navbenchsReaderReadsTheMessagesBack() throws {
        let (b, sent) = try write()
        let path = temporaryFolder() + "/w.mcap"
        try Data(b).write(to: URL(fileURLWithPath: path))
        let recording = try RobotRecording(path: path)
        #expect(recording.format == .mcap)
        var read: [Sent] = []
        let channels = try recording.forEachMessage { channel, time, payload throws(RecordingError) in
            read.append(Sent(channel: UInt16(channel.id), time: time, payload: Array(payload)))
        }
        #expect(read == sent)
        #expect(channels.map(\.topic) == ["/vio", "/annotations/events", "/empty"])
        #expect(channels.map(\.typeName) == ["foxglove.PoseInFrame", "foxglove.Log", "foxglove.Log"])
        #expect(channels.allSatisfy { $0.encodingName == "json" && $0.messageType == nil })
        let summary = try recording.summary()
        #expect(summary.messageCount == 40 && summary.version == "profile '', library 'navbench test'")
    }

    @Test func sameCallsSameBytesAndOneChunkWhenLarge() throws {
        #expect(try write().bytes == write().bytes)
        let one = try write(chunkSize: 1 << 20).bytes
        #expect(one.count < (try write().bytes.count))  // fewer chunks, fewer indexes
    }

    @Test func refusedCalls() throws {
        let w = MCAPWriter(library: "t", sink: { _ in })
        #expect(throws: MCAPWriterError.unknownChannel(1)) { try w.addMessage(channel: 1, sequence: 0, logTime: 0, publishTime: 0, data: []) }
        try w.finish()
        #expect(throws: MCAPWriterError.finished) { _ = try w.addSchema(name: "s", encoding: "jsonschema", data: []) }
        #expect(MCAPWriterError.unknownChannel(1).description == "a message on channel 1, which was never added")
    }
}
