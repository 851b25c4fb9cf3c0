#!/usr/bin/env bash
# Exports the default experiment's notebook, validates it with nbformat and executes it with
# jupyter nbconvert against a fresh run. Uses the project venv (scripts/requirements.txt). Prints 'N passed, M failed'.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
scripts/install-deps.sh --python scripts/requirements.txt
out=.build/notebook-check
rm -rf "$out"; mkdir -p "$out"
[ -f .build/gate/metrics.csv ] || .build/release/navbench run Experiments/default.yaml --out .build/gate --quiet
.build/release/navbench export-notebook Experiments/default.yaml --out "$out/default.ipynb" --metrics "$(pwd)/.build/gate/metrics.csv" > /dev/null
pass=0; fail=0
if "$PY" -c "import nbformat, sys; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))" "$out/default.ipynb"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: nbformat validation"; fi
if "$PY" -m jupyter nbconvert --to notebook --execute --output executed.ipynb "$out/default.ipynb" > "$out/nbconvert.log" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: executing the notebook"; tail -20 "$out/nbconvert.log"; fi
echo "notebook: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
