import Foundation
import NavCore
import NavIO
import NavTestSupport
import Testing

/// Annotation streams in trace format v1: written, read back equal, edited by `trace`, and
/// hostile ones refused by `validate` in one line naming the dataset.
@Suite struct AnnotationStreamTests {
    func session() -> Session {
        let t = (0..<50).map { Double($0) * 0.04 }
        var s = Session(
            metadata: SessionMetadata(kind: .recording, sessionID: "walk", routeID: "T1", venue: "", device: "phone"),
            imu: IMUStream(timestamps: t, accelerometer: t.map { _ in Vector3(0, 9.8, 0) }, gyroscope: t.map { _ in Vector3(0, 0, 0) }))
        s.annotations = [
            AnnotationStream(name: "steps", kind: .instants, source: "hand", start: [0.5, 1.0, 1.0, 1.5], label: ["L", "R", "L", "R"]),
            AnnotationStream(
                name: "turns", kind: .intervals, source: "hand", start: [0.2], end: [1.8], label: ["1-5 TurnEtoS"], value: [-90], valueUnits: "deg"),
        ]
        s.attributes = ["subject": "3", "mobility_aid": "long cane", "note": "quote \" and é"]
        return s
    }

    @Test func roundTripsAndValidates() throws {
        let path = temporaryFolder() + "/a.h5"
        try writeTrace(session(), to: path)
        #expect(validateTrace(at: path).problems.isEmpty)
        let back = try readTrace(at: path)
        #expect(back.annotations == session().annotations.sorted { $0.name < $1.name })
        #expect(back.attributes == session().attributes)
        // The same session, the same bytes.
        let again = temporaryFolder() + "/b.h5"
        try writeTrace(session(), to: again)
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: again))
        // inspect lists them after the sensor streams.
        let text = try inspectTrace(at: path).text
        #expect(text.contains("annotations/steps: 4 instants, starts") && text.contains("annotations/turns: 1 intervals, starts"))
    }

    @Test func writerRefusesBadStreams() {
        var s = session()
        s.annotations[1].end = [0.1]  // ends before it starts
        #expect(throws: TraceError.self) { try writeTrace(s, to: temporaryFolder() + "/x.h5") }
        s = session()
        s.annotations[0].name = "../etc"
        #expect(throws: TraceError.self) { try writeTrace(s, to: temporaryFolder() + "/x.h5") }
        s = session()
        s.annotations[0].label[0] = "a\u{0}b"
        #expect(throws: TraceError.self) { try writeTrace(s, to: temporaryFolder() + "/x.h5") }
    }

    /// Files written by hand (another tool, a forged file): each defect one error line naming the object.
    @Test func validateRefusesHostileAnnotationGroups() throws {
        func file(_ label: String, _ body: (HDF5Writer) throws -> Void) throws -> String {
            let path = temporaryFolder(label) + "/f.h5"
            let w = try HDF5Writer(path: path)
            try w.setAttribute("format", string: "navbench-trace")
            try w.setAttribute("format_version", integer: 1)
            try w.setAttribute("session_kind", string: "recording")
            try w.write("/imu/timestamps", doubles: [0, 1], shape: [2], units: "s")
            try w.write("/imu/accelerometer", doubles: [0, 9.8, 0, 0, 9.8, 0], shape: [2, 3], units: "m/s^2")
            try w.write("/imu/gyroscope", doubles: [0, 0, 0, 0, 0, 0], shape: [2, 3], units: "rad/s")
            try body(w)
            try w.commit()
            return path
        }
        func stream(_ w: HDF5Writer, _ name: String, start: [Double], end: [Double], kind: String? = "intervals", source: String? = "x") throws {
            try w.write("/annotations/\(name)/timestamps", doubles: start, shape: [start.count], units: "s")
            try w.write("/annotations/\(name)/end", doubles: end, shape: [end.count], units: "s")
            try w.write("/annotations/\(name)/label", strings: start.map { _ in "a" })
            if let kind { try w.setAttribute("kind", string: kind, on: "/annotations/\(name)") }
            if let source { try w.setAttribute("source", string: source, on: "/annotations/\(name)") }
        }
        let cases: [(String, String, (HDF5Writer) throws -> Void)] = [
            ("endBeforeStart", "/annotations/a/end", { try stream($0, "a", start: [1], end: [0]) }),
            ("instantWithLength", "/annotations/a/end", { try stream($0, "a", start: [1], end: [2], kind: "instants") }),
            ("unsorted", "/annotations/a/timestamps", { try stream($0, "a", start: [2, 1], end: [2, 1]) }),
            ("noKind", "/annotations/a/@kind", { try stream($0, "a", start: [1], end: [1], kind: nil) }),
            ("badKind", "/annotations/a/@kind", { try stream($0, "a", start: [1], end: [1], kind: "events") }),
            ("noSource", "/annotations/a/@source", { try stream($0, "a", start: [1], end: [1], source: nil) }),
            ("badName", "/annotations/A B", { try stream($0, "A B", start: [1], end: [1]) }),
            ("rowCount", "/annotations/a/end", { try stream($0, "a", start: [1, 2], end: [1]) }),
            ("nanTime", "/annotations/a/timestamps", { try stream($0, "a", start: [.nan], end: [1]) }),
            ("badAttributes", "/@session_attributes", { try $0.setAttribute("session_attributes", string: "[1, 2]") }),
            (
                "infiniteValue", "/annotations/a/value",
                {
                    try stream($0, "a", start: [1], end: [1])
                    try $0.write("/annotations/a/value", doubles: [.infinity], shape: [1], units: "deg")
                }
            ),
        ]
        for (label, object, body) in cases {
            let path = try file(label, body)
            let report = validateTrace(at: path)
            #expect(report.errors.contains { $0.error.object == object }, "\(label): \(report.problems.map(\.description))")
            #expect(report.errors.allSatisfy { !$0.description.contains("\n") })
            #expect(throws: TraceError.self, "\(label)") { try readTrace(at: path) }
        }
    }

    /// `trace add-stream` moves an annotation stream between traces (with a time offset applied to
    /// start and end); a sensor stream cannot become an annotation stream.
    @Test func addStreamCarriesAnnotations() throws {
        let dir = temporaryFolder()
        try writeTrace(session(), to: dir + "/a.h5")
        var plain = session()
        plain.annotations = []
        try writeTrace(plain, to: dir + "/b.h5")
        try editTrace(inputs: [dir + "/b.h5", dir + "/a.h5"], output: dir + "/c.h5", command: "add") {
            try addingStream("annotations/turns", from: $0[1], to: $0[0], timeOffset: 1)
        }
        let c = try readTrace(at: dir + "/c.h5")
        #expect(c.annotation("turns")?.start == [1.2] && c.annotation("turns")?.end == [2.8] && c.annotation("turns")?.source == "hand")
        #expect(throws: TraceEditError.self) {
            try editTrace(inputs: [dir + "/b.h5"], output: dir + "/d.h5", command: "add") {
                try addingStream("imu", from: $0[0], to: $0[0], as: "annotations/imu")
            }
        }
    }
}
