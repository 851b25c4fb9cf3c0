import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavProcessPolicy

struct ReadIMU: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-imu",
        abstract: "Open, read /imu/timestamps, /imu/accel, /imu/gyro fully, close (as peer-bench's h5py_read_imu).")

    @Option(help: "peer-bench workload folder (make_workload.py output).") var data: String
    @Option(help: "Timed repeats.") var repeats: Int = 7
    @Option(help: "contiguous, gzip or both.") var layout: String = "both"
    @Flag(help: "Read each file once, untimed, and print its bytes (a whole process for peak RSS: scripts/bench-h5-rss.sh).")
    var once = false

    func validate() throws {
        try checkRepeats(repeats)
        guard ["contiguous", "gzip", "both"].contains(layout) else { throw ValidationError("--layout \(layout): expected contiguous, gzip or both") }
    }

    func run() throws {
        var rows: [String] = []
        let all = [("navbench_read_imu", "imu.h5", "contiguous"), ("navbench_read_imu_gzip", "imu_gzip.h5", "gzip")]
        for (id, name, kind) in all where layout == "both" || layout == kind {
            let path = (data as NSString).appendingPathComponent(name)
            if once {
                rows.append(try jsonLine(["id": id, "bytes": try readOnce(path)]))
                continue
            }
            var bytes = 0
            var faults = 0
            let (m, runs) = try medianSeconds(repeats: repeats) {
                let f0 = minorPageFaults()
                defer { faults = minorPageFaults() - f0 }
                let r = try HDF5Reader(path: path)
                let t = try r.readDoubles("/imu/timestamps").values
                let a = try r.readDoubles("/imu/accel").values
                let g = try r.readDoubles("/imu/gyro").values
                bytes = 8 * (t.count + a.count + g.count)
            }
            rows.append(
                try jsonLine([
                    "id": id, "median_s": m, "mb_per_s": Double(bytes) / 1e6 / m, "bytes": bytes, "repeats": repeats, "runs": runs,
                    "minor_faults_last_read": faults,
                ]))
        }
        print(rows.joined(separator: "\n"))
    }

    /// Opens `path`, reads the three datasets fully (all three held at once, as h5py's
    /// `f['imu/timestamps'][:]` etc.), closes; the bytes read.
    func readOnce(_ path: String) throws -> Int {
        let r = try HDF5Reader(path: path)
        let t = try r.readDoubles("/imu/timestamps").values
        let a = try r.readDoubles("/imu/accel").values
        let g = try r.readDoubles("/imu/gyro").values
        return withExtendedLifetime((t, a, g)) { 8 * (t.count + a.count + g.count) }
    }
}
