# navbench: the two set-up commands are `make demo` and `make test`.
SWIFT ?= swift
# The project venv (make deps-python creates it from scripts/requirements.txt); never the system Python.
PYTHON ?= .venv/bin/python
export PYTHON
# The venv is installed without byte-compiling (scripts/install-deps.sh): each module is compiled when a
# check first imports it, and its .pyc kept. A PYTHONDONTWRITEBYTECODE from the environment would make every
# process compile scipy, pandas and the rest again (≈ 4 s each; the fixture check 107 → 57 s): not here.
unexport PYTHONDONTWRITEBYTECODE
SEED ?= 20261122
# One optimised, testable build (.build/release) serves swift test, every check, the demo and the benchmarks,
# so CI compiles navbench once (docs/ci.md). `make print-build-flags` prints them for scripts.
BUILD_FLAGS = -c release -Xswiftc -enable-testing
NAVBENCH = .build/release/navbench
export BUILD_FLAGS
# BUILD_DONE=1 (scripts/test-steps.sh, after its build): the check targets skip their `build` prerequisite.
BUILT = $(if $(BUILD_DONE),,build)

.PHONY: print-build-flags deps-browser page-check mcap-check weallwalk bench fuzz-corpus demo test layers deps deps-python deps-python-fixtures build release datasets fixtures fixtures-signal fixtures-evo fixtures-statistics fixtures-ipin deps-python-evo-user fixtures-evo-timestamps fixtures-evo-kitti fixtures-kaggle-indoor fixtures-attitude bench-csv deps-python-rosbag fixtures-rosbag fixtures-protocol bench-rosbag bench-h5 bench-h5-rss bench-long bench-signal bench-trajectory page-check-long baseline gate notebook-check plugins-check clean kill-check kill-check-5k measure-scaling format format-check

deps:
	@scripts/install-deps.sh

deps-python:
	@scripts/install-deps.sh --python scripts/requirements.txt

## deps-browser: Debian's chromium and the pinned Playwright + axe-core of scripts/requirements-browser.txt (the page check).
deps-browser:
	@scripts/install-deps.sh --browser --python scripts/requirements.txt scripts/requirements-browser.txt

## deps-python-fixtures: the pinned reference implementations (scipy, filterpy, evo, …) as well.
deps-python-fixtures:
	@scripts/install-deps.sh --python scripts/requirements-fixtures.txt

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

## release: the same build as `make build` (one build for tests, checks, demo and benchmarks).
release: build

print-build-flags:
	@echo $(BUILD_FLAGS)

## demo: build, validate the bundled Datasets/, run the default experiment (Reports/default/) and the real-data one (Reports/real/,
## with step and turn detection on the bundled WeAllWalk walks).
demo: release deps-python
	.build/release/navbench validate --quiet Datasets/*.h5 Datasets/venue/*.h5
	.build/release/navbench survey Datasets --out Reports/datasets
	.build/release/navbench run Experiments/default.yaml
	.build/release/navbench run Experiments/real.yaml
	.build/release/navbench export-notebook Experiments/default.yaml
	@echo "report: Reports/default/report.html (open it in a browser; Markdown: summary.md); real recordings (blind walkers' steps and turns included): Reports/real/report.html; dataset survey: Reports/datasets/summary.md"

## test: the whole suite: the layer check, the committed statistics/KITTI/TUM-RPE references
## regenerated under three BLAS kernels and without FMA (docs/reproducibility.md), swift test
## (incl. the Datasets manifest and regeneration), synth without FMA, the example package that
## depends on navbench (docs/library.md), the regression gate on the default experiment with the
## configuration-collapse and doc-figure checks on its report, its report.html in headless Chromium, JUnit, notebook, plugins, Slurm,
## kill/resume, fuzz, h5py and MCAP (official reader) checks. Each step prints its wall time ("time: STEP: N s").
## The steps and what runs beside what: scripts/test-steps.sh.
test:
	@env SWIFT=$(SWIFT) PYTHON=$(PYTHON) NAVBENCH=$(NAVBENCH) scripts/test-steps.sh

## mcap-check: `navbench export mcap` on a synthetic trace (vio, groundtruth, imu, location) and a WeAllWalk walk
## (imu, annotations), read back by the official MCAP reader (PyPI mcap, scripts/requirements-rosbag.txt) with CRCs
## validated: every value equals h5py's, reruns write the same bytes, a negative time is one line. About 2 s.
mcap-check: deps-python-rosbag
	$(PYTHON) scripts/check_mcap_export.py $(NAVBENCH) Datasets/R1-corridor_nav1.h5 Datasets/real/weallwalk/T1_ID2_1L_WC.h5

## page-check: open the gate's report.html and a `navbench view` page in headless Chromium (no network, keyboard,
## axe-core: no serious or critical violation); screenshots in .build/page-check/ (CI artifacts, never compared).
## Needs `make gate` first.
page-check: deps-browser
	mkdir -p .build/page-check
	$(NAVBENCH) view Datasets/venue/B1-offices_recording.h5 Datasets/venue/B1-offices_nav1.h5 --out .build/page-check/view.html
	$(NAVBENCH) plot Datasets/R1-corridor_nav1.h5 Datasets/R1-corridor_nav2.h5 --kind trajectory --out .build/page-check/trajectory.html > /dev/null
	$(NAVBENCH) plot Datasets/R1-corridor_nav1.h5 --kind psd --stream imu/accelerometer --out .build/page-check/psd.png > /dev/null
	$(PYTHON) -c "import sys; sys.exit(open('.build/page-check/psd.png','rb').read(8) != b'\x89PNG\r\n\x1a\n')"
	$(PYTHON) scripts/check_report_page.py --screenshots .build/page-check --view .build/page-check/view.html \
		--figure .build/page-check/trajectory.html .build/gate/report.html

## page-check-long: a 3-hour navigation session (B1-offices_nav1's walk, then its IMU, compass and BLE repeated, and
## step and turn annotations over the 3 hours; made under .build/, never committed) through `navbench view`, opened
## 5 times in headless Chromium as page-check does: size (fails over 5 MB), load times and their median (docs/benchmarks.md).
page-check-long: deps-browser
	mkdir -p .build/page-check-long
	$(PYTHON) scripts/check_report_page.py --long-navigation Datasets/venue/B1-offices_nav1.h5 .build/page-check-long/B1-offices_nav1-3h.h5
	$(NAVBENCH) view Datasets/venue/B1-offices_recording.h5 .build/page-check-long/B1-offices_nav1-3h.h5 --out .build/page-check-long/view-3h.html
	$(PYTHON) scripts/check_report_page.py --screenshots .build/page-check-long --loads 5 --max-view-mb 5 --view .build/page-check-long/view-3h.html

## layers: fail when a target imports a module Package.swift does not declare for it, declares one it
## never imports, or imports one the layer order forbids (docs/architecture.md).
layers: deps-python
	$(PYTHON) scripts/check_layers.py $(if $(PACKAGE_JSON),--package-json $(PACKAGE_JSON))
	$(PYTHON) scripts/check_file_loops.py

## format-check: fail when a Swift file differs from what `swift format` (the toolchain's, configured by
## .swift-format: 4 spaces, 150 columns, ordered imports) makes of it; `make format` rewrites them.
format-check:
	$(SWIFT) format lint --strict --recursive Sources Tests examples

format:
	$(SWIFT) format format --in-place --recursive Sources Tests examples

## gate: run the default experiment and fail if a metric got worse than Reports/baseline.
gate: $(BUILT)
	rm -rf .build/gate
	$(NAVBENCH) run Experiments/default.yaml --out .build/gate --quiet
	$(NAVBENCH) compare Reports/baseline .build/gate --spec Experiments/default.yaml --markdown .build/gate/compare.md --junit .build/gate/junit.xml > /dev/null
	@echo "gate: no metric of the default experiment regressed against Reports/baseline"

## kill-check: kill -9 a 180-run sweep at five points, resume, compare with an uninterrupted run (docs/experiments.md).
kill-check: $(BUILT)
	SEEDS=2 scripts/check_kill_resume.sh

## kill-check-5k: the same on a 5,040-run sweep (release build; a few minutes).
kill-check-5k: release
	SEEDS=56 NAVBENCH=.build/release/navbench scripts/check_kill_resume.sh

## measure-scaling: peak RSS, wall time and store size at 1k/10k/50k runs, 1 and 2 jobs (docs/scaling.md).
measure-scaling: release
	scripts/measure_scaling.sh

## baseline: accept the current default experiment as the regression baseline (commit Reports/baseline).
baseline: build
	$(NAVBENCH) run Experiments/default.yaml --out Reports/baseline --quiet
	rm -rf Reports/baseline/.cache Reports/baseline/results*.sqlite* Reports/baseline/report.html  # the page: 1.7 MB a regeneration, not gated

## plugins-check: the example plugins (examples/plugins, numpy from .venv) in a sweep beside the built-ins
## (Experiments/plugins.yaml), checked against closed forms and the drift against ARKit (scripts/check_plugins.py).
plugins-check: $(BUILT) deps-python
	rm -rf .build/plugins
	$(NAVBENCH) run Experiments/plugins.yaml --out .build/plugins --quiet
	$(PYTHON) scripts/check_plugins.py .build/plugins/metrics.csv

## notebook-check: export the notebook and execute it with jupyter (installs nbformat, nbconvert, pandas, matplotlib).
notebook-check: $(BUILT)
	scripts/check_notebook.sh

## datasets: regenerate Datasets/ and Datasets/venue bit for bit (the commands the manifests name).
datasets: build
	$(SWIFT) run --skip-build navbench synth --seed $(SEED) --navigations 3 --out Datasets
	$(SWIFT) run --skip-build navbench synth --seed $(SEED) --navigations 3 --venue building --out Datasets/venue

## fixtures: regenerate the h5py-written test fixtures (committed).
fixtures: deps-python
	$(PYTHON) scripts/make_fixtures.py

## fixtures-signal: regenerate the scipy/filterpy/allantools references (committed; with the OpenBLAS kernel they were
## written with, whose bytes they are: docs/reproducibility.md).
fixtures-signal: deps-python-fixtures
	OPENBLAS_CORETYPE=Haswell $(PYTHON) scripts/make_signal_fixtures.py

## bench-signal: filters, Kalman, FFT, Welch, Allan deviation vs the Python peers, same run.
bench-signal: release deps-python-fixtures
	scripts/bench-signal.sh

## fixtures-statistics: regenerate the scipy/statsmodels/SALib references of NavStatisticsTests and the numpy path-loss fits of
## ProximityFitTests (committed; the tests compare within their stated tolerances).
fixtures-statistics: deps-python-fixtures
	$(PYTHON) scripts/make_statistics_fixtures.py
	$(PYTHON) scripts/make_sensitivity_fixtures.py
	$(PYTHON) scripts/make_proximity_fit_fixtures.py

## fixtures-evo: regenerate the evo / rdp / simplification golden fixtures of NavMetricsTests and
## NavGeometryTests (committed; seeded, byte-identical for the pinned versions).
fixtures-evo: deps-python-fixtures
	OPENBLAS_CORETYPE=Haswell $(PYTHON) scripts/make_evo_fixtures.py

## fixtures-evo-kitti: evo 1.38.1 (scipy 1.17.1) and the KITTI devkit port on KITTI-printed files (NavMetricsTests/Fixtures/kitti-evo, committed).
fixtures-evo-kitti: deps-python-fixtures
	OPENBLAS_CORETYPE=Haswell $(PYTHON) scripts/make_evo_kitti_fixtures.py

## deps-python-evo-user: evo 1.38.1 and the pandas/scipy/filterpy peers of bench-csv, pinned, in .venv.
deps-python-evo-user:
	@scripts/install-deps.sh --python scripts/requirements-evo-user.txt

## fixtures-evo-timestamps: evo 1.38.1 on files with duplicate timestamps (NavMetricsTests/Fixtures/duplicates, committed).
fixtures-evo-timestamps: deps-python-evo-user
	OPENBLAS_CORETYPE=Haswell $(PYTHON) scripts/make_evo_timestamp_fixtures.py

## bench: issue 33's goals in one run (APE vs evo, CSV filters vs pandas + scipy / filterpy, HDF5 read vs h5py, parse MB/s,
## walker runs/s, report share, cached 10k rerun): both sides, rounds, median and range, load, a correctness check per row.
bench: release deps-python-evo-user deps-python-fixtures
	$(PYTHON) scripts/bench.py

## weallwalk: step and turn detection on the whole shared WeAllWalk subset (../shared/real-data/weallwalk):
## its 60 phone files imported into .build/weallwalk, then Experiments/weallwalk.yaml (Reports/weallwalk/).
weallwalk: release
	scripts/import-weallwalk.sh
	.build/release/navbench run Experiments/weallwalk.yaml

## bench-csv: navbench filter whole-process on a 1 M-row CSV vs pandas + scipy and pandas + filterpy, same run.
bench-csv: release deps-python-evo-user
	$(PYTHON) scripts/bench_csv.py

## deps-python-rosbag: the pinned bag/MCAP fixture writers (rosbags, mcap) and the rosbags + pandas peer, in .venv.
deps-python-rosbag:
	@scripts/install-deps.sh --python scripts/requirements-rosbag.txt

## fixtures-rosbag: regenerate the ROS 1 bag / MCAP fixtures of NavRosbagTests (written by rosbags and mcap; committed).
fixtures-rosbag: deps-python-rosbag
	$(PYTHON) scripts/make_rosbag_fixtures.py

## fixtures-ipin: regenerate the IPIN Track 3 trials and their pymap3d + numpy references (committed).
fixtures-ipin: deps-python-fixtures
	$(PYTHON) scripts/make_ipin_fixtures.py

## fixtures-kaggle-indoor: the Indoor Location & Navigation scorer's seeded files and numpy's scores (committed).
fixtures-kaggle-indoor: deps-python-fixtures
	$(PYTHON) scripts/make_kaggle_indoor_fixtures.py

## fixtures-attitude: the orientation-error references of navbench attitude (scipy Rotation) and their h5py traces (committed).
fixtures-attitude: deps-python
	$(PYTHON) scripts/make_attitude_fixtures.py

## fixtures-protocol: regenerate the KITTI devkit and TUM evaluate_rpe golden fixtures (committed).
fixtures-protocol: deps-python-rosbag
	$(PYTHON) scripts/make_protocol_fixtures.py

## bench-rosbag: import a generated ~1 GB bag and MCAP with navbench vs rosbags + pandas, same run.
bench-rosbag: release deps-python-rosbag
	scripts/bench-rosbag.sh

## bench-trajectory: navbench vs evo (APE, RPE) and rdp/simplification (RDP), same run, with parity checks.
bench-trajectory: release deps-python-fixtures
	scripts/bench-trajectory.sh

## bench-h5: navbench vs h5py reading the peer-bench IMU workload, same run.
bench-h5: release deps-python-fixtures
	scripts/bench-h5.sh

## bench-h5-rss: whole-process peak RSS of the same read (once and 8 times in one process), navbench vs h5py, alternating rounds.
bench-h5-rss: release deps-python-fixtures
	scripts/bench-h5-rss.sh

## bench-long: filter --stream on a generated 12-hour IMU trace vs h5py + scipy (alternating rounds, peak RSS) and the --compression levels.
bench-long: release deps-python-fixtures
	$(PYTHON) scripts/bench_long_trace.py all

clean:
	rm -rf .build Reports/datasets

## fuzz-corpus: every command on the full hostile-input corpus (Tests/Fuzz/make_corpus.py, about 1,500 runs,
## ~8 min on 2 cores) under ulimit -v and a timeout; fails on a crash, hang, escape or changed input.
fuzz-corpus: build
	scripts/fuzz-corpus.sh $(NAVBENCH)
