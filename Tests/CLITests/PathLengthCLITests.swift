import Foundation
import Testing

/// `inspect` prints a pose stream's path length and mean speed (issue 52, item 7: evo_traj's
/// basics needed `export csv` + awk). Reference: evo 1.38.1 (`evo_traj tum` on `navbench export
/// tum Datasets/R1-corridor_nav1.h5 --stream vio`, `PoseTrajectory3D.path_length`), read from its
/// TUM text of 9 significant digits, so agreement is asked to 1e-6 m.
@Suite struct PathLengthCLITests {
    @Test func vioPathLengthEqualsEvos() throws {
        let r = try navbench(["inspect", "--json", repoRoot + "/Datasets/R1-corridor_nav1.h5"])
        #expect(r.status == 0)
        let files = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]])
        let streams = try #require(files.first?["streams"] as? [[String: Any]])
        let vio = try #require(streams.first { $0["name"] as? String == "vio" })
        let length = try #require(vio["pathLengthMetres"] as? Double)
        #expect(abs(length - 33.40504878951961) < 1e-6, "\(length)")
        #expect(streams.first { $0["name"] as? String == "imu" }?["pathLengthMetres"] == nil)
        let text = try navbench(["inspect", repoRoot + "/Datasets/R1-corridor_nav1.h5"]).out
        #expect(text.contains("  vio: 840 samples, 33.56 s, 25 Hz mean, largest gap 0.04 s\n    path length 33.405 m, mean speed 0.9954 m/s\n"))
    }
}
