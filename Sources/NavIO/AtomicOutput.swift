import Foundation

// Every output navbench writes is staged: written at a temporary path beside its target
// (`temporaryPath(beside:)`: `.NAME.tmp-PID`, on the target's file system, recognised by
// `removeStaleTemporaries`) and moved into place only when complete (`StagedOutput`): text and
// bytes through `AtomicTextWriter`, HDF5 through `HDF5Writer`, checked traces (import, edit)
// through a `StagedOutput` they validate before it replaces the target.

/// The temporary path an output `path` is written to before it is moved into place:
/// `.NAME.tmp-PID` in the same folder.
public func temporaryPath(beside path: String) -> String {
    let dir = parentFolder(of: path)
    return (dir.isEmpty ? "" : dir + "/") + "." + fileName(of: path) + ".tmp-\(getpid())"
}

/// An output written at `temporary` (beside `path`) and moved over `path` by `replaceTarget()`,
/// which refuses to replace anything but a regular file; `discard()` removes what was written.
/// The folder is created when missing; whatever stood at the temporary path (a stale file, a
/// planted link) is removed first, never written through.
public struct StagedOutput: Sendable {
    public let path: String
    public let temporary: String

    public init(path: String) throws(TraceError) {
        guard !path.isEmpty, path != "-" else {
            throw TraceError(.writeFailed, file: path.isEmpty ? "''" : path, "not a file path (an empty path or standard output)")
        }
        let dir = parentFolder(of: path)
        if !dir.isEmpty {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw TraceError(.writeFailed, file: path, "cannot create folder \(escapedForMessage(dir)) (\(errnoText(errno)))")
            }
        }
        try requireReplaceableOutput(path)
        self.path = path
        temporary = temporaryPath(beside: path)
        unlink(temporary)
    }

    /// Moves the finished temporary file over `path` (checked again: only a regular file is replaced).
    public func replaceTarget() throws(TraceError) {
        try requireReplaceableOutput(path)
        guard rename(temporary, path) == 0 else {
            throw TraceError(.writeFailed, file: path, "cannot move the finished file into place (\(errnoText(errno)))")
        }
    }

    /// Removes the temporary file (after a failure, or when the output was not wanted).
    public func discard() { unlink(temporary) }
}

/// A text file written piece by piece and renamed into place on `commit()` (`writeTextAtomically`
/// writes a whole text through it), without holding the whole text: a killed run leaves the old file or
/// the new one, never half of one. Not committed (an error, a thrown report step), the temporary
/// file is removed.
///
/// Complexity: memory O(buffer) (64 KiB), whatever the file's size.
public final class AtomicTextWriter {
    public let path: String
    private let output: StagedOutput
    private let temporary: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var failure: Int32 = 0
    private static let bufferSize = 1 << 16

    /// Opens `.NAME.tmp-PID` beside `path` (creating the folder). Like `writeTextAtomically`, it
    /// replaces only a regular file (`requireReplaceableOutput`).
    public init(path: String) throws(TraceError) {
        guard path != "-" else { throw TraceError(.writeFailed, file: "'-'", "not a file path (standard output is written by writeTextAtomically)") }
        output = try StagedOutput(path: path)
        self.path = path
        temporary = output.temporary
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TraceError(.writeFailed, file: path, "cannot write (\(errnoText(errno)))") }
        buffer.reserveCapacity(Self.bufferSize)
    }

    /// Appends `text` (written out when the buffer fills).
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { drain() }
    }

    /// Appends bytes as they are (a binary file through the same mechanism: `exportMCAP`).
    public func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { drain() }
    }

    private func drain() {
        guard failure == 0, !buffer.isEmpty else { buffer.removeAll(keepingCapacity: true); return }
        buffer.withUnsafeBytes { buf in
            var done = 0
            while done < buf.count {
                let r = Foundation.write(fd, buf.baseAddress! + done, buf.count - done)
                if r < 0 { if errno == EINTR { continue }; failure = errno; return }
                done += r
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes the rest and renames the file into place.
    public func commit() throws(TraceError) {
        drain()
        if fd >= 0 { if close(fd) != 0 && failure == 0 { failure = errno }; fd = -1 }
        if failure != 0 {
            output.discard()
            throw TraceError(.writeFailed, file: path, "cannot write (\(errnoText(failure)))")
        }
        do { try output.replaceTarget() } catch {
            output.discard()
            throw error
        }
        failure = -1  // committed
    }

    deinit {
        if fd >= 0 { close(fd) }
        if failure != -1 { unlink(temporary) }
    }
}

/// Writes text atomically: a temporary file in the same folder (`.NAME.tmp-PID`), renamed into
/// place. A killed run leaves either the old file or the new one, never half of one; a failed
/// write (disk full, no permission) removes the temporary file and throws one line naming
/// `path`. `path` `-` writes to standard output.
public func writeTextAtomically(_ text: String, to path: String) throws(TraceError) {
    if path == "-" {
        FileHandle.standardOutput.write(Data(text.utf8))
        return
    }
    // One mechanism for every atomic text output (temporary file, checks, rename): AtomicTextWriter.
    let writer = try AtomicTextWriter(path: path)
    writer.write(text)
    try writer.commit()
}

/// Writes bytes atomically (`AtomicTextWriter`: a temporary file beside `path`, renamed into place).
public func writeBytesAtomically(_ bytes: [UInt8], to path: String) throws(TraceError) {
    let writer = try AtomicTextWriter(path: path)
    writer.write(bytes: bytes)
    try writer.commit()
}

/// Removes what killed writers left in `folder` and its subfolders (at most `depth` levels): regular
/// files named `.NAME.tmp-PID` (the atomic writers' temporaries) whose process is gone. A live
/// process's temporary (a shard writing beside this run) is kept, as is anything else; links are
/// never followed. Returns the paths removed. A report folder after a successful run holds only
/// what a run writes.
///
/// - Complexity: O(entries within `depth`).
@discardableResult
public func removeStaleTemporaries(in folder: String, depth: Int = 3) -> [String] {
    guard depth > 0, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
    var removed: [String] = []
    for name in names.sorted() {
        let path = folder + "/" + name
        var st = stat()
        guard lstat(path, &st) == 0 else { continue }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            removed += removeStaleTemporaries(in: path, depth: depth - 1)
            continue
        }
        guard (st.st_mode & S_IFMT) == S_IFREG, name.hasPrefix("."), let r = name.range(of: ".tmp-", options: .backwards),
            let pid = Int32(name[r.upperBound...]), pid > 0, pid != getpid()
        else { continue }
        // kill(pid, 0): ESRCH means no such process (EPERM: alive, someone else's).
        if kill(pid, 0) != 0 && errno == ESRCH, unlink(path) == 0 { removed.append(path) }
    }
    return removed
}
