import Foundation
import NavCore
import NavIO
import NavReport
import Testing

/// `GaitFit` on the six bundled WeAllWalk walks equals an independent computation from their XML
/// (scripts/make_gait_fixtures.py: cadence, step-time CV, speed relative to the sighted walkers,
/// 90° turn duration, stop and wall-contact rates), and its estimates are means over subjects.
@Suite struct GaitFitTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func walks() throws -> [AnnotatedWalk] {
        try ["T1_ID2_1L_WC", "T1_ID3_1L_WC", "T1_ID1_1L_GD", "T1_ID4_1L_GD", "T1_ID11_1L_NA", "T1_ID12_1L_NA"].map {
            try annotatedWalk(readTrace(at: Self.root + "/Datasets/real/weallwalk/\($0).h5"), file: $0)
        }
    }

    @Test func perSubjectValuesEqualTheXMLReference() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Tests/NavReportTests/Fixtures/gait_reference.json"))
        let reference = (try JSONSerialization.jsonObject(with: data) as! [String: Any])["subjects"] as! [String: [String: Any]]
        let measured = GaitFit.perSubject(try walks())
        #expect(Set(measured.keys) == Set(reference.keys))
        for (subject, ref) in reference {
            for key in ["cadence", "step_time_cv", "relative_speed", "turn_duration_90", "stop_rate", "wall_contact_rate"] {
                let expected = ref[key] as! Double
                let got = try #require(measured[subject]?[key], "subject \(subject) \(key)")
                #expect(abs(got - expected) <= 1e-12 * max(1, abs(expected)), "subject \(subject) \(key): \(got) vs \(expected)")
            }
        }
    }

    @Test func estimatesAreMeansOverSubjects() throws {
        let w = try walks()
        let per = GaitFit.perSubject(w)
        let cane = GaitFit.estimates(w, community: "cane")
        let cadence = try #require(cane.first { $0.key == "cadence" })
        #expect(cadence.n == 2 && cadence.counts == "subjects 2, 3")
        #expect(abs(cadence.value - (per["2"]!["cadence"]! + per["3"]!["cadence"]!) / 2) < 1e-15)
        #expect(cadence.low < cadence.value && cadence.value < cadence.high)
        // The sighted walkers' speed relative to their own median segment times is near 1.
        let sighted = GaitFit.estimates(w, community: "sighted").first { $0.key == "relative_speed" }!
        #expect(abs(sighted.value - 1) < 0.1)
    }
}

/// Values of a file bounded where they become domain values, and names from files escaped.
@Suite struct GaitFitHostileInputTests {
    func session(turn value: Double, subject: String = "3") -> Session {
        let t = (0..<100).map { Double($0) * 0.04 }
        var s = Session(
            metadata: SessionMetadata(kind: .recording, sessionID: "w", routeID: "", venue: "", device: ""),
            imu: IMUStream(timestamps: t, accelerometer: t.map { _ in Vector3(0, 9.8, 0) }, gyroscope: t.map { _ in Vector3(0, 0, 0) }))
        s.annotations = [
            AnnotationStream(name: "steps", kind: .instants, source: "x", start: [1, 1.5], label: ["L", "R"]),
            AnnotationStream(name: "straight_segments", kind: .intervals, source: "x", start: [0.5], end: [2], label: ["1 E"]),
            AnnotationStream(name: "turns", kind: .intervals, source: "x", start: [2], end: [3], label: ["1-2 T"], value: [value], valueUnits: "deg"),
        ]
        s.attributes = ["subject": subject, "mobility_aid": "long cane"]
        return s
    }

    /// A turn of 1e300° (a valid trace: finite) would trap GaitFit's grouping by angle; it is one line.
    @Test func aHugeNominalAngleIsOneLine() {
        #expect(throws: TraceError.self) { try annotatedWalk(session(turn: 1e300), file: "w.h5") }
        #expect((try? annotatedWalk(session(turn: -90), file: "w.h5")) != nil)
    }

    /// A subject id from a file holding terminal escapes is shown escaped in the estimate table.
    @Test func subjectsAreEscapedInTheTable() throws {
        let walk = try annotatedWalk(session(turn: 90, subject: "\u{1B}]0;pwned\u{07}"), file: "w.h5")
        let table = walkerEstimateTable(GaitFit.estimates([walk], community: "cane"))
        #expect(!table.contains("\u{1B}") && table.contains("\\u{1B}"))
    }
}
