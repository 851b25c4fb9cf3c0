import Foundation
import NavCore
import NavIO
import NavSignal
import Subprocess
import Synchronization
import SystemPackage

// `exec:` plugins (issue 14): a researcher's own filter or estimator run as a program, through
// swift-subprocess (posix_spawn, never a shell). Protocol (docs/extending.md, "Plugins"):
// CSV with a header on stdin, the same columns on stdout, one call per signal, a per-call
// timeout; anything else is one line naming the plugin, its exit status and the last line of
// its stderr.

/// A failed plugin call, one line: `plugin 'SPEC': problem (exit status S; stderr: LAST LINE)`.
public struct PluginError: Error, CustomStringConvertible, Sendable, Equatable {
    public var spec: String
    public var problem: String
    public var status: String
    public var stderrLastLine: String
    public var description: String {
        let err = stderrLastLine.isEmpty ? "stderr empty" : "stderr: \(escapedForMessage(stderrLastLine))"
        return "plugin '\(escapedForMessage(spec))': \(problem) (\(status); \(err))"
    }
}

/// An `exec:PROGRAM ARG…` spec: the argv split on single spaces (no quoting, no shell), run with
/// the caller's environment and working directory.
public struct ExecPlugin: Sendable, Hashable, CustomStringConvertible {
    /// Seconds one call may take before the program is killed (SIGTERM, then SIGKILL 1 s later).
    public static let defaultTimeout: Double = 60
    /// The longest timeout a plugin call may be given, seconds (a day): the spec's
    /// `plugin_timeout` and the CLI's `--plugin-timeout` are bounded by it.
    public static let maximumTimeout: Double = 86_400
    /// Most bytes read from the program's stdout, and from the end of its stderr (for its last line).
    public static let outputLimit = 512 << 20, errorLimit = 1 << 20

    /// The spec as written, `exec:` included.
    public let spec: String
    /// argv[0] (a name looked up on PATH, or a path) and the arguments.
    public let program: String
    public let arguments: [String]
    public var timeout: Double

    public var description: String { spec }

    /// Parses `exec:PROGRAM ARG…`; nil when `text` does not start with `exec:`.
    ///
    /// - Throws: `FilterSpecError` when the argv is empty or an argument is empty (two spaces).
    public init?(parsing text: String, timeout: Double = ExecPlugin.defaultTimeout) throws(FilterSpecError) {
        guard text.hasPrefix("exec:") else { return nil }
        let argv = text.dropFirst(5).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard let first = argv.first, !first.isEmpty else {
            throw FilterSpecError(spec: text, problem: "expected exec:PROGRAM ARG… (arguments split on single spaces)")
        }
        if argv.contains(where: \.isEmpty) {
            throw FilterSpecError(
                spec: text,
                problem: "an empty argument (two spaces in a row, or a trailing space): arguments are split on single spaces, never through a shell")
        }
        guard timeout.isFinite, timeout > 0, timeout <= Self.maximumTimeout else {
            throw FilterSpecError(spec: text, problem: "timeout \(timeout): expected seconds in (0, \(formatNumber(Self.maximumTimeout))]")
        }
        spec = text; program = first; arguments = Array(argv.dropFirst()); self.timeout = timeout
    }

    /// argv[0] as the program is started: the path itself when it contains a slash, else the
    /// executable of that name swift-subprocess finds on the inherited PATH — its own search,
    /// the one `call` starts the program with, so the checksum (`pluginSHA256`) is of the
    /// program that runs (navbench reads no environment variable itself); nil when there is none.
    public var programPath: String? {
        if program.contains("/") { return isRegularFile(program) && access(program, X_OK) == 0 ? program : nil }
        let found = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let name = program
        // On the plugins' own executor, as `call` (the caller blocks this thread until it is done).
        Task(executorPreference: PluginExecutor.shared) {
            do {
                let path = try await Executable.name(name).resolveExecutablePath(in: .inherit)
                found.withLock { $0 = path.string }
            } catch {
                // Not found (or not a plain name): no program, which `checkProgramRuns` says in one line.
            }
            done.signal()
        }
        done.wait()
        return found.withLock { $0 }
    }

    /// The plugin file: the first argument naming an existing regular file (the script of
    /// `exec:python3 median.py`), else the program itself (`programPath`).
    public var pluginFile: String? { arguments.first(where: isRegularFile) ?? programPath }

    /// The program's path (`programPath`), or a one-line refusal: it cannot be started. A program
    /// under the project venv `.venv/` names the command that creates the venv.
    ///
    /// - Throws: `FilterSpecError` naming the spec and the program.
    @discardableResult
    public func checkProgramRuns() throws(FilterSpecError) -> String {
        if let p = programPath { return p }
        let venv = program.hasPrefix(".venv/") || program.hasPrefix("./.venv/")
        let fix = venv ? "; the project venv .venv is created by `make deps-python` (also part of `make demo` and `make test`)" : ""
        throw FilterSpecError(
            spec: spec, problem: "\(escapedForMessage(program)): no such executable program (not an executable file, not on PATH)\(fix)")
    }

    /// SHA-256 of `pluginFile`: the plugin's identity in the results store key and the manifest.
    ///
    /// - Throws: `FilterSpecError` when the program cannot be started (`checkProgramRuns`) or
    ///   the plugin file cannot be read.
    public func pluginSHA256() throws(FilterSpecError) -> String {
        let program = try checkProgramRuns()
        let f = pluginFile ?? program
        do { return try sha256Hex(ofFile: f) } catch { throw FilterSpecError(spec: spec, problem: error.description) }
    }

    /// Runs the program once with `input` on stdin and returns its stdout.
    ///
    /// - Throws: `PluginError` when it cannot start, exits non-zero, dies of a signal, outlives
    ///   `timeout`, or writes more than `outputLimit` bytes.
    /// - Complexity: one process; O(input + output) bytes through pipes.
    public func call(input: String) throws(PluginError) -> String {
        // stdin from an unlinked temporary file, not a pipe: a plugin that exits without reading
        // its input (exit 3 at once) must not break navbench with EPIPE/SIGPIPE.
        let stdin: FileDescriptor, stderr: FileDescriptor
        do { stdin = try inputFile(input) } catch {
            throw PluginError(spec: spec, problem: "could not stage its input: \(error)", status: "no exit status", stderrLastLine: "")
        }
        // stderr to an unlinked temporary file whose tail gives the last line: a chatty plugin
        // (more than 1 MiB of log) whose stdout is fine is not a failed call.
        do { stderr = try scratchFile() } catch {
            try? stdin.close()
            throw PluginError(spec: spec, problem: "could not stage its stderr: \(error)", status: "no exit status", stderrLastLine: "")
        }
        defer { try? stderr.close() }
        let state = CallState()
        let done = DispatchSemaphore(value: 0)
        let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
        let arguments = Arguments(self.arguments)
        let seconds = timeout
        // On a queue of its own, not the cooperative pool: the caller blocks a thread below, and a
        // pool whose threads are all blocked (2 cores, parallel jobs) would starve the call.
        Task(executorPreference: PluginExecutor.shared) {
            // Its own session, so the teardown's SIGTERM (then SIGKILL) reaches what the plugin started too.
            let options = { () -> PlatformOptions in
                var o = PlatformOptions()
                o.createSession = true
                o.teardownSequence = [.gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: .seconds(1))]
                return o
            }()
            let result: Result<Collected, any Error>
            do {
                let r = try await withThrowingTaskGroup(of: Collected?.self) { group in
                    group.addTask {
                        let r = try await run(
                            executable, arguments: arguments, platformOptions: options,
                            input: .fileDescriptor(stdin, closeAfterSpawningProcess: true),
                            output: .bytes(limit: ExecPlugin.outputLimit), error: .fileDescriptor(stderr, closeAfterSpawningProcess: false))
                        return Collected(status: r.terminationStatus, out: r.standardOutput, err: [])
                    }
                    group.addTask {
                        try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                        state.timedOut.store(true, ordering: .relaxed)
                        return nil
                    }
                    let first = try await group.next()!
                    group.cancelAll()
                    return first
                }
                if let r { result = .success(r) } else { result = .failure(CancellationError()) }
            } catch { result = .failure(error) }
            state.result.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        let outcome = state.result.withLock { $0 }!
        switch outcome {
        case .failure(let error):
            if state.timedOut.load(ordering: .relaxed) {
                throw PluginError(
                    spec: spec, problem: "no answer within the timeout of \(formatNumber(timeout)) s, killed", status: "no exit status",
                    stderrLastLine: "")
            }
            throw PluginError(
                spec: spec, problem: "could not run: \(String(describing: error).split(separator: "\n").first ?? "")", status: "no exit status",
                stderrLastLine: "")
        case .success(let r):
            let last =
                String(decoding: tail(of: stderr, bytes: ExecPlugin.errorLimit), as: UTF8.self)
                .split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
            switch r.status {
            case .exited(0): break
            case .exited(let code):
                throw PluginError(spec: spec, problem: "failed", status: "exit status \(code)", stderrLastLine: last)
            case .signaled(let signal):
                throw PluginError(spec: spec, problem: "killed by signal \(signal)", status: "no exit status", stderrLastLine: last)
            }
            guard let text = String(validating: r.out, as: UTF8.self) else {
                throw PluginError(spec: spec, problem: "stdout is not UTF-8 text", status: "exit status 0", stderrLastLine: last)
            }
            return text
        }
    }

    /// A malformed answer: one line in the same form as a failed call.
    func malformed(_ problem: String) -> PluginError {
        PluginError(spec: spec, problem: "malformed output: \(problem)", status: "exit status 0", stderrLastLine: "")
    }

    /// Sends `columns` (header `names`, one row per sample) and reads the same columns back.
    /// The first column is time: the answer must have `rows` rows (nil: any number ≥ 2) and,
    /// when `sameTimes`, the input's times within 1e-9 s · max(1, |t|).
    ///
    /// - Complexity: O(n · columns).
    func exchange(_ names: [String], _ columns: [[Double]], rows expected: Int?, sameTimes: Bool) throws(PluginError) -> [[Double]] {
        var input = names.joined(separator: ",") + "\n"
        let n = columns.first?.count ?? 0
        input.reserveCapacity(n * names.count * 24)
        for i in 0..<n { input += columns.map { "\($0[i])" }.joined(separator: ",") + "\n" }
        let text = try call(input: input)
        // "\r\n" is one Character in Swift: split on it too (CRLF output was refused whole).
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let header = lines.first else { throw malformed("empty stdout, expected the header \(names.joined(separator: ","))") }
        guard header.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) == names else {
            throw malformed("header '\(escapedForMessage(String(header), limit: 60))', expected '\(names.joined(separator: ","))'")
        }
        let body = lines.dropFirst()
        if let expected, body.count != expected { throw malformed("\(body.count) rows, expected \(expected) (one per input row)") }
        if expected == nil, body.count < 2 { throw malformed("\(body.count) rows, expected at least 2") }
        var out = [[Double]](repeating: [], count: names.count)
        for c in out.indices { out[c].reserveCapacity(body.count) }
        for (k, line) in body.enumerated() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == names.count else { throw malformed("row \(k + 1): \(cells.count) fields, expected \(names.count)") }
            for (c, cell) in cells.enumerated() {
                guard let v = numberFromText(cell.trimmingCharacters(in: .whitespaces)), v.isFinite else {
                    throw malformed("row \(k + 1), column \(names[c]): '\(escapedForMessage(String(cell), limit: 40))' is not a finite number")
                }
                out[c].append(v)
            }
        }
        if sameTimes, let t = columns.first {
            for i in t.indices where !(abs(out[0][i] - t[i]) <= 1e-9 * max(1, abs(t[i]))) {
                throw malformed("row \(i + 1): t = \(out[0][i]), expected the input's \(t[i])")
            }
        }
        return out
    }
}

/// Runs plugin calls' tasks on a serial dispatch queue of their own. Serial queues are
/// overcommitting (they get a thread even when the pool is busy), so neither callers blocked on
/// a semaphore nor CPU-bound work on the cooperative pool or GCD's workers starve a call; the
/// tasks only wait (spawn, pipes, exit), so one queue serves every call.
private final class PluginExecutor: TaskExecutor {
    static let shared = PluginExecutor()
    private let queue = DispatchQueue(label: "navbench.exec-plugins")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// What one plugin call collected.
private struct Collected: Sendable {
    var status: TerminationStatus
    var out: [UInt8]
    var err: [UInt8]
}

/// The outcome of a call, shared between the waiting thread and the task running it.
private final class CallState: Sendable {
    let result = Mutex<Result<Collected, any Error>?>(nil)
    let timedOut = Atomic<Bool>(false)
}

/// `text` in a new temporary file, opened for reading and already unlinked (nothing is left
/// behind, whatever happens to the call).
private func inputFile(_ text: String) throws -> FileDescriptor {
    let path = NSTemporaryDirectory() + "/navbench-plugin-\(getpid())-\(UUID().uuidString).csv"
    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
        throw JobError("\(path): cannot write the plugin's input")
    }
    defer { unlink(path) }
    return try FileDescriptor.open(FilePath(path), .readOnly)
}

/// A new, unlinked temporary file open for reading and writing (only this process holds it).
private func scratchFile() throws -> FileDescriptor {
    let path = NSTemporaryDirectory() + "/navbench-plugin-\(getpid())-\(UUID().uuidString).err"
    let fd = try FileDescriptor.open(
        FilePath(path), .readWrite, options: [.create, .exclusiveCreate, .noFollow], permissions: [.ownerReadWrite])
    unlink(path)
    return fd
}

/// The last `bytes` bytes of the file open at `fd` (at most), read from its current size.
private func tail(of fd: FileDescriptor, bytes: Int) -> [UInt8] {
    guard let end = try? fd.seek(offset: 0, from: .end), end > 0 else { return [] }
    let start = max(0, end - Int64(bytes))
    guard (try? fd.seek(offset: start, from: .start)) != nil else { return [] }
    var buffer = [UInt8](repeating: 0, count: Int(end - start))
    let n = (try? buffer.withUnsafeMutableBytes { try fd.read(into: $0) }) ?? 0
    return Array(buffer.prefix(n))
}

private func isRegularFile(_ path: String) -> Bool {
    var isDir: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && !isDir.boolValue && nonRegularFileKind(path) == nil
}

/// An `exec:` filter: `t,value` (or `t,x,y,z` for a vector signal) on stdin, the same on stdout.
extension ExecPlugin: SignalFilter {
    public func apply(_ values: [Double], timestamps: [Double], sampleRate: Double) throws -> [Double] {
        try exchange(["t", "value"], [timestamps, values], rows: values.count, sameTimes: true)[1]
    }

    public func apply(vectors: [Vector3], timestamps: [Double], sampleRate: Double) throws -> [Vector3] {
        let out = try exchange(
            ["t", "x", "y", "z"], [timestamps, vectors.map(\.x), vectors.map(\.y), vectors.map(\.z)],
            rows: vectors.count, sameTimes: true)
        return vectors.indices.map { Vector3(out[1][$0], out[2][$0], out[3][$0]) }
    }
}

extension ExecPlugin {
    /// The pose-stream columns of an estimator plugin (session frame, Hamilton quaternion).
    public static let poseColumns = ["t", "x", "y", "z", "qx", "qy", "qz", "qw"]

    /// An `exec:` estimator: the session's VIO as `t,x,y,z,qx,qy,qz,qw` on stdin, the estimate in
    /// the same columns on stdout (any number ≥ 2 of rows, increasing t, on the session's clock).
    ///
    /// - Throws: `PluginError` (one line) for a failed call or a malformed answer.
    public func estimate(from vio: VIOStream) throws(PluginError) -> VIOStream {
        let p = vio.poses
        let cols: [[Double]] = [
            vio.timestamps, p.map(\.translation.x), p.map(\.translation.y), p.map(\.translation.z),
            p.map(\.rotation.x), p.map(\.rotation.y), p.map(\.rotation.z), p.map(\.rotation.w),
        ]
        let out = try exchange(Self.poseColumns, cols, rows: nil, sameTimes: false)
        var poses: [Pose] = []
        poses.reserveCapacity(out[0].count)
        for i in out[0].indices {
            if i > 0, !(out[0][i] > out[0][i - 1]) { throw malformed("row \(i + 1): t = \(out[0][i]) does not increase") }
            let q = Quaternion(x: out[4][i], y: out[5][i], z: out[6][i], w: out[7][i])
            guard let unit = q.unit(tolerance: 0.01) else { throw malformed("row \(i + 1): the quaternion is not of unit norm") }
            poses.append(Pose(rotation: unit, translation: Vector3(out[1][i], out[2][i], out[3][i])))
        }
        return VIOStream(timestamps: out[0], poses: poses, trackingState: Array(repeating: .normal, count: poses.count))
    }
}
