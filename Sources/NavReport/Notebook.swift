import Foundation
import NavIO

/// A Jupyter notebook (nbformat 4.5) that loads an experiment's `metrics.csv` with pandas and
/// regenerates its tables and plots (shown inline and saved under `figures/`), recomputes the
/// report's statistics with scipy/statsmodels and asserts they agree, and covers every optional
/// section the run has. Deterministic JSON (sorted keys, no outputs).
public func experimentNotebook(experiment: String, metricsPath: String, keyMetrics: [String]) -> String {
    struct Cell: Encodable {
        var cell_type: String
        var id: String
        var metadata: [String: String] = [:]
        var source: [String]
        var outputs: [String]? = nil
        var execution_count: Int?? = nil
        enum CodingKeys: String, CodingKey { case cell_type, id, metadata, source, outputs, execution_count }
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encode(cell_type, forKey: .cell_type)
            try c.encode(id, forKey: .id)
            try c.encode(metadata, forKey: .metadata)
            try c.encode(source, forKey: .source)
            if cell_type == "code" {
                try c.encode([String](), forKey: .outputs)
                try c.encodeNil(forKey: .execution_count)
            }
        }
    }
    struct Notebook: Encodable {
        var cells: [Cell]
        var metadata: [String: [String: String]]
        var nbformat = 4
        var nbformat_minor = 5
    }
    func lines(_ s: String) -> [String] {
        let parts = s.components(separatedBy: "\n")
        return parts.enumerated().map { $0.offset < parts.count - 1 ? $0.element + "\n" : $0.element }
    }
    // Every string from a spec or a file enters the Python source as a JSON-encoded literal
    // (a valid Python str literal): no quote, backslash or newline in it can end the literal.
    let keys = keyMetrics.map(pythonStringLiteral).joined(separator: ", ")
    let mdExperiment = experiment.replacingOccurrences(of: "`", with: "'"),
        mdPath = escapedForMessage(metricsPath).replacingOccurrences(of: "`", with: "'")
    let cells =
        [
            Cell(
                cell_type: "markdown", id: "title",
                source: lines(
                    """
                    # navbench experiment `\(escapedForMessage(mdExperiment))`

                    Regenerates the tables and plots of `summary.md` from `\(mdPath)` (tidy long form: one row per
                    route, session, configuration and metric). Written by `navbench export-notebook`.
                    """)),
            Cell(
                cell_type: "code", id: "load",
                source: lines(
                    """
                    import pathlib
                    import pandas as pd
                    import matplotlib.pyplot as plt
                    from IPython.display import Image, display
                    %matplotlib inline

                    # Figures are saved next to the notebook and shown as saved, with a text alternative
                    # (drawn once: drawing a figure again for the notebook took as long as saving it).
                    FIGURES = pathlib.Path("figures")
                    FIGURES.mkdir(exist_ok=True)
                    def show(fig, name, alt):
                        fig.savefig(FIGURES / name, dpi=100)
                        plt.close(fig)
                        display(Image(filename=str(FIGURES / name), alt=alt))
                    # Okabe–Ito: colour-blind-safe, as the report's SVG plots.
                    PALETTE = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"] * 3
                    METRICS = \(pythonStringLiteral(metricsPath))
                    metrics = pd.read_csv(METRICS, keep_default_na=False, na_values=["nan", ""])
                    key_metrics = [\(keys)]
                    metrics.head()
                    """)),
            Cell(
                cell_type: "code", id: "overall",
                source: lines(
                    """
                    overall = (metrics[metrics.metric.isin(key_metrics)]
                               .pivot_table(index="configuration", columns="metric", values="value", aggfunc="mean", sort=False))
                    overall
                    """)),
            Cell(
                cell_type: "code", id: "per-route",
                source: lines(
                    """
                    per_route = {route: (g[g.metric.isin(key_metrics)]
                                         .pivot_table(index="configuration", columns="metric", values="value", aggfunc="mean", sort=False))
                                 for route, g in metrics.groupby("route", sort=True)}
                    for route, table in per_route.items():
                        print(route)
                        print(table.round(3).to_string())
                    """)),
            Cell(
                cell_type: "code", id: "plots",
                source: lines(
                    """
                    fig, axes = plt.subplots(1, len(key_metrics), figsize=(4 * len(key_metrics), 3.5))
                    for ax, m in zip(axes if len(key_metrics) > 1 else [axes], key_metrics):
                        if m in overall:
                            overall[m].plot.bar(ax=ax, title=m, color=PALETTE[: len(overall)])
                            ax.set_xticklabels(range(1, len(overall) + 1), rotation=0)
                            ax.set_xlabel("configuration (rows of the table above)")
                            ax.set_ylabel(f"{m} ({metrics.loc[metrics.metric == m, 'unit'].iloc[0]})")
                    fig.tight_layout()
                    show(fig, "overall.png", "Bar charts, one per key metric: its mean for each configuration, bars numbered as the rows of the table above")
                    if "rdp_tolerance" in metrics:
                        by_tol = metrics[metrics.metric.isin(key_metrics)].groupby(["rdp_tolerance", "metric"]).value.mean().unstack()
                        axes = by_tol.plot(marker="o", subplots=True, figsize=(6, 2.2 * len(by_tol.columns)), title="metric vs RDP tolerance", color=PALETTE[: len(by_tol.columns)])
                        axes[-1].set_xlabel("RDP tolerance (m)")
                        show(axes[0].figure, "tolerance.png", "Line charts, one per key metric: its mean against the RDP tolerance")
                    """)),
        ] + statisticsNotebookCells().map { Cell(cell_type: "code", id: $0.id, source: lines($0.source)) }
    let nb = Notebook(
        cells: cells,
        metadata: [
            "kernelspec": ["display_name": "Python 3", "language": "python", "name": "python3"],
            "language_info": ["name": "python"],
        ])
    let enc = JSONEncoder()
    enc.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return String(decoding: (try? enc.encode(nb)) ?? Data(), as: UTF8.self) + "\n"
}

/// `s` as a Python string literal: its JSON encoding (double quotes; quote, backslash and every
/// control character escaped), which Python reads back as exactly `s`.
public func pythonStringLiteral(_ s: String) -> String {
    let enc = JSONEncoder()
    enc.outputFormatting = [.withoutEscapingSlashes]
    guard let d = try? enc.encode(s) else { return "\"\"" }
    // U+2028/U+2029 are legal in both, but escape them so the source stays one line per statement.
    return String(decoding: d, as: UTF8.self).replacingOccurrences(of: "\u{2028}", with: "\\u2028").replacingOccurrences(
        of: "\u{2029}", with: "\\u2029")
}
