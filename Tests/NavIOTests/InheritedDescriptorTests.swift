import Foundation
import Testing

@testable import NavIO

/// A file navbench wrote opens even while a copy of the writer's descriptor lives on elsewhere
/// (a CI failure: a process spawned by another test thread inherits the descriptor of a file
/// being written until it closes it; with HDF5's flock() locks, the exclusive lock outlived the
/// writer and the renamed file "cannot be opened"). The copy is made here with dup().
@Suite struct InheritedDescriptorTests {
    /// Descriptors of this process open on `path`.
    static func descriptors(of path: String) throws -> [Int32] {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { name in
            guard let fd = Int32(name),
                let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
                URL(fileURLWithPath: link).resolvingSymlinksInPath().path == target
            else { return nil }
            return fd
        }
    }

    @Test func aWrittenFileOpensWhileACopyOfTheWritersDescriptorLives() throws {
        let dir = NSTemporaryDirectory() + "navbench-inherited-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/walk.h5"
        let w = try HDF5Writer(path: path)
        try w.write("/imu/timestamps", doubles: [0, 0.01, 0.02], shape: [3], units: "s")
        let open = try Self.descriptors(of: w.temporaryPath)
        try #require(!open.isEmpty, "the writer's descriptor is not visible in /proc/self/fd")
        let copies = open.map { dup($0) }
        defer { for c in copies { close(c) } }
        try w.commit()
        let r = try HDF5Reader(path: path)
        #expect(r.exists("/imu/timestamps"))
    }
}
