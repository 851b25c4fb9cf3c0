import Foundation
import NavCore
import NavSynth
import NavTestSupport
import Testing

@testable import NavIO

/// TUM, KITTI, EuRoC and trace-HDF5 trajectories: round trips, detection, exact number
/// parsing, and one clear line per malformed input.
@Suite struct TrajectoryFormatTests {
    /// A gzip "bomb": 96 MiB of zero bytes compress about 1000:1; reading it stops at the
    /// ratio bound with one line instead of inflating it all (it used to take 3 GB for 1 GiB).
    @Test func gzipBombIsRefusedByItsRatio() throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/bomb.tum", contents: Data(count: 96 << 20)))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-1", dir + "/bomb.tum"]
        try gzip.run()
        gzip.waitUntilExit()
        #expect(gzip.terminationStatus == 0)
        let e = #expect(throws: TraceError.self) { _ = try readTrajectory(at: dir + "/bomb.tum.gz") }
        #expect(e?.file == dir + "/bomb.tum.gz" && e?.problem.contains("inflates more than 100:1") == true, "\(String(describing: e))")
    }

    func write(_ text: String, _ name: String, in dir: String) -> String {
        let p = dir + "/" + name
        try! text.write(toFile: p, atomically: true, encoding: .utf8)
        return p
    }

    static let sample: Trajectory = {
        var rng = SeededRandom(seed: 3)
        let t = (0..<50).map { 1_700_000_000 + 0.01 * Double($0) + rng.uniform(0, 0.001) }
        let poses = t.indices.map { _ in
            Pose(
                rotation: Quaternion(x: rng.gaussian(), y: rng.gaussian(), z: rng.gaussian(), w: rng.gaussian()).normalized,
                translation: Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 10)
        }
        return try! Trajectory(timestamps: t, poses: poses)
    }()

    func same(_ a: Trajectory, _ b: Trajectory, tolerance: Double = 0, stamps: Bool = true) {
        #expect(a.count == b.count)
        for i in 0..<min(a.count, b.count) {
            if stamps { #expect(abs(a.timestamps[i] - b.timestamps[i]) <= tolerance * max(1, abs(a.timestamps[i]))) }
            #expect((a.poses.values[i].translation - b.poses.values[i].translation).norm <= tolerance * 10)
            let qa = a.poses.values[i].rotation, qb = b.poses.values[i].rotation
            #expect(abs(abs(qa.x * qb.x + qa.y * qb.y + qa.z * qb.z + qa.w * qb.w) - 1) <= max(tolerance, 1e-15))
        }
    }

    @Test func roundTripsAndDetection() throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try writeTUM(Self.sample, to: dir + "/a.tum")
        let tum = try readTrajectory(at: dir + "/a.tum")
        #expect(tum.format == .tum && tum.hasTimestamps)
        same(tum.trajectory, Self.sample)  // shortest round-trip text: bit-identical
        try writeKITTI(Self.sample, to: dir + "/a.kitti", timesPath: dir + "/times.txt")
        let kitti = try readTrajectory(at: dir + "/a.kitti", timesPath: dir + "/times.txt")
        #expect(kitti.format == .kitti && kitti.hasTimestamps)
        same(kitti.trajectory, Self.sample, tolerance: 1e-14)
        let noTimes = try readTrajectory(at: dir + "/a.kitti")
        #expect(!noTimes.hasTimestamps && noTimes.trajectory.timestamps[3] == 3)
        try writeEuRoC(Self.sample, to: dir + "/a.csv")
        let euroc = try readTrajectory(at: dir + "/a.csv")
        #expect(euroc.format == .euroc)
        same(euroc.trajectory, Self.sample, tolerance: 1e-9)
        // Content detection for a neutral extension.
        try FileManager.default.copyItem(atPath: dir + "/a.tum", toPath: dir + "/tum.txt")
        try FileManager.default.copyItem(atPath: dir + "/a.kitti", toPath: dir + "/kitti.txt")
        try FileManager.default.copyItem(atPath: dir + "/a.csv", toPath: dir + "/euroc.txt")
        #expect(try detectTrajectoryFormat(path: dir + "/tum.txt") == .tum)
        #expect(try detectTrajectoryFormat(path: dir + "/kitti.txt") == .kitti)
        #expect(try detectTrajectoryFormat(path: dir + "/euroc.txt") == .euroc)
    }

    @Test func traceStreams() throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = synthesizeVenue(seed: 4)[1].session
        try writeTrace(s, to: dir + "/s.h5")
        let gt = try readTrajectory(at: dir + "/s.h5")
        #expect(gt.stream == "groundtruth" && gt.trajectory.count == s.groundTruth!.timestamps.count)
        let vio = try readTrajectory(at: dir + "/s.h5", stream: "vio")
        #expect(vio.stream == "vio" && vio.trajectory.timestamps == s.vio!.timestamps)
        #expect(throws: TraceError.self) { try readTrajectory(at: dir + "/s.h5", stream: "imu") }
    }

    @Test func numbersAreCorrectlyRounded() {
        // The fast path and the strtod fallback against Swift's own (correctly rounded) parser.
        var rng = SeededRandom(seed: 9)
        var texts = [
            "0", "-0.0", "1e5", "1E-5", "+2.5", "123456789012345678901234", "0.000000000000000000001",
            "1700000000.000314", "0.009582237", "9007199254740993", "4.9406564584124654e-324", "1.7976931348623157e308",
            "2.2250738585072011e-308", "0.1", "3.14159265358979323846264338327950288",
        ]
        for _ in 0..<5000 {
            let v = rng.gaussian() * pow(10, Double(Int(rng.uniform(-12, 12))))
            texts.append(String(format: "%.\(Int(rng.uniform(0, 18)))f", v))
            texts.append(String(format: "%.\(Int(rng.uniform(1, 17)))e", v))
            texts.append("\(v)")
        }
        for s in texts {
            let bytes = Array(s.utf8)
            let ours = bytes.withUnsafeBufferPointer { parseDecimal($0) }
            #expect(ours?.bitPattern == Double(s)?.bitPattern, "\(s)")
        }
        for bad in ["", "-", "1.2.3", "1e", "abc", "0x10", "1,5", "--1", "1e+"] {
            #expect(Array(bad.utf8).withUnsafeBufferPointer { parseDecimal($0) } == nil, "\(bad)")
        }
    }

    @Test func malformedLinesAreOneClearLine() throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = "1 0 0 0 0 0 0 1\n"
        let cases: [(String, String, String)] = [
            ("field.tum", "# c\n" + good + "2 0 0 abc 0 0 0 1\n", "line 3: field 4 (tz): expected a number, found \"abc\""),
            ("count.tum", good + "2 0 0 0 0 0 1\n", "line 2: expected 8 fields like the first data line, found 7"),
            ("first.tum", "1 2 3\n", "line 1: expected 8 numbers (timestamp tx ty tz qx qy qz qw) for TUM, found 3 fields"),
            ("zeroq.tum", good + "2 0 0 0 0 0 0 0\n", "line 2: quaternion (qx qy qz qw) has zero norm; expected a rotation"),
            (
                "order.tum", good + "\n2 0 0 0 0 0 0 1\n1.5 0 0 0 0 0 0 1\n",
                "line 4: expected non-decreasing timestamps (repeats are accepted); 1.5 is before 2.0 (line 3)"
            ),
            ("nan.tum", good + "2 nan 0 0 0 0 0 1\n", "line 2: field 2 (tx): expected a finite number, found nan"),
            ("empty.tum", "", "empty file (0 bytes), expected TUM lines: timestamp tx ty tz qx qy qz qw"),
            ("comments.tum", "# only\n\n", "no data lines (only blank or # comment lines), expected TUM rows"),
            (
                "rot.kitti", "1 0 0 0 0 1 0 0 0 0 2 0\n",
                "line 1: fields r11…r33 are not a rotation (max |R·Rᵀ − I| = 3.0, det = 2.0); expected an orthonormal matrix with det +1"
            ),
        ]
        for (name, text, problem) in cases {
            let p = write(text, name, in: dir)
            do {
                _ = try readTrajectory(at: p)
                Issue.record("\(name): expected an error")
            } catch {
                #expect(error.description == "\(p): \(problem)", "\(name)")
                #expect(!error.description.contains("\n"))
            }
        }
        #expect(throws: TraceError.self) { try readTrajectory(at: dir + "/missing.tum") }
        let k = write("1 0 0 0 0 1 0 0 0 0 1 0\n", "k.kitti", in: dir)
        let t = write("0\n1\n", "t.txt", in: dir)
        do { _ = try readTrajectory(at: k, timesPath: t); Issue.record("expected an error") } catch {
            #expect(error.description == "\(t): expected one timestamp per pose of \(k) (1), found 2")
        }
        let unknown = write("1 2 3 4 5\n", "x.txt", in: dir)
        do { _ = try readTrajectory(at: unknown); Issue.record("expected an error") } catch {
            #expect(error.description.hasPrefix("\(unknown): line 1: cannot tell the trajectory format: 5 fields"))
        }
    }
}
