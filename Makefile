# navbench: the two set-up commands are `make demo` and `make test`.
SWIFT ?= swift
PYTHON ?= python3
SEED ?= 20261122

.PHONY: demo test deps deps-python build release datasets fixtures fixtures-signal bench-h5 bench-signal clean

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

## fixtures-signal: regenerate the scipy/filterpy/allantools references (committed).
fixtures-signal: deps-python
	$(PYTHON) -m pip install -q --disable-pip-version-check scipy==1.17.1 filterpy==2.0.0 allantools==2024.6
	$(PYTHON) scripts/make_signal_fixtures.py

## bench-signal: filters, Kalman, FFT, Welch, Allan deviation vs the Python peers, same run.
bench-signal: release deps-python
	scripts/bench-signal.sh

## bench-h5: navbench vs h5py reading the peer-bench IMU workload, same run.
bench-h5: release deps-python
	scripts/bench-h5.sh

clean:
	rm -rf .build Reports/datasets
