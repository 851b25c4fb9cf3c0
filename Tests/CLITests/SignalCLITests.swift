import Foundation
import Testing

@Suite(.serialized) struct SignalCLITests {
    let dir: String = {
        let d = NSTemporaryDirectory() + "nb-sigcli-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        // 10 s of a 2 Hz sine at 50 Hz, written with exact decimal times.
        var csv = "time,accel\n"
        for k in 0..<500 { csv += "\(Double(k) / 50),\(sin(2 * Double.pi * 2 * Double(k) / 50))\n" }
        try! csv.write(toFile: d + "/in.csv", atomically: true, encoding: .utf8)
        return d
    }()

    @Test func filterCSVAddsAColumn() throws {
        let r = try navbench([
            "filter", "--spec", "ema:tau=0.1", "--column", "accel", "--time-column", "time", "--out", dir + "/out.csv", dir + "/in.csv",
        ])
        #expect(r.status == 0)
        #expect(r.out == dir + "/out.csv\n")
        let lines = try String(contentsOfFile: dir + "/out.csv", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 501)
        #expect(lines[0] == "time,accel,accel_filtered")
        #expect(lines[1] == "0.0,0.0,0")  // input fields kept as written
    }

    @Test func unknownFilterIsOneLineListingChoices() throws {
        let r = try navbench(["filter", "--spec", "buter", "--column", "accel", "--rate", "50", "--out", dir + "/x.csv", dir + "/in.csv"])
        #expect(r.status == 64)
        #expect(
            r.err.split(separator: "\n").first
                == "navbench: error: filter 'buter': unknown filter 'buter'; valid: mean, circmean, ema, butter, kalman, kalman-cv, kalman-heading")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.csv"))
    }

    @Test func missingColumnNamesFileAndColumns() throws {
        let r = try navbench(["filter", "--spec", "mean", "--column", "acc", "--rate", "50", "--out", dir + "/x.csv", dir + "/in.csv"])
        #expect(r.status == 1)
        #expect(r.err == "navbench: error: \(dir)/in.csv: column 'acc': not found; columns are time, accel\n")
    }

    @Test func psdFindsTheSine() throws {
        let r = try navbench(["psd", "--column", "accel", "--rate", "50", "--nperseg", "250", dir + "/in.csv"])
        #expect(r.status == 0)
        #expect(r.out == "accel: 3 segments of 250 at 50 Hz; dominant frequency in 0.5–5.0 Hz: 2.0000 Hz\n")
    }

    @Test func filterTraceStreamKeepsTheFileValid() throws {
        let out = dir + "/f.h5"
        let r = try navbench(
            [
                "filter", "--spec", "butter:order=2,cutoff=3,zero-phase", "--stream", "imu/accelerometer",
                "--out", out, "Datasets/R1-corridor_nav1.h5",
            ], cwd: repoRoot)
        #expect(r.status == 0)
        let v = try navbench(["validate", out])
        #expect(v.out == "\(out): ok\n1 valid, 0 invalid\n")
        let a = try navbench(["adev", "--stream", "imu/gyroscope", out])
        #expect(a.out.hasPrefix("     tau (s)               x               y               z\n        0.01"))
    }
}
