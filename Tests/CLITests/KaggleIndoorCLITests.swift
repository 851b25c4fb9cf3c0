import Foundation
import Testing

/// `navbench score --protocol kaggle-indoor GT.csv SUBMISSION.csv`: exact output on the committed
/// fixture (the numbers are numpy's, `KaggleIndoorTests`), JSON keys, the flags that do not apply.
@Suite struct KaggleIndoorCLITests {
    static let fixtures = repoRoot + "/Tests/NavMetricsTests/Fixtures/kaggle-indoor/"

    @Test func scoresTheCompetitionsFiles() throws {
        let r = try navbench(["score", "--protocol", "kaggle-indoor", Self.fixtures + "ground_truth.csv", Self.fixtures + "submission.csv"])
        #expect(r.status == 0 && r.err.isEmpty)
        #expect(
            r.out == """
                kaggle-indoor: Indoor Location & Navigation (Kaggle, Microsoft Research and XYZ10, 2021): mean of horizontal error + 15 m per floor of error
                mean position error           13.814 m
                mean horizontal error         5.001 m
                floor hit rate                59.583 %
                points                        240

                """)
        let json = try navbench([
            "score", "--protocol", "kaggle-indoor", Self.fixtures + "ground_truth.csv", Self.fixtures + "submission.csv", "--json",
        ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["points", "mean_position_error_m", "mean_horizontal_error_m", "floor_hit_rate", "errors_m"])
        let refused = try navbench(["score", "--protocol", "kaggle-indoor", "a.csv", "b.csv", "--align", "se3"])
        #expect(refused.status == 64)
        #expect(
            refused.err.contains(
                "--protocol kaggle-indoor reads the competition's CSV files (site_path_timestamp,floor,x,y); only --floor-penalty and --json apply"))
    }
}
