import Foundation
import NavCore
import NavTestSupport
import Testing

@testable import NavRosbag

// Hostile recordings built byte by byte (a minimal ROS 1 bag / MCAP writer below, from the
// specifications): declared sizes beyond the limit, a chunk that expands far beyond what it
// declares (a bz2 "zip bomb"), lengths and counts larger than the bytes that follow, and names
// with control characters. Each is refused with one line naming the file and the record, or
// listed with the names escaped; none allocates what it declares before the data proves it.

/// A ROS 1 bag v2.0, written as rosbag lays it out (header record, chunks, no index).
struct MiniBag {
    var records: [UInt8] = []

    static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { RosbagBytes.le(v) }

    static func record(_ fields: [(String, [UInt8])], data: [UInt8]) -> [UInt8] { RosbagBytes.record(fields, data: data) }
    static func fields(_ fields: [(String, [UInt8])]) -> [UInt8] { RosbagBytes.fields(fields) }

    static func connection(_ id: UInt32, topic: String, type: String) -> [UInt8] {
        record(
            [("op", [0x07]), ("conn", le(id)), ("topic", Array(topic.utf8))],
            data: fields([("topic", Array(topic.utf8)), ("type", Array(type.utf8)), ("md5sum", Array("*".utf8))]))
    }

    static func message(_ conn: UInt32, sec: UInt32, payload: [UInt8]) -> [UInt8] {
        record([("op", [0x02]), ("conn", le(conn)), ("time", le(UInt64(sec)))], data: payload)
    }

    static func chunk(compression: String, size: UInt32, data: [UInt8]) -> [UInt8] {
        record([("op", [0x05]), ("compression", Array(compression.utf8)), ("size", le(size))], data: data)
    }

    func bytes() -> [UInt8] {
        Array("#ROSBAG V2.0\n".utf8)
            + MiniBag.record(
                [
                    ("op", [0x03]), ("index_pos", MiniBag.le(UInt64(0))), ("conn_count", MiniBag.le(UInt32(0))),
                    ("chunk_count", MiniBag.le(UInt32(0))),
                ], data: []) + records
    }
}

/// An MCAP file: magic, header, the records given, data end, footer, magic.
struct MiniMCAP {
    var records: [UInt8] = []

    static func record(_ op: UInt8, _ content: [UInt8]) -> [UInt8] { [op] + MiniBag.le(UInt64(content.count)) + content }
    static func string(_ s: String) -> [UInt8] { MiniBag.le(UInt32(s.utf8.count)) + Array(s.utf8) }

    static func chunk(uncompressedSize: UInt64, compression: String, records: [UInt8], recordsLength: UInt64? = nil) -> [UInt8] {
        record(
            0x06,
            MiniBag.le(UInt64(0)) + MiniBag.le(UInt64(0)) + MiniBag.le(uncompressedSize) + MiniBag.le(UInt32(0)) + string(compression)
                + MiniBag.le(recordsLength ?? UInt64(records.count)) + records)
    }

    func bytes() -> [UInt8] {
        let magic: [UInt8] = [0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A]
        return magic + MiniMCAP.record(0x01, MiniMCAP.string("ros2") + MiniMCAP.string("test")) + records
            + MiniMCAP.record(0x0F, MiniBag.le(UInt32(0))) + MiniMCAP.record(0x02, [UInt8](repeating: 0, count: 20)) + magic
    }
}

/// 64 MiB of zero bytes, bz2-compressed (Python `bz2.compress(b"\0" * (64 << 20), 9)`): 79 bytes.
let bz2Bomb: [UInt8] = {
    let hex =
        "425a68393141592653590e09e2df015f8e4000c0000008200030804d4642a025a90a8097314159265359bc04b5c300a275c000c0000008200020a40836328a884d2a2a2138bb9229c2848500bb83e8"
    var out: [UInt8] = []
    var i = hex.startIndex
    while i < hex.endIndex { let j = hex.index(i, offsetBy: 2); out.append(UInt8(hex[i..<j], radix: 16)!); i = j }
    return out
}()

@Suite struct HostileRecordingTests {
    /// Where the first record after the bag header / the MCAP header starts.
    let bagStart = MiniBag().bytes().count
    let mcapStart = MiniMCAP().bytes().count - 13 - 29 - 8

    func write(_ bytes: [UInt8], _ name: String) -> String {
        let path = temporaryFolder() + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func failure(_ path: String) -> RecordingError? {
        do { _ = try RobotRecording(path: path).summary(); return nil } catch { return error }
    }

    @Test func aZipBombChunkStopsAtItsDeclaredSize() throws {
        // 79 bytes that expand to 64 MiB, in a chunk declaring 1,000: refused after 1,001 bytes.
        var bag = MiniBag()
        bag.records = MiniBag.chunk(compression: "bz2", size: 1000, data: bz2Bomb)
        let path = write(bag.bytes(), "bomb.bag")
        let e = try #require(failure(path))
        #expect(
            e.description
                == "\(path): chunk at byte \(bagStart): bz2 chunk decompresses to more than the declared 1000 bytes (expected its 'size' field to give the uncompressed length)"
        )
        // The decompressor itself: what it returns never exceeds the declared size.
        bz2Bomb.withUnsafeBytes { raw in
            #expect(throws: DecompressionFailure.self) { try decompressChunk(raw, as: .bz2, declaredSize: 1000) }
            let all = try? decompressChunk(raw, as: .bz2, declaredSize: 64 << 20)
            #expect(all?.bytes.count == 64 << 20)
            let allZero: Bool? = all?.bytes.allSatisfy { (b: UInt8) -> Bool in b == 0 }
            #expect(allZero == true)
        }
    }

    @Test func declaredSizesBeyondTheLimitAreRefusedBeforeAllocation() throws {
        var bag = MiniBag()
        bag.records = MiniBag.chunk(compression: "bz2", size: UInt32(maximumChunkBytes + 1), data: bz2Bomb)
        let p1 = write(bag.bytes(), "huge.bag")
        #expect(
            failure(p1)?.description
                == "\(p1): chunk at byte \(bagStart): declares \(maximumChunkBytes + 1) uncompressed bytes, more than navbench's limit of \(maximumChunkBytes)"
        )

        var mcap = MiniMCAP()
        mcap.records = MiniMCAP.chunk(uncompressedSize: UInt64.max, compression: "zstd", records: [1, 2, 3])
        let p2 = write(mcap.bytes(), "huge.mcap")
        #expect(
            failure(p2)?.description
                == "\(p2): chunk record at byte \(mcapStart): declares \(UInt64.max) uncompressed bytes, more than navbench's limit of \(maximumChunkBytes)"
        )

        // A records length of 2⁶⁴ − 1 in a chunk of 3 bytes.
        mcap.records = MiniMCAP.chunk(uncompressedSize: 3, compression: "", records: [1, 2, 3], recordsLength: UInt64.max)
        let p3 = write(mcap.bytes(), "records.mcap")
        let e3 = try #require(failure(p3))
        #expect(e3.kind == .corrupt && e3.description.hasPrefix("\(p3): chunk record at byte \(mcapStart): needs \(Int.max) bytes"), "\(e3)")

        // A record length of 2⁶⁴ − 1 at the top level.
        let p4 = write([0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A, 0x05] + MiniBag.le(UInt64.max), "record.mcap")
        let e4 = try #require(failure(p4))
        #expect(e4.kind == .truncated && e4.description.hasPrefix("\(p4): record at byte 8: needs \(Int.max) bytes"), "\(e4)")
    }

    @Test func lengthsBeyondTheRecordAreOneLine() throws {
        // A header field length of 2³² − 1 inside a bag record.
        let bytes = Array("#ROSBAG V2.0\n".utf8) + MiniBag.le(UInt32(8)) + MiniBag.le(UInt32.max) + [0, 0, 0, 0] + MiniBag.le(UInt32(0))
        let p = write(bytes, "field.bag")
        let e = try #require(failure(p))
        #expect(
            e.description
                == "\(p): bag header record at byte 13, header: needs 4294967295 bytes at offset 4, the record header has 4 left (a wrong length)")
        #expect(!e.description.contains("\n"))
    }

    @Test func namesWithControlCharactersAreListedEscaped() throws {
        let topic = "/a\n/forged  9 msgs : x\u{1B}[31m"
        var inner = MiniBag.connection(0, topic: topic, type: "std_msgs/String")
        inner += MiniBag.message(0, sec: 1, payload: MiniBag.le(UInt32(0)))
        var bag = MiniBag()
        bag.records = MiniBag.chunk(compression: "none", size: UInt32(inner.count), data: inner)
        let p = write(bag.bytes(), "names.bag")
        let summary = try RobotRecording(path: p).summary()
        #expect(summary.topics.map(\.topic) == [topic])
        let text = summary.text(escaping: { $0.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1B}", with: "\\e") })
        #expect(text.split(separator: "\n").count == 11, "\(text)")
        #expect(text.contains("topics:      /a\\n/forged  9 msgs : x\\e[31m  1 msgs : std_msgs/String"), "\(text)")
    }

    @Test func fifosAndDevicesAreNeverOpenedForReading() throws {
        let fifo = temporaryFolder() + "/pipe.bag"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A FIFO without a writer would block a plain open(2) for ever.
        #expect(throws: RecordingError(.unreadable, file: fifo, "is a FIFO, expected a .bag or .mcap file")) { try RobotRecording(path: fifo) }
        #expect(throws: RecordingError(.unreadable, file: "/dev/zero", "is a device, expected a .bag or .mcap file")) {
            try RobotRecording(path: "/dev/zero")
        }
    }
}

/// A sequential pass gives back the mapped pages it has read (`RecordScanner.releaseRead`): the
/// messages after them, and a second pass over the same mapping, still read the file's bytes.
@Suite struct ReadPageReleaseTests {
    /// 20 uncompressed chunks of 64 messages of 10,000 bytes (12.8 MB): message k is its index
    /// as 4 bytes, then 9,996 bytes of k mod 251.
    static func bag() -> (path: String, count: Int) {
        var b = MiniBag()
        b.records += MiniBag.connection(0, topic: "/blob", type: "test/Blob")
        var k: UInt32 = 0
        for _ in 0..<20 {
            var inner: [UInt8] = []
            for _ in 0..<64 {
                inner += MiniBag.message(0, sec: k + 1, payload: MiniBag.le(k) + [UInt8](repeating: UInt8(k % 251), count: 9_996))
                k += 1
            }
            b.records += MiniBag.chunk(compression: "none", size: UInt32(inner.count), data: inner)
        }
        let path = temporaryFolder() + "/blobs.bag"
        _ = FileManager.default.createFile(atPath: path, contents: Data(b.bytes()))
        return (path, Int(k))
    }

    @Test func messagesReadIntactAfterPagesAreGivenBack() throws {
        let (path, count) = Self.bag()
        let file = try MappedFile(path: path)
        for pass in 1...2 {
            var scanner = RecordScanner(file: path, bytes: file.bytes, releasesReadPages: true)
            var seen = 0, bad = 0
            try scanner.scanBag { _, time, payload in
                let k = payload.loadUnaligned(as: UInt32.self)
                if Int(k) != seen || time != UInt64(k + 1) * 1_000_000_000 || payload.count != 10_000
                    || stride(from: 4, to: payload.count, by: 97).contains(where: { payload[$0] != UInt8(k % 251) })
                {
                    bad += 1
                }  // every page, sampled
                seen += 1
            }
            #expect(seen == count && bad == 0, "pass \(pass): \(seen) messages, \(bad) not as written")
            // Pages were given back in 8 MiB steps while the pass went on.
            #expect(scanner.released >= 8 << 20, "pass \(pass): \(scanner.released) bytes given back")
        }
        // The public pass (RobotRecording) gives the same messages.
        var n = 0
        try RobotRecording(path: path).forEachMessage { _, _, _ in n += 1 }
        #expect(n == count)
    }
}
