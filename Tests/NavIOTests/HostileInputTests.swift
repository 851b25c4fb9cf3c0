import Foundation
import NavIO
import Testing

/// Helpers that keep hostile names and values harmless (docs/exit-codes.md).
@Suite struct HostileInputTests {
    @Test func messagesEscapeControlBytesAndTruncate() {
        #expect(escapedForMessage("a\nb\tc\u{1B}[31m\0") == "a\\nb\\tc\\u{1B}[31m\\0")
        let long = String(repeating: "x", count: 10_000)
        #expect(escapedForMessage(long) == String(repeating: "x", count: 200) + "… (10000 bytes)")
        let e = TraceError(.badValue, file: "f\n.h5", object: "/a\nb", "bad\rvalue")
        #expect(!e.description.contains("\n") && !e.description.contains("\r"))
    }

    @Test func namesFromDataStayInsideTheFolder() {
        for id in ["../../victim/metrics", "..", ".", "", "/etc/passwd", "a/b", "R1\n# x", String(repeating: "../", count: 50)] {
            let s = safeFileComponent(id)
            #expect(!s.contains("/") && s != "." && s != ".." && !s.hasPrefix(".") && !s.isEmpty && s.count <= 89, "\(id) → \(s)")
            let root = URL(fileURLWithPath: "/tmp/out")
            #expect(root.appendingPathComponent(s).standardizedFileURL.path.hasPrefix("/tmp/out/"))
        }
        #expect(safeFileComponent("R1-corridor") == "R1-corridor")  // safe ids keep their names
        #expect(safeFileComponent("a/b") != safeFileComponent("a_b"))  // the hash keeps them apart
        // A safe id that looks like another's mapping is mapped too (issue 29: route "a_b-c14cddc0"
        // and route "a/b" wrote one CSV and showed the same plots).
        let mappedAB = safeFileComponent("a/b")
        #expect(mappedAB.hasPrefix("a_b-") && mappedAB.count == 12)
        #expect(safeFileComponent(mappedAB) != mappedAB)
        #expect(safeFileComponent("R1-deadbeef") == "R1-deadbeef-" + String(sha256Hex(of: Data("R1-deadbeef".utf8)).prefix(8)))
        #expect(safeFileComponent("R1-deadbeeg") == "R1-deadbeeg")  // not 8 hex digits: kept
    }

    @Test func pathComponentsOfOneCharacterPaths() {
        #expect(parentFolder(of: "x") == "" && fileName(of: "x") == "x")
        #expect(parentFolder(of: "/x") == "/" && fileName(of: "/x") == "x")
        #expect(parentFolder(of: "a/b/") == "a" && fileName(of: "a/b/") == "b")
        #expect(parentFolder(of: "a//b") == "a" && fileName(of: "-") == "-")
    }

    @Test func outputEqualToAnInputIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nb-hostile-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/in.csv"
        try writeTextAtomically("t\n1\n", to: input)
        #expect(throws: TraceError.self) { try checkOutputPath(dir + "/./in.csv", inputs: [input]) }
        #expect(throws: TraceError.self) { try checkOutputPath("/", inputs: []) }
        #expect(throws: TraceError.self) { try checkOutputPath("", inputs: []) }
        #expect(throws: TraceError.self) { try checkOutputPath(dir, inputs: [input], folder: true) }
        try checkOutputPath(dir + "/out.csv", inputs: [input])
        // A one-character file name is written and no temporary file is left (the relative
        // `--out x` is exercised by scripts/fuzz-corpus.sh; tests do not change the cwd).
        try writeTextAtomically("x\n", to: dir + "/x")
        #expect(try String(contentsOfFile: dir + "/x", encoding: .utf8) == "x\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["in.csv", "x"])
    }

    @Test func aFIFOIsNeverOpened() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("nb-fifo-\(getpid()).h5").path
        unlink(fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect(nonRegularFileKind(fifo) == "a FIFO")
        #expect(throws: TraceError.self) { _ = try HDF5Reader(path: fifo) }
    }
}
