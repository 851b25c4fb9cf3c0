import Foundation
import Testing

/// `navbench import weallwalk`, `steps`, `turns`, `pdr`, `trace add-annotations` and `psd
/// --magnitude` as a user runs them, on the bundled WeAllWalk walks (Datasets/real/weallwalk).
@Suite struct PedestrianCLITests {
    let walks = ["T1_ID2_1L_WC", "T1_ID3_1L_WC", "T1_ID1_1L_GD", "T1_ID4_1L_GD", "T1_ID11_1L_NA", "T1_ID12_1L_NA"].map {
        repoRoot + "/Datasets/real/weallwalk/\($0).h5"
    }

    func temporary(_ label: String = #function) -> String {
        let d = NSTemporaryDirectory() + "navbench-cli-\(label.filter(\.isLetter))-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    /// --out: one step per row, time in seconds first; --json lists the same steps; the score line
    /// names the hand-annotated heel strikes; --annotate writes a trace whose detected_steps are them.
    @Test func stepsWritesCSVJSONAndAnAnnotatedTrace() throws {
        let dir = temporary()
        let r = try navbench(["steps", walks[0], "--out", dir + "/s.csv", "--annotate", dir + "/a.h5"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("steps (peak/magnitude filter=kalman:q=1,r=4") && r.out.contains("hand-annotated heel strikes"))
        let csv = try String(contentsOfFile: dir + "/s.csv", encoding: .utf8).split(separator: "\n")
        #expect(csv[0] == "time_s")
        let times = csv.dropFirst().map { Double($0)! }
        let j = try navbench(["steps", walks[0], "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(j.out.utf8)) as! [String: Any]
        #expect((json["steps"] as! [Double]) == times)
        #expect((json["score"] as! [String: Any])["true_steps"] as? Int ?? 0 > 100)
        let exported = try navbench(["export", "csv", dir + "/a.h5", "--stream", "annotations/detected_steps", "--out", "-"])
        #expect(exported.status == 0)
        let exportedTimes: [Double] = exported.out.split(separator: "\n").dropFirst().map { (line: Substring) -> Double in
            Double(line.split(separator: ",")[0])!
        }
        #expect(exportedTimes == times)
    }

    @Test func turnsPrintsAndScores() throws {
        let r = try navbench(["turns", walks[0]])
        #expect(r.status == 0)
        #expect(r.out.contains("against 3 annotated turns"))
        let bad = try navbench(["turns", walks[0], "--onset=-5"])
        #expect(bad.status == 64 && bad.err.contains("onset rate"))
    }

    /// The report on the six walks: Findings first, n in subjects, every file written; a walk
    /// without annotations is listed as a failure and the rest go on (exit 1).
    @Test func pdrReportsAndListsFailures() throws {
        let dir = temporary()
        let r = try navbench(["pdr"] + walks + ["--out", dir + "/report", "--detectors", "default"])
        #expect(r.status == 0, "\(r.err)")
        let summary = try String(contentsOfFile: dir + "/report/summary.md", encoding: .utf8)
        #expect(summary.hasPrefix("# Step and turn detection on annotated walks\n\n## Findings\n"))
        #expect(summary.contains("n = 2 subjects"))
        for f in ["steps.csv", "subjects.csv", "loso.csv", "turns.csv"] { #expect(FileManager.default.fileExists(atPath: dir + "/report/" + f)) }
        let unannotated = try navbench([
            "pdr", walks[0], repoRoot + "/Datasets/R1-corridor_recording.h5", "--out", dir + "/r2", "--detectors", "default",
        ])
        #expect(unannotated.status == 1)
        #expect(unannotated.err.contains("R1-corridor_recording.h5: /imu: no imu stream") || unannotated.err.contains("no annotation stream"))
        #expect(try String(contentsOfFile: dir + "/r2/summary.md", encoding: .utf8).contains("## Failures (1)"))
    }

    @Test func importWeAllWalkFromTheCommandLine() throws {
        let dir = temporary()
        let csv = repoRoot + "/Tests/NavImportTests/Fixtures/import/weallwalk/iPhoneSensors_T1_ID3_1L_WC.csv"
        let xml = repoRoot + "/Tests/NavImportTests/Fixtures/import/weallwalk/T1_ID3_WC.xml"
        let r = try navbench(["import", "weallwalk", csv, xml, "--out", dir + "/w.h5"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("imu 300, annotations/steps"))
        #expect(r.err.contains("note:") && r.err.contains("reach past the phone file's samples"))
        let refused = try navbench(["import", "weallwalk", csv, xml, "--out", xml])
        #expect(refused.status == 73)
    }

    /// A lab's CSV of labels becomes an annotation stream; a row that ends before it starts is one line naming it.
    @Test func addAnnotationsFromACSV() throws {
        let dir = temporary()
        try "t,until,what\n3.5,4.0,\"stops, then turns\"\n1.0,1.5,door\n".write(toFile: dir + "/labels.csv", atomically: true, encoding: .utf8)
        let r = try navbench([
            "trace", "add-annotations", walks[0], "--csv", dir + "/labels.csv", "--name", "lab_events", "--source", "our lab",
            "--start", "t", "--end", "until", "--label", "what", "--out", dir + "/l.h5",
        ])
        #expect(r.status == 0, "\(r.err)")
        let inspect = try navbench(["inspect", dir + "/l.h5"])
        #expect(inspect.out.contains("annotations/lab_events: 2 intervals, starts 1…3.5 s; source: our lab"))
        try "t,until\n2,1\n".write(toFile: dir + "/bad.csv", atomically: true, encoding: .utf8)
        let bad = try navbench([
            "trace", "add-annotations", walks[0], "--csv", dir + "/bad.csv", "--name", "x", "--source", "s", "--start", "t", "--end", "until",
            "--out", dir + "/b.h5",
        ])
        #expect(bad.status == 1 && bad.err == "navbench: error: \(dir)/bad.csv: line 2: the interval ends (1 s) before it starts (2 s)\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/b.h5"))
    }

    /// `walker fit --imu`: per community the estimates in walker fit's JSON shape, n = subjects.
    @Test func walkerFitFromAnnotatedWalks() throws {
        let r = try navbench(["walker", "fit", "--imu"] + walks + ["--json"])
        #expect(r.status == 0, "\(r.err)")
        let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        let communities = json["communities"] as! [[String: Any]]
        #expect(communities.map { $0["aid"] as! String } == ["cane", "guide-dog", "sighted"])
        let cadence = (communities[0]["estimates"] as! [[String: Any]]).first { $0["key"] as? String == "cadence" }!
        #expect(cadence["n"] as? Int == 2 && cadence["unit"] as? String == "steps/s")
        for k in ["value", "low", "high", "method"] { #expect(cadence[k] != nil) }
        let dir = temporary()
        let refused = try navbench(["walker", "fit", "--imu", walks[0], "--out", dir + "/p.yaml"])
        #expect(refused.status == 64 && refused.err.contains("--aid"))
        // --out with --aid: a profile file a simulation reads, never replacing an input.
        let written = try navbench(["walker", "fit", "--imu"] + walks + ["--aid", "cane", "--out", dir + "/cane.yaml"])
        #expect(written.status == 0, "\(written.err)")
        let profile = try String(contentsOfFile: dir + "/cane.yaml", encoding: .utf8)
        #expect(profile.hasPrefix("navbench_walker: 1\nbase: \"cane\"\nparameters:\n  speed: {value: "))
        #expect(profile.contains("subjects 2, 3; data: WeAllWalk (Flores & Manduchi") && profile.contains("CC BY 4.0"))
        let simulated = try navbench([
            "simulate", repoRoot + "/Datasets/venue/B2-lobby_recording.h5", "--walker", "@" + dir + "/cane.yaml", "--runs", "2",
        ])
        #expect(simulated.status == 0, "\(simulated.err)")
        let input = try navbench(["walker", "fit", "--imu"] + walks + ["--aid", "cane", "--out", walks[0]])
        #expect(input.status == 73 && input.err.contains("inputs are never modified"))
        let ownProfile = try navbench(
            ["walker", "fit", "--imu"] + walks + ["--aid", "cane", "--profile", "@" + dir + "/cane.yaml", "--out", dir + "/cane.yaml"])
        #expect(ownProfile.status == 73 && ownProfile.err.contains("inputs are never modified"))
        #expect(try String(contentsOfFile: dir + "/cane.yaml", encoding: .utf8) == profile)
    }

    /// `walker validate`: the table (header, a row per aid and quantity measured on the real
    /// walks), byte-identical on rerun, and one line for a bad walker or walks without a sighted
    /// one to shape the corridor. WalkerValidationTests checks the numbers.
    @Test func walkerValidatePrintsTheTable() throws {
        let r = try navbench(["walker", "validate"] + walks + ["--subjects", "3"])
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("| aid | quantity | unit | real subjects | real mean [95 % CI] (n) |") == true)
        for aid in ["cane", "guide-dog", "sighted"] {
            #expect(lines.contains { $0.hasPrefix("| \(aid) | `cadence` | steps/s | ") && $0.contains("(3) |") })
            #expect(lines.filter { $0.hasPrefix("| \(aid) | ") }.count == 8)  // path T1 has 90° turns only
        }
        #expect(try navbench(["walker", "validate"] + walks + ["--subjects", "3"]).out == r.out)
        let bad = try navbench(["walker", "validate", walks[0], "--walker", "wheelchair=cane"])
        #expect(bad.status == 64 && bad.err.contains("expected AID=WALKER"))
        let noSighted = try navbench(["walker", "validate", walks[0]])
        #expect(noSighted.status == 1 && noSighted.err.hasSuffix("the corridors are shaped from them\n"))
    }

    @Test func psdOnTheMagnitudeSaysWhatItsPeakIs() throws {
        let r = try navbench(["psd", walks[0], "--stream", "imu/accelerometer", "--magnitude"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("magnitude: ") && r.out.contains("half of it"))
        let edge = try navbench(["psd", walks[0], "--stream", "imu/accelerometer", "--band", "0.1,0.6"])
        #expect(edge.out.contains("at the band's edge"))
        let scalar = try navbench(["psd", walks[0], "--stream", "imu/timestamps", "--magnitude"])
        #expect(scalar.status != 0)
    }
}
