# navbench: the two set-up commands are `make demo` and `make test`.
SWIFT ?= swift
PYTHON ?= python3
SEED ?= 20261122

.PHONY: demo test deps deps-python build release datasets fixtures fixtures-signal fixtures-evo fixtures-statistics bench-h5 bench-signal bench-trajectory baseline gate notebook-check clean

deps:
	@scripts/install-deps.sh

deps-python:
	@scripts/install-deps.sh --python

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## demo: build, validate the bundled Datasets/, run the default experiment (Reports/default/) and the real-data one (Reports/real/).
demo: release
	.build/release/navbench validate --quiet Datasets/*.h5
	.build/release/navbench survey Datasets --out Reports/datasets
	.build/release/navbench run Experiments/default.yaml
	.build/release/navbench run Experiments/real.yaml
	.build/release/navbench export-notebook Experiments/default.yaml
	@echo "report: Reports/default/summary.md; real recordings: Reports/real/summary.md; dataset survey: Reports/datasets/summary.md"

## test: the whole suite: swift test (incl. the Datasets manifest and regeneration), the regression
## gate on the default experiment, the h5py interop check and the notebook check.
test: deps-python
	$(SWIFT) build
	$(SWIFT) test
	$(MAKE) --no-print-directory gate
	$(MAKE) --no-print-directory notebook-check
	scripts/check_slurm_shards.sh
	$(PYTHON) scripts/check_h5py_reads_navbench.py Datasets/R1-corridor_recording.h5 Datasets/R3-stairs_nav2.h5

## gate: run the default experiment and fail if a metric got worse than Reports/baseline.
gate: build
	rm -rf .build/gate
	.build/debug/navbench run Experiments/default.yaml --out .build/gate --quiet
	.build/debug/navbench compare Reports/baseline .build/gate --spec Experiments/default.yaml --out .build/gate/compare.md > /dev/null
	@echo "gate: no metric of the default experiment regressed against Reports/baseline"

## baseline: accept the current default experiment as the regression baseline (commit Reports/baseline).
baseline: build
	.build/debug/navbench run Experiments/default.yaml --out Reports/baseline --quiet
	rm -rf Reports/baseline/.cache

## notebook-check: export the notebook and execute it with jupyter (installs nbformat, nbconvert, pandas, matplotlib).
notebook-check: build
	scripts/check_notebook.sh

## datasets: regenerate Datasets/ bit for bit (the command the manifest names).
datasets: build
	$(SWIFT) run --skip-build navbench synth --seed $(SEED) --navigations 3 --out Datasets

## fixtures: regenerate the h5py-written test fixtures (committed).
fixtures: deps-python
	$(PYTHON) scripts/make_fixtures.py

## fixtures-signal: regenerate the scipy/filterpy/allantools references (committed).
fixtures-signal: deps-python
	$(PYTHON) -m pip install -q --disable-pip-version-check scipy==1.17.1 filterpy==2.0.0 allantools==2024.6
	$(PYTHON) scripts/make_signal_fixtures.py

## bench-signal: filters, Kalman, FFT, Welch, Allan deviation vs the Python peers, same run.
bench-signal: release deps-python
	scripts/bench-signal.sh

## fixtures-statistics: regenerate the scipy/statsmodels references of NavStatisticsTests (committed)
## in a project venv (.venv) with the pins of scripts/requirements-statistics.txt.
VENV ?= .venv
fixtures-statistics:
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check -r scripts/requirements-statistics.txt
	$(VENV)/bin/python scripts/make_statistics_fixtures.py

## fixtures-evo: regenerate the evo / rdp / simplification golden fixtures of NavMetricsTests and
## NavGeometryTests (committed; seeded, byte-identical for the pinned versions).
EVO_PIP = evo==1.38.1 rdp==0.8 simplification==2.0.0 numpy scipy h5py
fixtures-evo:
	@$(PYTHON) -c "import evo, rdp, simplification, numpy, scipy, h5py" 2>/dev/null \
		|| $(PYTHON) -m pip install -q --disable-pip-version-check $(EVO_PIP)
	$(PYTHON) scripts/make_evo_fixtures.py

## bench-trajectory: navbench vs evo (APE, RPE) and rdp/simplification (RDP), same run, with parity checks.
bench-trajectory: release
	scripts/bench-trajectory.sh

## bench-h5: navbench vs h5py reading the peer-bench IMU workload, same run.
bench-h5: release deps-python
	scripts/bench-h5.sh

clean:
	rm -rf .build Reports/datasets
