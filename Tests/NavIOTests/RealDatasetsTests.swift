import Foundation
import NavIO
import Testing

/// Datasets/real holds exactly what its manifest lists, every file validates, and every
/// folder carries its source's licence and a README with the conversion command.
@Suite struct RealDatasetsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Datasets/real").path

    @Test func manifestMatchesFiles() throws {
        #expect(try verifyManifest(folder: Self.folder) == [])
        let data = try #require(FileManager.default.contents(atPath: Self.folder + "/manifest.json"))
        let files = (try JSONSerialization.jsonObject(with: data) as! [String: Any])["files"] as! [[String: String]]
        let listed = Set(files.map { $0["file"]! })
        let present = Set(FileManager.default.enumerator(atPath: Self.folder)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".h5") })
        #expect(listed == present)
        #expect(listed.count == 22)
    }

    @Test func everyFileValidatesAndIsSmall() throws {
        for f in FileManager.default.enumerator(atPath: Self.folder)!.compactMap({ $0 as? String }) where f.hasSuffix(".h5") {
            let path = Self.folder + "/" + f
            let r = validateTrace(at: path)
            #expect(r.isValid, "\(f): \(r.errors.first?.description ?? "")")
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
            #expect(size < 3_000_000, "\(f) is \(size) bytes")
            #expect(try HDF5Reader(path: path).attribute("processing")?.stringValue?.hasPrefix("navbench import ") == true)
        }
    }

    @Test func everyFolderKeepsItsLicenceAndAttribution() throws {
        for dir in ["tum-fr1-xyz", "arkit-data-logger", "coremotion-data-logger", "broad", "ble-position-annotated"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder + "/" + dir)
            #expect(names.contains { $0.hasPrefix("LICENSE") }, "\(dir)")
            let readme = try String(contentsOfFile: Self.folder + "/\(dir)/README.md", encoding: .utf8)
            #expect(readme.contains("navbench import ") && readme.contains("Licence"), "\(dir)")
        }
    }
}
