import Foundation
import NavIO
import NavSynth
import NavTestSupport
import Testing

/// Datasets/ holds exactly what its manifest lists, regenerates bit for bit from the
/// manifest's seed, and every file validates. Bit for bit where the libm is glibc's FMA path (the
/// files were written with it); elsewhere sin/cos/exp round differently on a few values, and
/// `scripts/check_portable.sh` (in `make test`) compares the regenerated files numerically.
@Suite struct BundledDatasetsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Datasets").path

    @Test func manifestMatchesFiles() throws {
        #expect(try verifyManifest(folder: Self.folder) == [])
        #expect(try verifyManifest(folder: Self.folder + "/venue") == [])
    }

    @Test(.enabled(if: libmTakesGlibcFMAPath, "the committed bytes come from glibc's FMA libm path; scripts/check_portable.sh compares numerically"))
    func regeneratesBitForBit() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.folder + "/manifest.json"))
        let manifest = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let facts = manifest["facts"] as! [String: String]
        let files = manifest["files"] as! [[String: String]]
        let seed = try #require(UInt64(facts["seed"]!))
        #expect(facts["command"] == "navbench synth --seed \(seed) --navigations \(facts["navigations"]!) --out <folder>")
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sessions = SynthVenue.corridors.sessions(seed: seed, navigations: try #require(Int(facts["navigations"]!)))
        #expect(sessions.map(\.fileName).sorted() == files.map { $0["file"]! })
        for s in sessions {
            try writeTrace(s.session, to: dir + "/" + s.fileName)
            let expected = files.first { $0["file"] == s.fileName }?["sha256"]
            #expect(try sha256Hex(ofFile: dir + "/" + s.fileName) == expected, "\(s.fileName)")
        }
    }

    /// Datasets/venue (the building venue, `navbench synth --venue building`): its manifest
    /// matches, the sessions and the floor plan regenerate bit for bit.
    @Test(.enabled(if: libmTakesGlibcFMAPath, "the committed bytes come from glibc's FMA libm path; scripts/check_portable.sh compares numerically"))
    func buildingVenueRegeneratesBitForBit() throws {
        let folder = Self.folder + "/venue"
        let data = try #require(FileManager.default.contents(atPath: folder + "/manifest.json"))
        let manifest = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let facts = manifest["facts"] as! [String: String]
        let files = manifest["files"] as! [[String: String]]
        #expect(facts["command"]?.contains("--venue building") == true)
        let p = SynthVenue.building.parameters(navigations: try #require(Int(facts["navigations"]!)))
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sessions = synthesizeVenue(
            seed: try #require(UInt64(facts["seed"]!)), parameters: p, routes: SynthVenue.building.routes,
            floorPlan: SynthVenue.building.floorPlan)
        #expect((sessions.map(\.fileName) + ["building.floorplan.json"]).sorted() == files.map { $0["file"]! })
        for s in sessions {
            try writeTrace(s.session, to: dir + "/" + s.fileName)
            #expect(try sha256Hex(ofFile: dir + "/" + s.fileName) == files.first { $0["file"] == s.fileName }?["sha256"], "\(s.fileName)")
        }
        let plan = try JSONDecoder().decode(
            FloorPlan.self, from: try #require(FileManager.default.contents(atPath: folder + "/building.floorplan.json")))
        #expect(plan == SynthVenue.building.floorPlan)
    }

    @Test func everyFileValidates() throws {
        for f in try traceFiles(in: Self.folder) + traceFiles(in: Self.folder + "/venue") {
            let r = validateTrace(at: f)
            #expect(r.isValid, "\(r.errors.first?.description ?? "")")
        }
    }

    @Test func manifestNamesAMissingFile() throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/a.h5"))
        try writeManifest(folder: dir, files: ["a.h5"], facts: [:])
        try Data("y".utf8).write(to: URL(fileURLWithPath: dir + "/a.h5"))
        let problems = try verifyManifest(folder: dir)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix(dir + "/a.h5: sha256 ") == true)
    }
}
