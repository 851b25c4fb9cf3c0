#!/usr/bin/env bash
# Exports the default experiment's notebook, validates it with nbformat and executes it with
# jupyter nbconvert against a fresh run. Installs the pip packages it needs. Prints 'N passed, M failed'.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
"$PY" -c "import nbformat, nbconvert, pandas, matplotlib, ipykernel" 2>/dev/null || \
  "$PY" -m pip install -q --disable-pip-version-check nbformat nbconvert pandas matplotlib ipykernel jupyter_client
out=.build/notebook-check
rm -rf "$out"; mkdir -p "$out"
[ -f .build/gate/metrics.csv ] || .build/debug/navbench run Experiments/default.yaml --out .build/gate --quiet
.build/debug/navbench export-notebook Experiments/default.yaml --out "$out/default.ipynb" --metrics "$(pwd)/.build/gate/metrics.csv" > /dev/null
pass=0; fail=0
if "$PY" -c "import nbformat, sys; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))" "$out/default.ipynb"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: nbformat validation"; fi
if "$PY" -m jupyter nbconvert --to notebook --execute --output executed.ipynb "$out/default.ipynb" > "$out/nbconvert.log" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: executing the notebook"; tail -20 "$out/nbconvert.log"; fi
echo "notebook: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
