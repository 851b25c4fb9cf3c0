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
