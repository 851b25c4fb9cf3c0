#!/usr/bin/env python3
"""Reference values for NavStatisticsTests (committed in Tests/NavStatisticsTests/Fixtures/).

scipy.stats.wilcoxon (zero_method='wilcox', both methods, with and without correction, ties and
zeros), scipy.stats.permutation_test (paired sign flips, exact), statsmodels multipletests
(method='holm') and proportion_confint(method='wilson'), scipy.special.ndtr/ndtri, stats.t, and
scipy.stats.bootstrap (BCa and percentile) on given resampled means. scipy.stats.chi2 on a grid. Seeded, so
the output is byte-identical for the pinned versions (`make fixtures-statistics`, which pins them).
"""
import json
import math
import sys
from types import SimpleNamespace

import mpmath
import numpy as np
import scipy
import statsmodels
from scipy import special, stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

out = sys.argv[1] if len(sys.argv) > 1 else "Tests/NavStatisticsTests/Fixtures/statistics_reference.json"
rng = np.random.default_rng(20261123)


def f(x):
    return None if (isinstance(x, float) and math.isnan(x)) else float(x)


wilcoxon = []


def add_wilcoxon(name, d, method, correction=False):
    d = np.asarray(d, dtype=float)
    r = stats.wilcoxon(d, zero_method="wilcox", correction=correction, method=method)
    case = {"name": name, "d": d.tolist(), "method": method, "correction": correction,
            "statistic": f(r.statistic), "pvalue": f(r.pvalue)}
    if method == "asymptotic":
        case["z"] = f(r.zstatistic)
    wilcoxon.append(case)


for n in (5, 10, 20, 35, 50):
    d = rng.normal(0.3, 1.0, n)
    add_wilcoxon(f"continuous-{n}", d, "exact")
    add_wilcoxon(f"continuous-{n}", d, "asymptotic")
    add_wilcoxon(f"continuous-{n}-corrected", d, "asymptotic", correction=True)
    add_wilcoxon(f"continuous-{n}-auto", d, "auto")
for n in (60, 120):
    d = rng.normal(0.1, 1.0, n)
    add_wilcoxon(f"continuous-{n}-auto", d, "auto")
for n in (15, 30, 70):  # ties, no zeros
    d = np.round(rng.normal(0.4, 1.0, n), 1)
    d[d == 0] = 0.1
    add_wilcoxon(f"ties-{n}", d, "asymptotic")
    add_wilcoxon(f"ties-{n}-corrected", d, "asymptotic", correction=True)
    add_wilcoxon(f"ties-{n}-auto", d, "auto")
for n in (9, 13, 26, 44):  # ties and zeros
    d = np.round(rng.normal(0.2, 0.8, n), 0) * 0.5
    add_wilcoxon(f"zeros-{n}", d, "asymptotic")
    add_wilcoxon(f"zeros-{n}-corrected", d, "asymptotic", correction=True)
    add_wilcoxon(f"zeros-{n}-auto", d, "auto")
add_wilcoxon("all-negative-8", -np.arange(1.0, 9.0), "exact")

holm = []
for m in (1, 2, 5, 12, 40):
    p = rng.uniform(0, 0.2, m) ** 2
    holm.append({"p": p.tolist(), "adjusted": multipletests(p, method="holm")[1].tolist()})
p = np.array([0.01, 0.01, 0.04, 0.04, 0.2, 0.5, 0.9, 0.001])
holm.append({"p": p.tolist(), "adjusted": multipletests(p, method="holm")[1].tolist()})

wilson = []
for count, nobs in ((0, 1), (1, 1), (0, 10), (3, 10), (10, 10), (7, 30), (29, 30), (45, 90), (1, 5000), (4999, 5000)):
    for alpha in (0.05, 0.01):
        lo, hi = proportion_confint(count, nobs, alpha=alpha, method="wilson")
        wilson.append({"count": count, "nobs": nobs, "alpha": alpha, "low": float(lo), "high": float(hi)})

permutation = []
for n in (6, 10, 14):
    d = rng.normal(0.4, 1.0, n)
    r = stats.permutation_test((d,), lambda x, axis: np.sum(x, axis=axis), permutation_type="samples",
                               vectorized=True, n_resamples=np.inf, alternative="two-sided")
    permutation.append({"d": d.tolist(), "pvalue": float(r.pvalue)})

normal = []
for p in (1e-300, 1e-20, 1e-10, 1e-5, 0.001, 0.025, 0.1, 0.3, 0.5, 0.7, 0.9, 0.975, 0.995, 0.999999, 1 - 1e-12):
    normal.append({"p": p, "quantile": float(special.ndtri(p))})
cdf = []
for z in (-38.0, -10.0, -5.0, -1.959963984540054, -1.0, 0.0, 0.5, 1.0, 2.5, 8.0):
    cdf.append({"z": z, "cdf": float(special.ndtr(z)), "sf": float(special.ndtr(-z))})

student_t = []
for df in (1, 2, 3, 4.5, 9, 29, 100, 1000):
    for q in (1e-10, 0.001, 0.025, 0.05, 0.3, 0.5, 0.8, 0.975, 0.995, 1 - 1e-9):
        student_t.append({"df": float(df), "p": q, "quantile": float(stats.t.ppf(q, df))})
    for x in (-30.0, -2.0, -0.5, 0.0, 0.7, 1.96, 4.0, 50.0):
        student_t.append({"df": float(df), "x": x, "cdf": float(stats.t.cdf(x, df))})

# scipy.stats.bootstrap on resampled means given to it (bootstrap_result), so navbench's
# BootstrapInterval.intervals can be compared on the very same resamples: plain (scipy's
# confidence) and with Hesterberg's small-sample expansion, which is scipy's interval at the
# confidence 1 − 2·Φ(−√(n/(n−1))·t_{1−α/2, n−1}). A separate stream keeps the values above as they were.
boot_rng = np.random.default_rng(20261124)
bootstrap = []
for name, x in (("normal n=10", boot_rng.normal(5, 2, size=10)),
                ("exponential n=30", boot_rng.exponential(1.0, size=30)),
                ("lognormal n=8", boot_rng.lognormal(0, 1, size=8)),
                ("integers with ties n=12", boot_rng.integers(0, 4, size=12).astype(float)),
                ("normal n=100", boot_rng.normal(0, 1, size=100))):
    n = len(x)
    means = x[boot_rng.integers(0, n, size=(1000, n))].mean(axis=1)
    results = []
    for confidence in (0.95, 0.9):
        for expanded in (False, True):
            level = confidence
            if expanded:
                level = 1 - 2 * float(special.ndtr(-math.sqrt(n / (n - 1)) * stats.t.ppf(1 - (1 - confidence) / 2, n - 1)))
            given = SimpleNamespace(bootstrap_distribution=means)
            bca = stats.bootstrap((x,), np.mean, n_resamples=0, bootstrap_result=given, method="BCa", confidence_level=level)
            pct = stats.bootstrap((x,), np.mean, n_resamples=0, bootstrap_result=given, method="percentile", confidence_level=level)
            results.append({"confidence": confidence, "expanded": expanded,
                            "bca": [float(bca.confidence_interval.low), float(bca.confidence_interval.high)],
                            "percentile": [float(pct.confidence_interval.low), float(pct.confidence_interval.high)]})
    bootstrap.append({"name": name, "x": [float(v) for v in x], "means": [float(v) for v in means], "results": results})

# Tests of the closed loop (issue 28): Fisher's exact test one-sided (scipy.stats.fisher_exact),
# McNemar's exact test (statsmodels mcnemar, exact=True), Welch's t test from summary statistics
# (scipy.stats.ttest_ind_from_stats). Their own stream: the values above stay as they were.
test_rng = np.random.default_rng(20261125)
fisher = []
for a, b, c, d in ((27, 3, 6, 24), (6, 24, 27, 3), (15, 15, 15, 15), (0, 30, 0, 30), (30, 0, 30, 0), (0, 5, 5, 0),
                   (1, 0, 0, 1), (0, 0, 0, 0), (250, 750, 300, 700), (900, 100, 880, 120)):
    fisher.append({"table": [a, b, c, d], "less": float(stats.fisher_exact([[a, b], [c, d]], alternative="less").pvalue),
                   "greater": float(stats.fisher_exact([[a, b], [c, d]], alternative="greater").pvalue)})
for _ in range(20):
    n1, n2 = (int(v) for v in test_rng.integers(2, 400, size=2))
    k1, k2 = int(test_rng.integers(0, n1 + 1)), int(test_rng.integers(0, n2 + 1))
    t = [[k1, n1 - k1], [k2, n2 - k2]]
    fisher.append({"table": [k1, n1 - k1, k2, n2 - k2], "less": float(stats.fisher_exact(t, alternative="less").pvalue),
                   "greater": float(stats.fisher_exact(t, alternative="greater").pvalue)})
mcnemar_cases = []
from statsmodels.stats.contingency_tables import mcnemar
for b, c in ((0, 0), (0, 1), (1, 0), (3, 3), (0, 12), (12, 2), (5, 17), (40, 61), (250, 190), (1000, 1100)):
    mcnemar_cases.append({"first_only": b, "second_only": c, "pvalue": float(mcnemar([[7, b], [c, 9]], exact=True).pvalue)})
welch = []
for _ in range(24):
    n1, n2 = (int(v) for v in test_rng.integers(2, 200, size=2))
    m1, m2 = (float(v) for v in test_rng.normal(5, 2, size=2))
    s1, s2 = (float(v) for v in test_rng.uniform(0.1, 4, size=2))
    g = stats.ttest_ind_from_stats(m1, s1, n1, m2, s2, n2, equal_var=False, alternative="greater")
    l = stats.ttest_ind_from_stats(m1, s1, n1, m2, s2, n2, equal_var=False, alternative="less")
    welch.append({"mean1": m1, "sd1": s1, "n1": n1, "mean2": m2, "sd2": s2, "n2": n2, "t": float(g.statistic),
                  "greater": float(g.pvalue), "less": float(l.pvalue)})

# The chi-squared distribution (walker fit, issue 30: intervals of standard deviations): scipy.stats.chi2
# cdf and sf on a fixed grid (no random draws: the values above stay as they were), and the quantiles
# in mpmath at 40 digits, rounded once, so their bytes do not follow the CPU's libm (scipy's
# ppf(1e-10, 2) differs in its last bit without glibc's FMA paths): three Newton steps on the
# regularized incomplete gamma from scipy.stats.chi2.ppf's value (converged far below a double's last
# bit whatever the start), checked against it within 1e-12 relative. (mpmath's incomplete gamma does
# not converge at the grid's far cdf/sf points, df = 20,000; those stay scipy's.)
mpmath.mp.dps = 40


def chi2_cdf(x, df):
    return mpmath.gammainc(mpmath.mpf(df) / 2, 0, mpmath.mpf(x) / 2, regularized=True)


def chi2_sf(x, df):
    return mpmath.gammainc(mpmath.mpf(df) / 2, mpmath.mpf(x) / 2, mpmath.inf, regularized=True)


def chi2_quantile(p, df):
    """x with cdf(x) = p (sf(x) = 1 − p above the median: 1 − p is exact in mpmath)."""
    k = mpmath.mpf(df) / 2
    x = mpmath.mpf(float(stats.chi2.ppf(p, df)))
    for _ in range(3):
        density = x ** (k - 1) * mpmath.exp(-x / 2) / (2 ** k * mpmath.gamma(k))
        miss = chi2_cdf(x, df) - mpmath.mpf(p) if p < 0.5 else (1 - mpmath.mpf(p)) - chi2_sf(x, df)
        x -= miss / density
    return x


def agreed(value, scipy_value):
    """`value` rounded to a float, once checked against scipy's within 1e-12 relative."""
    v = float(value)
    assert abs(v - scipy_value) <= 1e-12 * abs(scipy_value), (v, scipy_value)
    return v


chi2 = []
for df in (1, 2, 3, 4.5, 9, 19, 50, 199, 1000, 20000):
    for p in (1e-10, 0.001, 0.025, 0.1, 0.5, 0.9, 0.975, 0.999, 1 - 1e-10):
        chi2.append({"df": float(df), "p": float(p), "quantile": agreed(chi2_quantile(p, df), float(stats.chi2.ppf(p, df)))})
    for x in (1e-6, 0.5, 1.0, float(df), 2.0 * df + 10, 5.0 * df + 50):
        chi2.append({"df": float(df), "x": float(x), "cdf": float(stats.chi2.cdf(x, df)), "sf": float(stats.chi2.sf(x, df))})

doc = {"versions": {"numpy": np.__version__, "scipy": scipy.__version__, "statsmodels": statsmodels.__version__},
       "wilcoxon": wilcoxon, "holm": holm, "wilson": wilson, "permutation": permutation, "normal_quantile": normal,
       "normal_cdf": cdf, "student_t": student_t, "bootstrap": bootstrap,
       "fisher": fisher, "mcnemar": mcnemar_cases, "welch": welch, "chi_squared": chi2}
with open(out, "w") as fh:
    json.dump(doc, fh, indent=1, sort_keys=True)
    fh.write("\n")
print(f"wrote {out}: {len(wilcoxon)} wilcoxon, {len(holm)} holm, {len(wilson)} wilson, {len(permutation)} permutation cases")
