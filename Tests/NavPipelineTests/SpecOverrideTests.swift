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
