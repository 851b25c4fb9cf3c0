import Foundation
import NavIO

// Helpers shared by the test targets (a test target cannot import another one). Fixtures that
// live in one target's folder and are read by others are read in place from the source tree.

/// The repository's root folder (this file is Tests/NavTestSupport/TestSupport.swift).
public let repositoryRoot: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

/// A fresh temporary folder for one test.
public func temporaryFolder(_ label: String = #function) -> String {
    let dir = NSTemporaryDirectory() + "navbench-\(label.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

/// max |a − b| / max |b| (absolute when b is all zeros): the error of `a` relative to the
/// reference signal's scale, so zero crossings do not inflate it.
public func scaledError(_ a: [Double], _ b: [Double]) -> Double {
    precondition(a.count == b.count, "length \(a.count) vs \(b.count)")
    var num = 0.0, den = 0.0
    for (x, y) in zip(a, b) { num = max(num, abs(x - y)); den = max(den, abs(y)) }
    return den == 0 ? num : num / den
}

// MARK: - scipy / filterpy / allantools references of the signal tests

/// The reference file written by scripts/make_signal_fixtures.py, read by the signal and the
/// spectral tests.
public let signalReference: HDF5Reader = {
    try! HDF5Reader(path: repositoryRoot + "/Tests/NavSignalTests/Fixtures/signal_reference.h5")
}()

/// A dataset of the signal reference file.
public func ref(_ path: String) -> [Double] { try! signalReference.readDoubles(path).values }

/// A numeric attribute of the signal reference file.
public func refAttr(_ name: String, _ object: String) -> Double {
    switch signalReference.attribute(name, of: object) {
    case let .float(v)?: return v
    case let .integer(v)?: return Double(v)
    default: fatalError("fixture attribute \(object)@\(name) missing")
    }
}

/// A string attribute of the signal reference file.
public func refString(_ name: String, _ object: String) -> String { signalReference.attribute(name, of: object)!.stringValue! }

// MARK: - ROS 1 bag / MCAP fixtures

/// The fixtures of scripts/make_rosbag_fixtures.py (rosbags and mcap writers).
public let rosFixtureFolder = repositoryRoot + "/Tests/NavRosbagTests/Fixtures"

/// A file of the ROS fixtures.
public func rosFixture(_ name: String) -> String { rosFixtureFolder + "/" + name }

/// The six recordings: bags with no / bz2 / lz4 chunks, MCAP with none / lz4 / zstd.
public let rosSamples = ["sample-none.bag", "sample-bz2.bag", "sample-lz4.bag", "sample-none.mcap", "sample-lz4.mcap", "sample-zstd.mcap"]

/// expected.json of the ROS fixtures (floats in hex): the values the writers were given.
public struct RosExpected: Sendable {
    public struct Sample: Sendable {
        public var sec: Int64, nsec: UInt32, recv: UInt64
        public var values: [String: [Double]]
    }
    public var topics: [String: [Sample]]
    public var counts: [String: Int]
    public var md5: [String: String]

    public static let shared: RosExpected = {
        let data = FileManager.default.contents(atPath: rosFixture("expected.json"))!
        let json = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        func hex(_ any: Any) -> [Double] {
            if let s = any as? String { return [Double(s)!] }
            return (any as! [String]).map { Double($0)! }
        }
        var topics: [String: [Sample]] = [:]
        for key in ["imu", "pose", "odom", "tf_base_link", "mag", "fix"] {
            topics[key] = (json[key] as! [[String: Any]]).map { row in
                var values: [String: [Double]] = [:]
                for (k, v) in row where !["sec", "nsec", "recv_ns"].contains(k) { values[k] = hex(v) }
                return Sample(
                    sec: (row["sec"] as! NSNumber).int64Value, nsec: (row["nsec"] as! NSNumber).uint32Value,
                    recv: (row["recv_ns"] as! NSNumber).uint64Value, values: values)
            }
        }
        return RosExpected(
            topics: topics, counts: (json["counts"] as! [String: NSNumber]).mapValues(\.intValue),
            md5: json["md5"] as! [String: String])
    }()
}

/// Path of a fixture copied as a resource into a test target's bundle (`Fixtures/NAME`).
public func bundledFixture(_ bundle: Bundle, _ name: String) -> String {
    bundle.path(forResource: "Fixtures/" + name, ofType: nil) ?? bundle.bundlePath + "/Fixtures/" + name
}

/// Whether this process's libm takes glibc's FMA code paths of sin and exp, the ones every
/// committed byte-for-byte reference was written with (x86-64 with FMA and AVX2). glibc's FMA and
/// SSE2 paths round differently on about 0.07 % of arguments (docs/reproducibility.md); these two
/// arguments are among them, so the probe answers from the functions themselves, whatever the
/// CPU flags or `GLIBC_TUNABLES` say. Byte-for-byte regeneration tests run only where it is true;
/// `scripts/check_portable.sh` compares the same regenerations numerically on any machine.
public let libmTakesGlibcFMAPath: Bool =
    Foundation.sin(0.7227612016480904).bitPattern == 0x3FE5_2AAA_0EBE_1262
    && Foundation.exp(6.751559513251458).bitPattern == 0x408A_BB22_3CD5_83C1
