import NavPipeline
import Testing

/// `navbench run SPEC KEY=VALUE …` and `--print-config` (one function for the CLI and tests).
@Suite struct SpecOverrideTests {
    let text = "name: x\ninputs: a/*.h5\nsweep:\n  rdp_tolerance: [0.3]\n  wording: [clock]\n"

    @Test func overridesSetAndSweepKeys() throws {
        let s = try ExperimentSpec.parse(
            text, file: "s.yaml",
            overrides: [
                "rdp_tolerance=0.6,1", "sweep.haptic=relaxed",
                "output=Reports/try", "calibration=[mean, \"ema:tau=0.5,angle\"]",
            ])
        #expect(s.sweep.rdpTolerance == [0.6, 1])
        #expect(s.sweep.levels["haptic"]?.map(\.text) == ["relaxed"])
        #expect(s.output == "Reports/try")
        #expect(s.calibration == ["mean", "ema:tau=0.5,angle"])
        #expect(s.sweep.configurations.map(\.label) == ["tol=0.6", "tol=1"])
        #expect(s.sweep.configurations.allSatisfy { !$0.options.guidance.strictHaptic })
        // The hashed text records the overrides; without overrides it is the file's.
        #expect(
            s.text.hasSuffix("# overrides: rdp_tolerance=0.6,1 sweep.haptic=relaxed output=Reports/try calibration=[mean, \"ema:tau=0.5,angle\"]\n"))
        #expect(try ExperimentSpec.parse(text, file: "s.yaml", overrides: []).text == text)
    }

    /// An alias bomb in override text (issue 29: 283 bytes held 6.7 GB at 60 s) is refused by the
    /// spec file's own check, whether the value is a flow list or a scalar with an anchor.
    @Test func anAliasBombInAnOverrideIsRefused() {
        let levels = ["a", "b", "c", "d", "e", "f", "g"]
        var bomb = "&a [x,x,x,x,x,x,x,x,x]"
        for (p, l) in zip(levels, levels.dropFirst()) { bomb += ",&\(l) [" + Array(repeating: "*\(p)", count: 9).joined(separator: ",") + "]" }
        for value in ["[" + bomb + "]", "&z [" + bomb + "]"] {
            do {
                _ = try ExperimentSpec.parse(text, file: "s.yaml", overrides: ["calibration=" + value])
                Issue.record("accepted")
            } catch {
                #expect(
                    error.key == "calibration" && error.problem.hasPrefix("override value: YAML aliases expand to more than 100000 nodes"), "\(error)"
                )
            }
        }
    }

    @Test func badOverridesNameTheKey() {
        #expect(throws: SpecError(file: "s.yaml", key: "sweep.wording", problem: "'six' is not one of clock, six-sector")) {
            try ExperimentSpec.parse(text, file: "s.yaml", overrides: ["wording=six"])
        }
        #expect(throws: SpecError(file: "s.yaml", key: "tolerance", problem: "expected KEY=VALUE (for example rdp_tolerance=0.3,0.6)")) {
            try ExperimentSpec.parse(text, file: "s.yaml", overrides: ["tolerance"])
        }
        #expect(
            throws: SpecError(
                file: "s.yaml", key: "sweep.seed",
                problem:
                    "unknown sweep dimension; valid: rdp_tolerance, rdp_distance, registration, anchor_sightings, position_filter, wording, arrival, haptic, seeds, estimator"
            )
        ) {
            try ExperimentSpec.parse(text, file: "s.yaml", overrides: ["sweep.seed=2"])
        }
    }

    @Test func resolvedYAMLParsesToTheSameSpec() throws {
        let s = try ExperimentSpec.parse(
            text + "compare:\n  end_point_drift: {absolute: 0.01, relative: 0}\n", file: "s.yaml",
            overrides: ["anchor_sightings=all,2", "position_filter=none,ema:tau=0.3"])
        let again = try ExperimentSpec.parse(s.resolvedYAML, file: "r.yaml")
        #expect(again.sweep == s.sweep)
        #expect(again.tolerances == s.tolerances)
        #expect(again.inputs == s.inputs && again.output == s.output && again.keyMetrics == s.keyMetrics)
        #expect(s.resolvedYAML.contains("  anchor_sightings: [\"all\", \"2\"]\n  position_filter: [\"none\", \"ema:tau=0.3\"]\n"))
    }
}

/// Short override keys a user can guess (issue 28 item 7): a section key alone where only one
/// section has it, an ambiguous one named both ways, an unknown one with the closest keys.
@Suite struct ShortOverrideKeyTests {
    let text = "name: x\ninputs: a/*.h5\nsweep:\n  rdp_tolerance: [0.3]\nclosed_loop:\n  walker: [cane]\n"

    @Test func aSectionKeyAloneIsResolved() throws {
        let s = try ExperimentSpec.parse(text, file: "s.yaml", overrides: ["runs=1000", "sample_paths=2", "resamples=500"])
        #expect(s.closedLoop?.runs == 1000 && s.closedLoop?.samplePaths == 2)
        #expect(s.statistics.resamples == 500)
        #expect(s.text.hasSuffix("# overrides: runs=1000 sample_paths=2 resamples=500\n"))
    }

    @Test func ambiguousAndUnknownKeysSaySo() {
        #expect(
            throws: SpecError(
                file: "s.yaml", key: "seed=3", problem: "'seed' is ambiguous: statistics.seed or sweep.seeds; write one")
        ) { try ExperimentSpec.parse(text, file: "s.yaml", overrides: ["seed=3"]) }
        do {
            _ = try ExperimentSpec.parse(text, file: "s.yaml", overrides: ["rdp_tolerence=0.6"])
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.key == "rdp_tolerence=0.6")
            #expect(error.problem.hasPrefix("unknown key 'rdp_tolerence'; did you mean rdp_tolerance?"), "\(error.problem)")
        }
        do {
            _ = try ExperimentSpec.parse(text, file: "s.yaml", overrides: ["run=10"])
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.problem.contains("did you mean runs"), "\(error.problem)")
        }
    }
}
