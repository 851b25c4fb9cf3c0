import ArgumentParser
import Foundation
import NavCore
import NavIO
import NavPipeline
import NavReport
import NavSim
import NavSynth

/// `navbench walker`: the walker model against walks (docs/navigator.md, "Fitting a walker").
struct WalkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walker",
        abstract: "Walker models: fit one to logged walks, or check that a route identifies a walker's parameters.",
        subcommands: [WalkerFitCommand.self, WalkerRecoverCommand.self, WalkerValidateCommand.self])
}

/// The walker the fitted values are set on: how it hears a direction (exact angles, bear angle).
struct WalkerBaseFlag: ParsableArguments {
    @Option(
        name: .customLong("profile"),
        help: "The walker the fitted values are set on; it says how a direction is heard (hours or exact angles, the bear angle).")
    var profile = "cane"

    func validate() throws { _ = try base() }

    /// The profile file `--profile @FILE[:…]` reads (an input an output must not replace).
    var profileFile: String? {
        guard profile.hasPrefix("@") else { return nil }
        return profile.dropFirst().split(separator: ":", maxSplits: 1).first.map(String.init)
    }

    func base() throws -> NavigatorProfile {
        do { return try walkerProfile(parsing: profile) } catch { throw ValidationError("--profile \(error)") }
    }
}

struct WalkerFitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Fit the walker model to navigation sessions with ground truth: each parameter with a 95 % CI and n.",
        discussion:
            "Clew's guidance is replayed on each session's VIO along the route of RECORDING (the guidance flags as in guide: what the walker was told and when); the true path gives speed, step length, reaction time, over-rotation, turn rate, veering and initial orientation (docs/navigator.md, \"Fitting a walker\"). A session that cannot be read or replayed is one error line; the others are fitted and the exit status is 1."
    )

    @Argument(help: "The route's recording session (.h5).") var recording: String?
    @Argument(help: "Navigation sessions with ground truth along that route (.h5).") var navigations: [String] = []
    @Option(
        name: .customLong("imu"), parsing: .upToNextOption,
        help: "Instead: annotated walks (.h5 from import weallwalk) whose gait and turning are measured, per mobility aid, CIs over subjects.")
    var imuWalks: [String] = []
    @Option(help: "With --imu: only this community (cane, guide-dog or sighted; default every one present).") var aid: String?
    @OptionGroup var base: WalkerBaseFlag
    @OptionGroup var flags: GuidanceFlags
    @Flag(help: "Print JSON: estimates, notes and failures.") var json = false
    @Option(help: "Also write the fitted walker as a walker profile file, usable as --walker @FILE.") var out: String?

    func validate() throws {
        if !imuWalks.isEmpty {
            guard recording == nil else { throw ValidationError("give annotated walks with --imu, or a recording and navigation sessions, not both") }
            guard out == nil || aid != nil else {
                throw ValidationError("--out with --imu writes one community's walker: name it with --aid cane, guide-dog or sighted")
            }
            guard imuWalks.count <= 100_000 else { throw ValidationError("at most 100000 walks, got \(imuWalks.count)") }
            if let aid, !["cane", "guide-dog", "sighted"].contains(aid) {
                throw ValidationError("--aid \(aid): expected cane, guide-dog or sighted")
            }
            return
        }
        guard recording != nil, !navigations.isEmpty else {
            throw ValidationError("expected a recording and at least one navigation session after it (or --imu WALK.h5…)")
        }
        guard navigations.count <= 100_000 else { throw ValidationError("at most 100000 navigation sessions, got \(navigations.count)") }
    }

    /// `--imu`: gait and turning of annotated walks, per community (docs/navigator.md); with
    /// `--out`, the walker `--aid`'s walks fit (speed, step length, turn rate) as a profile file.
    func runIMU() throws {
        try checkOutput(out, extraInputs: base.profileFile.map { [$0] } ?? [])
        let (walks, failures) = readAnnotatedWalks(imuWalks)
        if let out, let aid {
            let fit = GaitFit.walkerFit(walks, community: aid, base: try base.base())
            guard !fit.estimates.isEmpty else {
                printError("navbench: error: \(escapedForMessage(fit.notes.joined(separator: "; "))); no profile written")
                throw ExitCode(1)
            }
            let datasets = Set(walks.map(\.dataset)).filter { !$0.isEmpty }.sorted()
            let what =
                "navbench walker fit --imu of \(fit.walks) \(aid) walks, \(fit.estimates[0].counts)"
                + (datasets.isEmpty ? "" : "; data: " + datasets.joined(separator: "; "))
            try writeTextAtomically(walkerProfileFileText(fit, base: base.profile, fittedFrom: what), to: out)
        }
        let present = Set(walks.map(\.community))
        let communities = ["cane", "guide-dog", "sighted"].filter { (c: String) -> Bool in present.contains(c) && (aid.map { $0 == c } ?? true) }
        struct Community: Encodable { var aid: String, walks: Int, estimates: [WalkerParameterEstimate] }
        let results = communities.map { c in
            Community(aid: c, walks: walks.filter { $0.community == c }.count, estimates: GaitFit.estimates(walks, community: c))
        }
        if json {
            struct Report: Encodable { var source: String, communities: [Community], failures: [String] }
            print(try jsonText(Report(source: "annotated walks (--imu)", communities: results, failures: failures)))
        } else {
            for r in results {
                print("walker fit --imu: \(r.aid), \(r.walks) walks")
                print(walkerEstimateTable(r.estimates))
                print("")
            }
        }
        if !failures.isEmpty { throw ExitCode(1) }
    }

    func run() throws {
        if !imuWalks.isEmpty { return try runIMU() }
        guard let recording else { return }
        try checkOutput(out, extraInputs: base.profileFile.map { [$0] } ?? [])
        let walker = try base.base()
        let options = try flags.options()
        let rec = try readTrace(at: recording, policy: commandLineReadPolicy)
        var sessions: [(name: String, session: Session)] = [], failures: [String] = []
        for path in navigations {
            do { sessions.append((path, try readTrace(at: path, policy: commandLineReadPolicy))) } catch { failures.append("\(error)") }
        }
        let (fit, fitFailures) = NavPipeline.fitWalker(
            recording: rec, navigations: sessions, options: options, base: walker, recordingName: recording)
        failures += fitFailures
        for f in failures { printError("navbench: error: \(escapedForMessage(f, limit: 1000))") }
        if let out {
            let files = sessions.map { ($0.name as NSString).lastPathComponent }
            let named = files.count <= 3 ? files.joined(separator: ", ") : "\(files[0]) … \(files[files.count - 1])"
            let text = walkerProfileFileText(
                fit, base: base.profile,
                fittedFrom: "navbench walker fit of \(fit.walks) walks (\(named)) along \((recording as NSString).lastPathComponent)")
            try writeTextAtomically(text, to: out)
        }
        if json {
            struct Report: Encodable {
                var recording: String, profile: String, walks: Int
                var estimates: [WalkerParameterEstimate], notes: [String], failures: [String]
            }
            let report = Report(
                recording: recording, profile: base.profile, walks: fit.walks, estimates: fit.estimates, notes: fit.notes, failures: failures)
            print(try jsonText(report))
        } else {
            print("walker fit: \(fit.walks) walks along \(escapedForMessage(recording)); directions heard as \(escapedForMessage(base.profile))")
            print(walkerEstimateTable(fit.estimates))
            for n in fit.notes { print("note: \(n)") }
        }
        if !failures.isEmpty { throw ExitCode(1) }
    }
}

/// Annotated walks read from trace files; a file that cannot be read is one error line.
func readAnnotatedWalks(_ paths: [String]) -> (walks: [AnnotatedWalk], failures: [String]) {
    var walks: [AnnotatedWalk] = [], failures: [String] = []
    for path in paths {
        do { walks.append(try annotatedWalk(try readTrace(at: path, policy: commandLineReadPolicy), file: fileName(of: path))) } catch {
            failures.append("\(error)")
        }
    }
    for f in failures { printError("navbench: error: \(escapedForMessage(f, limit: 1000))") }
    return (walks, failures)
}

struct WalkerValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "The walker model against real walkers: simulated walks on corridors shaped like theirs, measured as theirs.",
        discussion:
            "Simulated cane, guide-dog and sighted walkers (the profiles fitted from WeAllWalk unless --walker names others) walk corridors shaped like the paths of the sighted walks given, under Clew's guidance; their walks are annotated and measured as the real ones (walker fit --imu). Prints, per aid and quantity, the real subjects' values and CI, the simulated distribution, whether the simulated mean lies inside the real CI, and leave-one-subject-out coverage (docs/navigator.md, \"The simulated walk measured as a real one\")."
    )

    @Argument(help: "Annotated walks (.h5 from import weallwalk), sighted walks among them.") var walks: [String]
    @Option(
        name: .customLong("walker"), parsing: .upToNextOption,
        help: "AID=WALKER pairs replacing the defaults (cane=cane-weallwalk guide-dog=guide-dog-weallwalk sighted=sighted).")
    var walkers: [String] = []
    @Option(help: "Simulated subjects per aid.") var subjects = 10
    @Option(help: "Seed of the simulated walks.") var seed: UInt64 = 1

    func validate() throws {
        guard !walks.isEmpty, walks.count <= 100_000 else { throw ValidationError("expected 1 to 100000 annotated walks, got \(walks.count)") }
        guard (2...1000).contains(subjects) else { throw ValidationError("--subjects must be from 2 to 1000, got \(subjects)") }
        _ = try chosenWalkers()
    }

    func chosenWalkers() throws -> [(community: String, walker: NavigatorProfile)] {
        var chosen = WalkerValidation.defaultWalkers
        for pair in walkers {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2, let i = chosen.firstIndex(where: { $0.community == kv[0] }) else {
                throw ValidationError("--walker \(escapedForMessage(pair)): expected AID=WALKER with AID cane, guide-dog or sighted")
            }
            chosen[i].walker = kv[1]
        }
        return try chosen.map { c in
            do { return (c.community, try walkerProfile(parsing: c.walker)) } catch { throw ValidationError("--walker \(error)") }
        }
    }

    func run() throws {
        let (real, failures) = readAnnotatedWalks(walks)
        let shapes = WalkerValidation.pathShapes(real)
        guard !shapes.isEmpty else {
            printError("navbench: error: no sighted walk with a path and straight segments among the walks; the corridors are shaped from them")
            throw ExitCode(1)
        }
        let simulated = WalkerValidation.simulate(shapes, walkers: try chosenWalkers(), subjects: subjects, seed: seed)
        print(WalkerValidation.markdown(WalkerValidation.rows(real: real, simulated: simulated)), terminator: "")
        if !failures.isEmpty { throw ExitCode(1) }
    }
}

struct WalkerRecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Parameter recovery: simulate walks of a known walker on a route, fit them back, count how often each CI covers the truth.",
        discussion:
            "For each seed, --runs walkers walk the route of RECORDING in open space (as simulate, with --walls none), are written as sessions and fitted back (walker fit). A parameter recovered in fewer than 90 % of the seeds is not identified by this route and walker (docs/navigator.md, \"Fitting a walker\")."
    )

    @Argument(help: "The recording session (.h5) whose route is walked.") var recording: String
    @Option(name: .customLong(SweepDimension.walker.flag), help: "The walker simulated (its values are the truth).")
    var walker = "cane"
    @Option(name: .customLong(SweepDimension.vioError.flag), help: ArgumentHelp(SweepDimension.vioError.help))
    var vioError = SweepDimension.vioError.defaultValue
    @OptionGroup var base: WalkerBaseFlag
    @Option(help: "Repetitions (seeds 1…N).") var seeds = 20
    @Option(help: "Walkers per repetition.") var runs = 30
    @OptionGroup var flags: GuidanceFlags
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard (1...1000).contains(seeds) else { throw ValidationError("--seeds must be from 1 to 1000, got \(seeds)") }
        guard (2...10_000).contains(runs) else { throw ValidationError("--runs must be from 2 to 10000, got \(runs)") }
        guard seeds * runs <= 100_000 else { throw ValidationError("--seeds × --runs must be at most 100000, got \(seeds * runs)") }
        do { _ = try walkerProfile(parsing: walker) } catch { throw ValidationError("\(error)") }
        do { _ = try VIOErrorSpec(parsing: vioError) } catch { throw ValidationError("\(error)") }
        try flags.refuseNavigationSessionFlags()
        if flags.simulatesRegistration {
            throw ValidationError(
                "recover simulates a perfect registration; --\(SweepDimension.registration.flag) and --\(SweepDimension.anchorSightings.flag) are not taken"
            )
        }
    }

    func run() throws {
        let truth = try walkerProfile(parsing: walker), options = try flags.options()
        let rec = try readTrace(at: recording, policy: commandLineReadPolicy)
        let scenario = try closedLoopScenario(recording: rec, options: options, walls: .none)
        let r = try walkerParameterRecovery(
            scenario, walker: truth, base: try base.base(), vioError: try VIOErrorSpec(parsing: vioError), options: options,
            seeds: (1...seeds).map(UInt64.init), runs: runs)
        if json {
            struct Row: Encodable { var key, unit: String, truth: Double, fitted, covered: Int, mean_estimate, mean_relative_error: Double }
            struct Report: Encodable { var recording, walker, profile: String, repetitions, walks_per_repetition: Int, rows: [Row] }
            let rows = r.rows.map {
                Row(
                    key: $0.key, unit: $0.unit, truth: $0.truth, fitted: $0.fitted, covered: $0.covered, mean_estimate: $0.meanEstimate,
                    mean_relative_error: $0.meanRelativeError)
            }
            let report = Report(
                recording: recording, walker: walker, profile: base.profile, repetitions: r.repetitions, walks_per_repetition: r.walksPerRepetition,
                rows: rows)
            print(try jsonText(report))
            return
        }
        print(
            "parameter recovery: \(r.repetitions) repetitions of \(r.walksPerRepetition) walks of \(escapedForMessage(walker)) along \(escapedForMessage(recording))"
        )
        print("parameter                      truth   CI covers truth   mean estimate   mean |error|  unit")
        for row in r.rows {
            let cover = "\(row.covered) of \(row.fitted)"
            let rel = row.meanRelativeError.isFinite ? String(format: "%.1f %%", 100 * row.meanRelativeError) : "–"
            print(
                row.key.padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%9.4g", row.truth)
                    + String(repeating: " ", count: max(1, 18 - cover.count)) + cover + String(format: "%16.4g", row.meanEstimate)
                    + String(repeating: " ", count: max(1, 15 - rel.count)) + rel + "  " + row.unit)
        }
    }
}
