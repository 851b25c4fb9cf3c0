import Foundation
import Testing

/// `navbench simulate`: the documented JSON keys, the same bytes for the same seed, one-line errors.
@Suite(.serialized) struct SimulateCLITests {
    let recording = "Datasets/venue/B1-offices_recording.h5"

    @Test func jsonHasTheDocumentedKeysAndRepeatsBitForBit() throws {
        let args = ["simulate", recording, "--walker", "cane", "--vio-error", "synth,yaw_offset=2", "--runs", "4", "--seed", "7", "--json"]
        let a = try navbench(args, cwd: repoRoot), b = try navbench(args, cwd: repoRoot)
        #expect(a.status == 0 && a.err == "")
        #expect(a.out == b.out)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(a.out.utf8)) as? [String: Any])
        for k in ["success_rate", "end_of_route_error", "runs", "aggregate", "walker", "vio_error", "walls", "seed", "keypoints"] {
            #expect(json[k] != nil, "missing \(k)")
        }
        let runs = try #require(json["runs"] as? [[String: Any]])
        #expect(runs.count == 4)
        for k in ["success", "end_of_route_error", "path_length_ratio", "time_to_complete", "corrections", "wall_contacts", "lost"] {
            #expect(runs.allSatisfy { $0.keys.contains(k) }, "per-run key \(k)")
        }
        let other = try navbench(args.map { $0 == "7" ? "8" : $0 }, cwd: repoRoot)
        #expect(other.out != a.out)
    }

    /// Flags the closed loop cannot honour are refused in one line, never accepted and ignored
    /// (issue 30, item 6: `--registration full` printed the same walks as without it); the
    /// registration flags are honoured: Clew's registration is simulated from anchor sightings, so
    /// the walks change (and a recording without anchor sightings is refused in one line).
    @Test func navigationSessionFlagsChangeTheWalksOrAreRefused() throws {
        let r = try navbench(["simulate", recording, "--runs", "2", "--position-filter", "mean:window=5"], cwd: repoRoot)
        #expect(r.status == 64 && r.out.isEmpty, "\(r.status)")
        #expect(r.err.hasPrefix("navbench: error: --position-filter mean:window=5: the closed loop does not simulate a position filter"), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1)
        let base = ["simulate", "Datasets/venue/B2-lobby_recording.h5", "--walker", "cane", "--runs", "20", "--json"]
        let perfect = try navbench(base, cwd: repoRoot)
        #expect(perfect.status == 0, "\(perfect.err)")
        var outputs = Set([perfect.out])
        for extra in [["--registration", "gravity-aligned"], ["--registration", "full"], ["--anchor-sightings", "1"]] {
            let o = try navbench(base + extra, cwd: repoRoot)
            #expect(o.status == 0, "\(extra): \(o.err)")
            outputs.insert(o.out)
        }
        #expect(outputs.count == 4, "each registration choice walks otherwise")
        let noAnchor = try navbench(["simulate", "Datasets/real/arkit-data-logger/ARKit_camera_pose.h5", "--registration", "full"], cwd: repoRoot)
        #expect(noAnchor.status == 1 && noAnchor.err.contains("no anchor sightings in the recording"), "\(noAnchor.err)")
        #expect(noAnchor.err.split(separator: "\n").count == 1)
    }

    @Test func badWalkerIsOneLine() throws {
        let r = try navbench(["simulate", recording, "--walker", "wheelchair"], cwd: repoRoot)
        #expect(r.status == 64)
        #expect(r.err.hasPrefix("navbench: error: walker 'wheelchair': unknown profile 'wheelchair' (expected ideal, cane, guide-dog"))
        #expect(r.err.split(separator: "\n").count == 1)
    }

    /// Real route geometry: a Clew route imported from `.crd` and an ARKit-logger recording of
    /// Datasets/real (no ground truth, no floor plan) are walked in open space with `venue` (the
    /// default) and `none`: the ideal walker arrives without touching a wall; a corridor along the
    /// recorded path is honoured when asked for (a cane walker touches a 0.2 m one), never ignored.
    @Test func realRoutesAreWalkedInOpenSpaceOrTheirCorridor() throws {
        let dir = NSTemporaryDirectory() + "navbench-sim-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let imported = try navbench(
            ["import", "clew-crd", "Tests/NavImportTests/Fixtures/import/clew/route.crd", "--out", dir + "/route.h5"], cwd: repoRoot)
        #expect(imported.status == 0)
        func runs(_ args: [String]) throws -> [[String: Any]] {
            let r = try navbench(["simulate"] + args + ["--json"], cwd: repoRoot)
            #expect(r.status == 0, "\(r.err)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
            return try #require(json["runs"] as? [[String: Any]])
        }
        for file in [dir + "/route.h5", "Datasets/real/arkit-data-logger/ARKit_camera_pose.h5"] {
            for walls in ["venue", "none"] {
                let ideal = try runs([file, "--walker", "ideal", "--runs", "2", "--walls", walls])
                #expect(ideal.allSatisfy { ($0["wall_contacts"] as? Int) == 0 && ($0["success"] as? Bool) == true }, "\(file) \(walls)")
            }
            let open = try runs([file, "--walker", "cane", "--runs", "10", "--walls", "none"])
            let narrow = try runs([file, "--walker", "cane", "--runs", "10", "--walls", "corridor:0.2"])
            #expect(open.allSatisfy { ($0["wall_contacts"] as? Int) == 0 }, "\(file): open space has no walls")
            #expect(narrow.contains { ($0["wall_contacts"] as? Int ?? 0) > 0 }, "\(file): a 0.2 m corridor is touched")
        }
    }

    /// Values no walker or phone has (a typo such as 1e308, a walk of years) are one line and
    /// exit 64 before anything runs; they used to overflow (SIGILL) or hang.
    @Test func absurdWalkerAndVIOErrorValuesAreRefused() throws {
        for (flag, value, message) in [
            ("--walker", "cane:speed=1e308", "walker 'cane:speed=1e308': speed must be from 0.1 to 5, got 1e308"),
            ("--walker", "ideal:speed=0.0001", "walker 'ideal:speed=0.0001': speed must be from 0.1 to 5, got 0.0001"),
            ("--walker", "cane:step_bias=1e308", "walker 'cane:step_bias=1e308': step_bias must be from -90 to 90, got 1e308"),
            ("--vio-error", "scale=1e308", "vio-error 'scale=1e308': scale must be from 0.0 to 0.5, got 1e308"),
            ("--vio-error", "yaw_drift=1e308", "vio-error 'yaw_drift=1e308': yaw_drift must be from 0.0 to 10.0, got 1e308"),
            ("--runs", "100000000", "--runs must be from 1 to 100000, got 100000000"),
        ] {
            let r = try navbench(["simulate", recording, flag, value], cwd: repoRoot)
            #expect(r.status == 64 && r.err == "navbench: error: \(message)\n", "\(flag) \(value): \(r.status) \(r.err)")
        }
    }
}
