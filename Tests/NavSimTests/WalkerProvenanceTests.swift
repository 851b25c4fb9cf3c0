import Testing

@testable import NavSim

/// Every walker parameter carries its source (issue 30, item 7): one per override key, the
/// published ones named, the ones a spec sets said so.
@Suite struct WalkerProvenanceTests {
    @Test func everyParameterHasASource() throws {
        let cane = try NavigatorProfile(parsing: "cane")
        let keys = cane.parameters.map(\.key)
        // The override keys of docs/navigator.md, each once.
        #expect(Set(keys).count == keys.count && keys.count == 27)
        #expect(Set(keys) == Set(NavigatorProfile.flagKeys.map(\.0) + NavigatorProfile.doubleKeys.map(\.0)), "every override key has a source")
        for key in ["speed", "step_direction_std", "reaction_time", "over_rotation_slight", "exact_angles", "lost_time_margin"] {
            #expect(keys.contains(key), "\(key)")
        }
        let overRotation = try #require(cane.parameters.first { $0.key == "over_rotation_slight" })
        #expect(overRotation.value == 17.4 && overRotation.source == .published("Ahmetovic et al., ASSETS 2018"))
        let reaction = try #require(cane.parameters.first { $0.key == "reaction_time" })
        #expect(reaction.value == 1.2 && reaction.source.text.hasPrefix("assumed"))
    }

    @Test func overridesAreSetInTheSpecAndTheIdealWalkerIsByConstruction() throws {
        let slow = try NavigatorProfile(parsing: "cane:speed=0.8,reaction_time=1.7")
        let set = slow.parameters.filter { $0.source == .setInSpec }
        #expect(set.map(\.key) == ["speed", "reaction_time"] && set.map(\.value) == [0.8, 1.7])
        let ideal = try NavigatorProfile(parsing: "ideal")
        let veer = try #require(ideal.parameters.first { $0.key == "step_direction_std" })
        #expect(veer.value == 0 && veer.source.text.hasPrefix("modelling choice"))
    }
}
