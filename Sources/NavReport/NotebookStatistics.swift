import Foundation

/// The notebook cells of issue 13 (after the tables and plots of `experimentNotebook`), as
/// (cell id, Python source):
///
/// - `statistics-check`: recomputes `cells.csv` (n, NaN count, mean, median, std, Wilson
///   intervals with statsmodels) and `comparisons.csv` (Wilcoxon with scipy.stats.wilcoxon by the
///   method the row names, Hodges–Lehmann by brute force, Holm with statsmodels multipletests)
///   from `metrics.csv` and asserts they agree within 1e-9 (1e-12 relative for the moments);
/// - `sections`: every optional section present in the run folder (calibration, proximity,
///   gyroscope filters, APE, closed loop) as a table of means and a saved figure.
///
/// Bootstrap intervals are seeded resamples of navbench's own stream, so they are not
/// recomputed bit for bit; the check recomputes everything else.
func statisticsNotebookCells() -> [(id: String, source: String)] {
    [
        (
            "statistics-check",
            #"""
            # Recompute navbench's statistics with pandas, scipy and statsmodels and assert they agree.
            import math, os
            import numpy as np
            from scipy import stats
            from statsmodels.stats.multitest import multipletests
            from statsmodels.stats.proportion import proportion_confint

            folder = os.path.dirname(METRICS)
            read = lambda name: pd.read_csv(os.path.join(folder, name), keep_default_na=False, na_values=["nan", ""])
            cells, comparisons = read("cells.csv"), read("comparisons.csv")
            m = metrics.copy()
            seed = m["seed"].astype(str) if "seed" in m else pd.Series([""] * len(m), index=m.index)
            # A configuration is the parameter combination without the seed (a replicate); a unit is (route, session, seed).
            m["cfg"] = [" ".join(t for t in c.split(" ") if t != "seed=" + s) or "default" for c, s in zip(m.configuration, seed)]
            m["unit"] = m.route + "\x01" + m.session + "\x01" + seed
            def by(keys):
                # Each group's values by unit in table order, a repeated unit's first row kept; one pass
                # (a frame per group took 8 of this cell's 16 s).
                first = m.drop_duplicates(keys + ["unit"])
                value, unit = first.value.to_numpy(), first.unit.to_numpy()
                return {k: pd.Series(value[i], index=unit[i]) for k, i in first.groupby(keys, sort=False).indices.items()}
            groups, by_route = by(["cfg", "metric"]), by(["route", "cfg", "metric"])
            def values(route, cfg, metric):
                return groups[(cfg, metric)] if route == "all" else by_route[(route, cfg, metric)]
            def close(a, b, tol=1e-12):
                return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= tol * max(1.0, abs(b))
            checked = 0
            for c in cells.itertuples():
                v = values(c.route, c.configuration, c.metric).to_numpy()
                finite = v[np.isfinite(v)]
                assert len(finite) == c.n and len(v) - len(finite) == c.nan_count, (c.route, c.configuration, c.metric)
                if c.n:
                    assert close(finite.mean(), c.mean) and close(float(np.median(finite)), c.median), (c.route, c.configuration, c.metric)
                    assert close(finite.std(ddof=1) if c.n > 1 else math.nan, c.std, 1e-9), (c.route, c.configuration, c.metric)
                if c.ci_method == "wilson":
                    low, high = proportion_confint(int((finite == 1).sum()), c.n, alpha=0.05, method="wilson")
                    assert close(low, c.ci_low) and close(high, c.ci_high), (c.route, c.configuration, c.metric)
                elif c.ci_method == "t":  # large sample (statistics.large_sample): Student t interval of the mean
                    low, high = stats.t.interval(0.95, c.n - 1, loc=finite.mean(), scale=stats.sem(finite))
                    assert close(low, c.ci_low, 1e-9) and close(high, c.ci_high, 1e-9), (c.route, c.configuration, c.metric)
                checked += 1
            methods = {"wilcoxon-exact": "exact", "wilcoxon-normal-approximation": "asymptotic", "wilcoxon-permutation": "auto"}
            for r in comparisons.itertuples():
                a, b = values(r.route, r.configuration, r.metric), values(r.route, r.baseline, r.metric)
                d = (a - b.reindex(a.index)).dropna()
                d = d[np.isfinite(d)].to_numpy()
                assert len(d) == r.n, (r.route, r.metric, r.configuration)
                if r.test == "all-differences-zero":
                    assert (d == 0).all() and r.p_value == 1
                elif r.test in methods:
                    p = stats.wilcoxon(d, zero_method="wilcox", correction=False, method=methods[r.test]).pvalue
                    assert close(p, r.p_value, 1e-9), (r.route, r.metric, r.configuration, p, r.p_value)
                if len(d):
                    walsh = [(d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d))]
                    assert close(float(np.median(walsh)), r.median_difference, 1e-9), (r.route, r.metric, r.configuration)
                checked += 1
            for route, family in comparisons.groupby("route", sort=False):
                ok = family.p_value.notna()
                holm = multipletests(family.p_value[ok], method="holm")[1]
                assert all(close(x, y) for x, y in zip(holm, family.p_holm[ok])), route
                checked += int(ok.sum())
            print(f"statistics agree with pandas/scipy/statsmodels: {checked} checks")
            """#
        ),
        (
            "sections",
            #"""
            # Every optional section of the report that this run has: a table of means and a saved figure.
            for name, column in [("calibration.csv", "estimator"), ("proximity.csv", "filter"), ("gyro-filters.csv", None),
                                 ("ape.csv", None), ("closed-loop.csv", None)]:
                path = os.path.join(folder, name)
                if not os.path.exists(path):
                    continue
                table = pd.read_csv(path, keep_default_na=False, na_values=["nan", ""])
                if not {"metric", "value"} <= set(table.columns):
                    display(table.head())
                    continue
                index = column if column in table else "configuration" if "configuration" in table else table.columns[0]
                means = table.pivot_table(index=index, columns="metric", values="value", aggfunc="mean", sort=False)
                display(means.round(3))
                # At most 6 panels a row; bars numbered as the table's rows (long labels under every
                # panel were unreadable and took most of the drawing time: 36 panels × 24 labels).
                columns = min(6, len(means.columns))
                rows = -(-len(means.columns) // columns)
                fig, axes = plt.subplots(rows, columns, figsize=(3.2 * columns, 3.2 * rows), squeeze=False)
                for ax in axes.flat[len(means.columns):]:
                    ax.set_visible(False)
                for ax, metric in zip(axes.flat, means.columns):
                    unit = table.loc[table.metric == metric, "unit"].iloc[0] if "unit" in table else ""
                    ax.bar(range(len(means)), means[metric].to_numpy(), width=0.5, color=PALETTE[: len(means)])
                    ax.set_title(metric)
                    ax.set_ylabel(f"{metric} ({unit})" if unit else metric)
                    step = 1 if len(means) <= 12 else 4
                    ax.set_xticks(range(0, len(means), step), range(1, len(means) + 1, step), rotation=0)
                    ax.set_xlabel(f"{index} (table row)")
                fig.suptitle(name[:-4])
                fig.tight_layout(rect=(0, 0, 1, 1 - 0.3 / (3.2 * rows)))  # 0.3 in for the title
                show(fig, name[:-4] + ".png", f"{name[:-4]}: bar charts, one per metric: its mean for each {index}, bars numbered as the rows of the table above")
            """#
        ),
    ]
}
