# navbench: the two set-up commands are `make demo` and `make test`.
SWIFT ?= swift
PYTHON ?= python3
SEED ?= 20261122

.PHONY: demo test deps deps-python build release datasets fixtures fixtures-evo bench-h5 bench-trajectory clean

deps:
	@scripts/install-deps.sh

deps-python:
	@scripts/install-deps.sh --python

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## demo: build, then validate and survey the bundled Datasets/ into Reports/datasets/.
demo: release
	$(SWIFT) run -c release --skip-build navbench validate --quiet Datasets/*.h5
	$(SWIFT) run -c release --skip-build navbench survey Datasets --out Reports/datasets

## test: the whole suite: swift test (incl. the Datasets manifest and regeneration) and the h5py interop check.
test: deps-python
	$(SWIFT) build
	$(SWIFT) test
	$(PYTHON) scripts/check_h5py_reads_navbench.py Datasets/R1-corridor_recording.h5 Datasets/R3-stairs_nav2.h5

## datasets: regenerate Datasets/ bit for bit (the command the manifest names).
datasets: build
	$(SWIFT) run --skip-build navbench synth --seed $(SEED) --navigations 3 --out Datasets

## fixtures: regenerate the h5py-written test fixtures (committed).
fixtures: deps-python
	$(PYTHON) scripts/make_fixtures.py

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
