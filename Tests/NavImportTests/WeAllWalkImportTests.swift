import Foundation
import NavCore
import NavIO
import NavImport
import NavTestSupport
import Testing

/// `import weallwalk` on 12 s of a cane user's walk (Fixtures/import/weallwalk) and on damaged
/// copies of it: values, the flag columns never read, the annotation streams, what is mended
/// with a note and what is refused in one line.
@Suite struct WeAllWalkImportTests {
    let csv = importFixture("weallwalk/iPhoneSensors_T1_ID3_1L_WC.csv")
    let xml = importFixture("weallwalk/T1_ID3_WC.xml")

    var lines: [String] { (try? String(contentsOfFile: csv, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? [] }

    /// A copy of the phone file (same name, so the same session id) with `edit` applied to its lines.
    func damaged(_ label: String = #function, ending: String = "\n", _ edit: (inout [String]) -> Void) throws -> String {
        var l = lines
        edit(&l)
        let path = temporaryFolder(label) + "/iPhoneSensors_T1_ID3_1L_WC.csv"
        try (l.joined(separator: "\n") + ending).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func importsIMUAnnotationsAndAttributes() throws {
        let r = try importWeAllWalk(phoneFile: csv, annotations: xml)
        let s = r.session
        #expect(s.imu?.timestamps.count == 300)
        #expect(s.attributes["subject"] == "3" && s.attributes["mobility_aid"] == "long cane" && s.attributes["path"] == "T1")
        #expect(s.metadata.routeID.isEmpty)  // the path is an attribute: a walk is no route to replay
        // Row 1, raw accelerometer (g) → specific force in ARKit's camera axes: (−y, x, z) × −9.80665.
        let f = lines[0].split(separator: ",").map { Double($0)! }
        let a = s.imu!.accelerometer[0]
        #expect(abs(a.x - f[31] * 9.80665) < 1e-12 && abs(a.y + f[30] * 9.80665) < 1e-12 && abs(a.z + f[32] * 9.80665) < 1e-12)
        let g = s.imu!.gyroscope[0]
        #expect(g.x == -f[34] && g.y == f[33] && g.z == f[35])
        // Annotations: heel strikes inside the 12 s, the straight segment, the turn cut at the file's end.
        let steps = try #require(s.annotation("steps"))
        let strikes =
            lines.isEmpty
            ? []
            : (try String(contentsOfFile: xml, encoding: .utf8)).components(separatedBy: "<Time>").dropFirst()
                .compactMap { Double($0.components(separatedBy: "</Time>")[0]) }.filter { $0 <= 11.96 }
        #expect(steps.start == strikes.sorted() && steps.kind == .instants && Set(steps.label).isSubset(of: ["L", "R"]))
        let straight = try #require(s.annotation("straight_segments"))
        #expect(straight.start == [3.3082] && straight.end == [10.4082] && straight.label == ["1 E"])
        let turns = try #require(s.annotation("turns"))
        #expect(turns.start == [10.4082] && turns.end == [11.96] && turns.value == [-90] && turns.valueUnits == "deg")
        #expect(r.notes.contains { $0.contains("reach past the phone file's samples") })
        #expect(try readTrace(at: roundTrip(r).1).annotations == s.annotations.sorted { $0.name < $1.name })
    }

    /// Columns 39 and 40 are the ground truth (turn and step flags): changing them changes no byte;
    /// nor does text that is no number in the other columns the trace is not built from (1–12, 20–29),
    /// whose fields are only counted.
    @Test func flagAndUnusedColumnsAreNeverRead() throws {
        let flipped = try damaged { l in
            l = l.map { line in
                var f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                f[39] = f[39] == "0" ? "2" : "0"
                f[40] = f[40] == "0" ? "1" : "0"
                for c in Array(1...12) + Array(20...29) { f[c] = c % 2 == 0 ? "abc" : "1.5x" }
                return f.joined(separator: ",")
            }
        }
        let dir = temporaryFolder()
        try writeImportedTrace(try importWeAllWalk(phoneFile: csv, annotations: xml).session, to: dir + "/a.h5", processing: "p")
        try writeImportedTrace(try importWeAllWalk(phoneFile: flipped, annotations: xml).session, to: dir + "/b.h5", processing: "p")
        #expect(FileManager.default.contents(atPath: dir + "/a.h5") == FileManager.default.contents(atPath: dir + "/b.h5"))
    }

    @Test func timingGlitchIsMendedWithANote() throws {
        let path = try damaged { l in
            var f = l[100].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            f[0] = String(l[99].split(separator: ",")[0])
            l[100] = f.joined(separator: ",")
        }
        let r = try importWeAllWalk(phoneFile: path)
        #expect(abs(r.session.imu!.timestamps[100] - 4.0) < 1e-12)  // midway between 3.96 and 4.04
        #expect(r.notes.count == 1 && r.notes[0].contains("1 repeated time"))
    }

    @Test func truncatedLastLineIsDroppedWithANote() throws {
        let path = try damaged(ending: "") { l in l[299] = String(l[299].prefix(40)) }
        let r = try importWeAllWalk(phoneFile: path)
        #expect(r.session.imu!.timestamps.count == 299)
        #expect(r.notes.contains { $0.contains("line 300: cut short") })
    }

    @Test func badPhoneFilesAreOneLineErrors() throws {
        let short = try damaged("short") { l in l[10] = l[10].split(separator: ",").dropLast().joined(separator: ",") }
        // In a column the trace is built from (31: the raw accelerometer's y).
        let word = try damaged("word") { l in
            var f = l[20].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            f[31] = "abc"
            l[20] = f.joined(separator: ",")
        }
        let backwards = try damaged("backwards") { l in
            var f = l[150].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            f[0] = "1.000000"
            l[150] = f.joined(separator: ",")
        }
        for (path, text) in [(short, "line 11"), (word, "line 21: field 32 (column 31): expected a number, found \"abc\""), (backwards, "line 151")] {
            do {
                _ = try importWeAllWalk(phoneFile: path)
                Issue.record("\(path) was accepted")
            } catch {
                #expect(error.file == path && error.description.contains(text) && !error.description.contains("\n"), "\(error)")
            }
        }
    }

    @Test func badAnnotationFilesAreOneLineErrors() throws {
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        let dir = temporaryFolder()
        let reversed = text.replacingOccurrences(of: "<EndTime>10.4082</EndTime>", with: "<EndTime>1.0</EndTime>")
        let notANumber = text.replacingOccurrences(of: "<Time>5.", with: "<Time>five.")
        let unclosed = "<root><Segments><PathSegment>"
        for (name, body, expected) in [
            ("reversed.xml", reversed, "PathSegment 1: ends (1 s) before it starts"), ("nan.xml", notANumber, "expected a finite number"),
            ("unclosed.xml", unclosed, "PathSegment 1/StartTime: missing"), ("broken.xml", "not <xml <<", "not well-formed XML"),
        ] {
            let path = dir + "/" + name
            try body.write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try importWeAllWalk(phoneFile: csv, annotations: path)
                Issue.record("\(name) was accepted")
            } catch {
                #expect(error.file == path && error.description.contains(expected) && !error.description.contains("\n"), "\(name): \(error)")
            }
        }
    }

    /// Free-text event descriptions are data: a control byte or a bidi override in one is kept
    /// in the trace and escaped in `inspect`'s text.
    @Test func eventTextsAreDataAndEscapedInInspect() throws {
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        // XML 1.0 forbids most control bytes; a bidi override, Markdown and HTML are allowed.
        let hostile = "walked into | the `wall` <b>\u{202E}txt.exe"
        let escaped = hostile.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        let withEvent = text.replacingOccurrences(
            of: "</Steps>\n</PathSegment>",
            with:
                "</Steps>\n<Features><Feature><StartTime>5.0</StartTime><EndTime>6.0</EndTime><Description>\(escaped)</Description></Feature></Features>\n</PathSegment>",
            options: [], range: text.range(of: "</Steps>\n</PathSegment>"))
        let dir = temporaryFolder()
        try withEvent.write(toFile: dir + "/T1_ID3_WC.xml", atomically: true, encoding: .utf8)
        let (session, path) = try roundTrip(try importWeAllWalk(phoneFile: csv, annotations: dir + "/T1_ID3_WC.xml"))
        #expect(session.annotation("events")?.label == [hostile])
        let shown = try inspectTrace(at: path).text
        #expect(!shown.contains("\u{202E}") && shown.contains("\\u{202E}"))
    }

    /// An external entity is never resolved: a walk XML naming /etc/passwd imports without it.
    @Test func externalEntitiesAreNotResolved() throws {
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        let dir = temporaryFolder()
        let withEvent = text.replacingOccurrences(
            of: "</Steps>\n</PathSegment>",
            with:
                "</Steps>\n<Features><Feature><StartTime>5</StartTime><EndTime>6</EndTime><Description>&xxe;</Description></Feature></Features>\n</PathSegment>",
            options: [], range: text.range(of: "</Steps>\n</PathSegment>"))
        let xxe = withEvent.replacingOccurrences(
            of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            with: "<?xml version=\"1.0\" encoding=\"UTF-8\"?><!DOCTYPE root [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>")
        try xxe.write(toFile: dir + "/x.xml", atomically: true, encoding: .utf8)
        let s = try importWeAllWalk(phoneFile: csv, annotations: dir + "/x.xml").session
        #expect(s.annotation("events")?.label == [""])
    }

    /// `trace trim` keeps the annotation rows that start inside the window and drops a stream left empty.
    @Test func trimCarriesAnnotations() throws {
        let (_, path) = try roundTrip(try importWeAllWalk(phoneFile: csv, annotations: xml))
        let out = temporaryFolder() + "/trim.h5"
        try editTrace(inputs: [path], output: out, command: "trim") { try trimmingTrace($0[0], start: 4, end: 8) }
        let s = try readTrace(at: out)
        #expect(s.annotation("steps")!.start.allSatisfy { $0 >= 4 && $0 <= 8 } && !s.annotation("steps")!.start.isEmpty)
        #expect(s.annotation("turns") == nil && s.annotation("straight_segments") == nil)
        #expect(s.attributes["subject"] == "3")
    }
}
