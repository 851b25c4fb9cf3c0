import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavPipeline
import NavReport
import NavSignal
import NavSpectral

/// Where a series comes from: a CSV column or a trace dataset.
struct SeriesSource: ParsableArguments {
    @Argument(help: "Input file: a CSV with a header row, or a trace file (.h5).") var input: String
    @Option(help: "CSV column to process.") var column: String?
    @Option(help: "Trace dataset to process, e.g. imu/accelerometer or compass/heading.") var stream: String?
    @Option(help: "Sample rate in Hz (default: from the timestamps).") var rate: Double?
    @Option(help: "CSV column with sample times in seconds (default: k / rate).") var timeColumn: String?
    @Flag(help: "Process the vector magnitude ‖v‖ of a vector dataset (--stream imu/accelerometer) instead of its columns.")
    var magnitude = false

    func validate() throws {
        if (column == nil) == (stream == nil) { throw ValidationError("give exactly one of --column (CSV) or --stream (trace file)") }
        if magnitude && stream == nil { throw ValidationError("--magnitude needs --stream with a vector dataset (imu/accelerometer, …)") }
        if let rate, !(rate > 0 && rate.isFinite && (1 / rate).isFinite) {
            throw ValidationError("--rate must be a positive number of Hz with a finite period, got \(rate)")
        }
    }

    var isTrace: Bool { stream != nil }

    func load() throws -> [NamedSeries] {
        if let stream {
            let columns = try traceSeries(input, dataset: stream)
            guard magnitude else { return columns }
            guard let m = vectorMagnitude(columns) else {
                throw ValidationError("--magnitude: /\(stream) has \(columns.count) column(s); expected a vector dataset")
            }
            return [m]
        }
        return [try csvSeries(try CSVTable.read(input), column: column!, timeColumn: timeColumn, rate: rate)]
    }
}

struct Filter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Filter a CSV column or a trace stream with a filter spec.",
        discussion: """
            Specs: mean[:window=N[,centred]], circmean[:window=N], ema:tau=S | ema:cutoff=HZ,
            butter:order=N,cutoff=HZ[,type=low|high][,zero-phase][,ba], butter:order=N,low=HZ,high=HZ,type=band,
            kalman:q=Q,r=R, kalman-cv:q=Q,r=R, kalman-heading:q=Q,r=R; add ',angle' to filter degrees on (sin, cos);
            exec:PROGRAM ARG… runs your program on a CSV column (t,value on stdin and stdout; docs/extending.md).
            CSV in → CSV out with the same rows plus the filtered column; trace in → trace out with the stream replaced.
            """)

    @Option(help: "Filter spec, e.g. butter:order=4,cutoff=5,zero-phase.") var spec: String
    @Option(help: "Output file (.csv for CSV input, .h5 for trace input).") var out: String
    @Option(name: .customLong("as"), help: "Name of the added CSV column (default: COLUMN_filtered).") var outputColumn: String?
    @Flag(help: "The CSV column holds angles in degrees: filter on (sin, cos).") var angle = false
    @Option(help: "Compression of the output trace's large datasets: none or gzip:N (N 1-9; default \(HDF5Compression.filterDefault)).")
    var compression: String?
    @Option(help: "Seconds one exec: plugin call may take.") var pluginTimeout: Double = ExecPlugin.defaultTimeout
    @OptionGroup var source: SeriesSource

    func validate() throws {
        guard pluginTimeout.isFinite, pluginTimeout > 0, pluginTimeout <= ExecPlugin.maximumTimeout else {
            throw ValidationError(
                "--plugin-timeout \(pluginTimeout): expected seconds in (0, \(Int(ExecPlugin.maximumTimeout))] (as the spec's plugin_timeout)")
        }
        if spec.hasPrefix("exec:") {
            do { _ = try ExecPlugin(parsing: spec, timeout: pluginTimeout) } catch { throw ValidationError(error.description) }
            if source.isTrace || angle { throw ValidationError("--spec \(spec): an exec: plugin filters a CSV column (--column), without --angle") }
            return
        }
        do { _ = try FilterSpec(parsing: spec) } catch { throw ValidationError(error.description) }
        if let compression {
            do { _ = try HDF5Compression(parsing: compression) } catch { throw ValidationError(error.description) }
            if !source.isTrace { throw ValidationError("--compression applies to trace output (--stream); CSV output is text") }
        }
        if source.isTrace && out.hasSuffix(".csv") && !source.magnitude {
            throw ValidationError("--out \(out): trace input writes a trace file (.h5); with --magnitude it writes CSV")
        }
        if source.magnitude && !out.hasSuffix(".csv") {
            throw ValidationError("--out \(out): --magnitude writes a CSV (t_s, magnitude, magnitude_filtered); name a .csv file")
        }
    }

    func run() throws {
        try checkOutput(out)
        if let plugin = try ExecPlugin(parsing: spec, timeout: pluginTimeout) {
            let bytes = try filterCSVBytes(
                try CSVTable.read(source.input), spec: plugin, column: source.column!,
                outputColumn: outputColumn ?? source.column! + "_filtered", timeColumn: source.timeColumn, rate: source.rate)
            try writeBytesAtomically(bytes, to: out)
            print(out)
            return
        }
        var filter = try FilterSpec(parsing: spec)
        if angle && !filter.flags.contains("angle") { filter = try FilterSpec(parsing: spec + (spec.contains(":") ? ",angle" : ":angle")) }
        let command = "navbench filter --spec \(spec) --stream \(source.stream ?? "") \(fileName(of: source.input))"
        if source.magnitude {
            let m = try source.load()[0]
            let rate = try sampleRate(of: m, given: source.rate)
            let filtered = try filter.apply(m.values, timestamps: m.timestamps, sampleRate: rate)
            var csv = "t_s,magnitude,magnitude_filtered\n"
            for i in m.values.indices { csv += "\(formatNumber(m.timestamps[i])),\(formatNumber(m.values[i])),\(formatNumber(filtered[i]))\n" }
            try writeTextAtomically(csv, to: out)
        } else if let stream = source.stream {
            let level = try compression.map { try HDF5Compression(parsing: $0) } ?? .filterDefault
            try filterTrace(
                input: source.input, output: out, spec: filter, dataset: stream, rate: source.rate, command: command, compression: level,
                readPolicy: commandLineReadPolicy)
        } else {
            let table = try CSVTable.read(source.input)
            let bytes = try filterCSVBytes(
                table, spec: filter, column: source.column!, outputColumn: outputColumn ?? source.column! + "_filtered",
                timeColumn: source.timeColumn, rate: source.rate)
            try writeBytesAtomically(bytes, to: out)
        }
        print(out)
    }
}

struct PSD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "psd",
        abstract: "Welch power spectral density (as scipy.signal.welch) and the dominant frequency.")

    @OptionGroup var source: SeriesSource
    @Option(help: "Segment length (nperseg).") var nperseg = 256
    @Option(help: "density (units²/Hz) or spectrum (units²).") var scaling: String = "density"
    @Option(help: "Write frequency,power rows (one power column per series) to this CSV.") var out: String?
    @Option(help: "Band searched for the dominant frequency, Hz (low,high).") var band: String = "0.5,5"

    func validate() throws {
        guard Welch.Scaling(rawValue: scaling) != nil else { throw ValidationError("--scaling \(scaling): expected density or spectrum") }
        guard nperseg >= 2 else { throw ValidationError("--nperseg must be at least 2, got \(nperseg)") }
        let b = band.split(separator: ",").compactMap { numberFromText($0) }
        guard b.count == 2, b[0] < b[1] else { throw ValidationError("--band \(band): expected LOW,HIGH in Hz with LOW < HIGH") }
    }

    func run() throws {
        try checkOutput(out)
        let series = try source.load()
        let fs = try sampleRate(of: series[0], given: source.rate)
        let b = band.split(separator: ",").compactMap { numberFromText($0) }
        var results: [Welch.Result] = []
        for s in series {
            let r = try Welch.psd(s.values, sampleRate: fs, segmentLength: nperseg, scaling: Welch.Scaling(rawValue: scaling)!)
            results.append(r)
            let dom = SpectralPeak(r, low: b[0], high: b[1]).map { $0.describe(low: b[0], high: b[1]) } ?? "none: no frequency bin in the band"
            print(
                "\(s.name): \(r.segments) segments of \(min(nperseg, s.values.count)) at \(String(format: "%.6g", fs)) Hz; dominant frequency in \(b[0])–\(b[1]) Hz: \(dom)"
            )
        }
        if let out {
            var csv = "frequency_hz," + series.map { "\($0.name)_\(scaling)" }.joined(separator: ",") + "\n"
            for k in results[0].frequencies.indices {
                csv += formatNumber(results[0].frequencies[k]) + "," + results.map { formatNumber($0.power[k]) }.joined(separator: ",") + "\n"
            }
            try writeTextAtomically(csv, to: out)
            if out != "-" { print(out) }
        }
    }
}

struct ADev: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adev",
        abstract: "Overlapping Allan deviation of rate data at octave taus (as allantools.oadev).")

    @OptionGroup var source: SeriesSource
    @Option(help: "Write tau,adev rows (one column per series) to this CSV.") var out: String?

    func run() throws {
        try checkOutput(out)
        let series = try source.load()
        let fs = try sampleRate(of: series[0], given: source.rate)
        let all = try series.map { try AllanDeviation.overlapping(rates: $0.values, sampleRate: fs) }
        func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        print(pad("tau (s)", 12) + series.map { pad($0.name, 16) }.joined())
        for i in all[0].indices {
            print(String(format: "%12.6g", all[0][i].tau) + all.map { String(format: "%16.6e", $0[i].deviation) }.joined())
        }
        if let out {
            var csv = "tau_s," + series.map { "\($0.name)_adev" }.joined(separator: ",") + "\n"
            for i in all[0].indices {
                csv += formatNumber(all[0][i].tau) + "," + all.map { formatNumber($0[i].deviation) }.joined(separator: ",") + "\n"
            }
            try writeTextAtomically(csv, to: out)
            if out != "-" { print(out) }
        }
    }
}

/// `navbench plot`: a stream, a PSD, a heading or trajectories of trace files as SVG, PNG or an
/// accessible HTML page (`streamPlot`, `figurePage`).
struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Plot a trace dataset over time, its PSD, a heading, or trajectories from above — SVG, PNG or HTML.",
        discussion:
            "The kind's facts (per series: samples and min/max/mean, strongest frequency, or path length, duration and mean speed) are printed and, in HTML, a table. PNG is rasterised by rsvg-convert (Debian's librsvg2-bin). docs/experiments.md, \"Plots\"."
    )

    @Argument(help: "Trace files (.h5).") var files: [String]
    @Option(help: "What to draw: timeseries, trajectory, psd or heading.") var kind: String = "timeseries"
    @Option(
        help: "The dataset, e.g. imu/accelerometer (timeseries, psd), compass/heading (heading), vio or groundtruth (trajectory).")
    var stream: String?
    @Flag(help: "Draw the magnitude ‖v‖ of a vector dataset instead of its columns.") var magnitude = false
    @Option(help: "PSD segment length (nperseg).") var nperseg = 256
    @Option(help: "Output: .svg, .png or .html.") var out: String

    func validate() throws {
        guard StreamPlotKind(rawValue: kind) != nil else {
            throw ValidationError("--kind \(kind): expected one of \(StreamPlotKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (1...64).contains(files.count) else { throw ValidationError("give 1 to 64 trace files, got \(files.count)") }
        guard [".svg", ".png", ".html"].contains(where: { out.lowercased().hasSuffix($0) }) else {
            throw ValidationError("--out \(out): expected a .svg, .png or .html file")
        }
        guard (8...1 << 20).contains(nperseg) else { throw ValidationError("--nperseg must be 8…1048576, got \(nperseg)") }
    }

    func run() throws {
        try checkOutput(out)
        let p = try streamPlot(
            files, kind: StreamPlotKind(rawValue: kind)!, dataset: stream, magnitude: magnitude, segmentLength: nperseg,
            readPolicy: commandLineReadPolicy)
        let svg = p.plot.svg
        switch (out as NSString).pathExtension.lowercased() {
        case "html":
            try writeTextAtomically(figurePage(title: p.plot.title, svg: svg, description: p.description, header: p.header, rows: p.rows), to: out)
        case "png":
            try writePNG(svg: svg, to: out)
        default:
            try writeTextAtomically(svg, to: out)
        }
        print(p.header.joined(separator: "\t"))
        for row in p.rows { print(row.map { escapedForMessage($0) }.joined(separator: "\t")) }
    }

    /// The SVG rasterised by rsvg-convert into a temporary file beside `out`, renamed into place.
    func writePNG(svg: String, to out: String) throws {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/rsvg-convert" }
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CommandError.rasteriserMissing
        }
        let png = try StagedOutput(path: out)
        let svgTemp = temporaryPath(beside: out + ".svg"), pngTemp = png.temporary
        defer { unlink(svgTemp); png.discard() }
        try writeTextAtomically(svg, to: svgTemp)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        // A relative path that starts with '-' (--out=-d/x.png) must not read as an option.
        func operand(_ path: String) -> String { path.hasPrefix("-") ? "./" + path : path }
        p.arguments = ["--format", "png", "--output", operand(pngTemp), operand(svgTemp)]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw TraceError(.writeFailed, file: out, "rsvg-convert could not rasterise the plot (exit \(p.terminationStatus))")
        }
        try png.replaceTarget()
    }

    enum CommandError: Error, CustomStringConvertible {
        case rasteriserMissing
        var description: String {
            "--out *.png needs rsvg-convert (Debian package librsvg2-bin; `make deps-browser` installs it), or write .svg or .html"
        }
    }
}
