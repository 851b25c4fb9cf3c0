#!/usr/bin/env bash
# navbench vs evo (APE, RPE) and rdp / simplification (RDP) on peer-bench's trajectory and
# path workloads, back to back on the same files in the same run. Prints the medians, the
# speed-up (peer time / navbench time) and the parity of navbench's numbers with evo's: the
# fresh oracle this run writes and the committed ../shared/peer-bench/evo_reference.json.
# Files in ../shared are only read; everything this script writes goes to a temp folder.
set -euo pipefail
cd "$(dirname "$0")/.."
PEER=${PEER_BENCH:-../shared/peer-bench}
DATA=${PEERS_DATA:-peers-data}
PY=${PYTHON:-.venv/bin/python}
REPEATS=${REPEATS:-5}
scripts/install-deps.sh --python scripts/requirements-fixtures.txt
[ -f "$DATA/manifest.json" ] || "$PY" "$PEER/make_workload.py" "$DATA"
[ -x .build/release/navbench ] || make -s build
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
echo "peers: bench_peers.py --only evo,rdp (about 3 minutes)..." >&2
"$PY" "$PEER/bench_peers.py" --data "$DATA" --only evo,rdp --out "$out/peer.json" --evo-ref "$out/evo_ref.json" >"$out/peer.log"
echo "navbench: bench ape, rpe, rdp..." >&2
for b in ape rpe rdp; do .build/release/navbench-bench "$b" --data "$DATA" --repeats "$REPEATS"; done >"$out/nav.jsonl"
"$PY" - "$out" "$PEER/evo_reference.json" <<'PY'
import json, sys
d, committed = sys.argv[1], sys.argv[2]
peer = {r["id"]: r for r in json.load(open(f"{d}/peer.json"))["results"]}
nav = {r["id"]: r for r in map(json.loads, open(f"{d}/nav.jsonl"))}
rows = [
    ("APE end to end (read+sync+SE3+APE)", "evo_ape_end_to_end", "navbench_ape_end_to_end"),
    ("RPE 1 m end to end (read+sync+RPE)", "evo_rpe_1m_end_to_end", "navbench_rpe_1m_end_to_end"),
    ("read both TUM files", "evo_load_tum_pair", "navbench_load_tum_pair"),
    ("associate 0.01 s", "evo_sync_associate", "navbench_sync_associate"),
    ("SE3 align + APE + stats", "evo_ape_align_se3_translation", "navbench_ape_align_se3_translation"),
    ("RPE delta 1 m", "evo_rpe_translation_delta_1m", "navbench_rpe_translation_delta_1m"),
    ("RPE delta 100 frames", "evo_rpe_translation_delta_100f", "navbench_rpe_translation_delta_100f"),
    ("RDP segment 1M eps 0.1 (simplification)", "simplification_1M_eps0.1", "navbench_rdp_segment_1M_eps0.1"),
    ("RDP segment 1M eps 0.5 (simplification)", "simplification_1M_eps0.5", "navbench_rdp_segment_1M_eps0.5"),
    ("RDP segment 20k eps 0.1 (simplification)", "simplification_20k_eps0.1", "navbench_rdp_segment_20k_eps0.1"),
    ("RDP segment 20k eps 0.5 (simplification)", "simplification_20k_eps0.5", "navbench_rdp_segment_20k_eps0.5"),
    ("RDP line 20k eps 0.1 (rdp, pure Python)", "rdp_py_20k_eps0.1", "navbench_rdp_line_20k_eps0.1"),
    ("RDP line 20k eps 0.5 (rdp, pure Python)", "rdp_py_20k_eps0.5", "navbench_rdp_line_20k_eps0.5"),
]
print(f"{'workload':<42} {'peer s':>10} {'navbench s':>11} {'speed-up':>9}")
for name, pid, nid in rows:
    if pid in peer and nid in nav:
        p, n = peer[pid]["median_s"], nav[nid]["median_s"]
        print(f"{name:<42} {p:10.4f} {n:11.4f} {p / n:8.1f}x")

def maxdiff(a, b):
    """Largest |navbench - evo| over the statistics, with the key and the relative size."""
    k = max(b, key=lambda k: abs(a[k] - b[k]))
    return f"{abs(a[k] - b[k]):.3g} ({k}; relative {abs(a[k] - b[k]) / max(1.0, abs(b[k])):.2g})"

def parity(ref, label):
    ape, c = ref["ape"], nav["navbench_ape_end_to_end"]["check"]
    print(f"\nparity with {label}:")
    print(f"  association pairs: evo {ref['association']['matched_pairs']}, navbench {c['pairs']}")
    print(f"  APE translation stats max |diff|: {maxdiff(c['translation_m'], ape['translation_m'])} m")
    print(f"  APE rotation stats max |diff|:    {maxdiff(c['rotation_angle_deg'], ape['rotation_angle_deg'])} deg")
    rot = max(abs(a - b) for ra, rb in zip(c['alignment']['rotation'], ape['alignment']['rotation']) for a, b in zip(ra, rb))
    tr = max(abs(a - b) for a, b in zip(c['alignment']['translation'], ape['alignment']['translation']))
    print(f"  Umeyama R max |diff| {rot:.3g}, t max |diff| {tr:.3g} m")
    print(f"  APE error samples max |diff|: {max(abs(c['error_samples'][k] - v) for k, v in ape['error_samples'].items()):.3g} m")
    for key, nid in (("rpe_delta_1m", "navbench_rpe_1m_end_to_end"), ("rpe_delta_100frames", "navbench_rpe_translation_delta_100f")):
        r, o = ref[key], nav[nid]["check"]
        same = o["pair_end_ids_sha256_int64"] == r["pair_end_ids_sha256_int64"]
        print(f"  {key}: pairs evo {r['num_pairs']} navbench {o['pairs']}, pair ids identical: {same}, "
              f"translation max |diff| {maxdiff(o['translation_m'], r['translation_m'])} m, "
              f"rotation max |diff| {maxdiff(o['rotation_angle_deg'], r['rotation_angle_deg'])} deg")

parity(json.load(open(f"{d}/evo_ref.json")), "this run's evo oracle")
parity(json.load(open(committed)), "committed evo_reference.json")
print("\nRDP kept sets (navbench vs peer check):")
for pid, nid in (("simplification_1M_eps0.1", "navbench_rdp_segment_1M_eps0.1"), ("simplification_1M_eps0.5", "navbench_rdp_segment_1M_eps0.5"),
                 ("simplification_20k_eps0.1", "navbench_rdp_segment_20k_eps0.1"), ("rdp_py_20k_eps0.1", "navbench_rdp_line_20k_eps0.1"),
                 ("simplification_20k_eps0.5", "navbench_rdp_segment_20k_eps0.5"), ("rdp_py_20k_eps0.5", "navbench_rdp_line_20k_eps0.5")):
    if pid in peer:
        pc, nc = peer[pid]["check"], nav[nid]["check"]
        print(f"  {pid:<28} kept {pc['kept']:>7} vs {nc['kept']:>7}, identical indices: {pc['kept_idx_sha256'] == nc['kept_idx_sha256']}")
PY
