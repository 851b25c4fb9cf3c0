#!/usr/bin/env python3
"""Reference values for the Sobol' indices and Morris elementary effects of NavStatisticsTests (issue 30: robustness of the
closed loop's conclusions), committed in Tests/NavStatisticsTests/Fixtures/sensitivity_reference.json.

SALib 1.6.0 (pinned in scripts/requirements-fixtures.txt): `sobol.sample` (calc_second_order=False,
scrambled Sobol' sequence, seeded) on the Ishigami function (a = 7, b = 0.1) and the Sobol G
function (a = [0, 1, 4.5, 9, 99, 99]); the model outputs Y (SALib's `Ishigami.evaluate`,
`Sobol_G.evaluate`) and `sobol.analyze(..., calc_second_order=False)`'s S1 and ST, which navbench's
`SobolIndices` must reproduce from the same Y. The analytic indices go with them (Ishigami:
Saltelli et al. 2008, "Global sensitivity analysis: the primer"; Sobol G: Saltelli & Sobol' 1995).
Regenerate: `.venv/bin/python scripts/make_sensitivity_fixtures.py` (venv with the fixtures pins).
"""
import json
import sys

import numpy as np
import SALib
from importlib.metadata import version
from SALib.analyze import morris as morris_analyze
from SALib.analyze import sobol as sobol_analyze
from SALib.sample import morris as morris_sample
from SALib.sample import sobol as sobol_sample
from SALib.test_functions import Ishigami, Sobol_G

out = sys.argv[1] if len(sys.argv) > 1 else "Tests/NavStatisticsTests/Fixtures/sensitivity_reference.json"
cases = []

ishigami = {"num_vars": 3, "names": ["x1", "x2", "x3"], "bounds": [[-np.pi, np.pi]] * 3}
a, b = 7.0, 0.1
v = a**2 / 8 + b * np.pi**4 / 5 + b**2 * np.pi**8 / 18 + 0.5
v1 = 0.5 * (1 + b * np.pi**4 / 5) ** 2
v2 = a**2 / 8
v13 = b**2 * np.pi**8 * (1 / 18 - 1 / 50)
for n in (256, 2048):
    X = sobol_sample.sample(ishigami, n, calc_second_order=False, seed=20261125)
    Y = Ishigami.evaluate(X)
    S = sobol_analyze.analyze(ishigami, Y, calc_second_order=False, num_resamples=100, seed=1)
    cases.append({"name": f"ishigami N={n}", "parameters": 3, "outputs": Y.tolist(), "S1": S["S1"].tolist(),
                  "ST": S["ST"].tolist(), "analytic_S1": [v1 / v, v2 / v, 0.0],
                  "analytic_ST": [(v1 + v13) / v, v2 / v, v13 / v]})

g = [0, 1, 4.5, 9, 99, 99]
gproblem = {"num_vars": 6, "names": [f"x{i}" for i in range(6)], "bounds": [[0, 1]] * 6}
vi = [1 / (3 * (1 + ai) ** 2) for ai in g]
vt = np.prod([1 + x for x in vi]) - 1
for n in (512,):
    X = sobol_sample.sample(gproblem, n, calc_second_order=False, seed=20261126)
    Y = Sobol_G.evaluate(X, a=np.array(g, dtype=float))
    S = sobol_analyze.analyze(gproblem, Y, calc_second_order=False, num_resamples=100, seed=1)
    st = [vi[i] * np.prod([1 + vi[k] for k in range(6) if k != i]) / vt for i in range(6)]
    cases.append({"name": f"sobol-g N={n}", "parameters": 6, "outputs": Y.tolist(), "S1": S["S1"].tolist(),
                  "ST": S["ST"].tolist(), "analytic_S1": [x / vt for x in vi], "analytic_ST": st})

# Morris elementary effects: SALib's one-at-a-time trajectories (4 levels), the outputs and
# morris.analyze's mu, mu_star and sigma (its mu_star_conf is a bootstrap of numpy's stream).
morris = []
for name, problem, evaluate, trajectories, seed in (
        ("ishigami", ishigami, Ishigami.evaluate, 20, 20261127),
        ("sobol-g", gproblem, lambda X: Sobol_G.evaluate(X, a=np.array(g, dtype=float)), 30, 20261128)):
    X = morris_sample.sample(problem, trajectories, num_levels=4, seed=seed)
    Y = evaluate(X)
    S = morris_analyze.analyze(problem, X, Y, num_levels=4, num_resamples=100, seed=1)
    morris.append({"name": name, "inputs": X.tolist(), "outputs": Y.tolist(), "mu": np.asarray(S["mu"]).tolist(),
                   "mu_star": np.asarray(S["mu_star"]).tolist(), "sigma": np.asarray(S["sigma"]).tolist()})

doc = {"versions": {"numpy": np.__version__, "SALib": version("SALib")}, "sobol": cases, "morris": morris}
with open(out, "w") as fh:
    json.dump(doc, fh, indent=1, sort_keys=True)
    fh.write("\n")
print(f"wrote {out}: {len(cases)} Sobol' cases, {len(morris)} Morris cases")
