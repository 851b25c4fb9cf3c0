import Foundation
import Testing

/// `navbench plot` (issue 51, item 3): whole outputs. The trajectory's facts are evo_traj's (path
/// length 33.405 m by evo 1.38.1 on this VIO, `PathLengthCLITests`), printed to 4 digits.
@Suite struct PlotCLITests {
    @Test func trajectoryFactsAndPages() throws {
        let dir = NSTemporaryDirectory() + "navbench-plot-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let nav = repoRoot + "/Datasets/R1-corridor_nav1.h5"
        let r = try navbench(["plot", nav, "--kind", "trajectory", "--stream", "vio", "--out", dir + "/t.html"])
        #expect(r.status == 0 && r.err.isEmpty, "\(r)")
        #expect(r.out == "series\tposes\tpath length (m)\tduration (s)\tmean speed (m/s)\nR1-corridor_nav1.h5 vio\t840\t33.41\t33.56\t0.9954\n")
        let page = try String(contentsOfFile: dir + "/t.html", encoding: .utf8)
        #expect(page.contains("<svg role=\"img\" aria-label=\"Trajectories of 1 stream seen from above"))
        #expect(page.contains("<th scope=\"row\">R1-corridor_nav1.h5 vio</th><td>840</td><td>33.41</td>"))
        // SVG of a time series: one polyline per column of the dataset (the light colours' casings
        // beneath two of them).
        let s = try navbench(["plot", nav, "--stream", "imu/gyroscope", "--out", dir + "/g.svg"])
        #expect(s.status == 0, "\(s)")
        let svg = try String(contentsOfFile: dir + "/g.svg", encoding: .utf8)
        let casings = svg.components(separatedBy: "<polyline fill=\"none\" stroke=\"#404040\"").count - 1
        #expect(svg.hasPrefix("<svg ") && svg.components(separatedBy: "<polyline").count - 1 - casings == 3 && casings == 2)
        // Refusals: one line each, documented exit codes; inputs never replaced.
        let kind = try navbench(["plot", nav, "--kind", "bar", "--out", dir + "/x.svg"])
        #expect(kind.status == 64 && kind.err == "navbench: error: --kind bar: expected one of timeseries, trajectory, psd, heading\n")
        let missing = try navbench(["plot", nav, "--stream", "imu/nothing", "--out", dir + "/x.svg"])
        #expect(missing.status == 1 && missing.err.hasPrefix("navbench: error: \(nav): /imu/nothing: no such dataset"), "\(missing.err)")
        let copy = dir + "/nav.h5"
        try FileManager.default.copyItem(atPath: nav, toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let same = try navbench(["plot", copy, "--out", dir + "/./nav.h5.svg"])
        #expect(same.status == 0)
        let onto = try navbench(["plot", copy, "--out", copy + "/../nav.h5"])
        #expect(onto.status == 64 || onto.status == 73, "\(onto)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
    }

    /// A PNG goes through rsvg-convert (when installed): a relative folder that starts with '-'
    /// is passed as a path, not read as an option; the file is a PNG and no temporary is left.
    @Test func pngUnderAFolderThatLooksLikeAnOption() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert") else { return }
        let dir = NSTemporaryDirectory() + "navbench-png-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/-d", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try navbench(["plot", repoRoot + "/Datasets/R1-corridor_nav1.h5", "--stream", "imu/gyroscope", "--out=-d/g.png"], cwd: dir)
        #expect(r.status == 0, "\(r)")
        let png = try Data(contentsOf: URL(fileURLWithPath: dir + "/-d/g.png"))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/-d") == ["g.png"])
    }
}
