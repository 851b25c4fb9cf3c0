import Foundation
import Testing

/// Names from files reach terminals, Markdown and CSV escaped (issue 29: `survey` wrote file
/// names and `route_id` raw into summary.md — new headings, table rows — and unquoted into
/// streams.csv — forged rows; `inspect` printed ids with raw ESC/OSC sequences and newlines;
/// U+202E RIGHT-TO-LEFT OVERRIDE was escaped nowhere).
@Suite struct NamesFromDataCLITests {
    static let routeID = "R1\u{1B}]0;pwned\u{7}\n# heading \u{202E}txt.exe"
    static let tum = "Tests/NavImportTests/Fixtures/import/real/tum-fr1-xyz/freiburg1_xyz-groundtruth.txt"

    /// A route id longer than the results store's 4,096-character labels is refused once, at
    /// planning, naming the file (issue 50, item 14): not computed and refused by the store.
    @Test func aRouteIdBeyondTheStoresLabelsIsRefusedAtPlanning() throws {
        let dir = NSTemporaryDirectory() + "navbench-longid-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let imported = try navbench(
            ["import", "tum", Self.tum, "--route-id", String(repeating: "r", count: 5_000), "--out", dir + "/in/x.h5"], cwd: repoRoot)
        #expect(imported.status == 0, "\(imported)")
        try "name: rid\ninputs: [\(dir)/in/*.h5]\noutput: \(dir)/out\nsweep:\n  rdp_tolerance: [0.3]\n".write(
            toFile: dir + "/s.yaml", atomically: true, encoding: .utf8)
        let r = try navbench(["run", dir + "/s.yaml", "--quiet"])
        #expect(r.status == 1)
        #expect(
            r.err == "navbench: error: \(dir)/in/x.h5: / route_id: 5000 characters; a results store holds route and session labels of at most 4096\n",
            "\(r.err)")
    }

    @Test func hostileIdsAndFileNamesAreEscapedEverywhere() throws {
        let dir = NSTemporaryDirectory() + "navbench-names-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/in/b,\n=cmd().h5"
        let imported = try navbench(["import", "tum", Self.tum, "--route-id", Self.routeID, "--out", file], cwd: repoRoot)
        #expect(imported.status == 0, "\(imported)")
        for command in [["inspect", file], ["validate", file]] {
            let r = try navbench(command)
            #expect(!r.out.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" }, "\(command[0]): \(r.out)")
        }
        let inspect = try navbench(["inspect", file]).out
        #expect(inspect.contains("route_id=R1\\u{1B}]0;pwned\\u{7}\\n# heading \\u{202E}txt.exe"), "\(inspect)")
        let survey = try navbench(["survey", dir + "/in", "--out", dir + "/survey"])
        #expect(survey.status == 0, "\(survey)")
        let md = try String(contentsOfFile: dir + "/survey/summary.md", encoding: .utf8)
        #expect(!md.contains("\n# heading") && !md.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(md)")
        // One table row per file and per stream, whatever the names hold.
        #expect(md.split(separator: "\n").filter { $0.hasPrefix("| b,") }.count == 2, "\(md)")
        let csv = try String(contentsOfFile: dir + "/survey/streams.csv", encoding: .utf8)
        #expect(csv.hasSuffix("\n") && csv.contains("\"b,\n=cmd().h5\","), "\(csv)")
        // Quoted fields: a header and one row, as a CSV reader counts them.
        #expect(csv.components(separatedBy: ".h5\",").count == 2)
    }

    /// A file name that is markup reaches `report.html` as text (issue 51): an APE pair whose
    /// estimate is named `<img src=x onerror=…>` (and holds U+2028) is listed among the failures.
    @Test func hostileNamesInReportHTMLAreText() throws {
        let dir = NSTemporaryDirectory() + "navbench-html-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let hostile = dir + "/in/<img src=x onerror=alert(1)>\u{2028}.h5"
        for out in [hostile, dir + "/in/b.h5"] {
            let imported = try navbench(["import", "tum", Self.tum, "--route-id", "</script><!--r", "--out", out], cwd: repoRoot)
            #expect(imported.status == 0, "\(imported)")
        }
        let spec = "name: hx\ninputs: [\"\(dir)/in/b.h5\"]\noutput: \(dir)/out\n"
        try (spec + "ape:\n  - {reference: \"\(dir)/in/b.h5\", estimate: \"\(hostile)\", align: se3}\n")
            .write(toFile: dir + "/s.yaml", atomically: true, encoding: .utf8)
        // The imports hold ground truth only: the pair fails (exit 1) and is listed by its names.
        let r = try navbench(["run", dir + "/s.yaml", "--quiet"])
        #expect(r.status == 1, "\(r)")
        let html = try String(contentsOfFile: dir + "/out/report.html", encoding: .utf8)
        #expect(html.contains("<code>ape \(dir)/in/&lt;img src=x onerror=alert(1)&gt;\\u{2028}.h5 vs"), "\(html)")
        #expect(!html.contains("<img") && !html.contains("<script") && !html.contains("<!--"), "\(html)")
        #expect(!html.unicodeScalars.contains("\u{2028}"))
    }
}
