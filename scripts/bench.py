#!/usr/bin/env python3
"""`make bench`: issue 33's five goals measured in one run, each row with both sides (or the
figure and its target when there is no peer), the rounds, the median and range, the load
average and a correctness check beside it.

Rows (whole processes timed from outside: wall seconds on the parent's clock, peak RSS from /usr/bin/time -v;
navbench and its peer alternate, A B A B …, so the machine's drift hits both):
  ape        navbench ape GT EST --align se3      vs  evo_ape tum GT EST -a       (RMSE equal within printed digits)
  butter     navbench filter CSV --spec butter…   vs  pandas + scipy sosfiltfilt  (largest relative difference)
  kalman     navbench filter CSV --spec kalman-cv vs  pandas + filterpy           (largest relative difference)
  h5 read    navbench-bench read-imu              vs  h5py (bench_peers.py --only h5): in-process medians (bytes read equal)
  h5-rss     navbench-bench read-imu --once       vs  python h5py, one read each: whole-process peak RSS ≤ h5py's
  parse      navbench-bench parse vs pandas.read_csv (round_trip), bytes in memory: MB/s, goal ≥ 1000, same values
  walker     navbench-bench simulate --walker cane: runs/s on one core, goal ≥ 5000
  report     navbench-bench experiment --routes 20 --configs 50: report share of the cold wall, goal ≤ 15 % (issue 53)
  cached     navbench run of the 10,080-run scaling sweep, cached rerun: wall, goal < 5 s
  pdr        navbench steps on the 60 WeAllWalk phone files vs pandas + scipy butter/sosfiltfilt + find_peaks: ≥ 10×, same peaks
  page       navbench run Experiments/default.yaml (cold, NAVBENCH_TRACE_MEMORY=1): report.html's share of the wall, goal < 10 %, page < 2 MB

Writes .build/bench/summary.md and results.json and prints the table. ROUNDS (default 5) sets
the alternating rounds of the whole-process pairs. Inputs: peer-bench's workload in peers-data/
(made by its make_workload.py when missing); nothing outside .build/bench and peers-data is written.
"""

import json
import os
import re
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REL = os.path.join(ROOT, ".build", "release")
NAV, BENCH = os.path.join(REL, "navbench"), os.path.join(REL, "navbench-bench")
PEER = os.environ.get("PEER_BENCH", os.path.join(ROOT, "..", "shared", "peer-bench"))
DATA = os.environ.get("PEERS_DATA", os.path.join(ROOT, "peers-data"))
OUT = os.path.join(ROOT, ".build", "bench")
ROUNDS = int(os.environ.get("ROUNDS", "5"))
PY = sys.executable
VENV_BIN = os.path.dirname(PY)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import bench_csv  # noqa: E402  (the CSV input and the peers' programs, one definition)


def load():
    return open("/proc/loadavg").read().split()[0]


def timed(cmd, stdout=None):
    """(wall s, peak RSS MiB) of one whole process: the wall on this process's monotonic clock
    around it (GNU time prints it in hundredths, a tenth of a 0.09 s APE run), the peak RSS from
    /usr/bin/time -v. Both sides' walls include GNU time's own start (about 1.5 ms here): against
    navbench's shorter processes. (wait4's rusage is no substitute: a child forked from this
    200 MB process counts the parent's pages until it execs.)"""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-v", "-o", t.name] + cmd, check=True,
                       stdout=stdout or subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        text = t.read()
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)) / 1024
    return seconds, rss


def spread(xs):
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs)}


def pair(nav_cmd, peer_cmd, rounds, peer_rounds=None):
    """Alternating rounds of the two commands (the peer skipped after `peer_rounds`)."""
    nav, peer, ratios = [], [], []
    for r in range(rounds):
        n = timed(nav_cmd)
        nav.append(n)
        if peer_rounds is None or r < peer_rounds:
            p = timed(peer_cmd)
            peer.append(p)
            ratios.append(n[0] / p[0])
    return {
        "rounds": rounds, "peer_rounds": len(peer),
        "navbench_s": spread([x[0] for x in nav]), "peer_s": spread([x[0] for x in peer]),
        "navbench_rss_mib": spread([x[1] for x in nav]), "peer_rss_mib": spread([x[1] for x in peer]),
        "time_ratio": spread(ratios),
    }


def printed_rmse(text):
    m = re.search(r"^\s*rmse\s+([0-9.eE+-]+)", text, re.M)
    return float(m.group(1)) if m else float("nan")


def row_ape(rows):
    gt, est = os.path.join(DATA, "groundtruth.tum"), os.path.join(DATA, "estimate.tum")
    evo = os.path.join(VENV_BIN, "evo_ape")
    nav_cmd, peer_cmd = [NAV, "ape", gt, est, "--align", "se3"], [evo, "tum", gt, est, "-a"]
    start = load()
    r = pair(nav_cmd, peer_cmd, ROUNDS)
    a = printed_rmse(subprocess.run(nav_cmd, check=True, capture_output=True, text=True).stdout)
    b = printed_rmse(subprocess.run(peer_cmd, check=True, capture_output=True, text=True).stdout)
    r.update(name="APE, 200,000-pose TUM pair, whole process", peer="evo_ape tum -a", goal="≥ 50× evo (time ratio ≤ 0.02)",
             met=r["time_ratio"]["median"] <= 0.02, check=f"RMSE {a:.6f} vs evo {b:.6f} m", check_ok=abs(a - b) <= 1e-6 * max(1, abs(b)),
             load=f"{start}–{load()}")
    rows.append(r)


def row_csv(rows, name, spec, peer_program, goal_ratio, peer_rounds):
    src = os.path.join(OUT, "in-1000000.csv")
    if not os.path.exists(src):
        bench_csv.make_input(src, 1_000_000)
    nav_out, py_out = os.path.join(OUT, f"nav-{name}.csv"), os.path.join(OUT, f"py-{name}.csv")
    nav_cmd = [NAV, "filter", src, "--column", "x", "--rate", "100", "--spec", spec, "--out", nav_out]
    peer_cmd = [PY, "-c", peer_program, src, py_out]
    start = load()
    r = pair(nav_cmd, peer_cmd, ROUNDS, peer_rounds)
    import numpy as np
    n, p = bench_csv.column(nav_out), bench_csv.column(py_out)
    # Relative to the signal's scale (an element's own relative difference explodes where the
    # filtered signal crosses zero: 2e-7 there for differences of 3e-12).
    diff = float(np.max(np.abs(n - p)) / np.max(np.abs(p)))
    peer = "pandas + scipy" if name == "butter" else "pandas + filterpy"
    r.update(name=f"{spec.split(':')[0]} on a 1 M-row CSV, whole process", peer=peer,
             goal=f"≥ {round(1 / goal_ratio)}× {peer} (time ratio ≤ {goal_ratio:g})", met=r["time_ratio"]["median"] <= goal_ratio,
             check=f"largest difference {diff:.1e} of the largest |value|", check_ok=diff <= 1e-9, load=f"{start}–{load()}")
    rows.append(r)


WEALLWALK = os.path.join(ROOT, "..", "shared", "real-data", "weallwalk", "sensor")
PDR_SPEC = ["--detector", "peak", "--signal", "magnitude", "--filter", "butter:order=4,low=0.5,high=3,type=band,zero-phase",
            "--window", "0", "--height", "0.5", "--interval", "0.3"]


def row_pdr(rows):
    """Step detection on every shared WeAllWalk phone file: navbench steps (the phone files read as
    import weallwalk reads them, with their annotations) vs the common Python pipeline (pandas
    read_csv + butter/sosfiltfilt + find_peaks, scripts/pdr_reference.py peaks); the same peaks."""
    if not os.path.isdir(WEALLWALK):
        print("bench: pdr skipped: no ../shared/real-data/weallwalk", file=sys.stderr)
        return
    # The 60 shared walks by name (a folder holding more subjects times the same input).
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from make_gait_fixtures import training_walks
    files = [os.path.join(WEALLWALK, f"iPhoneSensors_{n}.csv") for n in training_walks()]
    if not all(os.path.isfile(f) for f in files):
        print(f"bench: pdr skipped: {WEALLWALK} lacks some of scripts/weallwalk_training_walks.txt", file=sys.stderr)
        return
    nav_cmd = [NAV, "steps"] + files + PDR_SPEC + ["--json"]
    peer_cmd = [PY, os.path.join(ROOT, "scripts", "pdr_reference.py"), "peaks"] + files
    start = load()
    r = pair(nav_cmd, peer_cmd, ROUNDS)
    nav = json.loads(subprocess.run(nav_cmd, check=True, capture_output=True, text=True).stdout)
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import pdr_reference
    same, total = 0, 0
    for f, o in zip(files, nav):
        times = list(pdr_reference.peak_pipeline(f))
        total += len(times)
        # Times within 0.021 s: navbench puts a repeated time (the phone's glitch) midway (docs/pdr.md).
        same += len(times) == len(o["steps"]) and all(abs(a - b) <= 0.021 for a, b in zip(times, o["steps"]))
    r.update(name=f"step detection on {len(files)} WeAllWalk phone files (Butterworth band-pass + peaks), whole process",
             peer="pandas + scipy butter/sosfiltfilt + find_peaks", goal="≥ 10× the Python pipeline (time ratio ≤ 0.1)",
             met=r["time_ratio"]["median"] <= 0.1, check=f"{same} of {len(files)} files with the same {total} peaks",
             check_ok=same == len(files), load=f"{start}–{load()}")
    rows.append(r)


def jsonl(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def row_h5(rows):
    start = load()
    nav, peer, ratios, sizes = {}, {}, {}, {}
    with tempfile.TemporaryDirectory() as d:
        for r in range(3):
            subprocess.run([PY, os.path.join(PEER, "bench_peers.py"), "--data", DATA, "--only", "h5", "--out", f"{d}/peer.json",
                            "--evo-ref", f"{d}/evo.json"], check=True, stdout=subprocess.DEVNULL)
            p = {x["id"]: x for x in json.load(open(f"{d}/peer.json"))["results"]}
            n = {x["id"]: x for x in jsonl([BENCH, "read-imu", "--data", DATA])}
            for layout, pid, nid in (("contiguous", "h5py_read_imu", "navbench_read_imu"), ("gzip", "h5py_read_imu_gzip", "navbench_read_imu_gzip")):
                nav.setdefault(layout, []).append(n[nid]["median_s"]); peer.setdefault(layout, []).append(p[pid]["median_s"])
                ratios.setdefault(layout, []).append(n[nid]["median_s"] / p[pid]["median_s"])
                sizes.setdefault(layout, set()).add((n[nid]["bytes"], p[pid].get("check", {}).get("bytes")))
    for layout in ("contiguous", "gzip"):
        rows.append({"name": f"HDF5 read of the 3-hour IMU workload ({layout}), in process", "peer": "h5py", "rounds": 3, "peer_rounds": 3,
                     "navbench_s": spread(nav[layout]), "peer_s": spread(peer[layout]), "time_ratio": spread(ratios[layout]),
                     "goal": "≤ 1 (at or under h5py's time)", "met": statistics.median(ratios[layout]) <= 1,
                     "check": "bytes read: " + ", ".join(f"navbench {a:,} vs h5py {b:,}" for a, b in sorted(sizes[layout], key=str)),
                     "check_ok": all(a == b for a, b in sizes[layout]), "load": f"{start}–{load()}"})


PANDAS_PARSE = r"""
import json, struct, sys, time
import pandas as pd
files, rounds = sys.argv[1:-1], int(sys.argv[-1])
blobs = [open(f, "rb").read() for f in files]
def parse():
    import io
    return [pd.read_csv(io.BytesIO(b), sep=" ", comment="#", header=None, float_precision="round_trip").to_numpy(dtype="float64") for b in blobs]
def checksum(tables):
    h = 0xcbf29ce484222325
    for t in tables:
        for w in t.reshape(-1).view("<u8").tolist():
            h = ((h ^ w) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return format(h, "x")
tables = parse()
runs = []
for _ in range(rounds):
    t = time.perf_counter(); parse(); runs.append(time.perf_counter() - t)
print(json.dumps({"runs_s": runs, "bytes": sum(map(len, blobs)), "checksum_fnv1a": checksum(tables)}))
"""


H5PY_READ_ONCE = r"""
import h5py, sys
with h5py.File(sys.argv[1], "r") as f:
    t = f["imu/timestamps"][:]; a = f["imu/accel"][:]; g = f["imu/gyro"][:]
print(t.nbytes + a.nbytes + g.nbytes)
"""


def row_h5_rss(rows):
    """Peak RSS of one process that opens the workload, reads the three datasets and exits."""
    for layout, name in (("contiguous", "imu.h5"), ("gzip", "imu_gzip.h5")):
        start = load()
        nav_cmd = [BENCH, "read-imu", "--data", DATA, "--once", "--layout", layout]
        peer_cmd = [PY, "-c", H5PY_READ_ONCE, os.path.join(DATA, name)]
        r = pair(nav_cmd, peer_cmd, ROUNDS)
        nav_bytes = jsonl(nav_cmd)[0]["bytes"]
        peer_bytes = int(subprocess.run(peer_cmd, check=True, capture_output=True, text=True).stdout.split()[-1])
        rss = r["navbench_rss_mib"]["median"] / r["peer_rss_mib"]["median"]
        r.update(name=f"HDF5 read of the IMU workload ({layout}), whole process, peak RSS", peer="h5py",
                 goal="peak RSS ≤ h5py's", met=rss <= 1, check=f"peak RSS ratio {rss:.3f}; bytes read {nav_bytes:,} vs {peer_bytes:,}",
                 check_ok=nav_bytes == peer_bytes, load=f"{start}–{load()}")
        rows.append(r)


def row_parse(rows):
    start = load()
    files = [os.path.join(DATA, "groundtruth.tum"), os.path.join(DATA, "estimate.tum")]
    nav_mb, peer_mb, checks = [], [], []
    # Three alternating pairs of processes, each timing ROUNDS parses after a warm-up (a fresh
    # process's first parse also pays the page faults of its buffers).
    for _ in range(3):
        n = jsonl([BENCH, "parse"] + files + ["--rounds", str(ROUNDS)])[0]
        p = json.loads(subprocess.run([PY, "-c", PANDAS_PARSE] + files + [str(ROUNDS)], check=True, capture_output=True, text=True).stdout)
        nav_mb += [n["bytes"] / 1e6 / t for t in n["wall"]["runs_s"]]
        peer_mb += [p["bytes"] / 1e6 / t for t in p["runs_s"]]
        checks.append(n["checksum_fnv1a"] == p["checksum_fnv1a"])
    rows.append({"name": "parse the 40 MB TUM pair (MB/s, one core, bytes in memory)", "peer": "pandas.read_csv (C reader, round_trip)",
                 "rounds": 3 * ROUNDS, "navbench_value": spread(nav_mb), "peer_value": spread(peer_mb), "unit": "MB/s",
                 "goal": "≥ 1000 MB/s", "met": statistics.median(nav_mb) >= 1000,
                 "check": f"values' checksum {n['checksum_fnv1a']} equal to pandas' in every round", "check_ok": all(checks),
                 "load": f"{start}–{load()}"})


def row_walker(rows):
    start = load()
    r = jsonl([BENCH, "simulate", "--walker", "cane", "--repeats", str(ROUNDS)])[0]
    rows.append({"name": "closed-loop cane walker, 30 m route (runs/s, one core)", "peer": "—", "rounds": r["repeats"],
                 "navbench_value": spread([r["runs_per_s"]]), "unit": "runs/s", "goal": "≥ 5000 runs/s", "met": r["runs_per_s"] >= 5000,
                 "check": f"success rate {r['success_rate']:.4f}", "check_ok": 0.5 < r["success_rate"] <= 1, "load": f"{start}–{load()}"})


def row_report(rows):
    start = load()
    shares, walls = [], []
    for _ in range(3):
        r = jsonl([BENCH, "experiment", "--routes", "20", "--configs", "50", "--jobs", "2"])[0]
        wall = r["generate_s"] + r["run_s"] + r["report_s"]
        shares.append(r["report_s"] / wall); walls.append(wall)
    rows.append({"name": "report of a cold 20-route × 50-config sweep (share of wall)", "peer": "—", "rounds": 3,
                 "navbench_value": spread([100 * s for s in shares]), "unit": "% of wall", "goal": "≤ 15 %",
                 "met": statistics.median(shares) <= 0.15, "check": f"{r['jobs']} runs, {r['failures']} failures, wall median {statistics.median(walls):.2f} s",
                 "check_ok": r["failures"] == 0, "load": f"{start}–{load()}"})


def row_page(rows):
    """report.html's share of a cold run of the default experiment: the clock of the trace's
    'report: summary' line to its 'report: page' line (the page is written between them), over
    the whole process's wall time."""
    start = load()
    shares, sizes = [], []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            err = subprocess.run([NAV, "run", os.path.join(ROOT, "Experiments/default.yaml"), "--out", f"{d}/out", "--quiet"],
                                 check=True, capture_output=True, text=True, cwd=ROOT,
                                 env=dict(os.environ, NAVBENCH_TRACE_MEMORY="1")).stderr
            wall = time.perf_counter() - t0
            clock = {m.group(1): float(m.group(2)) for m in re.finditer(r"memory: report: (summary|page): .* clock ([0-9.]+) s", err)}
            shares.append((clock["page"] - clock["summary"]) / wall)
            sizes.append(os.path.getsize(f"{d}/out/report.html"))
    rows.append({"name": "report.html of the default experiment (share of a cold run's wall)", "peer": "—", "rounds": 3,
                 "navbench_value": spread([100 * s for s in shares]), "unit": "% of wall", "goal": "< 10 %, < 2 MB",
                 "met": statistics.median(shares) < 0.10 and max(sizes) < 2_000_000,
                 "check": f"page {max(sizes) / 1e6:.2f} MB", "check_ok": max(sizes) < 2_000_000, "load": f"{start}–{load()}"})


def row_cached(rows):
    start = load()
    with tempfile.TemporaryDirectory() as d:
        spec = os.path.join(d, "scale.yaml")
        with open(spec, "w") as f:
            f.write(f"name: scale\ninputs:\n  - {ROOT}/Datasets/R*.h5\noutput: {d}/out\nsweep:\n"
                    "  rdp_tolerance: [0.2, 0.3, 0.5, 0.8, 1.2]\n  registration: [gravity-aligned, full]\n"
                    f"  seeds: [{', '.join(str(s) for s in range(1, 113))}]\n")
        cold = timed([NAV, "run", spec, "--quiet"])
        cached = [timed([NAV, "run", spec, "--quiet"]) for _ in range(3)]
        out = subprocess.run([NAV, "status", spec], capture_output=True, text=True)
    rows.append({"name": "cached rerun of the 10,080-run sweep, whole process", "peer": "—", "rounds": 3,
                 "navbench_value": spread([c[0] for c in cached]), "unit": "s", "goal": "< 5 s", "met": statistics.median([c[0] for c in cached]) < 5,
                 "check": f"cold run {cold[0]:.1f} s; status exit {out.returncode} (0: complete)", "check_ok": out.returncode == 0,
                 "load": f"{start}–{load()}"})


def number(x):
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def fmt(s, unit=""):
    return f"{number(s['median'])}{unit} ({number(s['min'])}–{number(s['max'])})"


def markdown(rows, started):
    lines = [f"# make bench ({started} UTC)", "",
             f"Alternating rounds, median (range); time ratio = navbench / peer (below 1: navbench faster). Load: 1-minute average at the row's start–end. "
             f"Python {sys.version.split()[0]}.", "",
             "| measurement | navbench | peer | ratio | goal | met | check | rounds | load |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "navbench_s" in r:
            nav = fmt(r["navbench_s"], " s") + (f", {fmt(r['navbench_rss_mib'], ' MiB')}" if "navbench_rss_mib" in r else "")
            peer = f"{r['peer']}: " + fmt(r["peer_s"], " s") + (f", {fmt(r['peer_rss_mib'], ' MiB')}" if r.get("peer_rss_mib") else "")
            ratio = fmt(r["time_ratio"])
        else:
            nav = fmt(r["navbench_value"], " " + r["unit"])
            peer = r["peer"] + (": " + fmt(r["peer_value"], " " + r["unit"]) if "peer_value" in r else "")
            ratio = f"{r['navbench_value']['median'] / r['peer_value']['median']:.1f}× the peer's rate" if "peer_value" in r else "—"
        rounds = f"{r['rounds']}" + (f" ({r['peer_rounds']} peer)" if r.get("peer_rounds", r["rounds"]) != r["rounds"] else "")
        lines.append(f"| {r['name']} | {nav} | {peer} | {ratio} | {r['goal']} | {'yes' if r['met'] else '**no**'} | "
                     f"{r['check']} ({'ok' if r['check_ok'] else '**FAILED**'}) | {rounds} | {r['load']} |")
    return "\n".join(lines) + "\n"


def main():
    os.makedirs(OUT, exist_ok=True)
    if not os.path.exists(os.path.join(DATA, "manifest.json")):
        subprocess.run([PY, os.path.join(PEER, "make_workload.py"), DATA], check=True)
    # The Python peers run from a byte-compiled venv, as `pip install` leaves one: install-deps.sh
    # installs without compiling, and a process that may not write its .pyc files
    # (PYTHONDONTWRITEBYTECODE) would compile evo, pandas and scipy again in every timed round.
    # compileall skips what is compiled already.
    subprocess.run([PY, "-m", "compileall", "-q", "-j", "0", sysconfig.get_paths()["purelib"]], check=True, stdout=subprocess.DEVNULL)
    started = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    rows = []
    steps = [("ape", row_ape), ("butter", lambda r: row_csv(r, "butter", "butter:order=4,cutoff=5,zero-phase", bench_csv.PEER_BUTTER, 0.1, None)),
             ("kalman", lambda r: row_csv(r, "kalman", "kalman-cv:q=0.5,r=0.0016", bench_csv.PEER_KALMAN, 0.02, 1)),
             ("h5", row_h5), ("h5-rss", row_h5_rss), ("parse", row_parse), ("walker", row_walker), ("report", row_report), ("cached", row_cached), ("pdr", row_pdr), ("page", row_page)]
    only = set(os.environ.get("ONLY", "").split(",")) - {""}
    for name, step in steps:
        if only and name not in only:
            continue
        print(f"bench: {name} (load {load()})…", file=sys.stderr, flush=True)
        step(rows)
    text = markdown(rows, started)
    with open(os.path.join(OUT, "summary.md"), "w") as f:
        f.write(text)
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump({"started_utc": started, "rows": rows}, f, indent=1)
    print(text)
    failed = [r["name"] for r in rows if not r["check_ok"]]
    if failed:
        print("bench: correctness check failed: " + "; ".join(failed), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
