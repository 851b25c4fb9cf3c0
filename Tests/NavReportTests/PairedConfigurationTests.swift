import NavCore
import NavReport
import Testing

/// The aid sections (calibration, proximity, gyroscope filters) compare their configurations
/// with the guidance tables' statistics: n counts sessions, every cell has a CI, and a row is
/// bold only when it beats every other after Holm.
@Suite struct PairedConfigurationTests {
    /// `sessions` sessions × two estimators; `worse` adds `gap` degrees to every session's error.
    static func table(sessions: Int, gap: Double) -> MetricsTable {
        var rows: [MetricRow] = []
        for e in ["better", "worse"] {
            for s in 0..<sessions {
                let v = Double(s % 5) + 0.1 * Double(s) + (e == "worse" ? gap : 0)
                rows.append(MetricRow(route: "-", session: "s\(s)", configuration: e, parameters: [e], metric: "offset_error", value: v, unit: "deg"))
            }
        }
        return MetricsTable(parameterColumns: ["estimator"], rows: rows)
    }

    func dataRow(_ md: String, _ configuration: String) -> String? {
        md.split(separator: "\n").map(String.init).first { $0.hasPrefix("| \(configuration) |") }
    }

    /// 8 sessions, one estimator 10° better on each: it is bold, with n = 8 and its CI.
    @Test func aConsistentWinnerIsBoldWithItsInterval() throws {
        let (md, finding) = pairedConfigurationReport(
            Self.table(sessions: 8, gap: 10), options: StatisticsOptions(), keyMetrics: ["offset_error"], title: "Calibration", units: "sessions")
        #expect(finding == "Calibration, best (better than every other after Holm, n = 8 sessions): offset_error: better.")
        let better = try #require(dataRow(md, "better"))
        #expect(better.hasPrefix("| better | 8 | **"))
        #expect(better.contains(" ["))
        #expect(!(try #require(dataRow(md, "worse"))).contains("**"))
        #expect(md.contains("Best (better than every other row"))
        #expect(md.contains("paired over route × session;"))
    }

    /// The same gap on 3 sessions cannot be significant (the smallest two-sided Wilcoxon p of 3
    /// pairs is 0.25): nothing is bold, the verdict says so, and no cell prints a CI.
    @Test func threeSessionsNameNoBest() {
        let (md, finding) = pairedConfigurationReport(
            Self.table(sessions: 3, gap: 10), options: StatisticsOptions(), keyMetrics: ["offset_error"], title: "Calibration", units: "sessions")
        #expect(finding == "Calibration, best (better than every other after Holm, n = 3 sessions): offset_error: none.")
        #expect(!md.contains("**"))
        #expect(md.contains("offset_error: no significant difference"))
        // Nor is an interval printed for 3 units: the mean and why there is no CI.
        let better = dataRow(md, "better") ?? ""
        #expect(better.hasSuffix(" (n=3: too few units for a CI) |") && !better.contains(" ["), "\(better)")
    }

    /// A key metric absent from the table is left out; a table with none says so.
    @Test func absentMetricsAreLeftOut() {
        let r = pairedConfigurationReport(
            Self.table(sessions: 4, gap: 1), options: StatisticsOptions(), keyMetrics: ["nope"], title: "Calibration", units: "sessions")
        #expect(r.markdown == "No results.\n" && r.finding == "Calibration: no results.")
    }
}
