import Foundation
import NavIO
import Testing

/// Each malformed fixture gives exactly the expected single error line, names the
/// file and the dataset, and never crashes; reading it throws the same error.
@Suite struct BadInputTests {
    static let cases: [(file: String, kind: TraceError.Kind, object: String?, problem: String)] = [
        ("empty.h5", .empty, nil, "empty file (0 bytes), expected an HDF5 file"),
        ("text.h5", .notHDF5, nil, "not an HDF5 file (no HDF5 signature), expected trace format v1"),
        ("random.h5", .notHDF5, nil, "not an HDF5 file (no HDF5 signature), expected trace format v1"),
        ("truncated.h5", .corrupt, nil, "HDF5 signature found but the file cannot be opened (truncated or corrupt)"),
        ("nostreams.h5", .noStreams, nil, "no streams; expected at least one of imu, compass, ble, vio, anchors, location, groundtruth"),
        ("nan_timestamp.h5", .badTimestamps, "/vio/timestamps", "timestamp 3 is not finite"),
        (
            "unordered.h5", .badTimestamps, "/vio/timestamps",
            "expected strictly increasing timestamps; sample 4 (t=0.12) is not after sample 3 (t=0.16)"
        ),
        ("wrong_shape.h5", .wrongShape, "/vio/position", "expected shape (N, 3), found (10, 2)"),
        ("wrong_rows.h5", .wrongShape, "/vio/position", "expected 10 rows (one per timestamp), found 9"),
        ("wrong_units.h5", .wrongUnits, "/vio/position", "expected units \"m\", found \"cm\""),
        ("integer_units.h5", .wrongUnits, "/vio/position", "units attribute is the integer 3, expected the string \"m\""),
        ("missing_dataset.h5", .missing, "/vio/orientation", "required dataset not found"),
        ("nan_value.h5", .badValue, "/vio/position", "row 2: value nan is not finite (1 non-finite values)"),
        ("no_version.h5", .missing, "/@format_version", "missing root attribute, expected integer 1"),
    ]

    @Test(arguments: cases.indices)
    func oneClearLine(_ i: Int) throws {
        let c = Self.cases[i]
        let path = fixture("bad/" + c.file)
        let report = validateTrace(at: path)
        #expect(!report.isValid)
        #expect(report.errors.count == 1)
        let e = try #require(report.errors.first).error
        #expect(e == TraceError(c.kind, file: path, object: c.object, c.problem))
        #expect(!e.description.contains("\n"))
        #expect(throws: e) { try readTrace(at: path) }
    }

    /// A MATLAB 5 MAT-file (motion-capture ground truth, issue 31) is named as one, with the
    /// command that reads it (issue 52), in one line; a v7.3 file is HDF5 and is read as such.
    @Test func aMATLAB5FileSaysWhatItIsAndHowToConvertIt() throws {
        let path = NSTemporaryDirectory() + "navbench-mat-\(UUID().uuidString).mat"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var header = Array("MATLAB 5.0 MAT-file, Platform: GLNXA64, Created on: Thu Nov 26 2026".utf8)
        header += [UInt8](repeating: 0x20, count: 116 - header.count) + [UInt8](repeating: 0, count: 8) + [0x00, 0x01, 0x49, 0x4d]
        header += [UInt8](repeating: 7, count: 64)
        try Data(header).write(to: URL(fileURLWithPath: path))
        let report = validateTrace(at: path)
        let e = try #require(report.errors.first).error
        #expect(e.kind == .notHDF5 && report.errors.count == 1)
        #expect(e.problem.hasPrefix("a MATLAB 5 MAT-file, not HDF5"), "\(e.problem)")
        #expect(e.problem.contains("navbench import mat-mapped") && !e.description.contains("\n"))
    }

    @Test func quaternionNormIsChecked() {
        let r = validateTrace(at: fixture("bad/nonunit_quaternion.h5"))
        #expect(r.errors.map(\.error.object) == ["/vio/orientation"])
        #expect(r.errors.first?.error.problem.hasPrefix("expected unit quaternions") == true)
    }

    @Test func missingFileIsNamed() {
        let r = validateTrace(at: "/nonexistent/x.h5")
        #expect(r.errors.first?.error == TraceError(.notFound, file: "/nonexistent/x.h5", "no such file"))
    }
}
