import Foundation
import NavIO
import Testing

/// `sha256Hex` against FIPS 180-4's example digests and against coreutils' `sha256sum` on a file
/// read in several 1 MiB blocks.
@Suite struct SHA256DigestTests {
    /// NIST's examples (FIPS 180-4, "SHA256.pdf" of the Cryptographic Standards and Guidelines examples).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func publishedDigests(message: String, digest: String) {
        #expect(sha256Hex(of: Data(message.utf8)) == digest)
        #expect(sha256Hex(of: Array(message.utf8)) == digest)
    }

    @Test func oneMillionTimesA() {
        let a = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(sha256Hex(of: a) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// A file longer than two read blocks, digested in pieces, equals `sha256sum`'s digest.
    @Test func aFileInBlocksEqualsSha256sum() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<(2 * (1 << 20) + 12_345)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let path = dir.appendingPathComponent("blocks.bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let expected = try #require(printed.split(separator: " ").first.map(String.init))
        #expect(try sha256Hex(ofFile: path) == expected)
        #expect(sha256Hex(of: bytes) == expected)
    }
}
