import ArgumentParser
import Foundation
import NavMetrics
import NavReport

// `navbench rpe --protocol kitti|tum-rpe` and `navbench ape --protocol evaal|hilti`: one
// NavReport call (`evaluateProtocol`), the same the tests make (docs/metrics.md, "Protocol presets").

extension EvaluationProtocol: ExpressibleByArgument {}

extension TrajectoryPairOptions {
    /// Runs a preset; `tumDelta` is the rpe command's --delta/--delta-unit when given.
    func runProtocol(_ p: EvaluationProtocol, command: String, tumDelta: (Double, DeltaUnit)? = nil) throws {
        guard p.command == command else {
            printError(
                "navbench: error: --protocol \(p.rawValue) belongs to navbench \(p.command); use navbench \(p.command) --protocol \(p.rawValue)")
            throw ExitCode(1)
        }
        var tum = TUMRPEOptions(offset: offset)
        if let (delta, unit) = tumDelta {
            tum.delta = delta
            tum.unit =
                switch unit {
                case .frames: .f
                case .metres: .m
                case .seconds: .s
                }
        }
        let (ref, est) = sources
        let report = try runReport { () throws(EvaluationError) in
            try evaluateProtocol(p, reference: ref, estimate: est, settings: settings, tum: tum)
        }
        print(json ? try jsonText(report) : report.text, terminator: json ? "\n" : "")
    }
}
