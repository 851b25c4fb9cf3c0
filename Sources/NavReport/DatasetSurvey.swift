import Foundation
import NavCore
import NavIO

/// One file's line in a dataset survey.
public struct SurveyEntry: Sendable {
    public var file: String
    public var sha256: String
    public var validation: ValidationReport
    public var summary: TraceSummary?
}

/// Validates and inspects every file: the report `make demo` writes until the
/// experiment pipeline exists. Order is the order given (callers sort).
public func surveyDatasets(_ files: [String], readPolicy: HDF5ReadPolicy = .standard) -> [SurveyEntry] {
    files.map { f in
        SurveyEntry(
            file: f, sha256: (try? sha256Hex(ofFile: f)) ?? "unreadable",
            validation: validateTrace(at: f, policy: readPolicy), summary: try? inspectTrace(at: f, policy: readPolicy))
    }
}

/// Renders a survey as Markdown. Deterministic: no clock, no machine facts, so a
/// rerun on the same inputs is byte-identical.
public func surveyMarkdown(_ entries: [SurveyEntry], title: String, command: String) -> String {
    // Names come from files (file names, ids, stream names): escaped for Markdown everywhere
    // (they injected headings, table rows and raw <script>).
    var md = "# \(markdownInline(title))\n\n"
    md += "navbench \(NavbenchVersion.current) · trace format v\(TraceSchema.formatVersion) · regenerate with \(markdownCode(command))\n\n"
    let valid = entries.filter { $0.validation.isValid }.count
    md += "\(entries.count) files: \(valid) valid, \(entries.count - valid) invalid.\n\n"
    md += "## Sessions\n\n| file | kind | route | valid | warnings | streams | duration (s) | sha256 |\n|---|---|---|---|---|---|---|---|\n"
    for e in entries {
        let s = e.summary
        let name = markdownInline(fileName(of: e.file))
        let duration = s?.streams.map(\.durationSeconds).max().map { String(format: "%.2f", $0) } ?? "–"
        md +=
            "| \(name) | \(s?.attributes["session_kind"].map(markdownInline) ?? "–") | \(s?.attributes["route_id"].map(markdownInline) ?? "–") | "
            + "\(e.validation.isValid ? "yes" : "**no**") | \(e.validation.warnings.count) | "
            + "\(s.map { $0.streams.map { markdownInline($0.name) }.joined(separator: ", ") } ?? "–") | \(duration) | `\(e.sha256.prefix(16))` |\n"
    }
    md += "\n## Streams\n\n| file | stream | samples | duration (s) | mean rate (Hz) | largest gap (s) |\n|---|---|---:|---:|---:|---:|\n"
    for e in entries {
        for st in e.summary?.streams ?? [] {
            md +=
                "| \(markdownInline(fileName(of: e.file))) | \(markdownInline(st.name)) | \(st.samples) | "
                + String(format: "%.2f | %.2f | %.3f |\n", st.durationSeconds, st.meanRateHz, st.largestGapSeconds)
        }
    }
    let problems = entries.flatMap { $0.validation.problems }
    md += "\n## Validation problems\n\n"
    md += problems.isEmpty ? "None.\n" : problems.map { "- \(markdownCode($0.description))\n" }.joined()
    return md
}

/// The survey as tidy CSV: file, stream, quantity, value; names quoted as CSV needs (they forged rows).
public func surveyCSV(_ entries: [SurveyEntry]) -> String {
    var csv = "file,sha256,valid,stream,samples,duration_s,mean_rate_hz,largest_gap_s\n"
    for e in entries {
        let name = csvField(fileName(of: e.file))
        let streams = e.summary?.streams ?? []
        if streams.isEmpty { csv += "\(name),\(e.sha256),\(e.validation.isValid),,,,,\n" }
        for st in streams {
            csv +=
                "\(name),\(e.sha256),\(e.validation.isValid),\(csvField(st.name)),\(st.samples),"
                + String(format: "%.6f,%.6f,%.6f\n", st.durationSeconds, st.meanRateHz, st.largestGapSeconds)
        }
    }
    return csv
}
