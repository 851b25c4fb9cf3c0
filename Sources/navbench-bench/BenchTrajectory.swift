import ArgumentParser
import Foundation
import NavCore
import NavGeometry
import NavIO
import NavMetrics
import NavReport

// Timings of navbench on the peer-bench trajectory and path workloads, beside evo's and
// simplification's rows of bench_peers.py. One JSON object per line: id, median_s, runs and
// a `check` block with the numbers to compare against evo_reference.json / baseline.json.

/// SHA-256 of little-endian int64 values (numpy's `astype('<i8').tobytes()`).
func sha256Int64(_ ids: [Int]) -> String {
    var data = Data(capacity: ids.count * 8)
    for i in ids { withUnsafeBytes(of: Int64(i).littleEndian) { data.append(contentsOf: $0) } }
    return sha256Hex(of: data)
}

func statisticsJSON(_ s: ErrorStatistics) -> [String: Double] {
    ["rmse": s.rmse, "mean": s.mean, "median": s.median, "std": s.std, "min": s.min, "max": s.max, "sse": s.sse]
}

/// One benchmark row as a JSON line.
func benchRow(_ id: String, _ timing: (median: Double, all: [Double]), what: String, check: [String: Any] = [:]) throws -> String {
    try jsonLine([
        "id": id, "median_s": timing.median, "runs_s": timing.all, "repeats": timing.all.count,
        "what": what, "check": check,
    ])
}

struct BenchDataOptions: ParsableArguments {
    @Option(help: "peer-bench workload folder (make_workload.py output).") var data: String
    @Option(help: "Timed repeats (after one warm-up).") var repeats: Int = 5

    func validate() throws {
        try checkRepeats(repeats)
    }

    func path(_ name: String) -> String { (data as NSString).appendingPathComponent(name) }
}

struct BenchAPE: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ape",
        abstract: "Read groundtruth.tum + estimate.tum, associate (0.01 s), SE(3) Umeyama, APE translation + statistics (as evo_ape_end_to_end).")

    @OptionGroup var options: BenchDataOptions

    func run() throws {
        let ref = TrajectorySource(path: options.path("groundtruth.tum")), est = TrajectorySource(path: options.path("estimate.tum"))
        let settings = EvaluationSettings(alignment: .se3)
        var report: APEReport?
        let e2e = try medianSeconds(repeats: options.repeats) {
            report = try evaluateAPE(reference: ref, estimate: est, relation: .translationPart, settings: settings)
        }
        // Stages, as bench_peers.py times them.
        var files: (TrajectoryFile, TrajectoryFile)?
        let load = try medianSeconds(repeats: options.repeats) {
            files = (try readTrajectory(at: ref.path), try readTrajectory(at: est.path))
        }
        var assoc: AssociatedTrajectories?
        let sync = try medianSeconds(repeats: options.repeats) {
            assoc = try associate(reference: files!.0.trajectory, estimate: files!.1.trajectory, maxDifference: 0.01)
        }
        let ape = try medianSeconds(repeats: options.repeats) {
            let a = assoc!
            let t = try alignmentTransform(reference: a.reference, estimate: a.estimate, method: .se3)
            _ = try ErrorStatistics(try absolutePoseErrors(reference: a.reference, estimate: t.apply(to: a.estimate), relation: .translationPart))
        }
        let r = report!
        // Untimed: the rotation statistics and sample errors the oracle lists.
        let p = try prepareTrajectoryPair(reference: ref, estimate: est, settings: settings)
        let rot = try apeReport(p, relation: .rotationAngleDeg, settings: settings)
        var samples: [String: Double] = [:]
        for i in [0, 1, 10, 100, 1000, 10000, 100000, r.pairs - 1] where i < r.pairs { samples[String(i)] = r.errors[i] }
        let check: [String: Any] = [
            "pairs": r.pairs, "translation_m": statisticsJSON(r.statistics), "rotation_angle_deg": statisticsJSON(rot.statistics),
            "alignment": [
                "rotation": r.alignment.rotation.rows,
                "translation": [r.alignment.translation.x, r.alignment.translation.y, r.alignment.translation.z],
                "scale": r.alignment.scale,
            ],
            "error_samples": samples,
        ]
        print(
            try benchRow(
                "navbench_ape_end_to_end", e2e, what: "evaluateAPE: read both TUM files, associate, SE(3) Umeyama, APE translation, statistics",
                check: check))
        print(try benchRow("navbench_load_tum_pair", load, what: "readTrajectory x2 (200k poses each)"))
        print(try benchRow("navbench_sync_associate", sync, what: "associate(maxDifference: 0.01), evo's nearest rule"))
        print(try benchRow("navbench_ape_align_se3_translation", ape, what: "Umeyama SE(3) + apply + APE translation + statistics"))
    }
}

struct BenchRPE: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rpe",
        abstract: "Read + associate + RPE translation, delta 1 m (as evo_rpe_1m_end_to_end) and 100 frames; pairs on the estimate as evo.")

    @OptionGroup var options: BenchDataOptions

    func run() throws {
        let ref = TrajectorySource(path: options.path("groundtruth.tum")), est = TrajectorySource(path: options.path("estimate.tum"))
        let settings = EvaluationSettings(alignment: .none)
        let oneMetre = RPEOptions(delta: 1, unit: .metres), hundredFrames = RPEOptions(delta: 100, unit: .frames)
        var report: RPEReport?
        let e2e = try medianSeconds(repeats: options.repeats) {
            report = try evaluateRPE(reference: ref, estimate: est, relation: .translationPart, options: oneMetre, settings: settings)
        }
        let p = try prepareTrajectoryPair(reference: ref, estimate: est, settings: settings)
        var r1: RPEReport?, r100: RPEReport?
        let m1 = try medianSeconds(repeats: options.repeats) {
            r1 = try rpeReport(p, relation: .translationPart, options: oneMetre, settings: settings)
        }
        let f100 = try medianSeconds(repeats: options.repeats) {
            r100 = try rpeReport(p, relation: .translationPart, options: hundredFrames, settings: settings)
        }
        func check(_ r: RPEReport, _ o: RPEOptions) throws -> [String: Any] {
            let rot = try rpeReport(p, relation: .rotationAngleDeg, options: o, settings: settings)
            let ends = r.pairList.map(\.j)
            return [
                "pairs": r.pairs, "translation_m": statisticsJSON(r.statistics), "rotation_angle_deg": statisticsJSON(rot.statistics),
                "pair_end_ids_first10": Array(ends.prefix(10)), "pair_end_ids_sha256_int64": sha256Int64(ends),
                "error_first5": Array(r.errors.prefix(5)),
            ]
        }
        _ = report
        print(
            try benchRow(
                "navbench_rpe_1m_end_to_end", e2e, what: "evaluateRPE: read both TUM files, associate, RPE translation delta 1 m, statistics",
                check: try check(r1!, oneMetre)))
        print(try benchRow("navbench_rpe_translation_delta_1m", m1, what: "pairs (1 m on the estimate) + RPE translation + statistics"))
        print(
            try benchRow(
                "navbench_rpe_translation_delta_100f", f100, what: "pairs (100 frames) + RPE translation + statistics",
                check: try check(r100!, hundredFrames)))
    }
}

struct BenchRDP: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rdp",
        abstract: "RDP on path.h5's xy points: segment distance on all 1,000,000 (as simplification_1M) and both distances on the first 20,000.")

    @OptionGroup var options: BenchDataOptions

    func run() throws {
        let reader = try HDF5Reader(path: options.path("path.h5"))
        let xyz = try reader.readDoubles("/path/xyz").values
        let n = xyz.count / 3
        let points = (0..<n).map { Vector3(xyz[3 * $0], xyz[3 * $0 + 1], xyz[3 * $0 + 2]) }
        let first20k = Array(points.prefix(20_000))
        for eps in [0.1, 0.5] {
            var kept: [Int] = []
            let full = try medianSeconds(repeats: options.repeats) {
                kept = try ramerDouglasPeucker(points, tolerance: eps, distance: .segment, plane: .xy)
            }
            print(
                try benchRow(
                    "navbench_rdp_segment_1M_eps\(eps)", full, what: "ramerDouglasPeucker(1M xy points, segment distance, \(eps) m)",
                    check: ["kept": kept.count, "kept_idx_sha256": sha256Int64(kept), "kept_idx_first10": Array(kept.prefix(10))]))
            let line = try medianSeconds(repeats: options.repeats) {
                kept = try ramerDouglasPeucker(points, tolerance: eps, distance: .line, plane: .xy)
            }
            print(
                try benchRow(
                    "navbench_rdp_line_1M_eps\(eps)", line, what: "ramerDouglasPeucker(1M xy points, line distance (Clew, rdp), \(eps) m)",
                    check: ["kept": kept.count, "kept_idx_sha256": sha256Int64(kept)]))
            for (distance, name) in [(RDPDistance.segment, "segment"), (.line, "line")] {
                let small = try medianSeconds(repeats: options.repeats) {
                    kept = try ramerDouglasPeucker(first20k, tolerance: eps, distance: distance, plane: .xy)
                }
                print(
                    try benchRow(
                        "navbench_rdp_\(name)_20k_eps\(eps)", small, what: "ramerDouglasPeucker(first 20k xy points, \(name), \(eps) m)",
                        check: ["kept": kept.count, "kept_idx_sha256": sha256Int64(kept)]))
            }
        }
    }
}
