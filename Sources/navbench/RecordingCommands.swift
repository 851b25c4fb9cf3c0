import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavImport
import NavRosbag

// `navbench import rosbag|mcap FILE --out FILE.h5` and `… FILE --list`: ROS 1 bags and MCAP
// files through NavImport's `importRecording` (docs/importers.md, "rosbag, mcap").

extension RecordingClock: ExpressibleByArgument {}
extension WorldFrame: ExpressibleByArgument {}

/// The options of `import rosbag` and `import mcap`. The output options are those of every
/// import, except that `--out` may be left out with `--list`.
struct RecordingImportArguments: ParsableArguments {
    @Argument(help: "The recording: a .bag for import rosbag, an .mcap for import mcap (checked from the file's first bytes).") var input: String
    @Flag(help: "Print the topics, their message types, counts and rates (like rosbag info) and exit.") var list = false
    @Option(help: "Topic of sensor_msgs/Imu messages → imu.") var imu: String?
    @Option(help: "Topic of sensor_msgs/MagneticField messages → imu/magnetometer (T → µT).") var magnetometer: String?
    @Option(help: "Pose topic → vio: PoseStamped, Odometry, or TFMessage as TOPIC:CHILD_FRAME (e.g. /tf:base_link).") var vio: String?
    @Option(help: "Pose topic → groundtruth (as --vio).") var groundtruth: String?
    @Option(help: "Topic of sensor_msgs/NavSatFix messages → location.") var location: String?
    @Option(help: "Mapping file (YAML) naming the topics of each stream; flags override it (docs/importers.md).") var mapping: String?
    @Option(help: "Clock of the samples: header (header.stamp, default) or receive (when the recorder got them).") var time: RecordingClock?
    @Option(help: "World frame of poses and attitude: enu (default, ROS's z up), ned or arkit (kept as is).") var frame: WorldFrame?

    @Option(help: "Output trace file (.h5); required unless --list.") var out: String?
    @OptionGroup var session: ImportSessionOptions

    func validate() throws {
        if !list && out == nil { throw ValidationError("Missing expected argument '--out <out>' (or give --list)") }
        if list && out != nil { throw ValidationError("--list prints the topics; it writes no --out file") }
        for (flag, v) in [("--imu", imu), ("--magnetometer", magnetometer), ("--location", location)] {
            if let v, v.contains(":") { throw ValidationError("\(flag) \(v): only TFMessage topics (of --vio / --groundtruth) take :CHILD_FRAME") }
        }
    }

    /// The flags' topic choices.
    var flagMapping: RecordingTopicMapping {
        RecordingTopicMapping(
            imu: imu.map { TopicSelection(topic: $0) }, magnetometer: magnetometer.map { TopicSelection(topic: $0) },
            vio: vio.map(TopicSelection.init(parsing:)), groundtruth: groundtruth.map(TopicSelection.init(parsing:)),
            location: location.map { TopicSelection(topic: $0) }, clock: time ?? .header, frame: frame ?? .enu)
    }

    /// The shared import output options, for `ImportOutput.run` (validated write, notes, summary line).
    func output() throws -> ImportOutput {
        var o = try ImportOutput.parse(["--out", out ?? ""])
        o.session = session
        return o
    }

    func run(format: RecordingFormat) throws {
        if list {
            do {
                let recording = try RobotRecording(path: input)
                guard recording.format == format else {
                    throw RecordingError(
                        .corrupt, file: input, location: "byte 0",
                        "is \(recording.format == .rosbag ? "a ROS 1 bag" : "an MCAP file"); use navbench import \(recording.format.rawValue)")
                }
                print(try recording.summary().text(escaping: { escapedForMessage($0) }))
            } catch {
                printErrorLine(error)
                throw failureStatus(error)
            }
            return
        }
        let output = try output()
        let flags = flagMapping
        try output.run(source: input) { () throws(TraceError) in
            var m = flags
            if let mapping {
                m = try RecordingTopicMapping.load(mapping, format: format).overridden(by: flags, clockGiven: time != nil, frameGiven: frame != nil)
            }
            return try importRecording(input, format: format, mapping: m, options: output.options)
        }
    }
}

struct ImportRosbag: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rosbag",
        abstract: "A ROS 1 bag (v2.0; uncompressed, bz2 or lz4 chunks) → imu, vio, groundtruth, location by topic.",
        discussion:
            "Message types: sensor_msgs/Imu, MagneticField, NavSatFix; geometry_msgs/PoseStamped, nav_msgs/Odometry, tf2_msgs/TFMessage. Others are listed and skipped."
    )
    @OptionGroup var arguments: RecordingImportArguments
    func run() throws { try arguments.run(format: .rosbag) }
}

struct ImportMCAP: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcap",
        abstract: "An MCAP file with ROS 2 CDR messages (uncompressed, lz4 or zstd chunks) → imu, vio, groundtruth, location by topic.",
        discussion:
            "Message types: sensor_msgs/msg/Imu, MagneticField, NavSatFix; geometry_msgs/msg/PoseStamped, nav_msgs/msg/Odometry, tf2_msgs/msg/TFMessage. Others are listed and skipped."
    )
    @OptionGroup var arguments: RecordingImportArguments
    func run() throws { try arguments.run(format: .mcap) }
}
