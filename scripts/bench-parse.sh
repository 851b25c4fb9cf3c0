#!/usr/bin/env bash
# Text at memory speed (issue 33, goal 1): parse throughput of the peer-bench TUM pair
# (groundtruth.tum + estimate.tum, 40 MB) with NavIO's parser of this build (Clinger,
# Eisel–Lemire, strtod) against the old one (Clinger, else strtod: a frozen copy in
# navbench-bench), in the same process, alternating rounds (navbench-bench parse); the same
# on the pair re-printed with 17 significant digits (every number past Clinger's fast path:
# the strtod path before, Eisel–Lemire now); then the whole-process time of
#   navbench ape groundtruth.tum estimate.tum --align se3
# (median and range of REPEATS runs). Prints the load average before and after: the machine
# may be shared. Files in DATA are only read; what this script writes goes to a temp folder.
#
#   PEERS_DATA=/path/to/peers-data ROUNDS=11 REPEATS=7 scripts/bench-parse.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${PEERS_DATA:-peers-data}
ROUNDS=${ROUNDS:-11}
REPEATS=${REPEATS:-7}
for f in groundtruth.tum estimate.tum; do
    [ -f "$DATA/$f" ] || { echo "bench-parse: $DATA/$f not found (set PEERS_DATA to the peer-bench workload folder)" >&2; exit 66; }
done
if [ -z "${SKIP_BUILD:-}" ]; then
    swift build -c release --product navbench-bench >&2
    swift build -c release --product navbench >&2
fi
BIN=.build/release
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "load average before: $(cat /proc/loadavg)"

# The pair re-printed with 17 significant digits (repr of each parsed value's nearest
# 17-digit decimal; the same rows and comments), for the Eisel–Lemire path.
python3 - "$DATA" "$out" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
for name in ("groundtruth.tum", "estimate.tum"):
    with open(f"{src}/{name}") as f, open(f"{dst}/{name}", "w") as g:
        for line in f:
            if line.startswith("#") or not line.strip():
                g.write(line)
            else:
                g.write(" ".join(f"{float(t):.17g}" for t in line.split()) + "\n")
PY

# One readable block from a JSON line of navbench-bench parse.
cat >"$out/summary.py" <<'PY'
import json, sys
r = json.loads(sys.stdin.read())
print(f"  {r['bytes'] / 1e6:.1f} MB, {r['values']} values, {r['rounds']} alternating rounds, checksum {r['checksum_fnv1a']} (same for both)")
for key, cpu, name in (("old_clinger_strtod", "old_cpu", "old (Clinger, else strtod)"),
                       ("new_clinger_eisel_lemire", "new_cpu", "new (Clinger, Eisel-Lemire, strtod)")):
    w, c = r[key], r[cpu]
    print(f"  {name:<36} wall: median {w['median_mb_s']:6.0f} MB/s (range {w['min_mb_s']:.0f}-{w['max_mb_s']:.0f}); "
          f"thread CPU: median {c['median_mb_s']:6.0f} MB/s (range {c['min_mb_s']:.0f}-{c['max_mb_s']:.0f})")
old, new = r["old_clinger_strtod"]["median_mb_s"], r["new_clinger_eisel_lemire"]["median_mb_s"]
print(f"  speed-up of the wall median: {new / old:.2f}x")
PY
summary() { python3 "$out/summary.py"; }

echo "parse, peer-bench TUM pair as written ($DATA):"
"$BIN/navbench-bench" parse "$DATA/groundtruth.tum" "$DATA/estimate.tum" --rounds "$ROUNDS" | tee "$out/parse.json" | summary
echo "parse, the same pair re-printed with 17 significant digits:"
"$BIN/navbench-bench" parse "$out/groundtruth.tum" "$out/estimate.tum" --rounds "$ROUNDS" | tee "$out/parse17.json" | summary

echo "whole process: navbench ape groundtruth.tum estimate.tum --align se3 ($REPEATS runs after one warm-up)"
"$BIN/navbench" ape "$DATA/groundtruth.tum" "$DATA/estimate.tum" --align se3 >"$out/ape.txt"
python3 - "$BIN/navbench" "$DATA" "$REPEATS" <<'PY'
import statistics, subprocess, sys, time
exe, data, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = []
for _ in range(repeats):
    t = time.perf_counter()
    subprocess.run([exe, "ape", f"{data}/groundtruth.tum", f"{data}/estimate.tum", "--align", "se3"], check=True, stdout=subprocess.DEVNULL)
    runs.append(time.perf_counter() - t)
print(f"  median {statistics.median(runs):.3f} s (range {min(runs):.3f}-{max(runs):.3f} s)")
PY
echo "load average after: $(cat /proc/loadavg)"
