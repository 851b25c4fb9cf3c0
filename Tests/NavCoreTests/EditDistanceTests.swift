import NavCore
import Testing

/// Levenshtein distance against hand-counted edit scripts, and the "did you mean" choice.
@Suite struct EditDistanceTests {
    @Test func knownDistances() {
        #expect(editDistance("kitten", "sitting") == 3)  // k→s, e→i, +g
        #expect(editDistance("flaw", "lawn") == 2)  // −f, +n
        #expect(editDistance("", "abc") == 3 && editDistance("abc", "") == 3 && editDistance("", "") == 0)
        #expect(editDistance("runs", "runs") == 0)
        #expect(editDistance("rdp_tolerence", "rdp_tolerance") == 1)
        #expect(editDistance("é", "e") == 1)  // scalars, not bytes
        for (a, b) in [("walker", "walkers"), ("seed", "seeds"), ("abc", "cba")] { #expect(editDistance(a, b) == editDistance(b, a)) }
    }

    @Test func closestWordsAreNearestFirstAndBounded() {
        let keys = ["runs", "seeds", "sample_paths", "rdp_tolerance", "walker"]
        #expect(closestWords(to: "run", among: keys) == ["runs"])
        #expect(closestWords(to: "rdp_tolerence", among: keys) == ["rdp_tolerance"])
        #expect(closestWords(to: "seed", among: keys, limit: 2) == ["seeds"])  // runs is 4 edits away
        #expect(closestWords(to: "zzzzzzzzzz", among: keys).isEmpty)
    }
}
