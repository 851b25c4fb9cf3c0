import Foundation

/// Files written for an experiment.
public struct ExperimentOutputs: Sendable {
    public var folder: String
    public var summary: String { (folder as NSString).appendingPathComponent("summary.md") }
    public var metrics: String { (folder as NSString).appendingPathComponent("metrics.csv") }
    /// Every table of `summary.md` as LaTeX (booktabs), for a paper (`MarkdownTablesToLaTeX`).
    public var latexTables: String { (folder as NSString).appendingPathComponent("summary.tex") }
    /// `summary.md` and its route pages as one self-contained, accessible HTML page (`MarkdownReportToHTML`).
    public var page: String { (folder as NSString).appendingPathComponent("report.html") }
    /// Units of the result kinds (calibration, proximity, gyroscope filters, APE, closed-loop
    /// cells, …) without a result, listed under "Failed inputs" with the job failures; any makes
    /// `run` exit 1.
    public var failures: [String] = []
    public init(folder: String) { self.folder = folder }
}
