import Foundation
import NavIO

// The report folder: which paths it may be, the lock a run holds on it, what it may contain.

/// The report folder rule (docs/exit-codes.md): never empty, `.`, `/`, an input file, the folder
/// of an input, or a path with a `..` component; anything else, inside or outside the project,
/// is accepted (an absolute path is the user's explicit choice).
public func checkReportFolder(_ spec: ExperimentSpec) throws(TraceError) {
    let out = spec.output
    let parts = out.split(separator: "/", omittingEmptySubsequences: true)
    if out.isEmpty || parts.allSatisfy({ $0 == "." }) && !out.hasPrefix("/") {
        throw TraceError(
            .writeFailed, file: out.isEmpty ? "''" : out, object: "output",
            "the current folder is never a report folder; name a new folder (default Reports/\(spec.name))")
    }
    if out.hasPrefix("~") {
        // No shell expands a spec's output; Foundation would expand it in some calls and not in
        // others (a folder named '~' in the working folder, then an NSCocoaErrorDomain dump).
        throw TraceError(.writeFailed, file: out, object: "output", "'~' is not expanded in a report folder; give the full path (e.g. $HOME/…)")
    }
    if parts.contains("..") {
        throw TraceError(.writeFailed, file: out, object: "output", "a report folder may not contain '..'; give a plain or absolute path")
    }
    try checkOutputPath(out, flag: "output", inputs: expandGlobs(spec.inputs).sorted(), folder: true)
}

/// A lock on a report folder (`OUTPUT/.navbench.lock`, flock(2)), held until the value is
/// released: a second `run` or `merge` into the same folder exits with one line instead of
/// computing the same jobs twice. The kernel drops the lock when a killed run's process ends.
///
/// An unsharded run and `merge` hold it exclusively. The shards of a sharded run share the folder
/// (they run at once, one Slurm array task each) and take it shared, plus an exclusive lock of
/// their own shard (`OUTPUT/.navbench-shard-K.lock`): shards run together, the same shard twice
/// does not, and no merge or whole run starts while a shard is writing.
public final class ReportFolderLock {
    private let fd: Int32

    /// Locks `folder` exclusively, or shared when `shard` (1-based) is given, then `shard`'s own
    /// lock exclusively.
    public init(_ folder: String, shard: Int? = nil) throws(TraceError) {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw TraceError(.writeFailed, file: folder, "cannot create the report folder (\(errnoText(errno)))")
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        self.fd = try Self.lock(
            base + ".navbench.lock", folder: folder, exclusive: shard == nil,
            busy: "another navbench run is writing this report folder; wait for it or choose another --out")
        if let shard {
            do {
                let fd = try Self.lock(
                    base + ".navbench-shard-\(shard).lock", folder: folder, exclusive: true,
                    busy: "shard \(shard) of this report folder is already running")
                shardFD = fd
            } catch {
                flock(self.fd, LOCK_UN); close(self.fd)
                throw error
            }
        } else {
            shardFD = -1
        }
        do { try checkReportFolderEntries(folder) } catch {
            if shardFD >= 0 { flock(shardFD, LOCK_UN); close(shardFD) }
            flock(fd, LOCK_UN); close(fd)
            throw error
        }
    }

    private let shardFD: Int32

    private static func lock(_ path: String, folder: String, exclusive: Bool, busy: String) throws(TraceError) -> Int32 {
        // Never through a link planted at the lock's name (it created the link's target), never
        // a FIFO or device (O_NONBLOCK: opening one does not wait).
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            let why =
                errno == ELOOP
                ? "is a symbolic link; navbench never follows one inside a report folder (remove it)"
                : "cannot create the lock file (\(errnoText(errno)))"
            throw TraceError(.writeFailed, file: path, why)
        }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw TraceError(.writeFailed, file: path, "is not a regular file; a lock file is one (remove it)")
        }
        guard flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
            close(fd)
            throw TraceError(.writeFailed, file: folder, busy)
        }
        return fd
    }

    deinit {
        if shardFD >= 0 { flock(shardFD, LOCK_UN); close(shardFD) }
        flock(fd, LOCK_UN); close(fd)
    }
}

/// The most entries of a report folder `checkReportFolderEntries` looks at.
let maximumReportFolderEntries = 1_000_000

/// Refuses a report folder holding a symbolic link, a FIFO, a device or a socket, at any depth
/// (nothing already inside an output folder is trusted): a link planted at `results.sqlite`
/// had navbench drop a foreign database's tables and write its rows there, one at `routes/`
/// received the route CSVs elsewhere, a FIFO shard store hung `merge`. Checked by `run` and
/// `merge` once the folder is locked, before anything in it is opened.
///
/// - Throws: `TraceError` (`writeFailed`, exit 73) naming the entry and what it is.
/// - Complexity: O(entries), at most `maximumReportFolderEntries`; links are never followed.
public func checkReportFolderEntries(_ folder: String) throws(TraceError) {
    var pending = [folder], seen = 0
    while let dir = pending.popLast() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
        for name in names.sorted() {
            seen += 1
            guard seen <= maximumReportFolderEntries else {
                throw TraceError(.writeFailed, file: folder, "holds more than \(maximumReportFolderEntries) entries; name a new folder")
            }
            let path = (dir as NSString).appendingPathComponent(name)
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFREG: continue
            case S_IFDIR: pending.append(path)
            case S_IFLNK:
                throw TraceError(
                    .writeFailed, file: path,
                    "is a symbolic link inside the report folder; navbench never follows one (remove it, or name a new folder)")
            default:
                throw TraceError(
                    .writeFailed, file: path,
                    "is \(nonRegularFileKind(path) ?? "not a regular file") inside the report folder; navbench writes only regular files there (remove it)"
                )
            }
        }
    }
}
