import Foundation
import NavAids
import NavIO
import Testing

@testable import NavPipeline

/// The path-loss fit's data and distance range are options (issue 31, item 2), checked against an
/// independent h5py + numpy computation on the raw readings of the real BLE recordings
/// (scripts/make_proximity_fit_fixtures.py: numpy.polyfit on log10 of the true distance), within
/// 1e-9 relative: 1 s scan means (the default) or every reading, all distances or a range.
@Suite struct ProximityFitTests {
    struct Reference: Decodable {
        struct Case: Decodable {
            var file: String, fit: String, min_distance: Double?, max_distance: Double?, pairs: Int
            var rssi_at_one_metre: Double, exponent: Double
        }
        var cases: [Case]
    }

    @Test func fitsEqualNumpyOnRawReadingsAndScans() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/proximity_fit_reference.json")
        let reference = try JSONDecoder().decode(Reference.self, from: try Data(contentsOf: url))
        #expect(reference.cases.count == 18)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        var models: [String: PathLossModel] = [:]
        for c in reference.cases {
            let session = try readTrace(at: root + "/" + c.file)
            var o = ProximityFitOptions()
            o.fitData = try #require(PathLossFitData(rawValue: c.fit))
            o.fitMinDistance = c.min_distance
            o.fitMaxDistance = c.max_distance
            var p = ProximityParameters()
            o.apply(to: &p)
            let model = try runProximity(session, parameters: p).0.model
            let label = "\(c.file) \(c.fit) \(String(describing: c.min_distance))–\(String(describing: c.max_distance))"
            #expect(abs(model.rssiAtOneMetre - c.rssi_at_one_metre) <= 1e-9 * abs(c.rssi_at_one_metre), "\(label): \(model.rssiAtOneMetre)")
            #expect(abs(model.exponent - c.exponent) <= 1e-9 * abs(c.exponent), "\(label): \(model.exponent)")
            models[label] = model
        }
        // The options matter: raw readings and a range give other models than the default.
        let straight = "Datasets/real/ble-position-annotated/straight_01.h5"
        #expect(models["\(straight) scans nil–nil"] != models["\(straight) readings nil–nil"])
        #expect(models["\(straight) readings nil–nil"] != models["\(straight) readings Optional(0.5)–Optional(5.0)"])
    }

    @Test func badOptionsAreOneLineNamingTheKey() throws {
        let cases: [(String, String)] = [
            ("{fit: median}", "s.yaml: proximity_options.fit: expected scans or readings"),
            ("{scan_window: 0}", "s.yaml: proximity_options.scan_window: expected seconds in (0, 3600] or none, got 0.0"),
            (
                "{fit_min_distance: 5, fit_max_distance: 1}",
                "s.yaml: proximity_options.fit_min_distance 5.0 is not below proximity_options.fit_max_distance 1.0"
            ),
            ("{colour: red}", "s.yaml: proximity_options.colour: unknown key; valid: scan_window, fit, fit_min_distance, fit_max_distance"),
        ]
        for (yaml, message) in cases {
            do {
                _ = try ExperimentSpec.parse("name: s\ninputs: [x.h5]\noutput: out\nproximity: [none]\nproximity_options: \(yaml)\n", file: "s.yaml")
                Issue.record("\(yaml) was accepted")
            } catch { #expect("\(error)" == message) }
        }
        let s = try ExperimentSpec.parse(
            "name: s\ninputs: [x.h5]\noutput: out\nproximity: [none]\nproximity_options: {scan_window: none, fit: readings, fit_min_distance: 0.2}\n",
            file: "s.yaml")
        #expect(s.proximityOptions.scanWindow == nil && s.proximityOptions.fitData == .readings && s.proximityOptions.fitMinDistance == 0.2)
        #expect(s.resolvedYAML.contains("proximity_options: {scan_window: none, fit: readings, fit_min_distance: 0.2}\n"))
    }
}
