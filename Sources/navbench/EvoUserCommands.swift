import ArgumentParser
import Foundation
import NavGeometry
import NavIO
import NavMetrics
import NavReport

extension PlotPlane: ExpressibleByArgument {}
extension ResultsFormat: ExpressibleByArgument {}

/// `--save-results` and `--plot` of `ape` and `rpe`.
struct EvaluationOutputOptions: ParsableArguments {
    @Option(name: .customLong("save-results"), help: "Folder for per-pair results: stats.json, errors.csv/json, poses.csv/json (aligned estimate), aligned.h5.")
    var saveResults: String?
    @Option(help: "Write an SVG: the trajectories coloured by error, and the error over time.")
    var plot: String?
    @Option(name: .customLong("plot-plane"), help: "Plane of --plot: xy, xz, yz, zx, yx, zy (default: the floor plane of the up axis).")
    var plotPlane: PlotPlane?

    func validate() throws {
        if let plot, !plot.lowercased().hasSuffix(".svg") { throw ValidationError("--plot writes SVG; give a file name ending in .svg, got \(plot)") }
        if plotPlane != nil && plot == nil { throw ValidationError("--plot-plane needs --plot FILE.svg") }
    }

    func plane(_ p: PreparedPair) -> PlotPlane {
        plotPlane ?? PlotPlane.floor(of: p.settings.upAxis ?? resolveUpAxis(nil, reference: p.reference).0)
    }

    func write(_ r: APEReport, _ p: PreparedPair) throws {
        if let dir = saveResults { try runReport { () throws(EvaluationError) in try saveEvaluation(r, pair: p, to: dir) } }
        if let plot { try writePlot(errorPlotSVG(ErrorPlotData(r, pair: p, plane: plane(p))), plot) }
    }

    func write(_ r: RPEReport, _ p: PreparedPair) throws {
        if let dir = saveResults { try runReport { () throws(EvaluationError) in try saveEvaluation(r, pair: p, to: dir) } }
        if let plot { try writePlot(errorPlotSVG(ErrorPlotData(r, pair: p, plane: plane(p))), plot) }
    }

    private func writePlot(_ svg: String, _ path: String) throws {
        do { try writeTextAtomically(svg, to: path) } catch {
            printError("navbench: error: \(error)")
            throw ExitCode(1)
        }
    }
}

struct ResCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "res",
        abstract: "Tabulate saved APE/RPE results side by side (as evo_res), with box plots.",
        discussion: """
            Each RESULT is a folder written by `navbench ape|rpe --save-results` (or its stats.json). The table \
            has one row per result: name (the estimate's file name), metric, relation, unit, pairs and evo's \
            statistics, read from stats.json (the --json output, unchanged). --json prints those reports as one array.
            """)

    @Argument(help: "Result folders written by --save-results.") var results: [String]
    @Option(help: "Table format: table, csv, markdown.") var format: ResultsFormat = .table
    @Option(help: "Write the table to this file as well (atomically).") var out: String?
    @Option(help: "Write box plots of the errors to this SVG file.") var plot: String?
    @Flag(help: "Print the saved --json reports as one JSON array.") var json = false

    func validate() throws {
        guard !results.isEmpty else { throw ValidationError("give at least one result folder (navbench ape … --save-results DIR)") }
        if let plot, !plot.lowercased().hasSuffix(".svg") { throw ValidationError("--plot writes SVG; give a file name ending in .svg, got \(plot)") }
    }

    func run() throws {
        var loaded: [SavedEvaluation] = []
        var failures: [String] = []
        for r in results {
            do { loaded.append(try loadSavedEvaluation(r)) } catch {
                printError("navbench: error: \(error)")
                failures.append(r)
            }
        }
        if !loaded.isEmpty {
            let text = json ? "[\n" + loaded.map(\.statsJSON).joined(separator: ",\n") + "\n]\n" : resultsTable(loaded, format: format)
            print(text, terminator: "")
            do {
                if let out { try writeTextAtomically(text, to: out) }
                if let plot { try writeTextAtomically(resultsBoxPlotSVG(loaded), to: plot) }
            } catch {
                printError("navbench: error: \(error)")
                throw ExitCode(1)
            }
        }
        if !failures.isEmpty {
            printError("navbench: \(failures.count) of \(results.count) results could not be read: \(failures.joined(separator: ", "))")
            throw ExitCode(1)
        }
    }
}
