import Foundation
import Testing

/// `navbench filter --compression` (issue 16): validated with one line, CSV input refused, and a
/// trace written with the chosen layout.
@Suite(.serialized) struct FilterCompressionCLITests {
    let dir: String = {
        let d = NSTemporaryDirectory() + "nb-compcli-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()
    var trace: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Datasets/R1-corridor_nav1.h5").standardizedFileURL
            .path
    }

    @Test func badLevelIsOneLine() throws {
        for bad in ["gzip:0", "gzip:10", "zstd", "gzip:x", ""] {
            let r = try navbench(["filter", "--spec", "mean", "--stream", "imu/accelerometer", "--compression", bad, "--out", dir + "/x.h5", trace])
            #expect(r.status == 64, "\(bad)")
            #expect(
                r.err.split(separator: "\n").first.map(String.init)
                    == "navbench: error: --compression \(bad): expected none or gzip:N with N from 1 to 9", "\(bad): \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/x.h5"))
        }
    }

    @Test func csvInputRefusesCompression() throws {
        try "t,x\n0,1\n".write(toFile: dir + "/in.csv", atomically: true, encoding: .utf8)
        let r = try navbench([
            "filter", "--spec", "mean", "--column", "x", "--rate", "1", "--compression", "none", "--out", dir + "/o.csv", dir + "/in.csv",
        ])
        #expect(r.status == 64)
        #expect(r.err.split(separator: "\n").first == "navbench: error: --compression applies to trace output (--stream); CSV output is text")
    }

    @Test func levelsGiveTheSameValuesAndNoneIsLargest() throws {
        var sizes: [String: Int] = [:]
        for level in ["none", "gzip:1", "gzip:9"] {
            let out = dir + "/\(level.replacingOccurrences(of: ":", with: "")).h5"
            let r = try navbench([
                "filter", "--spec", "butter:order=4,cutoff=5", "--stream", "imu/accelerometer", "--compression", level, "--out", out, trace,
            ])
            #expect(r.status == 0, "\(level): \(r.err)")
            #expect(r.out == out + "\n")
            sizes[level] = (try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
            let v = try navbench(["validate", "--quiet", out])
            #expect(v.status == 0, "\(level): \(v.err)")
        }
        #expect(sizes["none"]! > sizes["gzip:1"]!)
        #expect(sizes["gzip:1"]! >= sizes["gzip:9"]!)
    }
}
