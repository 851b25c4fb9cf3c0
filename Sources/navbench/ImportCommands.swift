import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavImport
import NavMetrics

// `navbench import FORMAT IN… --out FILE.h5` and `navbench export FORMAT FILE.h5 --stream S --out OUT`.
// Each subcommand parses, calls one NavIO importer, then `finish` trims, writes (validated,
// atomically) and reports. Formats and mapping files: docs/importers.md.

extension SessionKind: ExpressibleByArgument {}
extension PoseStreamName: ExpressibleByArgument {}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert recordings in other formats to trace format v1 (validated, written atomically).",
        discussion: """
            Every format writes one session file. Errors are one line naming the file, the line or dataset \
            and the field; nothing is written then. Formats, mapping files, units and frames: docs/importers.md.
            """,
        subcommands: [
            ImportTUM.self, ImportKITTI.self, ImportEuRoC.self, ImportCoreMotionLogger.self, ImportARKitLogger.self, ImportIOSLogger.self,
            ImportCSVCommand.self, ImportHDF5Mapped.self, ImportMATMapped.self, ImportBLEAnnotated.self, ImportClewCRD.self, ImportIPIN.self,
            ImportRosbag.self, ImportMCAP.self, ImportWeAllWalk.self,
        ])
}

/// Session options shared by every import (and by `import rosbag|mcap`, whose `--out` is optional).
struct ImportSessionOptions: ParsableArguments {
    @Option(help: "Session kind: recording or navigation.") var kind: SessionKind = .recording
    @Option(name: .customLong("session-id"), help: "Session id (default: the source's, else the output file's name).") var sessionID: String?
    @Option(name: .customLong("route-id"), help: "Route id.") var routeID: String?
    @Option(help: "Venue whose frame the ground truth uses.") var venue: String?
    @Option(help: "Phone or recorder.") var device: String?
    @Option(help: "Keep samples from this many seconds after the session's first timestamp.") var from: Double?
    @Option(help: "Keep samples before this many seconds after the session's first timestamp.") var to: Double?
    @Flag(
        name: .customLong("drop-invalid-rows"),
        help:
            "Leave out rows or messages that cannot go into a trace (NaN, RSSI above 20 dBm, no fix, …), each reported; default: stop with an error.")
    var dropInvalidRows = false
    @Flag(help: "Do not print notes (rows dropped, topics skipped, …) on standard error.") var quiet = false

    func validate() throws {
        for (flag, v) in [("--from", from), ("--to", to)] {
            if let v, !(v.isFinite && v >= 0) { throw ValidationError("\(flag) must be a number of seconds ≥ 0, got \(v)") }
        }
        if let from, let to, !(to > from) { throw ValidationError("--to (\(to)) must be after --from (\(from))") }
    }

    var options: ImportOptions {
        ImportOptions(
            kind: kind, sessionID: sessionID, routeID: routeID, venue: venue, device: device,
            invalidRows: dropInvalidRows ? .drop : .error, readPolicy: commandLineReadPolicy)
    }
}

/// Output and session options of an import.
struct ImportOutput: ParsableArguments {
    @Option(help: "Output trace file (.h5).") var out: String
    @OptionGroup var session: ImportSessionOptions

    var options: ImportOptions { session.options }

    /// Runs an importer of `source` (the input(s), named when a value they hold is refused); a
    /// `TraceError` is printed as one line and exits 1.
    func run(source: String, _ body: () throws(TraceError) -> ImportResult) throws {
        try checkOutput(out)
        do {
            var result = try body()
            if result.session.metadata.sessionID.isEmpty {  // the importer had none (Clew's route id is one)
                result.session.metadata.sessionID = (fileName(of: out) as NSString).deletingPathExtension
            }
            result.session = try trimSession(result.session, from: session.from, to: session.to, file: out)
            try writeImportedTrace(result.session, to: out, processing: commandProvenance(from: "import"), source: source)
            if !session.quiet { for n in result.notes { printError("navbench: note: " + escapedForMessage(n, limit: 1000)) } }
            let streams = result.streamCounts.map { "\($0.name) \($0.samples)" }.joined(separator: ", ")
            print("\(out): \(result.session.metadata.kind.rawValue); \(streams)")
        } catch {
            printErrorLine(error)
            throw failureStatus(error)
        }
    }
}

/// Inputs and streams of the trajectory formats.
struct TrajectoryImportArguments: ParsableArguments {
    @Argument(help: "Trajectory files; each becomes one stream.") var inputs: [String]
    @Option(name: .customLong("stream"), help: "Stream of each input, in order: groundtruth or vio (default: groundtruth, then vio).")
    var streams: [PoseStreamName] = []

    func validate() throws {
        guard (1...2).contains(inputs.count) else {
            throw ValidationError("give one or two trajectory files (ground truth and/or an estimate), got \(inputs.count)")
        }
        guard streams.count <= inputs.count else {
            throw ValidationError("\(streams.count) --stream options for \(inputs.count) input\(inputs.count == 1 ? "" : "s")")
        }
        if Set(resolvedStreams).count != inputs.count {
            throw ValidationError("each input needs its own stream; --stream groundtruth and --stream vio")
        }
    }

    var resolvedStreams: [PoseStreamName] {
        inputs.indices.map { i in i < streams.count ? streams[i] : (i == 0 ? .groundtruth : (streams.first == .vio ? .groundtruth : .vio)) }
    }
}

struct ImportTUM: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tum", abstract: "TUM RGB-D trajectories (timestamp tx ty tz qx qy qz qw) → groundtruth / vio.")
    @OptionGroup var files: TrajectoryImportArguments
    @OptionGroup var output: ImportOutput
    func run() throws {
        try output.run(source: files.inputs.joined(separator: ", ")) { () throws(TraceError) in
            try importTrajectories(
                zip(files.inputs, files.resolvedStreams).map { TrajectoryInput(path: $0, stream: $1) }, format: .tum, options: output.options)
        }
    }
}

struct ImportKITTI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kitti", abstract: "KITTI poses (12 numbers per line) with a times file → groundtruth / vio.")
    @OptionGroup var files: TrajectoryImportArguments
    @Option(name: .customLong("times"), help: "Times file of each input, in order (one time in seconds per line).") var times: [String] = []
    @OptionGroup var output: ImportOutput
    func validate() throws {
        guard times.count == files.inputs.count else {
            throw ValidationError(
                "give one --times FILE per KITTI input (\(files.inputs.count)), got \(times.count): KITTI poses carry no timestamps")
        }
    }
    func run() throws {
        try output.run(source: files.inputs.joined(separator: ", ")) { () throws(TraceError) in
            try importTrajectories(
                files.inputs.indices.map { TrajectoryInput(path: files.inputs[$0], stream: files.resolvedStreams[$0], timesPath: times[$0]) },
                format: .kitti, options: output.options)
        }
    }
}

struct ImportEuRoC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "euroc", abstract: "EuRoC MAV ground-truth CSV (ns, position, quaternion w first) → groundtruth / vio.")
    @OptionGroup var files: TrajectoryImportArguments
    @OptionGroup var output: ImportOutput
    func run() throws {
        try output.run(source: files.inputs.joined(separator: ", ")) { () throws(TraceError) in
            try importTrajectories(
                zip(files.inputs, files.resolvedStreams).map { TrajectoryInput(path: $0, stream: $1) }, format: .euroc, options: output.options)
        }
    }
}

struct ImportCoreMotionLogger: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coremotion-logger",
        abstract: "A CoreLocation/CoreMotion Data Logger folder → imu (with attitude, magnetometer), compass, location.",
        discussion:
            "gps.txt is stamped on the Unix clock, the motion files on the device's uptime: location is left out unless --gps-offset or --gps-align-start places it."
    )
    @Argument(help: "The logger's folder (holding game_rv.txt, gyro.txt, gravity.txt, linacce.txt, …, or their Visualization/ folder).") var folder:
        String
    @Option(name: .customLong("gps-offset"), help: "Seconds to subtract from gps.txt's Unix times to reach the motion clock.") var gpsOffset: Double?
    @Flag(name: .customLong("gps-align-start"), help: "Place the first location fix at the first motion sample (approximate).") var gpsAlignStart =
        false
    @OptionGroup var output: ImportOutput
    func validate() throws {
        if gpsOffset != nil && gpsAlignStart { throw ValidationError("give --gps-offset or --gps-align-start, not both") }
        if let o = gpsOffset, !o.isFinite { throw ValidationError("--gps-offset must be a finite number of seconds") }
    }
    func run() throws {
        let clock: LocationClock = gpsOffset.map { .offset($0) } ?? (gpsAlignStart ? .alignFirstFix : .omit)
        try output.run(source: folder) { () throws(TraceError) in try importCoreMotionLogger(folder, locationClock: clock, options: output.options) }
    }
}

struct ImportIOSLogger: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ios-logger",
        abstract: "An ios_logger dataset folder (Accel.txt, Gyro.txt, …) → imu (with attitude, magnetometer), vio, compass, location.",
        discussion:
            "Every file is on the Unix clock; each file's rows are sorted by time (a note counts the rows moved). Files, columns and frames: docs/importers.md."
    )
    @Argument(help: "The dataset folder (Accel.txt and Gyro.txt required; Motion, Magnet, ARposes, Head, GPS optional).") var folder: String
    @Option(help: "Gyroscope to import: raw (Gyro.txt, with bias) or device-motion (MotARH.txt's rotationRate).")
    var gyroscope: IOSLoggerGyroscope = .raw
    @OptionGroup var output: ImportOutput
    func run() throws {
        try output.run(source: folder) { () throws(TraceError) in
            try importIOSLogger(folder, gyroscope: gyroscope, options: output.options)
        }
    }
}

extension IOSLoggerGyroscope: ExpressibleByArgument {}

struct ImportWeAllWalk: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weallwalk",
        abstract: "A WeAllWalk phone file (and its walk's XML) → imu (with attitude, magnetometer) and annotation streams.",
        discussion: """
            One phone per trace (1L: left pocket, 2R: right). The walk's XML adds its heel strikes (annotations/steps), straight \
            segments, turns (with TurnInDegrees) and events (wall contacts, stops, …) as hand-annotated streams; subject, mobility \
            aid, path and pocket become session attributes. Columns 39 and 40 (the turn and step flags) are the ground truth \
            and are never imported (docs/pdr.md).
            """
    )
    @Argument(help: "The phone file, iPhoneSensors_T{path}_ID{subject}_{1L|2R}_{WC|GD|NA}.csv.") var phoneFile: String
    @Argument(help: "The walk's annotation file, T{path}_ID{subject}_{WC|GD|NA}.xml (optional).") var annotations: String?
    @Option(help: "Gyroscope to import: raw (columns 33–35, with bias) or device-motion (CoreMotion's rotationRate).")
    var gyroscope: WeAllWalkGyroscope = .raw
    @OptionGroup var output: ImportOutput
    func run() throws {
        try output.run(source: phoneFile) { () throws(TraceError) in
            try importWeAllWalk(phoneFile: phoneFile, annotations: annotations, gyroscope: gyroscope, options: output.options)
        }
    }
}

extension WeAllWalkGyroscope: ExpressibleByArgument {}

struct ImportARKitLogger: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arkit-logger", abstract: "ARKit Data Logger camera poses (ARKit_camera_pose.txt) → vio.")
    @Argument(help: "ARKit_camera_pose.txt, or the folder holding it.") var input: String
    @OptionGroup var output: ImportOutput
    func run() throws {
        try output.run(source: input) { () throws(TraceError) in try importARKitLogger(input, options: output.options) }
    }
}

struct ImportCSVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "csv", abstract: "CSV / delimited text files, driven by a mapping file (YAML) → any streams.",
        discussion: """
            Several files (each with its own clock and offset, the mapping's inputs:, in the same order) make one session: \
            a stream's datasets from another file are interpolated at the stream's times (docs/importers.md).
            """)
    @Argument(help: "The delimited text file(s), in the order of the mapping's inputs:.") var inputs: [String]
    @Option(help: "Mapping file (YAML): columns → streams/datasets, units, time (docs/importers.md).") var mapping: String
    @Flag(
        name: .customLong("sort-by-time"),
        help: "Sort each file's rows by time (equal times keep file order) instead of refusing rows out of order; counted in a note.")
    var sortByTime = false
    @OptionGroup var output: ImportOutput
    func validate() throws {
        guard (1...64).contains(inputs.count) else { throw ValidationError("give 1 to 64 delimited text files, got \(inputs.count)") }
    }
    func run() throws {
        var options = output.options
        options.sortRowsByTime = sortByTime
        try output.run(source: inputs.joined(separator: ", ")) { () throws(TraceError) in
            try importCSV(inputs, mapping: try ImportMapping.load(mapping), options: options)
        }
    }
}

struct ImportHDF5Mapped: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hdf5-mapped", abstract: "An HDF5 file of another layout, driven by a mapping file (YAML) → any streams.")
    @Argument(help: "The HDF5 file.") var input: String
    @Option(help: "Mapping file (YAML): datasets → streams/datasets, units, quaternion order, sample rate, frame (docs/importers.md).") var mapping:
        String
    @OptionGroup var output: ImportOutput
    func run() throws {
        try output.run(source: input) { () throws(TraceError) in
            try importHDF5Mapped(input, mapping: try ImportMapping.load(mapping), options: output.options)
        }
    }
}

struct ImportMATMapped: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mat-mapped",
        abstract: "A MATLAB level-5 MAT-file (v5–v7; QTM's export), driven by a mapping file (YAML) → any streams.")
    @Argument(help: "The MAT-file (.mat; a v7.3 file is HDF5: use hdf5-mapped).") var input: String
    @Option(
        help: "Mapping file (YAML): variable paths (/Var/Field) → streams/datasets, units, rotation order, sample rate, frame (docs/importers.md).")
    var mapping: String
    @OptionGroup var output: ImportOutput
    func run() throws {
        try output.run(source: input) { () throws(TraceError) in
            try importMATMapped(input, mapping: try ImportMapping.load(mapping), options: output.options)
        }
    }
}

struct ImportBLEAnnotated: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble-annotated",
        abstract: "A track of the Position-Annotated BLE RSSI Dataset (trk/*.mbd) → ble (receivers as beacons) and groundtruth (the tag).")
    @Argument(help: "The track file (.mbd).") var input: String
    @Option(help: "The devices file with the receivers' positions (default: ../cnf/tetam.dev beside trk/).") var devices: String?
    @Option(help: "MAC of the moving beacon to import when a track holds several.") var tag: String?
    @OptionGroup var output: ImportOutput
    func run() throws {
        try output.run(source: input) { () throws(TraceError) in
            try importBLEAnnotated(input, devicesPath: devices, tag: tag, options: output.options)
        }
    }
}

struct ImportIPIN: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ipin",
        abstract:
            "An IPIN/EvAAL smartphone logfile (Track 3, GetSensorData) → imu, compass, ble, location and the POSI reference points as groundtruth.",
        discussion: """
            One text file per trial. Reference points become ground truth in a venue frame about --origin (default: their \
            lowest latitude and longitude, as the organisers' scorer) with their floors; WIFI, PRES and other rows have no \
            stream in trace format v1 and are counted in a note (docs/importers.md, IPIN logfiles).
            """)
    @Argument(help: "The logfile (.txt).") var input: String
    @Option(help: "Origin of the venue frame as LAT,LON in degrees (default: the reference points' lowest latitude and longitude).")
    var origin: String?
    @Option(name: .customLong("venue-altitude"), help: "Height of every point in the geodetic conversion, metres (default: 314, IPIN 2023).")
    var venueAltitude = ipin2023VenueAltitude
    @Option(
        name: .customLong("floor-height"),
        help: "Storey height: a reference point's y is floor × this, metres (default 0: floors only in groundtruth/floor).")
    var floorHeight = 0.0
    @OptionGroup var output: ImportOutput

    func validate() throws {
        _ = try originDegrees()
        guard venueAltitude.isFinite, abs(venueAltitude) <= 10_000 else {
            throw ValidationError("--venue-altitude must be metres within ±10,000, got \(venueAltitude)")
        }
        guard floorHeight.isFinite, (0...100).contains(floorHeight) else {
            throw ValidationError("--floor-height must be 0–100 metres, got \(floorHeight)")
        }
    }

    func originDegrees() throws -> (latitude: Double, longitude: Double)? {
        guard let origin else { return nil }
        let parts = origin.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw ValidationError("--origin must be LAT,LON in degrees (latitude −90…90, longitude −180…180), got '\(origin)'")
        }
        return (lat, lon)
    }

    func run() throws {
        let o = try originDegrees()
        let ipin = IPINImportOptions(
            originLatitude: o?.latitude, originLongitude: o?.longitude, venueAltitude: venueAltitude, floorHeight: floorHeight)
        try output.run(source: input) { () throws(TraceError) in try importIPINLogfile(input, ipin: ipin, options: output.options) }
    }
}

struct ImportClewCRD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clew-crd", abstract: "A Clew route file (.crd) → a recording's vio crumbs and anchor points.")
    @Argument(help: "The route file (.crd).") var input: String
    @OptionGroup var output: ImportOutput
    func run() throws {
        try output.run(source: input) { () throws(TraceError) in try importClewRoute(input, options: output.options) }
    }
}

// MARK: - Export

enum ExportFormat: String, CaseIterable, ExpressibleByArgument {
    case tum, kitti, euroc, csv, mcap
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a trace stream as TUM / KITTI / EuRoC (groundtruth or vio, for evo) or as CSV (any stream), or a trace as MCAP.",
        discussion: """
            CSV has a header with units in brackets (timestamps [s], position_x [m], …) and numbers that read back \
            bit for bit; --mapping-out also writes the mapping file that imports it again with navbench import csv. \
            MCAP (no --stream) holds the poses, paths, IMU, location and annotations as JSON messages under Foxglove's \
            schemas, for Foxglove (docs/importers.md, MCAP export).
            """)

    @Argument(help: "Output format: tum, kitti, euroc, csv or mcap.") var format: ExportFormat
    @Argument(help: "The trace file (.h5).") var input: String
    @Option(help: "Stream: groundtruth or vio (trajectories); any stream for csv; none for mcap (every stream it holds).") var stream: String?
    @Option(help: "Output file.") var out: String
    @Option(help: "KITTI: also write the timestamps, one per line, to this file.") var times: String?
    @Option(name: .customLong("mapping-out"), help: "CSV: also write a mapping file that imports the CSV again.") var mappingOut: String?

    func validate() throws {
        if format == .mcap {
            if stream != nil { throw ValidationError("--stream applies to tum, kitti, euroc and csv; mcap holds every stream it can") }
        } else if stream == nil {
            throw ValidationError("Missing expected argument '--stream <stream>'")
        }
        if let stream, format != .csv, format != .mcap, PoseStreamName(rawValue: stream) == nil {
            throw ValidationError("--stream \(stream): \(format.rawValue) holds a trajectory; expected groundtruth or vio")
        }
        if times != nil && format != .kitti { throw ValidationError("--times applies to kitti only") }
        if mappingOut != nil && format != .csv { throw ValidationError("--mapping-out applies to csv only") }
    }

    func run() throws {
        try checkOutput(out); try checkOutput(times, flag: "--times"); try checkOutput(mappingOut, flag: "--mapping-out")
        do {
            switch (format, stream) {
            case (.mcap, _):
                let summary = try exportMCAP(input, to: out, readPolicy: commandLineReadPolicy)
                print("\(out): \(summary.bytes) bytes")
                for t in summary.topics { print("  \(escapedForMessage(t.topic)): \(t.messages) \(t.schema)") }
                if !summary.skipped.isEmpty {
                    printError("navbench: note: \(escapedForMessage(input)): left out of the MCAP file: \(summary.skipped.joined(separator: ", "))")
                }
                return
            case (.csv, let stream?):
                let text = try exportStreamCSV(input, stream: stream, readPolicy: commandLineReadPolicy)
                if let mappingOut {
                    try writeTextAtomically(try exportStreamMapping(input, stream: stream, readPolicy: commandLineReadPolicy), to: mappingOut)
                }
                try writeTextAtomically(text, to: out)
            case (.tum, let stream?), (.kitti, let stream?), (.euroc, let stream?):
                try exportTrajectory(
                    input, stream: PoseStreamName(rawValue: stream)!, format: TrajectoryFormat(rawValue: format.rawValue)!, to: out, timesPath: times,
                    readPolicy: commandLineReadPolicy)
            case (_, nil):
                break  // validate() requires --stream
            }
            if out != "-" { print(out) }
        } catch {
            printErrorLine(error)
            throw ExitCode(error.kind == .writeFailed ? 73 : 1)
        }
    }
}
