import Foundation
import NavCore
import NavGeometry
import NavIO
import Testing

@testable import NavImport

/// MATLAB level-5 MAT-files (`MATFile`, `importMATMapped`) against the values scipy.io.savemat
/// wrote, recorded by the same script from numpy (scripts/make_mat_fixtures.py, reference.json).
@Suite struct MATImportTests {
    static func mat(_ name: String) -> String { importFixture("mat/" + name) }

    static var reference: [String: Any] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: mat("reference.json")))) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    /// float.hex strings (bit-exact; nan and inf as Python writes them) to doubles.
    static func doubles(_ any: Any?) -> [Double] { (any as? [String] ?? []).map { Double($0) ?? .signalingNaN } }

    static func numeric(_ a: MATArray) -> (String, [Int], [Double])? {
        if case let .numeric(c, d, v) = a { return (c, d, v) }
        return nil
    }

    static let qtmMapping: String =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/mappings/qtm.mapping.yaml").path

    /// Every numeric class, little- and big-endian: class, MATLAB dimensions and values equal
    /// scipy's bit for bit (−0.0, inf, 1e-300, ±2^53 in int64, a 2×3×4 array column-major).
    @Test(arguments: ["numeric.mat", "numeric_be.mat"])
    func numericClassesEqualScipysValues(_ name: String) throws {
        let f = try MATFile(path: Self.mat(name))
        let ref = try #require(Self.reference["numeric"] as? [String: [String: Any]])
        let classes = ["float64": "double", "float32": "single", "int16": "int16", "uint8": "uint8", "int64": "int64"]
        for (variable, r) in ref {
            let (c, dims, values) = try #require(Self.numeric(try f.array(at: variable)), "\(variable)")
            #expect(c == classes[r["class"] as! String], "\(variable)")
            #expect(dims == r["dims"] as! [Int], "\(variable)")
            #expect(values.map(\.bitPattern) == Self.doubles(r["values"]).map(\.bitPattern), "\(variable)")
        }
        #expect(try f.array(at: "txt") == .char(dimensions: [1, 5], text: "hello"))
        #expect(try Self.numeric(f.array(at: "/nest/a/b/c"))?.2 == Self.doubles(Self.reference["nest_a_b_c"]))
        #expect(try Self.numeric(f.array(at: "nest.a.b.c"))?.2 == Self.doubles(Self.reference["nest_a_b_c"]))
        #expect(try Self.numeric(f.array(at: "c{1}"))?.2 == Self.doubles(Self.reference["cell_1"]))
        #expect(try f.array(at: "c{2}") == .char(dimensions: [1, 3], text: "two"))
        #expect(try Self.numeric(f.array(at: "c(3)"))?.0 == "int16")
        #expect(try Self.numeric(f.array(at: "c(3)"))?.2 == Self.doubles(Self.reference["cell_3"]))
        #expect(f.variables.map(\.name).sorted() == ["c", "d", "i16", "i64", "nest", "s", "t3", "txt", "u8"])
    }

    /// Doubles stored as miUINT8 and miINT16 (MATLAB's habit), names in small data elements.
    @Test func doublesStoredAsSmallerTypesAreConverted() throws {
        let f = try MATFile(path: Self.mat("packed.mat"))
        let ref = try #require(Self.reference["packed"] as? [String: Any])
        #expect(try f.array(at: "p8") == .numeric(className: "double", dimensions: [1, 3], values: Self.doubles(ref["p8"])))
        #expect(try f.array(at: "p16") == .numeric(className: "double", dimensions: [2, 1], values: Self.doubles(ref["p16"])))
    }

    /// Compressed and uncompressed exports of one struct read the same arrays.
    @Test func compressedAndUncompressedAgree() throws {
        let a = try MATFile(path: Self.mat("qtm.mat")), b = try MATFile(path: Self.mat("qtm_uncompressed.mat"))
        #expect(a.variables.map(\.name) == ["qtm"])
        #expect(try a.array(at: "qtm") == b.array(at: "qtm"))
        let qtm = try #require(Self.reference["qtm"] as? [String: Any])
        #expect(try Self.numeric(a.array(at: "/qtm/RigidBodies/Positions"))?.1 == [1, 3, 25])
        #expect(try Self.numeric(a.array(at: "/qtm/RigidBodies/Positions"))?.2 == Self.doubles(qtm["positions_mm"]))
        #expect(try Self.numeric(a.array(at: "/qtm/RigidBodies/Rotations"))?.2 == Self.doubles(qtm["rotations"]))
        #expect(try a.array(at: "/qtm/RigidBodies/Name") == .cell(dimensions: [1, 1], elements: [.char(dimensions: [1, 4], text: "cane")]))
    }

    /// The committed QTM example mapping: ground truth equal to the reference. Positions are
    /// `mm × 0.001` against Python's `mm / 1000` (each ≤ ½ ulp from the exact quotient, so they
    /// may differ by 1 ulp: 4e-16 m at 3 m), compared within 1e-12 m; orientations are
    /// navbench's matrix → quaternion (Shepperd) of matrices scipy rounded from the reference
    /// quaternions, turned from ENU to ARKit: within 1e-12 rad of the reference's.
    @Test(arguments: ["qtm.mat", "qtm_uncompressed.mat"])
    func qtmExampleImportsTheReferenceGroundTruth(_ name: String) throws {
        let r = try importMATMapped(Self.mat(name), mapping: try ImportMapping.load(Self.qtmMapping))
        #expect(r.notes == [])
        let (s, _) = try roundTrip(r)
        let gt = try #require(s.groundTruth)
        let qtm = try #require(Self.reference["qtm"] as? [String: Any])
        #expect(gt.timestamps == Self.doubles(qtm["times"]))
        try expectGroundTruth(gt, positions: qtm["gt_positions_m"], quaternions: qtm["gt_quaternions_enu_wxyz"])
    }

    func expectGroundTruth(_ gt: GroundTruthStream, positions: Any?, quaternions: Any?) throws {
        let p = try #require(positions as? [[String]]).map { $0.map { Double($0)! } }
        let q = try #require(quaternions as? [[String]]).map { $0.map { Double($0)! } }
        #expect(gt.poses.count == p.count && p.count == 25)
        for (k, pose) in gt.poses.enumerated() {
            let t = pose.translation
            #expect(max(abs(t.x - p[k][0]), abs(t.y - p[k][1]), abs(t.z - p[k][2])) < 1e-12, "frame \(k)")
            let enu = Quaternion(x: q[k][1], y: q[k][2], z: q[k][3], w: q[k][0])
            #expect(rotationDistance(pose.rotation, WorldFrame.enu.toARKit.quaternion * enu) < 1e-12, "frame \(k)")
        }
    }

    /// Two bodies: positions (N, 3, 2) and rotations (N, 9, 2) in the -v7.3 view, the second
    /// body picked with columns [1, 3, 5] and [1, 3, …, 17].
    @Test func secondOfTwoBodiesByColumns() throws {
        let mapping = try ImportMapping.parse(
            """
            navbench_mapping: 1
            source: mat
            frame: enu
            time: {sample_rate: {dataset: qtm.FrameRate}}
            streams:
              groundtruth:
                position: {dataset: qtm.RigidBodies.Positions, columns: [1, 3, 5], units: mm}
                orientation: {dataset: qtm.RigidBodies.Rotations, columns: [1, 3, 5, 7, 9, 11, 13, 15, 17], order: column-major}
            """, file: "two.yaml")
        let (s, _) = try roundTrip(try importMATMapped(Self.mat("qtm_two_bodies.mat"), mapping: mapping))
        let qtm = try #require(Self.reference["qtm"] as? [String: Any])
        try expectGroundTruth(
            try #require(s.groundTruth), positions: qtm["two_bodies_head_positions_m"], quaternions: qtm["two_bodies_head_quaternions_enu_wxyz"])
    }

    /// Hostile and unreadable files: each refused with its one line.
    @Test func hostileFilesAreRefusedInOneLine() throws {
        let cases: [(String, TraceError)] = [
            (
                "bad/truncated.mat",
                TraceError(
                    .corrupt, file: Self.mat("bad/truncated.mat"), object: "qtm/RigidBodies/Positions",
                    "element at byte 952: declares 600 bytes, only 100 follow (truncated)")
            ),
            (
                "bad/overflow.mat",
                TraceError(
                    .corrupt, file: Self.mat("bad/overflow.mat"), object: "variable at byte 128",
                    "dimensions at byte 160: 2147483647×2147483647… hold more than 2^32 elements; expected sizes whose product fits the file")
            ),
            (
                "bad/lying.mat",
                TraceError(
                    .corrupt, file: Self.mat("bad/lying.mat"),
                    "compressed element at byte 128: inflates to 72 bytes, but its tag declares 80 (8 + 72)")
            ),
            (
                "bad/bomb.mat",
                TraceError(
                    .tooLarge, file: Self.mat("bad/bomb.mat"),
                    "compressed element at byte 128: declares 2147483640 inflated bytes, past navbench's limit of 1073741824 per file (a compression bomb?)"
                )
            ),
            (
                "bad/deep.mat",
                TraceError(
                    .tooLarge, file: Self.mat("bad/deep.mat"), object: "deep" + String(repeating: "/s", count: 32),
                    "arrays nested more than 32 deep (element at byte 2176); expected struct fields and cells at most that deep")
            ),
            (
                "bad/v73.mat",
                TraceError(
                    .notHDF5, file: Self.mat("bad/v73.mat"),
                    "a MATLAB 7.3 MAT-file, which is HDF5: import it with navbench import hdf5-mapped FILE --mapping M.yaml (docs/importers.md)")
            ),
        ]
        for (name, expected) in cases {
            expectError(expected) { _ = try MATFile(path: Self.mat(name)) }
            #expect(!expected.description.contains("\n"))
        }
        // A real compression bomb under a small limit: refused before inflating.
        expectError(
            TraceError(
                .tooLarge, file: Self.mat("qtm.mat"),
                "compressed element at byte 128: declares 3552 inflated bytes, past navbench's limit of 1000 per file (a compression bomb?)")
        ) { _ = try MATFile(path: Self.mat("qtm.mat"), limits: MATLimits(maxInflatedBytes: 1000)) }
    }

    /// Sparse and complex variables are read past, and refused by name when a mapping reaches them;
    /// a missing field lists the struct's fields.
    @Test func unsupportedClassesAndMissingPathsNameTheVariable() throws {
        let f = try MATFile(path: Self.mat("classes.mat"))
        #expect(try f.array(at: "ok") == .numeric(className: "double", dimensions: [1, 1], values: [1]))
        func mapping(_ ds: String) throws -> ImportMapping {
            try ImportMapping.parse(
                "navbench_mapping: 1\ntime: {sample_rate: 100}\nstreams:\n  compass:\n    heading: {dataset: \(ds), units: deg}\n", file: "m.yaml")
        }
        let file = Self.mat("classes.mat")
        expectError(
            TraceError(
                .wrongType, file: file, object: "/sp", "a sparse array (save full(X) instead), which navbench does not read; expected a numeric array"
            )
        ) {
            _ = try importMATMapped(file, mapping: try mapping("sp"))
        }
        expectError(
            TraceError(.wrongType, file: file, object: "/z", "a complex double array, which navbench does not read; expected a numeric array")
        ) {
            _ = try importMATMapped(file, mapping: try mapping("z"))
        }
        let qtm = Self.mat("qtm.mat")
        expectError(
            TraceError(
                .missing, file: qtm, object: "/qtm/RigidBodies/Position",
                "dataset not found (wanted by m.yaml line 5, streams.compass.heading); qtm/RigidBodies has no field Position; its fields are Bodies, Name, Positions, Rotations, Residual"
            )
        ) { _ = try importMATMapped(qtm, mapping: try mapping("qtm/RigidBodies/Position")) }
        expectError(
            TraceError(
                .badValue, file: "m.yaml", object: "sample_rate.attribute",
                "a MAT-file has no attributes; name the variable holding the rate, e.g. sample_rate: {dataset: /QTM/FrameRate}")
        ) {
            let m = try ImportMapping.parse(
                "navbench_mapping: 1\ntime: {sample_rate: {attribute: FrameRate}}\nstreams:\n  compass:\n    heading: {dataset: qtm/Frames, units: deg}\n",
                file: "m.yaml")
            _ = try importMATMapped(qtm, mapping: m)
        }
    }
}
